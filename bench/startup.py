"""Start-up costs of the compiled core: import, first sweeps, warmup, memory, editor.

Each figure is measured in a fresh Python process, with numba's cache in a fresh
folder (``NUMBA_CACHE_DIR``) for "cold" and the same folder again for "warm":

- ``import sweeplab.physics`` (median of 5 processes);
- per pair, the first sweep in a process (one scalar query, float64): cold (it
  compiles) and from the cache;
- ``sweeplab warmup`` in total, cold and warm, and the process's peak memory;
- the editor (headless window, demo scene): seconds to its first frame and until
  the scene's answers are drawn, on a cold and on a warm cache.

Not a test: numbers depend on the machine.  Takes several minutes (compiling).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap

BENCH = os.path.dirname(os.path.abspath(__file__))
PAIRS = {
    "sphere-sphere": "Sphere([0, 0, 3], 0.5), Sphere([0, 0, 0], 1.0)",
    "sphere-triangle": "Sphere([0, 0, 3], 0.5), Triangle([-1, -1, 0], [1, -1, 0], [0, 1, 0])",
    "capsule-capsule": "Capsule([0, 0, 3], [1, 0, 3], 0.5), Capsule([0, -1, 0], [0, 1, 0], 0.5)",
    "capsule-triangle": "Capsule([0, 0, 3], [1, 0, 3], 0.5), Triangle([-1, -1, 0], [1, -1, 0], [0, 1, 0])",
    "box-box": "ConvexPolyhedron.box([0.5, 0.5, 0.5], center=[0, 0, 3]), ConvexPolyhedron.box([1, 1, 1])",
    "sphere-mesh": "Sphere([0, 0, 3], 0.5), grid_mesh(float)",
}


def run_python(code: str, cache: str) -> dict:
    """Run ``code`` (which prints one JSON object last) in a fresh process."""
    environment = dict(os.environ, NUMBA_CACHE_DIR=cache, PYGLET_HEADLESS="1",
                       PYTHONPATH=os.pathsep.join(filter(None, [BENCH, os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=environment, capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def import_seconds(cache: str) -> float:
    code = """
        import json, time
        start = time.perf_counter()
        import sweeplab.physics
        print(json.dumps({"seconds": time.perf_counter() - start}))
    """
    return statistics.median(run_python(code, cache)["seconds"] for _ in range(5))


def first_sweep_seconds(pair: str, cache: str) -> float:
    code = f"""
        import json, time
        from sweeplab.physics import Capsule, ConvexPolyhedron, Sphere, Triangle, sweep
        from sweeplab.physics.warmup import grid_mesh
        start = time.perf_counter()
        sweep({PAIRS[pair]}, [0.0, 0.0, -6.0])
        print(json.dumps({{"seconds": time.perf_counter() - start}}))
    """
    return run_python(code, cache)["seconds"]


def warmup_figures(cache: str) -> dict:
    code = """
        import json, resource
        from sweeplab.physics import warmup
        from sweeplab.physics.kernel_cache import mark_warm
        seconds = warmup.run(warmup.tasks())
        mark_warm()
        print(json.dumps({"seconds": seconds, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
    """
    return run_python(code, cache)


def editor_figures(cache: str) -> dict:
    """Seconds from opening the window to its first frame, and to the first frame
    with the scene's answers (the editor compiles in the background when cold)."""
    code = """
        import json, time
        start = time.perf_counter()
        import pyglet
        pyglet.options["headless"] = True
        from sweeplab.cli import DEMO_SCENE
        from sweeplab.editor import Editor
        from sweeplab.scene.model import load
        from sweeplab.window import EditorWindow
        from frame import draw_frame

        editor = Editor(load(DEMO_SCENE))
        window = EditorWindow(editor)
        editor.start_compiling()
        cold = editor.compilation is not None

        def frame():
            draw_frame(window)
            return time.perf_counter() - start

        first = frame()
        longest, previous = 0.0, first
        while not editor.physics_ready:
            time.sleep(0.01)
            now = frame()
            longest, previous = max(longest, now - previous), now
        answered = frame()
        window.close()
        print(json.dumps({"cold": cold, "first_frame": first, "answers": answered, "longest_frame": longest}))
    """
    return run_python(code, cache)


def main() -> None:
    with tempfile.TemporaryDirectory() as cache:
        print(f"import sweeplab.physics: {import_seconds(cache) * 1e3:.0f} ms (median of 5 processes)")
    print("first sweep in a process (float64, one query): cold cache (compiles) / from the cache")
    for pair in PAIRS:
        with tempfile.TemporaryDirectory() as cache:
            cold, warm = first_sweep_seconds(pair, cache), first_sweep_seconds(pair, cache)
        print(f"  {pair:17s} {cold:6.2f} s / {warm * 1e3:6.0f} ms")
    with tempfile.TemporaryDirectory() as cache:
        cold = warmup_figures(cache)
        warm = warmup_figures(cache)
        print(f"warmup (every pair in float64 and float32, the mesh functions, GJK and reference): "
              f"cold {cold['seconds']:.0f} s, warm {warm['seconds']:.1f} s; peak memory {cold['peak_mb']:.0f} MB "
              f"(cold), {warm['peak_mb']:.0f} MB (warm)")
    with tempfile.TemporaryDirectory() as cache:
        cold = editor_figures(cache)
        warmup_figures(cache)  # every kernel cached and the cache marked warm, as 'sweeplab warmup' leaves it
        warm = editor_figures(cache)
    for name, figures in (("cold", cold), ("warm", warm)):
        print(f"editor, {name} cache (background compile: {figures['cold']}): first frame {figures['first_frame']:.2f} s"
              f" after start, answers drawn {figures['answers']:.2f} s after start"
              + (f", longest frame meanwhile {figures['longest_frame'] * 1e3:.0f} ms" if figures['cold'] else ""))


if __name__ == "__main__":
    main()
