"""The editor on a cold kernel cache (``editor.compiling``): it answers at once, marks
"pending" what waits for the background compile (never "no hit" meanwhile), follows
``sweeplab warmup --json`` in another process and looks in the cache again as each
step is done; ``sweeplab warmup`` shows its progress."""

from __future__ import annotations

import io
import json
import sys
import textwrap
from types import SimpleNamespace

from sweeplab.cli import DEMO_SCENE, json_progress, progress_bar
from sweeplab.editor import Editor, compiling
from sweeplab.physics import Capsule, Point, Sphere, Triangle, kernels, warmup
from sweeplab.physics.kernels import KernelsPending
from sweeplab.scene.model import load
from sweeplab.ui.results import headline


def test_a_target_too_large_to_answer_as_python_is_pending_and_the_rest_answer(monkeypatch):
    editor = Editor(load(DEMO_SCENE))
    real_sweep = __import__("sweeplab.view.reports", fromlist=["sweep"]).sweep

    def triangle_pending(moving, target, direction, **options):
        if type(target).__name__ == "Triangle":
            raise KernelsPending("capsule_polygon: not compiled yet")
        return real_sweep(moving, target, direction, **options)

    monkeypatch.setattr("sweeplab.view.reports.sweep", triangle_pending)
    monkeypatch.setattr("sweeplab.view.reports.sweep_each", lambda *a, **k: (_ for _ in ()).throw(KernelsPending("")))
    view = editor.view()
    statuses = {report.name: report.status for report in view.reports}
    assert statuses["triangle"] == "pending" and statuses["graze sphere"] in ("hit", "miss")
    assert [report.status for report in view.reports].count("pending") == 1
    compilation = SimpleNamespace(finished=False, done=3, total=51, step="Sphere-Triangle float64")
    line = headline(view, compilation)
    assert line.startswith("pending: 1 of 6 answers wait for their kernels") and "no hit" not in line
    assert "compiling step 4 of 51: Sphere-Triangle float64" in line
    assert editor.answers_pending


def test_the_headline_names_pending_parts_and_says_no_hit_only_when_it_knows():
    answered = SimpleNamespace(reports=[SimpleNamespace(status="miss", name="a")], pending=[], earliest=None,
                               time_of_impact=None)
    assert headline(answered, None) == "no hit"
    answered.pending = ["float32", "second opinions"]
    assert headline(answered, SimpleNamespace(finished=True)) == "no hit; pending: float32, second opinions"


def test_a_part_of_the_view_too_large_for_python_is_named_pending(monkeypatch):
    editor = Editor(load(DEMO_SCENE))
    monkeypatch.setattr("sweeplab.view.model.contact_intervals",
                        lambda scene: (_ for _ in ()).throw(KernelsPending("")))
    editor.mesh_display.every_hit = True
    monkeypatch.setattr("sweeplab.editor.REFERENCE_DELAY", 0.0)
    view = editor.view()
    assert "every hit along the path" in view.pending


def _progress_script(lines: list[dict], exit_code: int = 0, error: str = "") -> list[str]:
    body = "".join(f"print({json.dumps(json.dumps(line))}, flush=True)\n" for line in lines)
    return [sys.executable, "-c", textwrap.dedent(body) + f"import sys; sys.stderr.write({error!r}); "
                                                          f"sys.exit({exit_code})\n"]


def test_the_background_compile_is_followed_and_the_cache_looked_in_again(monkeypatch):
    refreshed = []
    monkeypatch.setattr(kernels, "refresh", lambda: refreshed.append(True))
    first = ["Sphere-Point float64", "Sphere-Sphere float64"]
    lines = [{"done": 0, "total": 3, "step": first[0], "finished": None},
             {"done": 1, "total": 3, "step": first[1], "finished": first[0]},
             {"done": 2, "total": 3, "step": "GJK cast and reference solver", "finished": first[1]},
             {"done": 3, "total": 3, "step": "", "finished": "GJK cast and reference solver"}]
    compilation = compiling.KernelCompilation(first, command=_progress_script(lines))
    compilation._thread.join(30)
    assert compilation.finished and compilation.first_done and compilation.error is None
    assert compilation.done == 3 and compilation.total == 3 and len(refreshed) == 5
    assert compilation.generation == 4  # the start, each of the scene's two steps, the end: not the third step
    assert "every kernel compiled" in compilation.status()


def test_a_failed_background_compile_says_why(monkeypatch):
    monkeypatch.setattr(kernels, "refresh", lambda: None)
    compilation = compiling.KernelCompilation(["Sphere-Point float64"],
                                              command=_progress_script([], 1, "MemoryError: out of memory\n"))
    compilation._thread.join(30)
    assert compilation.finished and compilation.error == "MemoryError: out of memory"
    assert "failed" in compilation.status()


def test_the_scene_s_steps_come_first_float64_before_float32():
    scene = load(DEMO_SCENE)
    steps = compiling.scene_steps(compiling.shape_pairs(scene))
    names = {task.name for task in warmup.tasks()}
    assert set(steps) <= names and len(steps) == len(set(steps))
    assert steps[0].endswith("float64") and steps[-1] == warmup.SECOND_OPINIONS
    assert max(i for i, s in enumerate(steps) if s.endswith("float64")) < \
        min(i for i, s in enumerate(steps) if s.endswith("float32"))
    assert "Sphere-Point float64" in steps and "Sphere-Triangle float32" in steps
    assert warmup.served_pairs([(Triangle, Sphere)]) == [(Sphere, Triangle)]
    assert warmup.served_pairs([(Point, Capsule)]) == [(Sphere, Capsule)]


def test_a_warm_cache_starts_nothing(monkeypatch):
    monkeypatch.setattr(compiling, "is_warm", lambda: True)
    assert compiling.start_if_cold([]) is None


def test_progress_bar_writes_a_line_a_step_when_not_a_terminal():
    stream = io.StringIO()
    show = progress_bar(stream, width=10)
    show(warmup.StepProgress(0, 4, "Sphere-Sphere float64", "", 0.0))
    show(warmup.StepProgress(4, 4, "", "Sphere-Sphere float64", 12.5))
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("[..........] 0/4") and lines[0].endswith("Sphere-Sphere float64")
    assert lines[1].startswith("[##########] 4/4") and "12.5 s" in lines[1]


def test_json_progress_is_one_object_a_line():
    stream = io.StringIO()
    show = json_progress(stream)
    show(warmup.StepProgress(1, 4, "Sphere-Sphere float64", "Sphere-Point float64", 2.345))
    assert json.loads(stream.getvalue()) == {"done": 1, "total": 4, "step": "Sphere-Sphere float64",
                                             "finished": "Sphere-Point float64", "seconds": 2.35}


def test_the_editor_asks_for_its_steps_first_by_their_whole_names(monkeypatch):
    """Step names hold commas ("mesh contacts, overlap, first contact float64"): each
    is its own ``--first``, and ``sweeplab warmup`` runs them first in that order."""
    from sweeplab import cli

    monkeypatch.setattr(kernels, "refresh", lambda: None)
    first = ["mesh contacts, overlap, first contact float64", "Sphere-TriangleMesh float64"]
    compilation = compiling.KernelCompilation(first, command=_progress_script([]))
    command = [sys.executable, "-m", "sweeplab", "warmup", "--json", "--jobs", "1", "--first", first[0], "--first",
               first[1]]
    monkeypatch.setattr(compiling.subprocess, "Popen", lambda arguments, **options: _Recorded(arguments))
    assert compiling.KernelCompilation(first)._command == command
    compilation._thread.join(30)
    ran = []
    monkeypatch.setattr(warmup, "run", lambda steps, progress, jobs: ran.append([s.name for s in steps]) or
                        warmup.Report(0.0, 0.0, 0.0))
    monkeypatch.setattr("sweeplab.physics.kernel_cache.mark_warm", lambda: None)
    assert cli.main(["warmup", "--json", "--jobs", "1", "--first", first[0], "--first", first[1]]) == 0
    assert ran[0][:2] == first and len(ran[0]) == len(warmup.tasks())


class _Recorded:
    """A stand-in for a ``Popen`` that ran nothing."""

    def __init__(self, arguments):
        self.arguments = arguments
        self.stdout, self.stderr, self.returncode = io.StringIO(""), io.StringIO(""), 0

    def wait(self):
        return 0

    def poll(self):
        return 0
