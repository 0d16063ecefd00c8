"""Fixtures and Copy as pytest of a scene that turns (#35): fixture format 2 carries
the turn in its scene and pins the turning sweep's answers; version-1 fixtures read
and pass as before."""

import json
import math
import shutil
from pathlib import Path

import pytest

from sweeplab.cli import main
from sweeplab.physics import tolerance
from sweeplab.scene.fixture import (FixtureError, load_fixture, make_fixture, pytest_source, run_fixture,
                                    save_fixture)
from tests.app.test_fixture import run_pytest
from tests.app.test_view_turning import CONTACT_ANGLE, QUARTER, bar_scene, nlerp_time

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "app" / "examples" / "turning_bar_reaches_a_ball.json"


def test_a_turning_fixture_carries_the_turn_and_pins_the_turning_answer(tmp_path):
    """Saved as version 2 with the scene's rotation, pivot and interpolation; the
    expected t is the turning sweep's (by hand: acos(1/6) / (pi/2)); the same fixture
    without the turn fails, its bar never reaching the ball."""
    path = save_fixture(make_fixture(bar_scene("nlerp", pivot=[0.0, 0.0, 0.0]), note="turning"), tmp_path, "bar")
    data = json.loads(path.read_text())
    assert data["version"] == 2
    assert (data["scene"]["rotation"], data["scene"]["pivot"], data["scene"]["interpolation"]) == \
        ([0.0, 0.0, QUARTER], [0.0, 0.0, 0.0], "nlerp")
    expected_t = data["expected"]["ball"]["t"]["value"]
    assert abs(expected_t - nlerp_time(CONTACT_ANGLE, QUARTER)) <= tolerance.TIME_ATOL
    fixture = load_fixture(path)
    assert fixture.scene.turns and run_fixture(fixture).passed
    fixture.scene.rotation = [0.0, 0.0, 0.0]
    failing = [(check.field, check.expected, check.actual) for check in run_fixture(fixture).checks
               if not check.passed]
    assert failing[0] == ("hit", True, False)


def test_a_float32_turning_fixture_runs_in_float32():
    fixture = make_fixture(bar_scene(), precision="float32")
    assert abs(fixture.expected["ball"]["t"]["value"] - CONTACT_ANGLE / QUARTER) <= 1e-5
    assert run_fixture(fixture).passed


def test_a_version_1_fixture_still_reads_and_passes_and_is_saved_as_version_2(tmp_path):
    old = ROOT / "tests" / "fixtures" / "ray_through_triangle_edge.json"
    assert json.loads(old.read_text())["version"] == 1 and json.loads(old.read_text())["scene"]["version"] == 1
    fixture = load_fixture(old)
    assert not fixture.scene.turns and run_fixture(fixture).passed
    again = json.loads(save_fixture(fixture, tmp_path, "again").read_text())
    assert (again["version"], again["scene"]["version"], again["scene"]["rotation"]) == (2, 2, [0.0, 0.0, 0.0])
    assert run_fixture(load_fixture(tmp_path / "again.json")).passed


def test_a_newer_fixture_version_is_refused(tmp_path):
    data = json.loads(EXAMPLE.read_text())
    data["version"] = 3
    (tmp_path / "newer.json").write_text(json.dumps(data))
    with pytest.raises(FixtureError, match="fixture version 3 is not one this sweeplab reads \\(up to 2\\)"):
        load_fixture(tmp_path / "newer.json")


def test_the_reference_source_is_refused_for_a_turning_scene():
    """physics.reference sweeps by translation: its answer would pin the wrong motion."""
    with pytest.raises(FixtureError, match="the reference .* sweeps without turning"):
        make_fixture(bar_scene(), source="reference")


def test_a_turn_the_physics_refuses_is_a_fixture_error_naming_the_target():
    """An edit may leave nlerp with a half turn: saving or copying says so, no crash."""
    scene = bar_scene("nlerp")
    scene.rotation = [0.0, 0.0, math.pi]
    with pytest.raises(FixtureError, match="target 'ball': .*rotation"):
        make_fixture(scene)
    with pytest.raises(FixtureError, match="target 'ball': .*rotation"):
        pytest_source(scene)


def test_the_turning_example_passes_under_pytest_and_a_wrong_t_fails(tmp_path, capsys):
    """The plugin runs the bundled turning example in a project of its own; the same
    file with t pinned 1e-6 later (beyond the 1e-9 tolerance) fails, naming the field
    (``sweeplab check``, the plugin's runner, in process: one pytest run costs 12 s)."""
    directory = tmp_path / "project"
    directory.mkdir()
    shutil.copy(EXAMPLE, directory / "turning.json")
    completed = run_pytest(directory)
    assert completed.returncode == 0 and "1 passed" in completed.stdout, completed.stdout
    data = json.loads(EXAMPLE.read_text())
    data["expected"]["ball"]["t"]["value"] += 1e-6
    (directory / "turning.json").write_text(json.dumps(data))
    assert main(["check", str(directory)]) == 1
    out = capsys.readouterr().out
    assert "FAIL   turning.json" in out and "✗ ball" in out and " t " in out, out


def test_the_turning_example_is_the_hand_worked_bar():
    fixture = load_fixture(EXAMPLE)
    assert fixture.scene.turns and fixture.scene.interpolation == "slerp" and fixture.scene.pivot is None
    assert abs(fixture.expected["ball"]["t"]["value"] - CONTACT_ANGLE / QUARTER) <= tolerance.TIME_ATOL
    assert main(["check", str(EXAMPLE)]) == 0


@pytest.mark.parametrize("interpolation, pivot", [("slerp", None), ("nlerp", [-2.0, 0.0, 0.0])])
def test_copy_as_pytest_carries_the_turn(interpolation, pivot):
    """The copied test passes; without its turn arguments it fails (the bar misses)."""
    scene = bar_scene(interpolation, pivot)
    source = pytest_source(scene, "test_copied")
    turn = f"rotation=[0.0, 0.0, {QUARTER!r}], pivot={pivot!r}, interpolation={interpolation!r})"
    assert source.count(turn) == 1 and "    assert result.advancement.converged\n" in source
    namespace: dict = {}
    exec(compile(source, "<copied>", "exec"), namespace)
    namespace["test_copied"]()
    linear = source.replace(", " + turn, ")").replace("    assert result.advancement.converged\n", "")
    assert linear != source
    exec(compile(linear, "<copied>", "exec"), namespace)
    with pytest.raises(AssertionError):
        namespace["test_copied"]()


def test_copy_as_pytest_of_a_linear_scene_is_as_before():
    scene = bar_scene()
    scene.rotation, scene.direction = [0.0, 0.0, 0.0], [0.0, 0.0, 1.0]
    source = pytest_source(scene, "test_copied")
    assert "rotation=" not in source and "advancement" not in source
    assert "result = sweep(moving, Sphere([0.0, 1.5, 0.0], 0.2), direction)" in source


def _unconverged():
    """A miss whose conservative advancement ran out of steps (as the budget leaves it)."""
    import dataclasses

    from sweeplab.physics.result import MISS
    from sweeplab.physics.sweep.turning import Advancement

    return dataclasses.replace(MISS, advancement=Advancement(1000, False, 0.25))


def test_an_unconverged_turning_answer_is_no_answer_to_pin_or_pass(monkeypatch):
    """Its hit is False, but only [0, 0.25) is certified: a fixture expecting a miss
    must not pass on it, nor be made from it; converged and linear answers are answers."""
    from sweeplab.scene import fixture

    assert fixture.unfinished(_unconverged()) == ("the conservative advancement ran out of iterations (1000); "
                                                  "contact-free only until t = 0.25")
    linear = bar_scene()
    linear.rotation = [0.0, 0.0, 0.0]
    assert fixture.unfinished(fixture.answers(bar_scene())["ball"]) == ""  # converged
    assert fixture.unfinished(fixture.answers(linear)["ball"]) == ""  # no advancement at all
    monkeypatch.setattr(fixture, "sweep", lambda *arguments, **keywords: _unconverged())
    report = run_fixture(make_fixture(bar_scene(), source="typed", typed={"ball": {"hit": False}}))
    assert not report.passed and report.errors == ["target 'ball': the conservative advancement ran out of "
                                                   "iterations (1000); contact-free only until t = 0.25"]
    with pytest.raises(FixtureError, match="target 'ball': the conservative advancement ran out"):
        make_fixture(bar_scene())


def test_the_editor_reports_an_unconverged_target_as_unfinished(monkeypatch):
    from sweeplab.view import reports

    monkeypatch.setattr(reports, "sweep", lambda *arguments, **keywords: _unconverged())
    report = reports.sweep_targets(bar_scene())[0]
    assert report.status == "unfinished" and report.time is None
    assert report.message == ("the conservative advancement ran out of iterations (1000); contact-free only until "
                              "t = 0.25")
