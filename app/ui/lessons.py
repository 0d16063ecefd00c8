"""The Lesson panel (View > Lessons): a lesson's text a step at a time, Previous /
Next, and its picture computed from the live scene (``view.lessons``)."""

from __future__ import annotations

import dataclasses

import numpy as np
from imgui_bundle import imgui, implot

from sweeplab.physics.traversal import LEAF_HIT, STATUS_NAMES
from sweeplab.editor import Editor
from sweeplab.ui.drawn import remember
from sweeplab.ui.fit import fill_row, label_room
from sweeplab.ui.advancement import advancement_contents
from sweeplab.ui.lesson_capsule import capsule_picture
from sweeplab.ui.lesson_play import PLAY_PICTURES
from sweeplab.scene.model import Scene
from sweeplab.view.lessons import bundled_lessons, feature_candidates, inflated, object_named, quadratic, swapped

PLOT_SAMPLES = 400
QUADRATIC_PLOT = ("|s + t d - p|^2 - r^2", "a t^2 + 2 b t + c")
"""Lesson 1's plot: its title and its curve, in the lesson's letters (s: the ball's
centre at t = 0; c: the constant term, m.m - r^2)."""
ROOTS_LABEL = {1: "double root (a graze)", 2: "roots"}
"""Lesson 1's plot: its roots' legend, by how many there are."""
_shown: dict = {}
"""The lesson the panel showed last frame (a new one gets the focus once)."""


def lessons_menu(editor: Editor) -> None:
    """View > Lessons: every bundled lesson (and a greyed line for a file that is not one)."""
    if imgui.begin_menu("Lessons"):
        lessons, problems = bundled_lessons()
        for lesson in lessons:
            if imgui.menu_item_simple(f"{lesson.number}. {lesson.title}"):
                editor.open_lesson(lesson)
        for problem in problems:
            imgui.text_disabled(problem)
        imgui.end_menu()


def lesson_panel(editor: Editor) -> None:
    lesson = editor.lesson
    if lesson is None:
        return
    opened = imgui.begin("Lesson", True)
    if opened[0]:
        if _shown.get("lesson") is not lesson:  # a lesson just opened: bring its tab forward
            imgui.set_window_focus()
            _shown["lesson"] = lesson
        imgui.text(f"{lesson.number}. {lesson.title}")
        steps = len(lesson.steps)
        if imgui.button("< Previous") and editor.lesson_step > 0:
            editor.show_step(editor.lesson_step - 1)
        imgui.same_line()
        imgui.text(f"step {editor.lesson_step + 1} of {steps}")
        imgui.same_line()
        next_step = imgui.button("Next >")
        remember("lesson next")
        if next_step and editor.lesson_step < steps - 1:
            editor.show_step(editor.lesson_step + 1)
        imgui.separator()
        imgui.text_wrapped(lesson.steps[editor.lesson_step].text)
        remember("lesson text")
        if lesson.exercise is not None and editor.lesson_step == steps - 1:
            _exercise(editor, lesson.exercise.task)
        imgui.separator()
        try:
            PICTURES.get(lesson.picture, lambda editor: None)(editor)
        except (StopIteration, KeyError, ValueError, TypeError) as error:  # the user changed the scene's shapes
            imgui.text_disabled(f"(the picture needs the lesson's shapes: {error})")
    imgui.end()
    if not opened[1]:
        editor.close_lesson()


PASSED = (0.3, 0.85, 0.35, 1.0)
"""The colour of a passed exercise's verdict (green)."""


def _exercise(editor: Editor, task: str) -> None:
    """Under the last step: the task, a Check button, and the verdict of the scene as
    it is (green: passed; otherwise what was measured, and the hint)."""
    imgui.separator()
    imgui.text_wrapped(f"Exercise: {task}")
    remember("exercise task")
    if imgui.button("Check"):
        editor.check_exercise()
    remember("exercise check")
    verdict = editor.exercise_verdict
    if verdict is not None:
        if verdict.passed:
            imgui.push_style_color(imgui.Col_.text, PASSED)
            imgui.text_wrapped(f"Passed. {verdict.message}")
            imgui.pop_style_color()
        else:
            imgui.text_wrapped(f"Not yet. {verdict.message}")
        remember("exercise verdict")


def _quadratic_picture(editor: Editor) -> None:
    found = quadratic(editor.scene)
    t = np.linspace(-0.25, 1.25, PLOT_SAMPLES)
    title, curve = QUADRATIC_PLOT
    if implot.begin_plot(title, (-1, 260)):
        implot.setup_axes("t", "")
        implot.plot_line(curve, t, found.value(t))
        implot.plot_line("0", np.array([-0.25, 1.25]), np.zeros(2))
        if found.roots:
            implot.plot_scatter(ROOTS_LABEL[len(found.roots)], np.array(found.roots), np.zeros(len(found.roots)))
        implot.end_plot()
    imgui.text_wrapped(f"a = {found.a!r}, b = {found.b!r}, c = {found.c!r}")  # wrapped: whole numbers are long
    imgui.text_wrapped(found.formula())
    imgui.text_wrapped(f"{'double root' if len(found.roots) == 1 else 'roots'}: "
                       f"{', '.join(repr(r) for r in found.roots) or 'none'};  sweep: "
                       f"{'t = ' + repr(found.t) if found.t is not None else 'miss'}")
    remember("lesson roots")


def _inflate_picture(editor: Editor) -> None:
    moving, target = editor.scene.moving_object(), object_named(editor.scene, "sphere")
    total = float(moving.params["radius"]) + float(target.params["radius"])
    share = 1 - float(target.params["radius"]) / total if total > 0 else 0.0
    fill_row(label_room("radius moved onto the ball"))
    changed, share = imgui.slider_float("radius moved onto the ball", share, 0.0, 1.0)
    if changed:
        scene = inflated(editor.scene, share)

        def take_inflated(edited: Scene) -> None:
            for scene_object in edited.objects:
                scene_object.params = scene.object(scene_object.name).params

        editor.edit(take_inflated)
    view = editor.view()
    report = next(r for r in view.reports if r.name == target.name)
    imgui.text(f"ball radius {float(moving.params['radius']):.6g} + target radius "
               f"{float(target.params['radius']):.6g} = {total!r}")
    imgui.text(f"t = {report.result.t!r}" if report.result is not None and report.result.hit else "miss")


def _swap_picture(editor: Editor) -> None:
    target = editor.scene.targets()[0]
    forward, backward = swapped(editor.scene, target.name)
    for label, answer in (("ball moves by d", forward), (f"{target.name} moves by -d", backward)):
        said = f"t = {answer.t!r}, normal = {[float(v) for v in answer.normal]}" if answer.hit else "miss"
        imgui.text_wrapped(f"{label}: {said}")


def _features_picture(editor: Editor) -> None:
    target = object_named(editor.scene, "triangle")
    candidates, answer = feature_candidates(editor.scene, target.name)
    hits = [(c.t, number, c) for number, c in enumerate(candidates) if c.t is not None]
    earliest = min(hits)[2] if hits else None
    if imgui.begin_table("candidates", 2, imgui.TableFlags_.borders | imgui.TableFlags_.sizing_fixed_fit):
        for candidate in candidates:
            imgui.table_next_row()
            imgui.table_set_column_index(0)
            imgui.text(candidate.feature)
            imgui.table_set_column_index(1)
            text = "miss" if candidate.t is None else repr(candidate.t)
            if candidate is earliest:
                imgui.text_colored((1.0, 0.6, 0.1, 1.0), text + "  <- earliest")
            else:
                imgui.text(text)
        imgui.end_table()
    imgui.text(f"sweep: t = {answer.t!r}, feature {answer.feature.kind} {answer.feature.index}" if answer.hit
               else "sweep: miss")


def _walk_picture(editor: Editor) -> None:
    """Step through the walk: its first k node tests drawn, counted by status."""
    trace = next((r.mesh.trace for r in editor.view().reports if r.mesh is not None and r.mesh.trace is not None),
                 None)
    if trace is None:
        imgui.text_disabled("the walk is drawn once the scene is swept")
        return
    display = editor.mesh_display
    total = len(trace.node)
    steps = total if display.walk_steps is None else min(display.walk_steps, total)
    fill_row(label_room("node tests so far"))
    changed, steps = imgui.slider_int("node tests so far", steps, 0, total)
    remember("lesson walk slider")
    if changed:
        editor.mesh_display = dataclasses.replace(display, walk_steps=steps, bvh_depth=display.bvh_depth or 0)
    counts = np.bincount(trace.status[:steps], minlength=len(STATUS_NAMES))
    imgui.text(", ".join(f"{count} {name}" for name, count in zip(STATUS_NAMES, counts.tolist(), strict=True)))
    hits = np.flatnonzero(trace.status == LEAF_HIT)
    imgui.text(f"first leaf hit at node test {int(hits[0]) + 1} of {total}" if len(hits) else "no leaf hit")


PICTURES = {"quadratic": _quadratic_picture, "inflate": _inflate_picture, "swap": _swap_picture,
            "features": _features_picture, "walk": _walk_picture, "capsule": capsule_picture,
            "advancement": advancement_contents, **PLAY_PICTURES}
