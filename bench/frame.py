"""Editor frame time on a scene (``app/scenes/meshes.json`` by default) at 1280x800:
physics, 3D view and panels.

Runs the real editor window headless (pyglet EGL pbuffer, Mesa llvmpipe here) and
changes the sweep direction every frame, as a drag does, so physics reruns each
frame.  Prints the median frame time (GPU work finished with ``ctx.finish``), the
physics share (``build_view_model`` alone, as during a drag), the frame time when
the scene does not change (physics is then not rerun), and the one-off cost of the
reference answers computed once the scene is still.  Not a test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from importlib import resources
from pathlib import Path

os.environ.setdefault("PYGLET_HEADLESS", "1")


def draw_frame(window) -> None:
    """One frame of the editor window, its GPU work finished."""
    window.switch_to()
    window.dispatch_events()
    window.on_draw()
    window.ctx.finish()
    window.flip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--frames", type=int, default=120)
    parser.add_argument("--scene", default=None, help="scene file (default: app/scenes/meshes.json)")
    args = parser.parse_args()
    import pyglet

    pyglet.options["headless"] = bool(os.environ.get("PYGLET_HEADLESS"))
    from sweeplab.editor import Editor
    from sweeplab.scene.model import load
    from sweeplab.view.model import build_view_model
    from sweeplab.editor_window import EditorWindow

    scene_path = args.scene or resources.files("sweeplab") / "scenes" / "meshes.json"
    editor = Editor(load(scene_path))
    window = EditorWindow(editor)
    base = list(editor.scene.direction)

    def frame_seconds(edit) -> float:
        edit()
        start = time.perf_counter()
        draw_frame(window)
        return time.perf_counter() - start

    def physics_seconds(second_opinions: bool) -> float:
        start = time.perf_counter()
        build_view_model(editor.scene, editor.selected, float32=second_opinions, reference=second_opinions)
        return time.perf_counter() - start

    def drag(frame: int):
        return lambda: editor.set_direction([base[0], base[1] + 1e-3 * (frame % 2), base[2]])

    for frame in range(10):  # warm-up: shader compiles, font atlas upload
        frame_seconds(drag(frame))
    frame_times = [frame_seconds(drag(frame)) for frame in range(args.frames)]
    physics_times = [physics_seconds(False) for _ in range(args.frames)]
    reference_times = [physics_seconds(True) for _ in range(10)]
    idle_times = [frame_seconds(lambda: None) for _ in range(args.frames)]
    window.close()
    idle_ms = statistics.median(idle_times) * 1e3
    frame_ms, physics_ms = statistics.median(frame_times) * 1e3, statistics.median(physics_times) * 1e3
    print(f"{Path(str(scene_path)).name}, 1280x800, {window.ctx.info['GL_RENDERER']}:")
    print(f"  median frame {frame_ms:.2f} ms (target <= 16 ms), physics + view model {physics_ms:.2f} ms "
          f"({100 * physics_ms / frame_ms:.0f}% of the frame), over {args.frames} frames")
    print(f"  median frame with the scene unchanged (no physics, cached GPU buffers) {idle_ms:.2f} ms")
    print(f"  once the scene is still: view model with the float32 lens and reference answers "
          f"{statistics.median(reference_times) * 1e3:.1f} ms (one frame, then cached)")


if __name__ == "__main__":
    main()
