"""The ``sweeplab`` command.

* ``sweeplab [SCENE|FIXTURE]`` opens the editor on a scene or fixture file (the
  bundled demo scene by default); a fixture shows expected vs actual answers.
* ``sweeplab render [SCENE] -o out.png [--size WxH] [--camera yaw,pitch,distance[,x,y,z]]
  [--select NAME] [--bvh-depth N] [--minkowski]`` draws one frame with no window (EGL) and writes
  a PNG (with the second opinions a still editor shows: reference answers and the
  mesh-mesh narrowphase).
* ``sweeplab check [PATH ...] [--examples]`` runs fixtures without pytest: files
  named, and the fixtures found in folders (recursively; default ``tests/fixtures``),
  or the examples that come with sweeplab, reporting every file; exits 1 if any fails
  (or a known-failing one passes), 2 if a file could not be read as a fixture at all.
* ``sweeplab warmup`` compiles every physics kernel into numba's disk cache, with a
  progress bar (otherwise each compiles on its first use).
"""

from __future__ import annotations

import argparse
import sys
from importlib import resources
from pathlib import Path

from sweeplab import __version__
from sweeplab.scene import SceneError, load

DEMO_SCENE = resources.files("sweeplab") / "scenes" / "demo.json"
EXAMPLE_FIXTURES = Path(str(resources.files("sweeplab") / "examples"))
"""Fixtures that come with sweeplab (package data; ``sweeplab check --examples``)."""


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must be WIDTHxHEIGHT, got {text!r}") from None
    if not (16 <= width <= 8192 and 16 <= height <= 8192):
        raise argparse.ArgumentTypeError(f"size must be between 16 and 8192 pixels a side, got {text!r}")
    return width, height


def report_progress(done: int, total: int) -> None:
    """Progress of a scene's sweeps on the terminal, for scenes of more than
    ``PROGRESS_STEP`` targets (480,000 points take a minute or more)."""
    from sweeplab.view_model import PROGRESS_STEP

    if total > PROGRESS_STEP:
        print(f"\rsweeplab: swept {done:,} of {total:,} targets ({100 * done // total}%)",
              end="\n" if done == total else "", file=sys.stderr, flush=True)


def render_main(argv: list[str]) -> int:
    from sweeplab.camera import OrbitCamera
    from sweeplab.headless import GLUnavailable, OffscreenRenderer
    from sweeplab.mesh_view import MeshDisplay
    from sweeplab.png import write_png
    from sweeplab.view_model import build_view_model

    parser = argparse.ArgumentParser(prog="sweeplab render", description="Render one frame of a scene to PNG.")
    parser.add_argument("scene", nargs="?", default=None, help="scene file (default: the demo scene)")
    parser.add_argument("-o", "--output", required=True, help="PNG file to write")
    parser.add_argument("--size", type=_size, default=(1280, 800), help="WIDTHxHEIGHT (default 1280x800)")
    parser.add_argument("--camera", default=None, help="yaw,pitch,distance[,x,y,z] in degrees and scene units "
                                                         "(default: frame the whole scene)")
    parser.add_argument("--select", default=None, help="name of an object to draw as selected")
    parser.add_argument("--bvh-depth", type=int, default=None, metavar="N",
                        help="draw the sphere-tree nodes of every mesh at depth N, coloured by the sweep's walk")
    parser.add_argument("--minkowski", action="store_true",
                        help="draw the teaching view: the Minkowski difference of the moving shape and a target")
    args = parser.parse_args(argv)
    try:
        scene = load(args.scene or DEMO_SCENE)
        view = build_view_model(scene, args.select, reference=True, progress=report_progress,
                                display=MeshDisplay(bvh_depth=args.bvh_depth, minkowski=args.minkowski))
        if args.camera:
            camera = OrbitCamera.parse(args.camera)
        else:
            camera = OrbitCamera()
            camera.frame(*view.bounds)
        pixels = OffscreenRenderer(args.size).render(view, camera)
    except (SceneError, ValueError, GLUnavailable) as error:
        print(f"sweeplab render: {error}", file=sys.stderr)
        return 2
    write_png(args.output, pixels)
    hits = sum(r.status in ("hit", "overlap") for r in view.reports)
    print(f"wrote {args.output} ({args.size[0]}x{args.size[1]}): {hits} of {len(view.reports)} targets hit"
          + (f", first {view.earliest!r} at t={view.time_of_impact!r}" if view.earliest else ""))
    return 0


def check_main(argv: list[str]) -> int:
    from sweeplab.fixture import FixtureError, load_fixture, run_fixture

    parser = argparse.ArgumentParser(prog="sweeplab check", description="Run regression fixtures without pytest.")
    parser.add_argument("paths", nargs="*", type=Path,
                        help="fixture files, or folders searched recursively for them (default: tests/fixtures)")
    parser.add_argument("--examples", action="store_true", help="check the example fixtures that come with sweeplab")
    args = parser.parse_args(argv)
    given = args.paths + ([EXAMPLE_FIXTURES] if args.examples else []) or [Path("tests/fixtures")]
    missing = [str(path) for path in given if not path.exists()]
    if missing:
        print(f"sweeplab check: no such file or folder: {', '.join(missing)}", file=sys.stderr)
        return 2
    paths = fixture_paths(given)
    if not paths:
        print(f"sweeplab check: no fixtures in {', '.join(str(path) for path in given)}", file=sys.stderr)
        return 2
    counts = {"passed": 0, "failed": 0, "xfailed": 0, "unreadable": 0}
    for path in paths:
        try:
            fixture = load_fixture(path)
        except FixtureError as error:
            print(f"ERROR  {path.name}: {error}")
            counts["unreadable"] += 1
            continue
        report = run_fixture(fixture)
        if fixture.known_failing and report.passed:
            print(f"XPASS  {path.name}: marked known failing ({fixture.known_failing}) but passes; "
                  "remove \"known_failing\"")
            counts["failed"] += 1
        elif fixture.known_failing:
            print(f"XFAIL  {path.name}: {fixture.known_failing}")
            counts["xfailed"] += 1
        elif report.passed:
            print(f"PASS   {path.name}")
            counts["passed"] += 1
        else:
            print(f"FAIL   {path.name}: {fixture.note}\n{report.table()}")
            counts["failed"] += 1
    print(f"{counts['passed']} passed, {counts['failed']} failed, {counts['xfailed']} xfailed, "
          f"{counts['unreadable']} unreadable")
    return 2 if counts["unreadable"] else 1 if counts["failed"] else 0


def fixture_paths(paths: list[Path]) -> list[Path]:
    """The fixtures ``sweeplab check`` runs: each file named, and every ``*.json`` under
    each folder (recursively) that declares itself a fixture (other JSON is skipped)."""
    from sweeplab.json_files import declares_fixture

    found = []
    for path in paths:
        found += [path] if path.is_file() else sorted(p for p in path.rglob("*.json") if declares_fixture(p))
    return found


def progress_bar(stream, width: int = 30):
    """A ``physics.warmup.run`` progress callback drawing ``[###...] done/total name``
    on ``stream``: redrawn in place on a terminal, one line a step otherwise."""
    interactive = stream.isatty()

    def show(done: int, total: int, name: str, seconds: float) -> None:
        filled = width * done // max(total, 1)
        line = f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {seconds:5.1f} s  {name}"
        if interactive:
            stream.write("\r" + line.ljust(width + 70)[:width + 70] + ("\n" if done == total else ""))
        else:
            stream.write(line + "\n")
        stream.flush()

    return show


def warmup_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="sweeplab warmup", description="Compile every physics kernel into numba's "
                                     "disk cache (each pair of sweep in float64 and float32, the mesh functions, "
                                     "the second opinions), so that no first use waits for the compiler.")
    parser.parse_args(argv)
    from sweeplab.physics import warmup
    from sweeplab.physics.kernel_cache import mark_warm

    steps = warmup.tasks()
    seconds = warmup.run(steps, progress_bar(sys.stderr))
    mark_warm()
    print(f"compiled or loaded the kernels of {len(steps)} steps in {seconds:.1f} s")
    return 0


def editor_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="sweeplab", description="Interactive sweep-test debugger. "
                                     "Also: 'sweeplab render --help', 'sweeplab check', 'sweeplab warmup'.")
    parser.add_argument("scene", nargs="?", default=None, help="scene file to open (default: the demo scene)")
    parser.add_argument("--screenshot", type=Path, default=None,
                        help="draw a few frames, save the window to this PNG and exit")
    parser.add_argument("--bvh-depth", type=int, default=None, metavar="N",
                        help="start with the sphere-tree nodes of meshes drawn at depth N")
    parser.add_argument("--minkowski", action="store_true", help="start with the teaching view on")
    parser.add_argument("--version", action="version", version=f"sweeplab {__version__}")
    args = parser.parse_args(argv)
    from sweeplab.editor import Editor
    from sweeplab.window import run_editor

    editor = Editor(load(DEMO_SCENE))
    editor.progress = report_progress
    editor.mesh_display.bvh_depth = args.bvh_depth
    editor.mesh_display.minkowski = args.minkowski
    if args.scene is not None and not editor.open(Path(args.scene)):
        print(f"sweeplab: {editor.message}", file=sys.stderr)
        return 2
    return run_editor(editor, args.screenshot)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    for stream in (sys.stdout, sys.stderr):  # a name or note with a lone surrogate still prints
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    if argv[:1] == ["render"]:
        return render_main(argv[1:])
    if argv[:1] == ["check"]:
        return check_main(argv[1:])
    if argv[:1] == ["warmup"]:
        return warmup_main(argv[1:])
    return editor_main(argv)
