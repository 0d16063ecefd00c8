"""Which shapes are selected, picking them in the view, framing the camera, gizmo modes."""

from __future__ import annotations

import numpy as np

from sweeplab.scene.shape_kinds import KINDS
from sweeplab.view.model import build_view_model
from sweeplab.physics import kernels
from sweeplab.physics.kernels import KernelsPending
from sweeplab.physics import Sphere, sweep
from sweeplab.editor.parts import EditorParts


class Selection(EditorParts):
    """The ``Editor``'s selection (``selection``: names, the last one primary) and gizmo
    mode (``gizmo_operation``; ``end_pose`` or ``pivot_handle``: what it sits on
    instead of the selected shape), owned here; framing moves the camera."""

    def _init_selection(self, scene) -> None:
        self.selection: list[str] = [scene.moving] if scene.moving is not None else []
        """Selected shapes, in the order picked; the last is the one the inspector and
        the gizmo work on (``selected``)."""
        self.gizmo_operation = "translate"
        self.end_pose = False
        self.pivot_handle = False
        """The gizmo moves the pivot the moving shape turns about (``Turning.shift_pivot``)."""

    @property
    def selected(self) -> str | None:
        """The shape the inspector and the gizmo work on: the last one selected."""
        return self.selection[-1] if self.selection else None

    @selected.setter
    def selected(self, name: str | None) -> None:
        self.selection = [name] if name is not None else []

    def select(self, name: str | None) -> None:
        self.selected = name

    def toggle_in_selection(self, name: str | None) -> None:
        """Shift-click: add ``name`` to the selection (it becomes the primary), or take
        it out if it was in."""
        if name is None:
            return
        if name in self.selection:
            self.selection.remove(name)
        else:
            self.selection.append(name)

    def pick(self, origin, segment, radius: float) -> str | None:
        """The object a view ray hits first (``pick_hit``), or None."""
        hit = self.pick_hit(origin, segment, radius)
        return None if hit is None else hit[0]

    def pick_hit(self, origin, segment, radius: float) -> tuple[str, np.ndarray] | None:
        """The object a view ray hits first (sweeping a small ball of ``radius`` along
        it, so points and segments can be picked too) and the point where it is hit,
        or None.  An object whose kernels are still compiling and too large to sweep
        as Python meanwhile (``kernels.KernelsPending``) cannot be picked until they are."""
        ray = Sphere(np.asarray(origin, float), radius)
        best, best_t = None, np.inf
        for scene_object in self.scene.objects:
            try:
                with kernels.deferred():
                    result = sweep(ray, KINDS[scene_object.kind].pickable(scene_object.params), segment)
            except (TypeError, ValueError, KernelsPending):
                continue
            if result.hit and result.t < best_t:
                best, best_t = (scene_object.name, np.asarray(result.point, float)), result.t
        return best

    def select_next(self) -> None:
        names = self.scene.names()
        if names:
            position = names.index(self.selected) + 1 if self.selected in names else 0
            self.selected = names[position % len(names)]

    def frame_selected(self) -> None:
        if self.selected is not None and self.selected in self.scene.names():
            scene_object = self.scene.object(self.selected)
            bounds = KINDS[scene_object.kind].mesh(scene_object.params).bounds()
            if bounds is not None:
                self.camera.frame(*bounds)
                return
        self.frame_all()

    def frame_all(self) -> None:
        """Point the camera at the whole scene: its shapes and motion (no physics is
        run for it, so a new window frames its scene before any kernel compiles)."""
        self.camera.frame(*build_view_model(self.scene, self.selected, pending=True).bounds)

    def use_translate(self) -> None:
        self.gizmo_operation = "translate"

    def use_rotate(self) -> None:
        self.gizmo_operation = "rotate"

    def toggle_end_pose(self) -> None:
        self.end_pose = not self.end_pose and self.scene.moving is not None
        self.pivot_handle = False

    def toggle_pivot_handle(self) -> None:
        """The gizmo on the pivot (off: back on the shape or the end pose)."""
        self.pivot_handle = not self.pivot_handle and self.scene.moving is not None
        self.end_pose = False

    def use_scale(self) -> None:
        self.gizmo_operation = "scale"

    def keep_selection(self) -> None:
        names = self.scene.names()
        self.selection = [name for name in self.selection if name in names]
