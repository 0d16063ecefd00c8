"""Start-up costs: the command line, first sweeps, warmup, the editor, a user's CI.

Every figure is measured in fresh Python processes, with numba's cache in a fresh
folder (``NUMBA_CACHE_DIR``) for "cold" and the same folder again for "warm", as
CPU seconds of the process (and wall seconds where they differ):

- ``sweeplab --version`` / ``help check``, and whether numba was imported;
- per pair, the first sweep in a process: the default policy (``auto``: the first
  answer runs as Python), compiled (``SWEEPLAB_KERNELS=compile``: what compiling it
  costs, and how many signatures: entries with machine code, link-only kernels), and
  from a warm cache; python-fcl's first query in a fresh process is the peer (the
  ratio is sweeplab's first answer over fcl's);
- ``sweeplab warmup`` with one and two jobs: wall, CPU of every process, the largest
  process's peak memory;
- the editor (headless window, demo scene): its first frame, and the first frame
  with every answer in (none pending), on a cold and a warm cache;
- a user's project of five fixtures run by ``pytest`` (the sweeplab plugin), cold.

Not a test: numbers depend on the machine.  Takes several minutes (compiling).
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

BENCH = os.path.dirname(os.path.abspath(__file__))
PAIRS = {
    "sphere-sphere": "Sphere([0, 0, 3], 0.5), Sphere([0, 0, 0], 1.0)",
    "sphere-triangle": "Sphere([0, 0, 3], 0.5), Triangle([-1, -1, 0], [1, -1, 0], [0, 1, 0])",
    "capsule-capsule": "Capsule([0, 0, 3], [1, 0, 3], 0.5), Capsule([0, -1, 0], [0, 1, 0], 0.5)",
    "capsule-triangle": "Capsule([0, 0, 3], [1, 0, 3], 0.5), Triangle([-1, -1, 0], [1, -1, 0], [0, 1, 0])",
    "point-polygon": "Point([0, 0, 3]), Polygon([[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]])",
    "segment-plane": "Segment([0, 0, 3], [1, 0, 4]), Plane([0, 0, 1], 0.0)",
    "box-box": "ConvexPolyhedron.box([0.5, 0.5, 0.5], center=[0, 0, 3]), ConvexPolyhedron.box([1, 1, 1])",
    "sphere-mesh": "Sphere([0, 0, 3], 0.5), icosphere",
    "capsule-mesh": "Capsule([0, 0, 3], [1, 0, 3], 0.5), icosphere",
}
FCL_QUERY = """
    import fcl, numpy as np
    start = time.process_time()
    a, b = fcl.Sphere(0.5), fcl.Sphere(1.0)
    request, result = fcl.ContinuousCollisionRequest(), fcl.ContinuousCollisionResult()
    fcl.continuousCollide(fcl.CollisionObject(a, fcl.Transform(np.array([0, 0, 3.0]))),
                          fcl.Transform(np.array([0, 0, -3.0])), fcl.CollisionObject(b, fcl.Transform()),
                          fcl.Transform(), request, result)
"""


def run_python(code: str, cache: str, **environment) -> dict:
    """Run ``code`` (which prints one JSON object last) in a fresh process."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYGLET_HEADLESS="1",
               PYTHONPATH=os.pathsep.join(filter(None, [BENCH, os.environ.get("PYTHONPATH")])), **environment)
    env.pop("SWEEPLAB_KERNELS", None) if "SWEEPLAB_KERNELS" not in environment else None
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def command_seconds(arguments: list[str]) -> tuple[float, bool]:
    """(CPU seconds of ``sweeplab ARGUMENTS``, whether it imported numba)."""
    code = f"""
        import json, sys, time
        from sweeplab.cli import main
        try:
            main({arguments!r})
        except SystemExit:
            pass
        sys.stdout = sys.__stdout__
        print()
        print(json.dumps({{"numba": "numba" in sys.modules}}))
    """
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as cache:
        found = run_python(code, cache)
    return time.perf_counter() - start, found["numba"]


def first_sweep(pair: str, cache: str, policy: str | None = None) -> dict:
    code = f"""
        import json, time
        start = time.process_time()
        import numpy as np, trimesh
        from sweeplab.physics import (Capsule, ConvexPolyhedron, Plane, Point, Polygon, Segment, Sphere, Triangle,
                                      TriangleMesh, kernels, sweep)
        ball = trimesh.creation.icosphere(subdivisions=3)  # 1,280 triangles
        icosphere = TriangleMesh(ball.vertices, ball.faces)
        imported = time.process_time()
        sweep({PAIRS[pair]}, [0.0, 0.0, -6.0])
        done = time.process_time()
        names = kernels.compiled_signatures()
        entries = {{f"{{e.py_func.__module__}}.{{e.py_func.__qualname__}}" for e in kernels.ENTRIES}}
        print(json.dumps({{"import": imported - start, "sweep": done - imported, "total": done - start,
                          "entries": sum(len(s) for n, s in names.items() if n in entries),
                          "link_only": sum(len(s) for n, s in names.items() if n not in entries)}}))
    """
    return run_python(code, cache, **({"SWEEPLAB_KERNELS": policy} if policy else {}))


def fcl_first_query() -> float | None:
    code = "import json, time\n" + textwrap.dedent(FCL_QUERY) + \
        "print(json.dumps({'seconds': time.process_time() - start}))\n"
    try:
        with tempfile.TemporaryDirectory() as cache:
            return run_python(code, cache)["seconds"]
    except subprocess.CalledProcessError:
        return None


def warmup_figures(cache: str, jobs: int) -> dict:
    code = f"""
        import json
        from sweeplab.physics import warmup
        from sweeplab.physics.kernel_cache import mark_warm
        report = warmup.run(warmup.tasks(), jobs={jobs})
        mark_warm()
        print(json.dumps(report._asdict()))
    """
    return run_python(code, cache)


def editor_figures(cache: str) -> dict:
    """Seconds from the start to the window's first frame, and to the first frame with
    every answer in (the editor compiles in a background process when cold)."""
    code = """
        import json, time
        start = time.perf_counter()
        import pyglet
        pyglet.options["headless"] = True
        from sweeplab.cli import DEMO_SCENE
        from sweeplab.editor import Editor
        from sweeplab.scene.model import load
        from sweeplab.editor_window import EditorWindow
        from frame import draw_frame

        editor = Editor(load(DEMO_SCENE))
        window = EditorWindow(editor)
        editor.start_compiling()
        cold = editor.compilation is not None

        def frame():
            draw_frame(window)
            return time.perf_counter() - start

        first = frame()
        pending_at_first = editor.answers_pending
        while editor.answers_pending:
            time.sleep(0.05)
            frame()
        answered = frame()
        statuses = sorted({report.status for report in editor.view().reports})
        if editor.compilation is not None:
            editor.compilation.stop()
        window.close()
        print(json.dumps({"cold": cold, "first_frame": first, "answers": answered, "pending_at_first": pending_at_first,
                          "statuses": statuses}))
    """
    return run_python(code, cache)


def fixtures_project_seconds(cache: str) -> tuple[float, str]:
    """A user's project: five saved fixtures (the first of this repository's own, of
    different pairs) in a folder of their own, run by ``pytest`` through the sweeplab
    plugin, on ``cache``."""
    fixtures = sorted((Path(BENCH).parent / "tests" / "fixtures").glob("*.json"))
    with tempfile.TemporaryDirectory() as project:
        for path in fixtures[:5]:
            shutil.copy(path, project)
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        env.pop("SWEEPLAB_KERNELS", None)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", project], env=env,
                              capture_output=True, text=True, cwd=project)
        return time.perf_counter() - start, done.stdout.strip().splitlines()[-1]


def main() -> None:
    for arguments in (["--version"], ["help", "check"], ["examples"]):
        seconds, numba = command_seconds(arguments)
        print(f"sweeplab {' '.join(arguments)}: {seconds:.2f} s wall (process start included), "
              f"numba imported: {numba}")
    fcl = fcl_first_query()
    print("first sweep in a fresh process, CPU seconds (import + sweep); signatures compiled: entries + link-only")
    print(f"  {'pair':17s} {'first answer (auto)':>21s} {'compiled':>24s} {'warm cache':>11s}"
          + ("   first answer / python-fcl's first" if fcl else ""))
    for pair in PAIRS:
        with tempfile.TemporaryDirectory() as cold, tempfile.TemporaryDirectory() as compiled_cache:
            auto = first_sweep(pair, cold)
            compiled = first_sweep(pair, compiled_cache, "compile")
            warm = first_sweep(pair, compiled_cache)
        ratio = f"   {auto['sweep'] / fcl:8.1f}x" if fcl else ""
        print(f"  {pair:17s} {auto['import']:6.2f} + {auto['sweep']:7.4f} s    "
              f"{compiled['import']:5.2f} + {compiled['sweep']:5.2f} s ({compiled['entries']:2d}+"
              f"{compiled['link_only']:3d})   {warm['sweep']:8.4f} s{ratio}")
    if fcl:
        print(f"  python-fcl's first query in a fresh process: {fcl * 1e3:.2f} ms (sphere-sphere)")
    for jobs in (1, 2):
        with tempfile.TemporaryDirectory() as cache:
            cold = warmup_figures(cache, jobs)
            warm = warmup_figures(cache, jobs)
        print(f"sweeplab warmup --jobs {jobs}: cold {cold['seconds']:.0f} s wall, {cold['cpu_seconds']:.0f} s CPU, "
              f"largest process {cold['peak_mb']:.0f} MB; warm {warm['seconds']:.1f} s")
    with tempfile.TemporaryDirectory() as cache:
        cold = editor_figures(cache)
        warmup_figures(cache, 1)  # every kernel cached and the cache marked warm, as 'sweeplab warmup' leaves it
        warm = editor_figures(cache)
    for name, figures in (("cold", cold), ("warm", warm)):
        print(f"editor on the demo, {name} cache (background compile: {figures['cold']}): first frame "
              f"{figures['first_frame']:.2f} s after start (answers pending then: {figures['pending_at_first']}), "
              f"every answer in {figures['answers']:.2f} s; statuses {figures['statuses']}")
    with tempfile.TemporaryDirectory() as cache:
        seconds, summary = fixtures_project_seconds(cache)
    print(f"a project of 5 fixtures, pytest, empty cache: {seconds:.1f} s wall ({summary})")
    times = []
    with tempfile.TemporaryDirectory() as cache:
        for _ in range(5):
            start = time.perf_counter()
            run_python("import json; import sweeplab.physics; print(json.dumps({}))", cache)
            times.append(time.perf_counter() - start)
    print(f"python -c 'import sweeplab.physics': {statistics.median(times):.2f} s wall (median of 5, process start "
          "included)")


if __name__ == "__main__":
    main()
