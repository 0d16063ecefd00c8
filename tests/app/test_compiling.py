"""The editor on a cold kernel cache (``editor.compiling``): it compiles in the
background, draws the shapes meanwhile without calling physics, and answers once
the scene's kernels are ready; ``sweeplab warmup`` shows its progress."""

from __future__ import annotations

import io
import threading
import time

import pytest

from sweeplab.editor import compiling
from sweeplab.cli import DEMO_SCENE, progress_bar
from sweeplab.editor import Editor
from sweeplab.scene.model import load
from sweeplab.physics import warmup


@pytest.fixture
def quick_warmup(monkeypatch):
    """The rest of the warmup replaced by two steps that wait for the test's go."""
    go, marked = threading.Event(), []
    monkeypatch.setattr(warmup, "tasks", lambda: [warmup.Task("one", go.wait), warmup.Task("two", lambda: None)])
    monkeypatch.setattr(compiling, "mark_warm", lambda: marked.append(True))
    monkeypatch.setattr(compiling, "is_warm", lambda: False)
    return go, marked


class Pending:
    scene_ready = finished = False
    error = None


def test_shapes_are_drawn_and_no_physics_runs_while_compiling(monkeypatch):
    editor = Editor(load(DEMO_SCENE))
    editor.compilation = Pending()

    def no_physics(*args, **kwargs):
        raise AssertionError("physics was called while its kernels compile")

    monkeypatch.setattr("sweeplab.view.reports.sweep", no_physics)
    monkeypatch.setattr("sweeplab.editor.selection.sweep", no_physics)  # picking
    view = editor.view()
    assert {report.status for report in view.reports} == {"pending"} and len(view.drawables) >= len(view.reports)
    assert editor.pick([0, 0, 10], [0, 0, -20], 0.1) is None and editor.fixture_report() is None
    editor.compilation.scene_ready = True
    monkeypatch.undo()
    assert "pending" not in {report.status for report in editor.view().reports}


def test_the_scene_step_runs_first_then_the_rest_and_the_cache_is_marked(quick_warmup):
    go, marked = quick_warmup
    scene_steps = []
    compilation = compiling.start_if_cold(lambda: scene_steps.append("scene"))
    waited = 0.0
    while compilation.step != "one" and waited < 30:  # the thread is on the step that waits for the go
        time.sleep(0.01)
        waited += 0.01
    assert scene_steps == ["scene"] and compilation.scene_ready and not compilation.finished
    assert compilation.step == "one" and compilation.total == 3 and "one" in compilation.status()
    go.set()
    compilation._thread.join(10)
    assert compilation.finished and compilation.error is None and marked == [True]


def test_an_error_in_the_scene_step_still_compiles_the_rest(quick_warmup):
    go, marked = quick_warmup
    go.set()

    def broken_scene():
        raise ValueError("radius must be finite")

    compilation = compiling.start_if_cold(broken_scene)
    compilation._thread.join(10)
    assert compilation.finished and compilation.error is None and marked == [True]


def test_a_warm_cache_starts_nothing(monkeypatch):
    monkeypatch.setattr(compiling, "is_warm", lambda: True)
    assert compiling.start_if_cold(lambda: None) is None


def test_progress_bar_writes_a_line_a_step_when_not_a_terminal():
    stream = io.StringIO()
    show = progress_bar(stream, width=10)
    show(0, 4, "Sphere-Sphere float64", 0.0)
    show(4, 4, "", 12.5)
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("[..........] 0/4") and lines[0].endswith("Sphere-Sphere float64")
    assert lines[1].startswith("[##########] 4/4") and "12.5 s" in lines[1]
