"""A lesson in the editor: its scene opened untitled, a step at a time (``view.lessons``)."""

from __future__ import annotations

import dataclasses

from sweeplab.view.camera import OrbitCamera
from sweeplab.view.lessons import show_set, step_changes


class Lessons:
    """The ``Editor``'s open lesson (``lesson``) and its step (``lesson_step``)."""

    def open_lesson(self, lesson) -> None:
        self._replace_scene(lesson.scene.copy(), None)
        self.fixture, self.restorable, self.queries, self.query = None, None, None, None
        self.lesson, self.lesson_step = lesson, 0
        self.show_step(0)
        self.message = f"lesson {lesson.number}: {lesson.title}"

    def show_step(self, number: int) -> None:
        """Go to step ``number`` (clamped): its shape parameters (an edit), selection,
        camera and display."""
        if self.lesson is None:
            return
        self.lesson_step = max(0, min(number, len(self.lesson.steps) - 1))
        step = self.lesson.steps[self.lesson_step]
        if step_changes(self.scene, step):
            self.edit(lambda scene: show_set(scene, step))
        if step.select is not None and step.select in self.scene.names():
            self.select(step.select)
        self.mesh_display = dataclasses.replace(self.mesh_display, **{**LESSON_DISPLAY, **step.display})
        if step.camera:
            self.camera = OrbitCamera.parse(step.camera)
        else:
            self.frame_all()

    def close_lesson(self) -> None:
        self.lesson = None


LESSON_DISPLAY = {"minkowski": False, "bvh_depth": None, "walk_steps": None, "slide_sweeps": None}
"""What a step shows unless it says otherwise."""
