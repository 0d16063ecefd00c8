"""The playground run in the editor: the scene's shapes as bodies, stepped, and the
scene updated so the view draws them.

Which shapes are bodies: the moving one (its direction is its starting velocity,
per second), and any sphere, capsule or polyhedron ticked "dynamic" or "kinematic" in
the Playground panel (a kinematic body moves by its velocity alone, pushes and is never
pushed: ``world``).  Everything else is static.  A polyhedron's mass and inertia are its
hull's, exact (``world.hull_body``: its body frame is the principal frame at the centre
of mass).  Reset puts the scene back as it was when the run began.

Edits during a run (``move``): a body moved or turned (the gizmo) moves in the running
world (which wakes a sleeping body moved or given a velocity, and its island, at the
next step). A dynamic body is placed there at once, at rest. A kinematic body is
*driven* there over the next step (velocity = shift/dt, angular velocity = turn/dt, its
own velocities back after the step), so it sweeps into what is in its way and pushes it;
until that step the scene shows it at the place it is driven to.

Every step is recorded (``recorder.Recorder``): ``seek`` sends the world back to any
recorded frame, ``frame_scene`` is the scene at one, and ``step_scene`` any recorded
step of a body as a sweep scene (to save as a fixture).
"""

from __future__ import annotations

import numpy as np

from sweeplab.playground.buoyancy import Water
from sweeplab.playground.materials import Material
from sweeplab.playground.recorder import Recorder
from sweeplab.playground.state import copy_of
from sweeplab.playground.world import Body, World, capsule_body, hull_body, sphere_body, turned
from sweeplab.scene.model import Scene
from sweeplab.scene.shape_kinds import KINDS, build_shape, posed_vertices

STATIC_KINDS = {"point": "no volume, no mass", "segment": "no volume, no mass", "plane": "infinite",
                "triangle": "a surface: no mass", "polygon": "a surface: no mass",
                "mesh": "a surface, open or concave: no mass or inertia of its own"}
"""Kinds that are always static obstacles in the playground, and why."""

DYNAMIC_KINDS = tuple(kind for kind in KINDS if kind not in STATIC_KINDS)
"""Kinds that may move (``body_of``): every other kind."""
BODY_DENSITY = 1.0
"""Every scene body's density (mass per unit volume): the Playground panel's water is
measured against it (twice it: a body floats half under)."""


def body_of(scene_object) -> Body:
    """The body of a scene object of a ``DYNAMIC_KINDS`` kind; ``ValueError`` for another
    kind, or one without volume (a zero radius, a flat polyhedron), naming the object."""
    params, kind = scene_object.params, scene_object.kind
    if kind not in ("sphere", "capsule", "polyhedron"):
        raise ValueError(f"scene_object {scene_object.name!r} is a {kind}, which has no playground body "
                         f"({STATIC_KINDS.get(kind, 'not in STATIC_KINDS either')})")
    try:
        if kind == "sphere":
            return sphere_body(scene_object.name, params["center"], float(params["radius"]), BODY_DENSITY)
        if kind == "capsule":
            return capsule_body(scene_object.name, params["a"], params["b"], float(params["radius"]), BODY_DENSITY)
        # world = origin + body @ axes: the rows of ``axes`` are the body axes in the world,
        # so the hull's vertices are placed by the rotation axes^T.
        axes, origin = np.asarray(params["axes"], float), np.asarray(params["origin"], float)
        return hull_body(scene_object.name, params["vertices"], position=origin, rotation=axes.T,
                         density=BODY_DENSITY)
    except ValueError as error:
        raise ValueError(f"scene_object {scene_object.name!r}: {error}") from None


class PlaygroundRun:
    """A world built from ``scene`` and its ``recorder``; ``scene_now()`` is the scene
    with the bodies where they are."""

    def __init__(self, scene: Scene, dynamic: set[str], restitution: float = 0.5, friction: float = 0.5,
                 ccd: bool = True, materials: dict[str, Material] | None = None,
                 kinematic: frozenset[str] | set[str] = frozenset(), water: Water | None = None):
        """``materials``: scene objects' own materials by name (bodies' and static
        shapes'; the others take ``restitution`` and ``friction``); ``kinematic``: the
        shapes that are kinematic bodies; ``water``: the world's (``buoyancy``)."""
        materials = dict(materials or {})
        unknown = sorted(set(materials) - {o.name for o in scene.objects})
        if unknown:
            raise ValueError(f"materials name objects the scene does not have: {unknown}")
        for name, material in materials.items():
            if not isinstance(material, Material):
                raise ValueError(f"materials[{name!r}] must be a Material, got {material!r}")
        self.start = scene.copy()
        moving = {scene.moving} if scene.moving is not None else set()
        names = {name for name in set(dynamic) | set(kinematic) | moving if scene.object(name).kind in DYNAMIC_KINDS}
        bodies = [body_of(scene.object(name)) for name in sorted(names)]
        for body in bodies:
            body.kinematic = body.name in kinematic
            if body.name == scene.moving:
                body.velocity = np.asarray(scene.direction, float)
            body.material = materials.pop(body.name, None)
        statics = {o.name: build_shape(o.kind, o.params) for o in scene.objects if o.name not in names}
        self._begin(World(bodies, statics, restitution, friction, ccd=ccd, materials=materials, water=water))

    @classmethod
    def of_world(cls, scene: Scene, world: World) -> PlaygroundRun:
        """A run of a world built elsewhere (``playground.scenes``), drawn as ``scene``:
        an object for each body (``scenes.scene_of``), which ``scene_now`` moves."""
        run = cls.__new__(cls)
        run.start = scene.copy()
        run._begin(world)
        return run

    def _begin(self, world: World) -> None:
        self.world = world
        self._body_start = {body.name: (body.position.copy(), body.rotation.copy()) for body in world.bodies}
        self.recorder = Recorder(self.world)
        self.driven: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        """Kinematic bodies moved by an edit since the last step: (shift, turn) to drive them by."""

    def body(self, name: str) -> Body | None:
        """The world's body ``name``, None for a static shape."""
        return next((body for body in self.world.bodies if body.name == name), None)

    def pose(self, body: Body) -> tuple[np.ndarray, np.ndarray]:
        """Where the scene shows ``body``: its pose, or a driven kinematic body's pose to be."""
        shift, turn = self.driven.get(body.name, (np.zeros(3), np.zeros(3)))
        return body.position + shift, turned(body.rotation, turn)

    def move(self, name: str, shift: np.ndarray, turn: np.ndarray) -> None:
        """Body ``name``'s centre of mass moved by ``shift`` and the body turned by the
        rotation vector ``turn`` (an edit during the run: module docstring)."""
        body = self.body(name)
        if body is None:
            raise ValueError(f"name: {name!r} is not a body of the run")
        if body.kinematic:
            before = self.driven.get(name, (np.zeros(3), np.zeros(3)))
            self.driven[name] = (before[0] + shift, before[1] + turn)
            return
        body.position, body.rotation = body.position + shift, turned(body.rotation, turn)
        body.velocity, body.angular_velocity = np.zeros(3), np.zeros(3)

    def step(self, dt: float) -> Scene:
        """One step from the frame the world is at, recorded (frames after it dropped;
        that frame first re-taken: the world may have been edited since, and a driven
        kinematic body carries its drive in it)."""
        world = self.world
        own = {}
        for name, (shift, turn) in self.driven.items():  # driven over this step, then their own velocities back
            body = self.body(name)
            assert body is not None  # (``move`` drives bodies only)
            own[name] = (body.velocity, body.angular_velocity)
            body.velocity, body.angular_velocity = shift / dt, turn / dt
        self.driven = {}
        self.recorder.amend()
        world.step(dt)
        for name, (velocity, angular_velocity) in own.items():
            body = self.body(name)
            assert body is not None
            body.velocity, body.angular_velocity = velocity, angular_velocity
        self.recorder.record()
        return self.scene_now()

    def seek(self, index: int) -> Scene:
        """The world back to recorded frame ``index`` (``ValueError`` if it is not one);
        the scene there."""
        self.recorder.seek(index)
        return self.scene_now()

    def scene_now(self) -> Scene:
        return self._scene_of(self.world.bodies, self.pose)

    def frame_scene(self, index: int) -> Scene:
        """The scene at recorded frame ``index``, the world untouched."""
        return self._scene_of(self._bodies_at(index), lambda body: (body.position, body.rotation))

    def _bodies_at(self, index: int) -> list[Body]:
        state = self.recorder.frame(index).state
        return [copy_of(state, body) for body in state.world["bodies"]]

    def _scene_of(self, bodies: list[Body], pose) -> Scene:
        """The start scene with ``bodies`` where ``pose(body)`` (position, rotation) puts them."""
        scene = self.start.copy()
        for body in bodies:
            params = scene.object(body.name).params
            position, rotation = self._body_start[body.name]
            now, turning = pose(body)
            turn = turning @ rotation.T  # from the starting pose
            if "center" in params:
                params["center"] = now.tolist()
            elif "radius" in params:
                for end in ("a", "b"):
                    params[end] = (turn @ (np.asarray(params[end], float) - position) + now).tolist()
            else:
                corners = posed_vertices(params)
                params["vertices"] = ((corners - position) @ turn.T + now).tolist()
                params["origin"], params["axes"] = [0.0, 0.0, 0.0], np.eye(3).tolist()
        return scene

    def step_scene(self, name: str, frame: int | None = None) -> Scene | None:
        """The step into recorded ``frame`` (default: the frame the world is at) of body
        ``name`` as a sweep scene: everything where the step began (the frame before),
        ``name`` moving along its chord over the step and, when CCD sweeps its turn,
        turning by it about its centre of mass.  With CCD off, the step in which it
        tunnelled: the sweep of that scene finds the contact it missed.  None for frame
        0, a frame whose previous one is no longer kept, or a name that is no body."""
        index = self.recorder.position if frame is None else frame
        step = self.recorder.frame(index)  # (ValueError for a frame not recorded)
        if index - 1 < self.recorder.first:
            return None
        before = {body.name: body for body in self._bodies_at(index - 1)}
        if name not in before:
            return None
        body, dt = before[name], step.dt
        pull = np.zeros(3) if body.kinematic else self.world.gravity  # (a force applied then is not recorded)
        mover = body.mover(body.velocity * dt + 0.5 * pull * dt * dt, dt)
        scene = self._scene_of(list(before.values()), lambda body: (body.position, body.rotation))
        scene.moving, scene.direction = name, mover.chord.tolist()
        if mover.turn is not None and mover.pivot is not None:
            scene.rotation, scene.pivot = mover.turn.tolist(), mover.pivot.tolist()
        return scene
