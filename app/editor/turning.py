"""The sweep's turn (issue #35), edited: the end pose's rotation (the gizmo's ring, a
typed rotation vector or angle), the pivot (dragged, typed, or back to the moving
shape's centroid) and the interpolation; and the conservative advancement the panel
shows: against which target, and which iteration's pose is drawn.

The rotation is the scene's ``rotation`` vector (axis times angle in radians, the
whole turn over the sweep): the end pose is turned by R = exp([rotation]x) about the
pivot carried to its end.  Every change goes through ``edit`` (one undo step; a
drag: one step for the whole drag), which refuses a motion the physics refuses (an
nlerp turn of π or more, a non-finite value) with its message.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from sweeplab.editor.gizmo_motion import rotation_vector
from sweeplab.editor.parts import EditorParts
from sweeplab.physics.sweep.turning import Motion
from sweeplab.scene.shape_kinds import drawn_mesh
from sweeplab.view.advancement import AdvancementReport, advancement_report, advancement_target
from sweeplab.view.camera import UP
from sweeplab.view.model import ADVANCE, LineBatch, ViewModel
from sweeplab.view.turn import motion_of, pivot_of, posed_mesh


class Turning(EditorParts):
    """The ``Editor``'s commands on the sweep's turn, and the advancement panel's
    state (``advancement_step``), owned here."""

    def _init_turning(self) -> None:
        self.advancement_step: int | None = None
        """The iteration whose pose is drawn (None: none)."""
        self._advancement: tuple[tuple, AdvancementReport | str] | None = None
        self._stepped_view: tuple[ViewModel, AdvancementReport, int, ViewModel] | None = None
        """(view, report, iteration, that view with the iteration's ghost): kept while they stay."""

    def set_rotation(self, rotation) -> None:
        values = [float(v) for v in rotation]
        self.edit(lambda scene: setattr(scene, "rotation", values))

    def set_turn_angle(self, angle: float) -> None:
        """Turn by ``angle`` radians (any size: several turns too) about the rotation's
        axis (the world's up, z, while there is none); the sign turns it back."""
        rotation = np.asarray(self.scene.rotation, float)
        length = float(np.linalg.norm(rotation))
        axis = rotation / length if length > 0 else UP
        self.set_rotation((axis * float(angle)).tolist())

    def turn_end_pose(self, step: np.ndarray) -> None:
        """Turn the end pose further by the 3x3 rotation ``step`` about a world axis
        through the end pivot (the gizmo's ring, frame by frame):  R' = step R.  The
        new rotation vector is the one of R' nearest the old (``rotation_vector``), so
        a ring dragged round and round winds on past a half turn."""
        old = np.asarray(self.scene.rotation, float)
        end = np.asarray(Motion(np.zeros(3), old).matrix(1.0), float)
        self.set_rotation(rotation_vector(np.asarray(step, float) @ end, old).tolist())

    def set_pivot(self, pivot) -> None:
        values = [float(v) for v in pivot]
        self.edit(lambda scene: setattr(scene, "pivot", values))

    def shift_pivot(self, shift) -> None:
        """Move the pivot by ``shift`` (its handle dragged), from the centroid while it
        has none; components the shift leaves at 0 are kept bit for bit."""
        if self.scene.moving is None:
            return
        self.set_pivot([value + delta if delta != 0 else value
                        for value, delta in zip(pivot_of(self.scene).tolist(), shift, strict=True)])

    def reset_pivot(self) -> None:
        """The moving shape turns about its centroid again (``pivot`` None)."""
        self.edit(lambda scene: setattr(scene, "pivot", None))

    def set_interpolation(self, interpolation: str) -> None:
        """"slerp" or "nlerp" (refused, with the physics' reason, for a turn nlerp
        cannot make)."""
        self.edit(lambda scene: setattr(scene, "interpolation", interpolation))

    # --- the Conservative advancement panel ---------------------------------------

    def advancement(self, view: ViewModel | None = None) -> AdvancementReport | str:
        """The advancement against the panel's target (``advancement_target``), or a
        sentence saying why there is none.  Computed once per scene revision and target.
        ``view``: the view model whose earliest hit it falls back on (default ``view()``)."""
        scene = self.scene
        if scene.moving is None:
            return "The scene has no moving shape."
        if not scene.turns:
            return ("The sweep does not turn: a linear sweep is answered in closed form, with no iterations. "
                    "Set a rotation (the gizmo's ring on the end pose, or the Inspector) to see them.")
        view = view or self.view()
        target = advancement_target(scene, self.selected, view.earliest)
        if target is None:
            return "The scene has no target."
        key = (self.history.revision, target)
        if self._advancement is None or self._advancement[0] != key:
            try:
                found: AdvancementReport | str = advancement_report(scene, target)
            except (ValueError, TypeError) as error:
                found = f"No advancement against {target}: {error}"
            self._advancement = key, found
        return self._advancement[1]

    def show_advancement_step(self, index: int | None) -> None:
        """Draw the moving shape at iteration ``index``'s t (None: no such ghost)."""
        self.advancement_step = index

    def with_advancement_step(self, view: ViewModel) -> ViewModel:
        """``view`` with the moving shape's outline at the chosen iteration's t added
        (a copy, kept while neither changes: the renderer rebuilds its buffers only for
        a new view model)."""
        report = self.advancement(view) if self.advancement_step is not None else None
        if not isinstance(report, AdvancementReport) or not report.steps:
            return view
        index = min(self.advancement_step or 0, len(report.steps) - 1)
        kept = self._stepped_view
        if kept is None or kept[0] is not view or kept[1] is not report or kept[2] != index:
            moving = self.scene.moving_object()
            outline = posed_mesh(drawn_mesh(moving.kind, moving.params), motion_of(self.scene),
                                 report.steps[index].t).outline
            kept = view, report, index, replace(view, lines=[*view.lines, LineBatch(outline, ADVANCE, 2.5,
                                                                                    on_top=True)])
            self._stepped_view = kept
        return kept[3]
