"""Regression fixtures: file round trip, runner, pytest collection and ``sweeplab check``."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sweeplab import __version__
from sweeplab.cli import DEMO_SCENE, example_scenes, main
from sweeplab.scene.fixture import (FixtureError, load_fixture, make_fixture, pytest_source, run_fixture, save_fixture)
from sweeplab.editor.gizmo_motion import exact_axis_rotation
from sweeplab.scene.model import Scene, SceneObject, load
from sweeplab.scene.shape_kinds import KINDS, RigidMotion, build_shape
from sweeplab.physics import sweep

ROOT = Path(__file__).resolve().parents[2]
GRAZE_SCENE = ROOT / "app" / "scenes" / "graze.json"


def write(directory: Path, name: str, fixture) -> Path:
    return save_fixture(fixture, directory, name)


def with_wrong_t(fixture):
    fixture.expected["touched edge"]["t"]["value"] = 0.25
    return fixture


def run_pytest(directory: Path) -> subprocess.CompletedProcess:
    """Plain ``pytest`` in ``directory`` as a project of its own, outside this
    repository: fixtures are collected by sweeplab's installed plugin (``pytest11``)."""
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(directory)],
                          cwd=directory, capture_output=True, text=True, env=environment, timeout=120)


def test_round_trip_keeps_the_scene_bits(tmp_path):
    scene = load(GRAZE_SCENE)
    path = write(tmp_path, "graze", make_fixture(scene, note="edge graze"))
    loaded = load_fixture(path)
    assert loaded.scene.to_json() == scene.to_json()
    lowered = loaded.scene.object("lowered 2^-40 (miss)").params["a"][2]
    assert lowered.hex() == (-2.0 ** -40).hex()
    assert loaded.note == "edge graze" and run_fixture(loaded).passed


def test_saving_never_overwrites_silently(tmp_path):
    fixture = make_fixture(load(GRAZE_SCENE))
    write(tmp_path, "graze", fixture)
    with pytest.raises(FileExistsError, match="exists"):
        write(tmp_path, "graze", fixture)
    save_fixture(fixture, tmp_path, "graze", overwrite=True)
    with pytest.raises(ValueError, match="fixture name"):
        save_fixture(fixture, tmp_path, "../escape")


def test_wrong_expected_t_fails_with_expected_vs_actual(tmp_path):
    report = run_fixture(with_wrong_t(make_fixture(load(GRAZE_SCENE))))
    assert not report.passed
    failing = [c for c in report.checks if not c.passed]
    assert [(c.target, c.field, c.expected, c.actual) for c in failing] == [("touched edge", "t", 0.25, 0.5)]
    assert "✗ touched edge" in report.table() and "0.25" in report.table()


def test_an_exact_match_passes_with_zero_tolerance():
    zero = {name: 0.0 for name in ("t", "point", "normal", "penetration_depth")}
    fixture = make_fixture(load(GRAZE_SCENE), tolerances=zero)
    checked = [c for c in run_fixture(fixture).checks if c.tolerance == 0.0 and c.expected is not None]
    assert {c.field for c in checked} == {"t", "point", "normal"} and all(c.passed for c in checked)


def test_typed_expectations(tmp_path):
    scene = load(GRAZE_SCENE)
    must_miss = make_fixture(scene, source="typed", typed={"lowered 2^-40 (miss)": {"hit": False}})
    assert run_fixture(must_miss).passed
    wrong = make_fixture(scene, source="typed", typed={"touched edge": {"hit": False}})
    assert not run_fixture(wrong).passed


def test_reference_source_agrees_with_the_analytic_answer():
    assert run_fixture(make_fixture(load(DEMO_SCENE), source="reference")).passed


def test_float32_fixture_records_the_float32_answer():
    fixture = make_fixture(load(GRAZE_SCENE), precision="float32")
    assert fixture.expected["lowered 2^-40 (miss)"]["hit"]["value"] is True  # 2^-40 is below float32 resolution
    assert run_fixture(fixture).passed


@pytest.mark.parametrize("text, message", [
    ("{", "not valid JSON"),
    ('{"format": "sweeplab-scene"}', "not a sweeplab fixture"),
    ('{"format": "sweeplab-fixture", "version": 1, "scene": {"format": "sweeplab-scene", "version": 1, '
     '"objects": [], "moving": null}, "expected": {"ghost": {"hit": {"value": true}}}}', "'ghost'"),
])
def test_malformed_fixture_names_the_file(tmp_path, text, message):
    path = tmp_path / "broken.json"
    path.write_text(text)
    with pytest.raises(FixtureError, match=message) as raised:
        load_fixture(path)
    assert "broken.json" in str(raised.value)


def test_unknown_field_is_malformed(tmp_path):
    data = make_fixture(load(GRAZE_SCENE)).to_json()
    data["expected"]["touched edge"]["time"] = {"value": 0.5}
    path = tmp_path / "typo.json"
    path.write_text(json.dumps(data))
    with pytest.raises(FixtureError, match="unknown field 'time'"):
        load_fixture(path)


def test_check_command_and_pytest_agree(tmp_path, capsys):
    good = make_fixture(load(GRAZE_SCENE), note="pinned")
    directory = tmp_path / "fixtures"
    write(directory, "good", good)
    assert main(["check", str(directory)]) == 0
    assert "PASS   good.json" in capsys.readouterr().out
    assert run_pytest(directory).returncode == 0

    write(directory, "bad_t", with_wrong_t(make_fixture(load(GRAZE_SCENE), note="t pinned wrong")))
    assert main(["check", str(directory)]) == 1
    out = capsys.readouterr().out
    assert "FAIL   bad_t.json: t pinned wrong" in out and "1 passed, 1 failed" in out
    completed = run_pytest(directory)
    assert completed.returncode == 1 and "bad_t.json" in completed.stdout and "0.25" in completed.stdout


def test_known_failing_runs_as_strict_expected_failure(tmp_path, capsys):
    directory = tmp_path / "fixtures"
    failing = with_wrong_t(make_fixture(load(GRAZE_SCENE), known_failing="t is wrong on purpose"))
    write(directory, "known", failing)
    assert main(["check", str(directory)]) == 0
    assert "XFAIL  known.json: t is wrong on purpose" in capsys.readouterr().out
    completed = run_pytest(directory)
    assert completed.returncode == 0 and "1 xfailed" in completed.stdout

    now_passing = make_fixture(load(GRAZE_SCENE), known_failing="was wrong once")
    save_fixture(now_passing, directory, "known", overwrite=True)
    assert main(["check", str(directory)]) == 1
    assert "XPASS  known.json" in capsys.readouterr().out
    completed = run_pytest(directory)
    assert completed.returncode == 1 and "now passes" in completed.stdout


def test_malformed_fixture_fails_collection_run(tmp_path, capsys):
    """An unreadable fixture is reported (exit 2) beside every good one, which still runs."""
    directory = tmp_path / "fixtures"
    directory.mkdir()
    (directory / "broken.json").write_text('{"format": "sweeplab-fixture", "version": 1, "sce')
    for name in ("good_a", "good_b"):
        write(directory, name, make_fixture(load(GRAZE_SCENE), note="pinned"))
    assert main(["check", str(directory)]) == 2
    out = capsys.readouterr().out
    assert "ERROR  broken.json" in out and "PASS   good_a.json" in out and "PASS   good_b.json" in out
    assert "2 passed, 0 failed, 0 xfailed, 1 unreadable" in out
    completed = run_pytest(directory)
    assert completed.returncode == 1 and "malformed fixture" in completed.stdout


def test_copy_as_pytest_is_a_runnable_test():
    source = pytest_source(load(DEMO_SCENE), "test_demo")
    namespace = {}
    exec(compile(source, "<copied>", "exec"), namespace)
    namespace["test_demo"]()
    assert source.count("result = sweep(") == 6 and "Sphere([-6.0, 0.0, 0.0], 0.5)" in source


@pytest.mark.parametrize("scene_name", sorted(example_scenes()))
def test_copy_as_pytest_runs_for_every_bundled_scene(scene_name):
    """#21: Copy as pytest called ``TriangleMesh`` with four arguments (TypeError)."""
    scene = load(example_scenes()[scene_name])
    source = pytest_source(scene, "test_copied")
    namespace = {}
    exec(compile(source, "<copied>", "exec"), namespace)
    namespace["test_copied"]()
    assert source.count("result = sweep(") == len(scene.targets())


@pytest.mark.parametrize("moving_kind", sorted(KINDS))
def test_copy_as_pytest_round_trips_every_kind_moving_and_as_target(moving_kind):
    """Every kind the editor can build, as the moving shape and as a target (a mesh
    posed off the identity); pairs the physics has no test for become a comment."""
    targets = [SceneObject(f"target {kind}", kind, KINDS[kind].moved(KINDS[kind].defaults,
                                                                      RigidMotion.translate([4.0, 0.3, 0.1])))
               for kind in sorted(KINDS)]
    mesh = next(o for o in targets if o.kind == "mesh")
    mesh.params = KINDS["mesh"].moved(mesh.params, RigidMotion(exact_axis_rotation(np.eye(3)) @ _turn_about_z(0.4),
                                                               np.zeros(3), np.zeros(3)))
    moving = SceneObject("mover", moving_kind, dict(KINDS[moving_kind].defaults))
    scene = Scene(objects=[moving, *targets], moving="mover", direction=[8.0, 0.0, 0.0])
    source = pytest_source(scene, "test_copied")
    namespace = {}
    exec(compile(source, "<copied>", "exec"), namespace)
    namespace["test_copied"]()
    supported = sum(_has_sweep_test(scene, target) for target in targets)
    assert source.count("result = sweep(") == supported
    assert source.count("no sweep test for") == len(targets) - supported
    assert supported < len(targets) or "rotation=" in source  # the posed mesh is written with its pose


def _has_sweep_test(scene: Scene, target: SceneObject) -> bool:
    try:
        sweep(build_shape(scene.object(scene.moving).kind, scene.object(scene.moving).params),
              build_shape(target.kind, target.params), scene.direction)
    except TypeError:
        return False
    return True


def _turn_about_z(angle: float) -> np.ndarray:
    return np.array([[np.cos(angle), -np.sin(angle), 0.0], [np.sin(angle), np.cos(angle), 0.0], [0.0, 0.0, 1.0]])


def test_fixtures_anywhere_in_a_project_and_nothing_else(tmp_path, capsys):
    """In a project of its own (outside this repository), plain ``pytest`` collects the
    fixtures in nested folders through the installed plugin and ignores other JSON
    (data, a package.json, a file that is not JSON at all); ``sweeplab check`` takes
    the folder recursively, or files by name."""
    project = tmp_path / "their_engine"
    write(project / "regressions" / "physics", "graze", make_fixture(load(GRAZE_SCENE), note="pinned"))
    (project / "data.json").write_text(json.dumps({"format": "something else", "values": [1, 2]}))
    (project / "package.json").write_text(json.dumps({"keywords": ["sweeplab-fixture"]}))
    (project / "notes.json").write_text("not json at all")
    completed = run_pytest(project)
    assert completed.returncode == 0 and "1 passed" in completed.stdout, completed.stdout
    assert main(["check", str(project)]) == 0
    assert "PASS   graze.json" in capsys.readouterr().out
    assert main(["check", str(project / "regressions" / "physics" / "graze.json"), "--examples"]) == 0
    out = capsys.readouterr().out
    assert "PASS   graze.json" in out and "6 passed, 0 failed" in out
    assert main(["check", str(project / "missing")]) == 2


def test_the_example_fixtures_come_with_the_package(capsys):
    assert main(["check", "--examples"]) == 0
    out = capsys.readouterr().out
    assert "PASS   sphere_triangle_edge_graze.json" in out and "5 passed, 0 failed" in out


def test_version(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0 and capsys.readouterr().out.strip() == f"sweeplab {__version__}"
