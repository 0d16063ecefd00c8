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
* ``sweeplab triage LOG.jsonl [--fixtures DIR]`` and ``sweeplab fuzz --engine NAME
  --pair MOVING-TARGET -n N --out DIR``: another engine's answers against
  sweeplab's (``engines.commands``).
* ``sweeplab warmup`` compiles every physics kernel into numba's disk cache, with a
  progress bar (otherwise each compiles on its first use).
* ``sweeplab examples`` lists the bundled example scenes; ``--example NAME`` opens
  (or, with ``render``, draws) one.  ``sweeplab help [COMMAND]``; ``--version``.
* ``sweeplab help log``: where the C/C++ header and the Rust module that write query
  logs are installed, and how a program uses the header.

Exit codes: 0 ok, 1 a fixture failed, 2 a usage or input error (one line on stderr,
no traceback; a mistyped command gets "did you mean").
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
from collections.abc import Callable
from importlib import resources
from pathlib import Path

from sweeplab import __version__

BUNDLED_SCENES = Path(str(resources.files("sweeplab") / "scenes"))
"""The example scenes that come with sweeplab (package data; ``sweeplab examples``)."""
DEMO_SCENE = BUNDLED_SCENES / "demo.json"
EXAMPLE_FIXTURES = Path(str(resources.files("sweeplab") / "examples"))
"""Fixtures that come with sweeplab (package data; ``sweeplab check --examples``)."""
ENGINE_LOG = Path(str(resources.files("sweeplab") / "engine_log"))
"""The writers of query logs for engines: ``sweeplab_log.h`` (C, C++) and
``sweeplab_log.rs`` (package data; ``sweeplab help log``)."""


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
    from sweeplab.view.reports import PROGRESS_STEP

    if total > PROGRESS_STEP:
        print(f"\rsweeplab: swept {done:,} of {total:,} targets ({100 * done // total}%)",
              end="\n" if done == total else "", file=sys.stderr, flush=True)


def _depth(text: str) -> int:
    try:
        depth = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
    if depth < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {depth}")
    return depth


def _check_output(path: Path) -> None:
    """``ValueError`` for an output that cannot be a PNG written there, before any work."""
    if path.suffix.lower() != ".png":
        raise ValueError(f"-o {path}: the output must be a .png file")
    if not path.parent.is_dir():
        raise ValueError(f"-o {path}: no folder {path.parent}")


def example_scenes() -> dict[str, Path]:
    """The bundled example scenes by name (the file stem)."""
    return {path.stem: path for path in sorted(BUNDLED_SCENES.glob("*.json"))}


def _scene_path(scene: str | None, example: str | None):
    """The scene file a command opens: ``scene``, the bundled ``example``, or the demo."""
    if scene is not None and example is not None:
        raise ValueError("give a scene file or --example, not both")
    if example is None:
        return scene or DEMO_SCENE
    examples = example_scenes()
    if example not in examples:
        raise ValueError(f"--example: no example scene {example!r} (there are: {', '.join(examples)})")
    return examples[example]


def examples_main(argv: list[str]) -> int:
    argparse.ArgumentParser(prog="sweeplab examples", description=COMMANDS["examples"][0]).parse_args(argv)
    from sweeplab.scene.json_files import JsonFileError, read_json  # (the JSON only: no physics, no compiler)

    for name, path in example_scenes().items():
        try:
            data = read_json(path)
            if not isinstance(data, dict):
                raise TypeError("not a JSON object")
            print(f"{name:<12} {len(data['objects'])} objects, moving {data['moving']!r}")
        except (JsonFileError, KeyError, TypeError) as error:  # (a bundled scene is tested to load; say so)
            print(f"{name:<12} unreadable: {error!r}")
    print("open one with 'sweeplab --example NAME', draw it with 'sweeplab render --example NAME -o out.png'")
    return 0


def render_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="sweeplab render", description="Render one frame of a scene to PNG.")
    parser.add_argument("scene", nargs="?", default=None, help="scene file (default: the demo scene)")
    parser.add_argument("--example", default=None, metavar="NAME",
                        help="render a bundled example scene instead ('sweeplab examples' lists them)")
    parser.add_argument("-o", "--output", required=True, type=Path, help="PNG file to write")
    parser.add_argument("--size", type=_size, default=(1280, 800), help="WIDTHxHEIGHT (default 1280x800)")
    parser.add_argument("--camera", default=None, help="yaw,pitch,distance[,x,y,z] in degrees and scene units "
                                                         "(default: frame the whole scene)")
    parser.add_argument("--select", default=None, help="name of an object to draw as selected")
    parser.add_argument("--bvh-depth", type=_depth, default=None, metavar="N",
                        help="draw the sphere-tree nodes of every mesh at depth N, coloured by the sweep's walk")
    parser.add_argument("--minkowski", action="store_true",
                        help="draw the teaching view: the Minkowski difference of the moving shape and a target")
    args = parser.parse_args(argv)
    from sweeplab.render.headless import GLUnavailable, OffscreenRenderer
    from sweeplab.render.png import write_png
    from sweeplab.scene.model import SceneError, load
    from sweeplab.view.camera import OrbitCamera
    from sweeplab.view.meshes import MeshDisplay
    from sweeplab.view.model import build_view_model

    try:
        scene = load(_scene_path(args.scene, args.example))
        _check_output(args.output)
        if args.select is not None and args.select not in [o.name for o in scene.objects]:
            raise ValueError(f"--select: no object named {args.select!r} in the scene "
                             f"(its objects: {', '.join(o.name for o in scene.objects)})")
        view = build_view_model(scene, args.select, reference=True, progress=report_progress,
                                display=MeshDisplay(bvh_depth=args.bvh_depth, minkowski=args.minkowski))
        if args.camera:
            camera = OrbitCamera.parse(args.camera)
        else:
            camera = OrbitCamera()
            camera.frame(*view.bounds)
        pixels = OffscreenRenderer(args.size).render(view, camera)
        write_png(args.output, pixels)
    except OSError as error:
        print(f"sweeplab render: cannot write {args.output}: {error.strerror or error}", file=sys.stderr)
        return 2
    except (SceneError, ValueError, GLUnavailable) as error:
        print(f"sweeplab render: {error}", file=sys.stderr)
        return 2
    hits = sum(r.status in ("hit", "overlap") for r in view.reports)
    print(f"wrote {args.output} ({args.size[0]}x{args.size[1]}): {hits} of {len(view.reports)} targets hit"
          + (f", first {view.earliest!r} at t={view.time_of_impact!r}" if view.earliest else ""))
    return 0


def check_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="sweeplab check", description="Run regression fixtures without pytest "
                                     "(exit 0 all passed, 1 one failed, 2 one could not be read).")
    parser.add_argument("paths", nargs="*", type=Path,
                        help="fixture files, or folders searched recursively for them (default: tests/fixtures)")
    parser.add_argument("--examples", action="store_true", help="check the example fixtures that come with sweeplab")
    args = parser.parse_args(argv)
    from sweeplab.scene.fixture import FixtureError, load_fixture, run_fixture

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
    from sweeplab.scene.json_files import declares_fixture

    found = []
    for path in paths:
        found += [path] if path.is_file() else sorted(p for p in path.rglob("*.json") if declares_fixture(p))
    return found


def progress_bar(stream, width: int = 30):
    """A ``physics.warmup.run`` progress callback drawing ``[###...] done/total name``
    (the steps compiling now) on ``stream``: redrawn in place on a terminal, one line a
    step otherwise."""
    interactive = stream.isatty()

    def show(progress) -> None:
        done, total = progress.done, progress.total
        filled = width * done // max(total, 1)
        line = f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {progress.seconds:5.1f} s  {progress.running}"
        if interactive:
            stream.write("\r" + line.ljust(width + 70)[:width + 70] + ("\n" if done == total else ""))
        else:
            stream.write(line + "\n")
        stream.flush()

    return show


def json_progress(stream):
    """A ``physics.warmup.run`` progress callback writing one JSON object a step on
    ``stream`` (``done``, ``total``, ``step``: compiling now, ``finished``: just done,
    ``seconds``): what the editor reads from its background compile."""
    def show(progress) -> None:
        stream.write(json.dumps({"done": progress.done, "total": progress.total, "step": progress.running,
                                 "finished": progress.finished or None, "seconds": round(progress.seconds, 2)}) + "\n")
        stream.flush()

    return show


def _jobs(text: str) -> int:
    try:
        jobs = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
    if not 1 <= jobs <= 64:
        raise argparse.ArgumentTypeError(f"must be between 1 and 64, got {jobs}")
    return jobs


def warmup_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="sweeplab warmup", description="Compile every physics kernel into numba's "
                                     "disk cache (each pair of sweep in float64 and float32, the mesh functions, "
                                     "the second opinions), so that no first use waits for the compiler or runs as "
                                     "Python.  The cache is numba's: NUMBA_CACHE_DIR chooses its folder.")
    parser.add_argument("--jobs", "-j", type=_jobs, default=min(2, os.cpu_count() or 1), metavar="N",
                        help="compile in N processes at once, float64 and float32 apart (default: 2, or 1 on one "
                             "core; each process uses one core and up to ~0.8 GB)")
    parser.add_argument("--first", action="append", default=[], metavar="STEP",
                        help="a step to compile first, by the name the progress shows (repeat for more, in order)")
    parser.add_argument("--json", action="store_true", help="progress as one JSON object a line on stdout")
    args = parser.parse_args(argv)
    from sweeplab.physics import warmup
    from sweeplab.physics.kernel_cache import mark_warm

    steps = warmup.ordered(warmup.tasks(), args.first)
    report = warmup.run(steps, json_progress(sys.stdout) if args.json else progress_bar(sys.stderr), jobs=args.jobs)
    mark_warm()
    line = (f"compiled or loaded the kernels of {len(steps)} steps in {report.seconds:.1f} s "
            f"({report.cpu_seconds:.0f} s of CPU in {args.jobs} process{'es' if args.jobs > 1 else ''}, "
            f"largest {report.peak_mb:.0f} MB)")
    print(line, file=sys.stderr if args.json else sys.stdout)
    return 0


def editor_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="sweeplab", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Interactive sweep-test debugger: opens the editor on a scene or fixture file.",
        epilog="commands:\n" + "\n".join(f"  {name:<10} {line}" for name, (line, _) in COMMANDS.items())
        + "\n\nhelp topics (sweeplab help TOPIC):\n" + "\n".join(f"  {name:<10} {line}"
                                                              for name, (line, _) in TOPICS.items())
        + "\n\nexit codes: 0 ok, 1 a fixture failed, 2 a usage or input error")
    parser.add_argument("scene", nargs="?", default=None,
                        help="scene or fixture file to open (default: the demo scene)")
    parser.add_argument("--example", default=None, metavar="NAME",
                        help="open a bundled example scene ('sweeplab examples' lists them)")
    parser.add_argument("--screenshot", type=Path, default=None,
                        help="draw a few frames, save the window to this PNG and exit")
    parser.add_argument("--bvh-depth", type=_depth, default=None, metavar="N",
                        help="start with the sphere-tree nodes of meshes drawn at depth N")
    parser.add_argument("--minkowski", action="store_true", help="start with the teaching view on")
    parser.add_argument("--version", action="version", version=f"sweeplab {__version__}")
    args = parser.parse_args(argv)
    try:
        path = _scene_path(args.scene, args.example)
    except ValueError as error:
        print(f"sweeplab: {error}", file=sys.stderr)
        return 2
    from sweeplab.editor import Editor
    from sweeplab.window import run_editor
    from sweeplab.scene.model import load

    editor = Editor(load(DEMO_SCENE))
    editor.progress = report_progress
    editor.mesh_display.bvh_depth = args.bvh_depth
    editor.mesh_display.minkowski = args.minkowski
    if path != DEMO_SCENE and not editor.open(Path(path), untitled=args.example is not None):
        print(f"sweeplab: {editor.message}", file=sys.stderr)
        return 2
    return run_editor(editor, args.screenshot)


def help_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="sweeplab help", description=COMMANDS["help"][0])
    parser.add_argument("command", nargs="?", default=None, help=f"a command name, or a topic: {', '.join(TOPICS)}")
    args = parser.parse_args(argv)
    if args.command is None:
        return _run_command(editor_main, ["--help"])
    if args.command in TOPICS:
        print(TOPICS[args.command][1]())
        return 0
    if args.command not in COMMANDS:
        print(f"sweeplab help: {_unknown_command(args.command)}", file=sys.stderr)
        return 2
    return _run_command(COMMANDS[args.command][1], ["--help"])


def _run_command(command: Callable[[list[str]], int], argv: list[str]) -> int:
    """``command(argv)``, with argparse's own exits (--help, usage errors) as return codes."""
    try:
        return command(argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 2


def _unknown_command(word: str) -> str:
    close = difflib.get_close_matches(word, COMMANDS, n=1)
    hint = f"did you mean '{close[0]}'?" if close else f"commands: {', '.join(COMMANDS)}"
    return f"unknown command {word!r} ({hint})"


def log_help() -> str:
    """Where the writers of query logs are installed, and the header's usage example
    (read from its opening comment, which the tests compile)."""
    header = ENGINE_LOG / "sweeplab_log.h"
    return (f"Log your engine's queries for 'sweeplab triage' (docs/query-log.md), every float exact:\n"
            f"  C, C++ (C99, C++11; one header): {header}\n"
            f"  Rust (std only; one module):     {ENGINE_LOG / 'sweeplab_log.rs'}\n\n"
            f"  /* cc -I {ENGINE_LOG} ... */\n" + "\n".join(usage_example(header)) + "\n\n"
            "then: sweeplab triage queries.jsonl.  Each file's opening comment lists its calls and the shape kinds;"
            " the Rust module's shows the same example in Rust.")


def usage_example(header: Path) -> list[str]:
    """The example in the opening comment of ``header``: its lines indented past " * "."""
    lines = header.read_text(encoding="utf-8").split("*/", 1)[0].splitlines()
    start = next(index for index, line in enumerate(lines) if line.startswith(" *     #include"))
    example = []
    for line in lines[start:]:
        if not line.startswith(" *     "):
            break
        example.append("  " + line[len(" *     "):])
    return example


TOPICS: dict[str, tuple[str, Callable[[], str]]] = {
    "log": ("how your engine writes a query log: the C/C++ header and Rust module, installed", log_help),
}
"""Help topic -> (one line, its text): ``sweeplab help TOPIC``."""


def triage_main(argv: list[str]) -> int:
    from sweeplab.engines.commands import triage_main as triage

    return triage(argv)


def fuzz_main(argv: list[str]) -> int:
    from sweeplab.engines.commands import fuzz_main as fuzz

    return fuzz(argv)


COMMANDS: dict[str, tuple[str, Callable[[list[str]], int]]] = {
    "render": ("draw one frame of a scene to a PNG, without a window", render_main),
    "check": ("run fixtures (files, folders, --examples) without pytest", check_main),
    "triage": ("answer another engine's query log, list where it disagrees, write fixtures", triage_main),
    "fuzz": ("differential fuzzing against an engine (fcl, rapier, box3d, jolt): disagreements shrunk", fuzz_main),
    "examples": ("list the bundled example scenes", examples_main),
    "warmup": ("compile every physics kernel into numba's disk cache", warmup_main),
    "help": ("help on the editor, or on one command: sweeplab help COMMAND", help_main),
}
"""Subcommand -> (one line of help, entry point); anything else opens the editor."""


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    for stream in (sys.stdout, sys.stderr):  # a name or note with a lone surrogate still prints
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    if argv[:1] and argv[0] in COMMANDS:
        return COMMANDS[argv[0]][1](argv[1:])
    word = argv[0] if argv else ""
    if word and not word.startswith("-") and not Path(word).suffix and not Path(word).exists():
        print(f"sweeplab: {_unknown_command(word)}", file=sys.stderr)  # a mistyped command, not a file
        return 2
    return editor_main(argv)
