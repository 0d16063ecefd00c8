"""Commands on the scene: every edit validated, one undo step each (a drag: one step)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from sweeplab.scene.mesh_sources import default_source
from sweeplab.scene.model import Scene, SceneObject
from sweeplab.scene.shape_kinds import KINDS, POLYHEDRA, RigidMotion, build_shape, drawn_mesh, random_hull_vertices
from sweeplab.view.camera import UP
from sweeplab.view.turn import motion_of
from sweeplab.editor.parts import EditorParts

SPAWN_ATTEMPTS = 13
"""Places a new shape tries: the camera's target, then steps right and left of it."""


class Edits(EditorParts):
    """The ``Editor``'s commands on the scene (``history``, ``selection``, ``message``)."""

    def edit(self, change: Callable[[Scene], None]) -> bool:
        """Apply ``change`` to a copy of the scene; keep it if every shape is valid.  An
        edit stops a playground run first (it edits the scene as the run began; a
        body's move during a run does not come here: ``move_selected``)."""
        if self.playground is not None:
            self.reset_playground()
        scene = self.history.scene
        try:
            change(scene)
            for scene_object in scene.objects:
                build_shape(scene_object.kind, scene_object.params)
            if not all(np.isfinite(scene.direction)):
                raise ValueError("direction must be finite")
            if scene.moving is not None:
                motion_of(scene)  # the turn the physics accepts (nlerp: under a half turn)
        except (ValueError, KeyError) as error:
            self.say(f"not applied: {error}")
            return False
        self.history.commit(scene)
        self.say("")
        return True

    def add(self, kind: str) -> None:
        self._add_object(SceneObject(self.scene.unique_name(kind), kind, dict(KINDS[kind].defaults)))

    def _add_object(self, new: SceneObject) -> None:
        """Add a shape where the user looks: its pivot at the camera's target, then
        stepped sideways (the camera's right) until its box is clear of every other
        shape's (an infinite plane is never in the way); selected."""
        try:
            new.params = KINDS[new.kind].moved(new.params, RigidMotion.translate(self._spawn_offset(new)))
        except (ValueError, KeyError, OSError):
            pass  # a source that cannot be read: ``edit`` says why
        if self.edit(lambda scene: scene.objects.append(new)):
            self.selected = new.name

    def _spawn_offset(self, new: SceneObject) -> np.ndarray:
        kind = KINDS[new.kind]
        to_target = self.camera.target - kind.pivot(new.params)
        bounds = drawn_mesh(new.kind, new.params).bounds()
        if bounds is None:
            return to_target
        low, high = bounds[0] + to_target, bounds[1] + to_target
        boxes = [drawn_mesh(o.kind, o.params).bounds() for o in self.scene.objects if o.kind != "plane"]
        others = [box for box in boxes if box is not None]
        right = np.cross(self.camera.target - self.camera.eye(), UP)
        right = right / np.linalg.norm(right) if np.linalg.norm(right) > 0 else np.array([1.0, 0.0, 0.0])
        step = 1.25 * float(np.max(high - low)) + 1e-3
        for attempt in range(SPAWN_ATTEMPTS):  # 0, then +1, -1, +2, -2, ... steps to the right
            shift = right * step * ((attempt + 1) // 2) * (1 if attempt % 2 else -1)
            if not any(np.all(low + shift <= other_high) and np.all(high + shift >= other_low)
                       for other_low, other_high in others):
                return to_target + shift
        return to_target

    def add_mesh(self, source: dict) -> None:
        """Add a triangle mesh from a source (``scene.mesh_sources``): a generator, or
        ``{"file": path}``; an unreadable source leaves the scene as it was."""
        name = self.scene.unique_name(source.get("generator", "mesh"))
        self._add_object(SceneObject(name, "mesh", {**KINDS["mesh"].defaults, "source": source}))

    def add_polyhedron(self, shape: str) -> None:
        """Add a box, a tetrahedron (``shape_kinds.POLYHEDRA``) or, for "random hull",
        the hull of 12 random points."""
        vertices = random_hull_vertices() if shape == "random hull" else POLYHEDRA[shape]
        name = self.scene.unique_name(shape.replace(" ", "_"))
        params = {**KINDS["polyhedron"].defaults, "vertices": vertices}
        self._add_object(SceneObject(name, "polyhedron", params))

    def add_mesh_file(self, path: str) -> None:
        self.add_mesh({"file": str(path)})

    def add_generated_mesh(self, generator: str) -> None:
        self.add_mesh(default_source(generator))

    def duplicate(self) -> None:
        if self.selected is None:
            return
        source = self.scene.object(self.selected)
        name = self.scene.unique_name(source.name.rstrip("0123456789") or source.kind)
        offset = RigidMotion.translate([0.5, 0.5, 0.0])
        params = KINDS[source.kind].moved(source.params, offset)
        if self.edit(lambda scene: scene.objects.append(SceneObject(name, source.kind, params))):
            self.selected = name

    def delete(self) -> None:
        """Delete every selected shape (one undo step)."""
        names = set(self.selection)
        if not names:
            return

        def remove(scene: Scene) -> None:
            scene.objects = [o for o in scene.objects if o.name not in names]
            if scene.moving in names:
                scene.moving = None

        if self.edit(remove):
            self.selected = None

    def rename(self, old: str, new: str) -> None:
        if not new or new in self.scene.names():
            self.say(f"not applied: name {new!r} is empty or taken")
            return

        def change(scene: Scene) -> None:
            scene.object(old).name = new
            if scene.moving == old:
                scene.moving = new

        if self.edit(change) and self.selected == old:
            self.selected = new

    def set_moving(self, name: str | None) -> None:
        self.edit(lambda scene: setattr(scene, "moving", name))

    def make_selected_moving(self) -> None:
        self.set_moving(self.selected)

    def set_direction(self, direction) -> None:
        values = [float(v) for v in direction]
        self.edit(lambda scene: setattr(scene, "direction", values))

    def set_parameter(self, name: str, parameter: str, value) -> None:
        """Set one parameter to exactly ``value`` (typed values stay bit-exact)."""
        self.edit(lambda scene: scene.object(name).params.__setitem__(parameter, value))

    def set_option(self, option: str, value) -> None:
        self.edit(lambda scene: scene.options.__setitem__(option, value))

    def move_selected(self, motion: RigidMotion) -> None:
        """Move the selected shape rigidly (the gizmo; call inside ``begin_drag``); a body
        of a playground run moves in the running world (``editor.playground``)."""
        if self.selected is None:
            return
        name = self.selected
        if self.move_body_live(name, motion):
            return

        def move(scene: Scene) -> None:
            scene_object = scene.object(name)
            scene_object.params = KINDS[scene_object.kind].moved(scene_object.params, motion)

        self.edit(move)

    def resize_selected(self, original: dict, length_factor: float, radius_factor: float) -> None:
        """Set the selected capsule's or sphere's size to ``original`` parameters scaled
        (the scale gizmo passes the parameters it started from, so a drag never
        compounds)."""
        if self.selected is None:
            return
        name = self.selected
        kind = KINDS[self.scene.object(name).kind]
        params = kind.resized(original, length_factor, radius_factor)
        self.edit(lambda scene: setattr(scene.object(name), "params", params))

    def scale_selected(self, original: dict, factors) -> None:
        """Set the selected polyhedron to ``original`` scaled by ``factors`` along its
        own axes (from the drag's start: never compounds)."""
        if self.selected is None:
            return
        name = self.selected
        params = KINDS[self.scene.object(name).kind].scaled(original, factors)
        self.edit(lambda scene: setattr(scene.object(name), "params", params))

    def shift_end_pose(self, shift) -> None:
        """Move the sweep's end by ``shift`` (the end-pose gizmo): the direction's
        components the shift leaves at 0 are kept bit for bit."""
        self.set_direction([value + delta if delta != 0 else value
                            for value, delta in zip(self.scene.direction, shift, strict=True)])

    def begin_drag(self) -> None:
        self.history.begin_group()

    def end_drag(self) -> None:
        self.history.end_group()

    def undo(self) -> None:
        self.history.undo()
        self.keep_selection()

    def redo(self) -> None:
        self.history.redo()
        self.keep_selection()
