"""Undo and redo as whole-scene snapshots (scenes are small), with a grouping flag
so that a drag makes one undo step."""

from __future__ import annotations

from sweeplab.scene.model import Scene


class SceneHistory:
    """Undo/redo over scene snapshots.

    ``commit(scene)`` records the state after an edit.  Between ``begin_group()``
    and ``end_group()`` (a gizmo drag) commits replace each other, so the whole
    drag is one step.  ``revision`` changes with every state change, so the frame
    loop can tell when to recompute physics.
    """

    def __init__(self, scene: Scene):
        self._states = [scene.copy()]
        self._ids = [0]  # one number per distinct state: undo back to the saved one is clean again
        self._next_id = 1
        self._position = 0
        self._grouping = False
        self._group_started = False
        self.revision = 0

    @property
    def state_id(self) -> int:
        """Names the current state: equal ids, equal scenes (``Editor.dirty``)."""
        return self._ids[self._position]

    @property
    def scene(self) -> Scene:
        """A copy of the current state, to edit and ``commit``."""
        return self._states[self._position].copy()

    @property
    def current(self) -> Scene:
        """The current state itself, for reading only (no copy)."""
        return self._states[self._position]

    def commit(self, scene: Scene) -> None:
        if self._grouping and self._group_started:
            self._states[self._position] = scene.copy()
            self._ids[self._position] = self._next_id
        else:
            del self._states[self._position + 1:], self._ids[self._position + 1:]
            self._states.append(scene.copy())
            self._ids.append(self._next_id)
            self._position += 1
            self._group_started = self._grouping
        self._next_id += 1
        self.revision += 1

    def animate(self, scene: Scene) -> None:
        """Show ``scene`` in place of the current state, with no undo step and the same
        state id (not an edit: the playground's frames, undone by showing the start)."""
        self._states[self._position] = scene.copy()
        self.revision += 1

    def begin_group(self) -> None:
        self._grouping, self._group_started = True, False

    def end_group(self) -> None:
        self._grouping = self._group_started = False

    def can_undo(self) -> bool:
        return self._position > 0

    def can_redo(self) -> bool:
        return self._position < len(self._states) - 1

    def undo(self) -> Scene:
        if self.can_undo():
            self._position -= 1
            self.revision += 1
        return self.scene

    def redo(self) -> Scene:
        if self.can_redo():
            self._position += 1
            self.revision += 1
        return self.scene
