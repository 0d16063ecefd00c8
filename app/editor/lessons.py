"""A lesson in the editor: its scene opened untitled, a step at a time (``view.lessons``)."""

from __future__ import annotations

import dataclasses

from sweeplab.editor.opened import OpenLesson, SceneFile
from sweeplab.physics.kernels import KernelsPending
from sweeplab.view.camera import OrbitCamera
from sweeplab.editor.parts import EditorParts
from sweeplab.playground.buoyancy import Water
from sweeplab.view.exercises import Verdict, judge
from sweeplab.view.lesson_playground import PlaygroundSetup
from sweeplab.view.lessons import show_set, step_changes


class Lessons(EditorParts):
    """Opening a lesson and stepping through it; the lesson and its step are part of
    what is open (``opened.OpenLesson``), owned by ``Files``."""

    def open_lesson(self, lesson) -> None:
        self.open_document(lesson.scene.copy(), OpenLesson(lesson))
        self.show_step(0)
        self.say(f"lesson {lesson.number}: {lesson.title}")

    def show_step(self, number: int) -> None:
        """Go to step ``number`` (clamped): its shape parameters (an edit), selection,
        camera and display, its advancement iteration drawn, and its playground run
        (``view.lesson_playground``; a run left from the step before is reset first: the
        step starts from its scene)."""
        if not isinstance(self.opened, OpenLesson):
            return
        lesson = self.opened.lesson
        self.opened.step = max(0, min(number, len(lesson.steps) - 1))
        step = lesson.steps[self.opened.step]
        self.reset_playground()
        if step_changes(self.scene, step):
            self.edit(lambda scene: show_set(scene, step))
        if step.select is not None and step.select in self.scene.names():
            self.select(step.select)
        camera = OrbitCamera.parse(step.camera) if step.camera else None
        self.show_as(dataclasses.replace(self.mesh_display, **{**LESSON_DISPLAY, **step.display}), camera)
        self.show_advancement_step(step.iteration)
        if step.playground is not None:
            self._run_setup(step.playground)

    def _run_setup(self, setup: PlaygroundSetup) -> None:
        """Start the playground as ``setup`` says (its water in the world) and run its
        steps; with ``show_step``, show the moving body's last step as a sweep (where it
        began, its chord)."""
        self.start_playground(set(setup.dynamic), setup.restitution, setup.friction, setup.ccd)
        if self.playground is not None and setup.water is not None:
            self.playground.world.water = Water(**setup.water)
        for _ in range(setup.steps):
            self.playground_step(setup.dt)
        run, moving = self.playground, self.scene.moving
        step = run.step_scene(moving) if setup.show_step and run is not None and moving is not None else None
        if step is not None:
            self.history.animate(step)

    def check_exercise(self) -> Verdict | None:
        """Judge the open lesson's exercise on the scene as the student left it (the
        Lesson panel's Check button); None with no lesson or no exercise.  A scene the
        student broke is a failed verdict saying what it lacks, never an exception."""
        if not isinstance(self.opened, OpenLesson) or self.opened.lesson.exercise is None:
            return None
        hint = self.opened.lesson.exercise.hint
        # the student's scene: during a run (a lesson step's, or Play) the one it began from, not its frame
        scene = self.playground.start if self.playground is not None else self.scene
        try:
            verdict = judge(self.opened.lesson, scene)
        except ValueError as error:  # the physics refused a shape the student made
            verdict = Verdict(False, f"The check could not measure the scene: {error}. {hint}")
        except KernelsPending:  # too large to run as Python while the kernels compile
            verdict = Verdict(False, f"The check needs kernels that are still compiling: press Check again "
                                     f"once they are. {hint}")
        self.opened.verdict = (self.history.revision, verdict)
        self.say(f"exercise: {'passed' if verdict.passed else 'not yet'}")
        return verdict

    @property
    def exercise_verdict(self) -> Verdict | None:
        """The last Check's verdict while the scene is still the one judged (None once
        it changes: the verdict was of another scene)."""
        if not isinstance(self.opened, OpenLesson) or self.opened.verdict is None:
            return None
        revision, verdict = self.opened.verdict
        return verdict if revision == self.history.revision else None

    def close_lesson(self) -> None:
        """Keep the lesson's scene as an untitled scene (the Lesson panel closes)."""
        if isinstance(self.opened, OpenLesson):
            self.open_document(self.scene, SceneFile(None))


LESSON_DISPLAY = {"minkowski": False, "bvh_depth": None, "walk_steps": None, "slide_sweeps": None}
"""What a step shows unless it says otherwise."""
