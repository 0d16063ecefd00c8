"""Interaction: selection, commands on the scene, undo/redo, files, autosave.

No GL and no UI toolkit here: the window and the panels call these methods, and
tests call them directly.  Every edit goes through ``edit``, which validates the
changed scene by building its physics shapes (an invalid value is refused with a
message, the scene stays as it was) and records an undo step.
"""

from __future__ import annotations

import os
import time
from dataclasses import replace
from pathlib import Path
from collections.abc import Callable

import numpy as np

from sweeplab.view.camera import UP, OrbitCamera
from sweeplab.editor.compiling import KernelCompilation, start_if_cold
from sweeplab.scene.mesh_sources import default_source
from sweeplab.view.meshes import MeshDisplay
from sweeplab.scene.fixture import (Fixture, FixtureError, FixtureReport, is_fixture_file, load_fixture, make_fixture,
                              pytest_source, run_fixture, save_fixture)
from sweeplab.scene import autosave
from sweeplab.scene.history import SceneHistory
from sweeplab.scene.model import Scene, SceneError, SceneObject, load, save
from sweeplab.scene.shape_kinds import KINDS, POLYHEDRA, RigidMotion, build_shape, drawn_mesh, random_hull_vertices
from sweeplab.view.model import ViewModel, build_view_model
from sweeplab.physics import Sphere, sweep

AUTOSAVE_SECONDS = 5.0
SPAWN_ATTEMPTS = 13
"""Places a new shape tries: the camera's target, then steps right and left of it."""
REFERENCE_DELAY = 0.3
"""Seconds the scene must stay unchanged before the second opinions (float32 lens,
reference answers) are computed: a drag stays fluid, and they appear as soon as
the user pauses."""


class Editor:
    """The editor's state: the scene with its history, selection, camera and file."""

    def __init__(self, scene: Scene, path: Path | None = None, clock: Callable[[], float] = time.monotonic):
        self.history = SceneHistory(scene)
        self.path = path
        self.selection: list[str] = [scene.moving] if scene.moving is not None else []
        """Selected shapes, in the order picked; the last is the one the inspector and
        the gizmo work on (``selected``)."""
        self.camera = OrbitCamera()
        self.gizmo_operation = "translate"
        self.end_pose = False
        self.fixture: Fixture | None = None  # when a fixture is open: its expected answers
        self.check_reference = True
        self.nudge_axis, self.nudge_by_ulp, self.nudge_direction, self.nudge_epsilon = 0, True, False, 1e-12
        self.fixture_dialog_requested = False
        self.mesh_display = MeshDisplay()
        self.message = ""
        self.saved_state = self.history.state_id
        self.session = f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
        """Names this editor's untitled autosave (``scene.autosave``)."""
        self.restorable: Path | None = autosave.newer_than_file(path) if path is not None else None
        """An autosave newer than the open file, offered back until restored or dismissed."""
        self._clock = clock
        self._last_autosave = clock()
        self._autosaved_state = self.saved_state
        self._view: ViewModel | None = None
        self._view_key = None
        self._view_still = False
        self.compilation: KernelCompilation | None = None
        """Kernels compiling in the background on a cold cache (``start_compiling``)."""
        self.progress: Callable[[int, int], None] | None = None
        """Told (done, total) as a view's targets are swept (``sweep_targets``)."""
        self._seen_revision, self._last_change = -1, clock()
        self.frame_all()

    # --- state -------------------------------------------------------------

    @property
    def selected(self) -> str | None:
        """The shape the inspector and the gizmo work on: the last one selected."""
        return self.selection[-1] if self.selection else None

    @selected.setter
    def selected(self, name: str | None) -> None:
        self.selection = [name] if name is not None else []

    @property
    def settling(self) -> bool:
        """The view will change with no input: the kernels are compiling, or the scene
        has not been still long enough for its second opinions (``REFERENCE_DELAY``)."""
        return not self.physics_ready or self._view_key is None or not self._view_still

    @property
    def scene(self) -> Scene:
        """The current scene, for reading; edits go through ``edit``."""
        return self.history.current

    @property
    def dirty(self) -> bool:
        """Unsaved changes: the scene differs from the one last saved or opened (undo
        back to it is clean again)."""
        return self.history.state_id != self.saved_state

    def view(self) -> ViewModel:
        """The view model, recomputed (physics included) only when the scene or the
        selection changed, and once more with the reference answers when the scene
        has been still for ``REFERENCE_DELAY``."""
        now = self._clock()
        if self.history.revision != self._seen_revision:
            self._seen_revision, self._last_change = self.history.revision, now
        still = now - self._last_change >= REFERENCE_DELAY
        display = self.mesh_display
        pending = not self.physics_ready
        key = (self.history.revision, self.selected, still, self.check_reference, display.bvh_depth,
               display.traversal, display.contacts, display.minkowski, display.every_hit, pending)
        self._view_still = still
        if key != self._view_key:
            self._view = build_view_model(self.history.current, self.selected, float32=still,
                                          reference=still and self.check_reference, display=replace(display),
                                          pending=pending, progress=self.progress, intervals=still)
            self._view_key = key
        return self._view

    @property
    def physics_ready(self) -> bool:
        """False while the kernels of the open scene are still compiling."""
        return self.compilation is None or self.compilation.scene_ready

    def start_compiling(self) -> None:
        """On a cold kernel cache, compile in the background (``editor.compiling``): this
        scene's kernels first, as the view will ask for them, then all others."""
        scene, selected, display = self.history.current, self.selected, replace(self.mesh_display)
        self.compilation = start_if_cold(lambda: build_view_model(scene, selected, float32=True, reference=True,
                                                                  display=display))

    def fixture_report(self) -> FixtureReport | None:
        """The open fixture's expected answers checked against the current scene."""
        if self.fixture is None or not self.physics_ready:
            return None
        return run_fixture(Fixture(self.scene, self.fixture.expected, precision=self.fixture.precision))

    # --- edits ---------------------------------------------------------------

    def edit(self, change: Callable[[Scene], None]) -> bool:
        """Apply ``change`` to a copy of the scene; keep it if every shape is valid."""
        scene = self.history.scene
        try:
            change(scene)
            for scene_object in scene.objects:
                build_shape(scene_object.kind, scene_object.params)
            if not all(np.isfinite(scene.direction)):
                raise ValueError("direction must be finite")
        except (ValueError, KeyError) as error:
            self.message = f"not applied: {error}"
            return False
        self.history.commit(scene)
        self.message = ""
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
        others = [drawn_mesh(o.kind, o.params).bounds() for o in self.scene.objects if o.kind != "plane"]
        others = [box for box in others if box is not None]
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
            self.message = f"not applied: name {new!r} is empty or taken"
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
        """Move the selected shape rigidly (the gizmo; call inside ``begin_drag``)."""
        if self.selected is None:
            return
        name = self.selected

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

    def use_scale(self) -> None:
        self.gizmo_operation = "scale"

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
        self._keep_selection()

    def redo(self) -> None:
        self.history.redo()
        self._keep_selection()

    def _keep_selection(self) -> None:
        names = self.scene.names()
        self.selection = [name for name in self.selection if name in names]

    # --- selection, camera, gizmo -----------------------------------------

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
        """The object a view ray hits first (sweeping a small ball of ``radius`` along
        it, so points and segments can be picked too), or None (also while the
        kernels compile)."""
        if not self.physics_ready:
            return None
        ray = Sphere(np.asarray(origin, float), radius)
        best_name, best_t = None, np.inf
        for scene_object in self.scene.objects:
            try:
                result = sweep(ray, KINDS[scene_object.kind].pickable(scene_object.params), segment)
            except (TypeError, ValueError):
                continue
            if result.hit and result.t < best_t:
                best_name, best_t = scene_object.name, result.t
        return best_name

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

    # --- nudging: one ulp or epsilon along an axis --------------------------

    def set_nudge_axis(self, axis: int) -> None:
        self.nudge_axis = axis

    def toggle_nudge_mode(self) -> None:
        self.nudge_by_ulp = not self.nudge_by_ulp

    def toggle_nudge_target(self) -> None:
        self.nudge_direction = not self.nudge_direction

    def _nudged(self, value: float, sign: int) -> float:
        if self.nudge_by_ulp:
            return float(np.nextafter(value, sign * np.inf))
        return float(value + sign * self.nudge_epsilon)

    def nudge(self, sign: int) -> None:
        """Move the selected shape (every point's coordinate on the nudge axis) or the
        direction's component by one ulp or by ``nudge_epsilon``."""
        axis = self.nudge_axis
        if self.nudge_direction:
            direction = list(self.scene.direction)
            direction[axis] = self._nudged(direction[axis], sign)
            self.set_direction(direction)
            return
        if self.selected is None:
            return
        scene_object = self.scene.object(self.selected)
        kind = KINDS[scene_object.kind]
        params = {}
        for parameter in kind.parameters:
            value = scene_object.params[parameter.name]
            if kind.nudged is not None and parameter.name not in kind.nudged:
                pass
            elif parameter.type == "point":
                value = [self._nudged(v, sign) if i == axis else v for i, v in enumerate(value)]
            elif parameter.type in ("points", "body points"):
                value = [[self._nudged(v, sign) if i == axis else v for i, v in enumerate(p)] for p in value]
            elif parameter.type == "offset":  # a plane moves along its normal
                value = self._nudged(value, sign)
            params[parameter.name] = value
        name = self.selected
        self.edit(lambda scene: setattr(scene.object(name), "params", params))

    # --- fixtures ------------------------------------------------------------

    def request_fixture_dialog(self) -> None:
        self.fixture_dialog_requested = True

    def save_fixture(self, directory, name: str, *, note: str = "", source: str = "current",
                     known_failing: str | None = None, typed: dict | None = None, precision: str = "float64",
                     overwrite: bool = False) -> Path | None:
        """Write the current configuration as ``directory/name.json``; None (and a
        message) when it cannot, e.g. the file exists and ``overwrite`` is False."""
        try:
            fixture = make_fixture(self.scene, source=source, note=note, known_failing=known_failing or None,
                                   typed=typed, precision=precision)
            path = save_fixture(fixture, directory, name, overwrite=overwrite)
        except (FileExistsError, ValueError, FixtureError, OSError) as error:
            self.message = str(error)
            return None
        self.message = f"saved fixture {path}"
        return path

    def copy_as_pytest(self) -> str | None:
        """The scene as a pytest function (``fixture.pytest_source``); None, and a
        message, when it has none (no moving shape)."""
        try:
            return pytest_source(self.scene)
        except FixtureError as error:
            self.message = f"cannot copy as pytest: {error}"
            return None

    # --- files -------------------------------------------------------------

    def save(self, path: Path | None = None) -> bool:
        path = Path(path) if path is not None else self.path
        if path is None:
            self.message = "choose a file name (File > Save as)"
            return False
        try:
            save(self.scene, path)
        except OSError as error:
            self.message = f"could not save {path}: {error.strerror}"
            return False
        autosave.remove(self.path, self.session)
        autosave.remove(path, self.session)
        self.path, self.saved_state = path, self.history.state_id
        self.restorable = None
        self.message = f"saved {path}"
        return True

    def open(self, path: Path, untitled: bool = False) -> bool:
        """Open a scene or fixture file; on any problem keep the current scene and say why.
        A fixture opens with its expected answers shown beside the actual ones (and no
        scene path, so that Save never writes a scene over the fixture); so does a scene
        opened ``untitled`` (a bundled example: Save never writes into the installed
        package).  An autosave of the file newer than it is offered back (``restorable``)."""
        try:
            fixture = load_fixture(path) if is_fixture_file(path) else None
            scene = fixture.scene if fixture is not None else load(path)
        except (SceneError, FixtureError) as error:
            self.message = str(error)
            return False
        titled = fixture is None and not untitled
        self._replace_scene(scene, Path(path) if titled else None)
        self.fixture = fixture
        self.restorable = autosave.newer_than_file(path) if titled else None
        self.message = f"opened {path}"
        return True

    def new(self) -> None:
        """An untitled scene: one sphere, moving along x."""
        scene = Scene(objects=[SceneObject("ball", "sphere", dict(KINDS["sphere"].defaults))], moving="ball",
                      direction=[4.0, 0.0, 0.0])
        self._replace_scene(scene, None)
        self.fixture, self.restorable = None, None
        self.message = "new scene"

    def _replace_scene(self, scene: Scene, path: Path | None) -> None:
        self.history = SceneHistory(scene)
        self.path = path
        self.saved_state = self._autosaved_state = self.history.state_id
        self.selected = scene.moving
        self._view_key = None
        self.frame_all()

    def restore_autosave(self) -> bool:
        """Take the offered autosave's scene as an edit of the open file (undo goes back
        to the file; Save writes it)."""
        if self.restorable is None:
            return False
        try:
            restored = load(self.restorable)
        except SceneError as error:
            self.message = str(error)
            return False
        self.history.commit(restored)
        self.message, self.restorable = f"restored {self.restorable}", None
        return True

    def dismiss_autosave(self) -> None:
        """Keep the file as it is; the autosave stays on disk until the next save."""
        self.restorable = None

    def recover(self, autosave_file: Path) -> bool:
        """Open an untitled session's autosave as an untitled scene (File > Recover)."""
        try:
            scene = load(autosave_file)
        except SceneError as error:
            self.message = str(error)
            return False
        self._replace_scene(scene, None)
        self.saved_state = -1  # recovered work is unsaved until saved somewhere
        self.fixture, self.restorable = None, None
        self.message = f"recovered {autosave_file}"
        return True

    def discard_changes(self) -> None:
        """The user threw the unsaved changes away: forget this scene's autosaves (an
        edit after this autosaves again)."""
        autosave.remove(self.path, self.session)
        self._autosaved_state = -1

    def autosave(self, force: bool = False) -> Path | None:
        """Write the autosave when there are unsaved edits and it is due (``force``:
        now, as the window closes).  Beside the file, else in the user cache; a
        message says where when that is not beside the file, or that it failed."""
        now = self._clock()
        if not self.dirty or self._autosaved_state == self.history.state_id:
            return None
        if not force and now - self._last_autosave < AUTOSAVE_SECONDS:
            return None
        try:
            target = autosave.write(self.scene, self.path, self.session)
        except OSError as error:
            self.message = f"autosave failed: {error.strerror}"
            return None
        self._last_autosave, self._autosaved_state = now, self.history.state_id
        if self.path is not None and target != autosave.beside(self.path):
            self.message = f"{self.path.parent} is not writable: autosaved to {target}"
        return target
