"""The ``sweeplab`` command's conventions: help for every command, exit codes, one
clean line (no traceback) for every input error, bundled examples."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sweeplab.cli import COMMANDS, example_scenes, main
from sweeplab.render.headless import GL_PACKAGES

ROOT = Path(__file__).resolve().parents[2]


def test_help_lists_every_command_with_a_line(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    out = capsys.readouterr().out
    assert exited.value.code == 0
    for name, (line, _) in COMMANDS.items():
        assert f"  {name:<10} {line}" in out
    assert "exit codes: 0 ok, 1 a fixture failed, 2 a usage or input error" in out


def test_help_on_one_command(capsys):
    assert main(["help", "render"]) == 0
    assert "usage: sweeplab render" in capsys.readouterr().out
    assert main(["help", "rendr"]) == 2
    assert "did you mean 'render'?" in capsys.readouterr().err


@pytest.mark.parametrize("word, hint", [
    ("rendr", "did you mean 'render'?"), ("chek", "did you mean 'check'?"),
    ("frobnicate", "commands: render, check, triage, fuzz, examples, warmup, help")])
def test_a_mistyped_command_is_one_line(word, hint, capsys):
    assert main([word]) == 2
    assert capsys.readouterr().err == f"sweeplab: unknown command {word!r} ({hint})\n"


@pytest.mark.parametrize("arguments, message", [
    (["-o", "out.txt"], "the output must be a .png file"),
    (["-o", "no/such/folder/out.png"], "no folder no/such/folder"),
    (["-o", "out.png", "--select", "nobody"], "--select: no object named 'nobody' in the scene (its objects: mover,"),
    (["-o", "out.png", "--example", "nope"], "--example: no example scene 'nope' (there are: demo, graze,"),
])
def test_render_input_errors_are_one_line(arguments, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["render", *arguments]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sweeplab render: ") and message in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_negative_bvh_depth_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["render", "-o", "x.png", "--bvh-depth", "-1"])
    assert exited.value.code == 2 and "--bvh-depth: must be 0 or more, got -1" in capsys.readouterr().err


def test_an_unwritable_output_is_one_line(gl_context, tmp_path, capsys):
    (tmp_path / "taken.png").mkdir()  # a folder where the file should go
    assert main(["render", "-o", str(tmp_path / "taken.png"), "--size", "64x48"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"sweeplab render: cannot write {tmp_path / 'taken.png'}: ") and err.count("\n") == 1


def test_examples_are_listed_and_rendered_by_name(gl_context, tmp_path, capsys):
    assert set(example_scenes()) == {"demo", "graze", "meshes", "overlap", "playground", "polyhedra", "turning"}
    assert main(["examples"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^graze +\d+ objects, moving '", out, re.MULTILINE)
    assert main(["render", "--example", "graze", "-o", str(tmp_path / "graze.png"), "--size", "64x48"]) == 0
    assert (tmp_path / "graze.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_no_gl_message_and_ci_install_the_same_packages():
    listed = re.search(r"^gl_packages=\((.*)\)$", (ROOT / ".ci" / "run").read_text(), re.MULTILINE).group(1).split()
    assert tuple(listed) == GL_PACKAGES


@pytest.mark.parametrize("arguments", [["--version"], ["--help"], ["help"], ["help", "check"], ["help", "render"],
                                       ["help", "triage"], ["help", "fuzz"], ["help", "warmup"], ["help", "log"],
                                       ["examples"],
                                       ["check", "--help"], ["warmup", "--help"]])
def test_version_help_and_examples_import_no_compiler(arguments):
    """What a newcomer types first answers at once: neither numba nor the physics is
    imported (they took 2.2 s of 3.1 s; now the whole process takes ~0.07 s)."""
    import json
    import subprocess
    import sys

    code = ("import json, sys\nfrom sweeplab.cli import main\ntry:\n    code = main(sys.argv[1:])\n"
            "except SystemExit as exit_:\n    code = exit_.code\n"
            "sys.stdout = sys.__stdout__\nprint()\nprint(json.dumps({'code': code, 'numba': 'numba' in sys.modules, "
            "'physics': 'sweeplab.physics' in sys.modules}))\n")
    done = subprocess.run([sys.executable, "-c", code, *arguments], capture_output=True, text=True, timeout=60)
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    assert answer == {"code": 0, "numba": False, "physics": False}, done.stderr
