"""The playground in the editor: a run of the scene's bodies (``playground.run``),
its frames shown in place of the scene, which Reset restores; and what the user does
to the running world.  Every step is recorded: ``playground_seek`` shows any recorded
frame (the world continues from there), drawn with its contacts (``view.frame``), and
any frame's step saves as a fixture.

Edits during a run.  The gizmo's move or turn of a *body* (``Edits.move_selected``)
applies to the running world (``PlaygroundRun.move``: a dynamic body is placed at
rest, a kinematic body is driven there over the next step and pushes what is in its
way); the run goes on, and no undo step is made (Reset restores the scene as the run
began).  Every other edit — a shape's parameters or size, a static shape moved, a
shape added, deleted or renamed, the moving shape or its direction — stops the run
and applies to the scene as it began (``Edits.edit``).

The mouse spring (``grab``): pressing on a dynamic body of the run picks the point
under the mouse; dragging moves the spring's other end on the plane through that
point facing the camera; every step pulls the body point towards it
(``drive.drag_force``: stiffness and damping scaled by the body's mass), drawn as a
line; releasing ends it.  ``kick`` applies an impulse along the view direction at the
point last picked on the body.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from sweeplab.editor.gizmo_motion import rotation_vector
from sweeplab.playground import drive
from sweeplab.playground.buoyancy import Water, waterline
from sweeplab.editor.opened import SceneFile
from sweeplab.playground.materials import Material
from sweeplab.playground.particles import Particles
from sweeplab.playground.run import PlaygroundRun
from sweeplab.playground.waves import Waves
from sweeplab.playground.scenes import SCENES, scene_of
from sweeplab.scene.fixture import FixtureError, make_fixture, save_fixture
from sweeplab.scene.shape_kinds import PLANE_PATCH_HALF_SIZE, RigidMotion
from sweeplab.view.model import LineBatch, SpriteBatch, ViewModel
from sweeplab.editor.parts import EditorParts
from sweeplab.view.frame import with_frame_contacts, with_joint_errors, with_water
from sweeplab.view.water import with_water_plane

SPRING = (1.0, 0.55, 0.1, 1.0)
"""The mouse spring's line: orange, from the picked point to the mouse."""
WATER = (0.25, 0.55, 0.95, 1.0)
"""The particle fluid's sprites: blue."""
DROP_HEIGHT = 0.5
"""How far above the camera's target (m) a block of particles is added."""


@dataclass
class Grab:
    """A point picked on a body: ``offset`` from its centre of mass in body axes; while
    held, the spring's ``target`` (world) on the plane through the pick with ``normal``."""

    body: str
    offset: np.ndarray
    normal: np.ndarray
    target: np.ndarray


class Playground(EditorParts):
    """The ``Editor``'s playground run (``playground``, owned here), None when not
    running; the mouse spring held (``grab``) and the point last picked (``picked``)."""

    def _init_playground(self) -> None:
        self.playground: PlaygroundRun | None = None
        self._framed_view: tuple[ViewModel, PlaygroundRun, int, Water | None, ViewModel] | None = None
        """(view, run, frame, water, the view with the frame's contacts and water): kept
        while none changes."""
        self.grab: Grab | None = None
        self.picked: Grab | None = None

    def start_playground(self, dynamic: set[str], restitution: float, friction: float, ccd: bool,
                         materials: dict[str, Material] | None = None,
                         kinematic: frozenset[str] | set[str] = frozenset(), water: Water | None = None) -> None:
        """A run of ``scene`` (``materials``: objects' own, by name; ``kinematic``: the
        shapes that are kinematic bodies; ``water``: a still water plane, ``buoyancy``);
        a body the scene cannot make (a flat polyhedron: no volume) or a bad material or
        water is named on the status line and nothing starts."""
        if self.playground is not None:
            self.reset_playground()
        try:
            self.playground = PlaygroundRun(self.scene, dynamic, restitution, friction, ccd, materials, kinematic,
                                            water)
        except ValueError as error:
            self.say(f"the playground did not start: {error}")

    def set_water(self, water: Water | None) -> None:
        """The running world's water from the next step on (every body wakes to it:
        ``World.water``); a value that is not a ``Water`` or None is named on the status
        line and the water stays as it was."""
        if self.playground is None:
            return
        if water is not None and not isinstance(water, Water):
            self.say(f"water must be a Water or None, got {water!r}")
            return
        self.playground.world.water = water

    def open_stress_scene(self, name: str) -> None:
        """Open the stress scene ``name`` (``playground.scenes.SCENES``) as an untitled
        scene with its run started (its joints and kinematic bodies live in the run's
        world, not in the scene file); a scene that cannot be built says why."""
        try:
            world = SCENES[name]()
        except (KeyError, ImportError, TypeError, ValueError) as error:
            self.say(f"stress scene {name!r}: {error!r}")
            return
        scene = scene_of(world)
        self.open_document(scene, SceneFile(None))
        self.playground = PlaygroundRun.of_world(scene, world)

    def playground_step(self, dt: float) -> None:
        """One step from the frame shown (the frames after it, if any, dropped), the mouse
        spring pulling first."""
        run = self.playground
        if run is None:
            return
        body = run.body(self.grab.body) if self.grab is not None else None
        if self.grab is not None and body is not None:
            force, point = drive.drag_force(body, self.grab.offset, self.grab.target)
            run.world.apply_force(body.name, force, point)
        self.history.animate(run.step(dt))

    def playground_seek(self, index: int) -> None:
        """Show recorded frame ``index``: the world goes back (or forward) to it."""
        if self.playground is None:
            return
        try:
            scene = self.playground.seek(index)
        except ValueError as error:
            self.say(str(error))
            return
        self.history.animate(scene)

    def reset_playground(self) -> None:
        """Put the scene back as it was when the run began."""
        if self.playground is not None:
            self.history.animate(self.playground.start)
            self.drop_playground()

    def drop_playground(self) -> None:
        """Stop a run without touching the scene (another document replaces it)."""
        self.playground = None
        self.grab = self.picked = None

    def move_body_live(self, name: str, motion: RigidMotion) -> bool:
        """The gizmo's ``motion`` of body ``name`` applied to the running world (module
        docstring); False when there is no run or ``name`` is not one of its bodies."""
        run = self.playground
        body = run.body(name) if run is not None else None
        if run is None or body is None:
            return False
        centre = run.pose(body)[0]
        run.move(name, motion.points(centre[None])[0] - centre, rotation_vector(motion.rotation))
        self.history.animate(run.scene_now())
        return True

    # --- the mouse spring ----------------------------------------------------------

    def grab_body(self, origin, segment, radius: float) -> bool:
        """Press on the view: the spring held on the dynamic body the ray (``origin`` +
        s·``segment``, a ball of ``radius``) meets first; False (nothing held) for a
        static shape, a kinematic body, no run or no hit."""
        run = self.playground
        hit = self.pick_hit(origin, segment, radius) if run is not None else None
        body = run.body(hit[0]) if run is not None and hit is not None else None
        if hit is None or body is None or body.kinematic:
            return False
        point = hit[1]
        view = self.camera.target - self.camera.eye()
        self.grab = self.picked = Grab(body.name, body.rotation.T @ (point - body.position),
                                       view / np.linalg.norm(view), point)
        return True

    def drag_grab(self, origin, segment) -> None:
        """The spring's end moved to where the ray meets the grab's plane (kept when the
        ray runs along the plane):  s = n·(p - o) / n·d."""
        grab = self.grab
        if grab is None:
            return
        origin, segment = np.asarray(origin, float), np.asarray(segment, float)
        along = float(grab.normal @ segment)
        if along != 0:
            grab.target = origin + float(grab.normal @ (grab.target - origin)) / along * segment

    def release_grab(self) -> None:
        self.grab = None

    def grab_line(self, view: ViewModel) -> ViewModel:
        """``view`` with the held spring drawn, from the body point to the mouse (a copy)."""
        run, grab = self.playground, self.grab
        body = run.body(grab.body) if run is not None and grab is not None else None
        if grab is None or body is None:
            return view
        point = body.position + body.rotation @ grab.offset
        return replace(view, lines=[*view.lines, LineBatch(np.array([[point, grab.target]]), SPRING, 2.5,
                                                           on_top=True)])

    def kick(self, name: str, speed: float) -> None:
        """An impulse m·``speed`` along the view direction on body ``name``, at the point
        last picked on it (else its centre of mass): a velocity change of ``speed`` there."""
        run = self.playground
        body = run.body(name) if run is not None else None
        if run is None or body is None or body.kinematic:
            self.say(f"kick: {name!r} is not a dynamic body of the run")
            return
        view = self.camera.target - self.camera.eye()
        picked = self.picked if self.picked is not None and self.picked.body == name else None
        point = body.position + body.rotation @ picked.offset if picked is not None else None
        run.world.apply_impulse(name, body.mass * speed * view / np.linalg.norm(view), point)

    def add_particles(self, count: int, spacing: float) -> None:
        """Add a block of ``count`` particles at rest, ``spacing`` apart, to the running
        world's fluid (made if it has none), centred above the camera's target by
        ``DROP_HEIGHT``: a cube of ⌈∛count⌉ a side, its top layer part-filled.  Not
        running, a count that is not a whole number >= 1, a bad spacing or one unlike
        the fluid's: said on the status line, nothing changed."""
        run = self.playground
        if run is None:
            self.say("start the playground to add particles")
            return
        fluid = run.world.particles
        try:
            if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or count < 1:
                raise ValueError(f"count must be a whole number >= 1, got {count!r}")
            if fluid is not None and spacing != fluid.spacing:
                raise ValueError(f"spacing must be the fluid's, {fluid.spacing!r}, got {spacing!r}")
            side = round(count ** (1 / 3))
            side += side ** 3 < count
            block = Particles.block([0.0, 0.0, 0.0], [side, side, side], spacing).positions[:count]
            width = side * float(spacing)
            block += np.asarray(self.camera.target, float) + [-width / 2, -width / 2, DROP_HEIGHT]
        except ValueError as error:
            self.say(f"particles not added: {error}")
            return
        if fluid is None:
            fluid = run.world.particles = Particles(block, spacing=spacing)
        else:
            fluid.positions = np.concatenate([fluid.positions, block])
            fluid.velocities = np.concatenate([fluid.velocities, np.zeros_like(block)])
        self._framed_view = None
        self.say(f"{count} particles added ({len(fluid)} in the run)")

    def with_playground_frame(self, view: ViewModel) -> ViewModel:
        """``view`` with the shown frame's contacts (points, normals scaled by impulse:
        the largest ``view.frame.ARROW`` times the largest body's reach), joints
        (coloured by error), the still water (``view.water``: its surface about the bodies,
        each body's waterline), the pool's water and the particles (sprites)."""
        run = self.playground
        if run is None:
            return view
        position, water = run.recorder.position, run.world.water
        kept = self._framed_view
        if kept is None or kept[0] is not view or kept[1] is not run or kept[2] != position or kept[3] != water:
            frame = run.recorder.frame(position)
            events = frame.events
            reach = max((body.reach() for body in run.world.bodies), default=1.0)
            framed = with_frame_contacts(view, [e.point for e in events], [e.normal for e in events],
                                         [e.impulse for e in events], reach)
            framed = with_joint_errors(framed, [j.ends for j in frame.joints], [j.error for j in frame.joints])
            if water is not None:
                framed = self._with_water(framed, run, water)
            pool = run.world.pool  # (the world is at the frame shown: seeking restores it)
            if pool is not None:
                framed = with_water(framed, pool.corner, pool.cell_size, pool.drawn_heights(
                    run.world.time, max(-float(run.world.gravity[2]), 0.0)))
            fluid = run.world.particles
            if fluid is not None:
                framed = replace(framed, sprites=[*framed.sprites,
                                                  SpriteBatch(fluid.positions.copy(), fluid.radius, WATER)])
            kept = self._framed_view = view, run, position, water, framed
        return kept[4]

    @staticmethod
    def _with_water(view: ViewModel, run: PlaygroundRun, water: Water) -> ViewModel:
        """The water's surface about the bodies' median place on it, the floor patch's
        size (``PLANE_PATCH_HALF_SIZE``) or, for bodies spread wider, twice their median
        distance from there plus the largest reach (a median: one body flung far, the
        200 m/s ball of the bundled scene, does not drown the view in a square 150 m
        wide), with each body's waterline."""
        gravity = np.asarray(run.world.gravity, float)
        pull = float(np.linalg.norm(gravity))
        up = -gravity / pull if pull > 0 else np.array([0.0, 0.0, 1.0])
        places = np.array([body.position for body in run.world.bodies]).reshape(-1, 3)
        middle = np.median(places, axis=0) if len(places) else np.zeros(3)
        middle = middle - (float(up @ middle) - water.level) * up
        spread = float(np.median(np.linalg.norm(places - middle, axis=1))) if len(places) else 0.0
        reach = max((body.reach() for body in run.world.bodies), default=0.0)
        half = max(PLANE_PATCH_HALF_SIZE, 2 * spread + reach)
        loops = [waterline(body, water.level * up, up) for body in run.world.bodies]
        return with_water_plane(view, middle, up, half, loops)

    def set_water_waves(self, on: bool) -> None:
        """FFT waves (``playground.waves.Waves()``, drawn only) on the running world's
        pool, or none; said on the status line when the run has no pool."""
        pool = self.playground.world.pool if self.playground is not None else None
        if pool is None:
            self.say("waves: the running world has no pool")
            return
        pool.waves = Waves() if on else None
        self._framed_view = None  # (the water is drawn again)

    def save_step_fixture(self, body: str, directory, name: str, frame: int | None = None) -> Path | None:
        """The step into recorded ``frame`` (default: the one shown) of ``body`` as a
        fixture (its chord swept against the scene where the step began): a tunnelling
        step with CCD off becomes a test."""
        try:
            scene = self.playground.step_scene(body, frame) if self.playground is not None else None
        except ValueError as error:
            self.say(str(error))
            return None
        if scene is None:
            self.say(f"no step of {body} into {'the frame shown' if frame is None else f'frame {frame}'} is recorded")
            return None
        try:
            path = save_fixture(make_fixture(scene, note=f"playground step of {body}"), directory, name,
                                overwrite=True)
        except (FixtureError, OSError, ValueError) as error:
            self.say(str(error))
            return None
        self.say(f"saved the step as fixture {path}")
        return path
