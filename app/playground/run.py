"""The playground run in the editor: the scene's shapes as bodies, stepped, and the
scene updated so the view draws them.

Which shapes are dynamic: the moving one (its direction is its starting velocity,
per second), and any sphere, capsule or polyhedron ticked in the Playground panel.
Everything else is static.  A polyhedron's mass and inertia are its hull's, exact
(``world.hull_body``: its body frame is the principal frame at the centre of mass).
Reset puts the scene back as it was when the run began.
"""

from __future__ import annotations

import numpy as np

from sweeplab.playground.ccd import Mover
from sweeplab.playground.materials import Material
from sweeplab.playground.world import Body, World, capsule_body, hull_body, sphere_body
from sweeplab.scene.model import Scene
from sweeplab.scene.shape_kinds import KINDS, build_shape, posed_vertices

STATIC_KINDS = {"point": "no volume, no mass", "segment": "no volume, no mass", "plane": "infinite",
                "triangle": "a surface: no mass", "polygon": "a surface: no mass",
                "mesh": "a surface, open or concave: no mass or inertia of its own"}
"""Kinds that are always static obstacles in the playground, and why."""

DYNAMIC_KINDS = tuple(kind for kind in KINDS if kind not in STATIC_KINDS)
"""Kinds that may move (``body_of``): every other kind."""


def body_of(scene_object) -> Body:
    """The body of a scene object of a ``DYNAMIC_KINDS`` kind; ``ValueError`` for another
    kind, or one without volume (a zero radius, a flat polyhedron), naming the object."""
    params, kind = scene_object.params, scene_object.kind
    if kind not in ("sphere", "capsule", "polyhedron"):
        raise ValueError(f"scene_object {scene_object.name!r} is a {kind}, which has no playground body "
                         f"({STATIC_KINDS.get(kind, 'not in STATIC_KINDS either')})")
    try:
        if kind == "sphere":
            return sphere_body(scene_object.name, params["center"], float(params["radius"]))
        if kind == "capsule":
            return capsule_body(scene_object.name, params["a"], params["b"], float(params["radius"]))
        # world = origin + body @ axes: the rows of ``axes`` are the body axes in the world,
        # so the hull's vertices are placed by the rotation axes^T.
        axes, origin = np.asarray(params["axes"], float), np.asarray(params["origin"], float)
        return hull_body(scene_object.name, params["vertices"], position=origin, rotation=axes.T)
    except ValueError as error:
        raise ValueError(f"scene_object {scene_object.name!r}: {error}") from None


class PlaygroundRun:
    """A world built from ``scene``; ``scene_now()`` is the scene with the bodies where
    they are."""

    def __init__(self, scene: Scene, dynamic: set[str], restitution: float = 0.5, friction: float = 0.5,
                 ccd: bool = True, materials: dict[str, Material] | None = None):
        """``materials``: scene objects' own materials by name (bodies' and static
        shapes'; the others take ``restitution`` and ``friction``)."""
        materials = dict(materials or {})
        unknown = sorted(set(materials) - {o.name for o in scene.objects})
        if unknown:
            raise ValueError(f"materials name objects the scene does not have: {unknown}")
        for name, material in materials.items():
            if not isinstance(material, Material):
                raise ValueError(f"materials[{name!r}] must be a Material, got {material!r}")
        self.start = scene.copy()
        moving = {scene.moving} if scene.moving is not None else set()
        names = {name for name in set(dynamic) | moving if scene.object(name).kind in DYNAMIC_KINDS}
        bodies = [body_of(scene.object(name)) for name in sorted(names)]
        for body in bodies:
            if body.name == scene.moving:
                body.velocity = np.asarray(scene.direction, float)
            body.material = materials.pop(body.name, None)
        statics = {o.name: build_shape(o.kind, o.params) for o in scene.objects if o.name not in names}
        self._begin(World(bodies, statics, restitution, friction, ccd=ccd, materials=materials))

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
        self.last_step: tuple[Scene, dict[str, Mover]] | None = None
        """The scene before the latest step and each body's motion over it (what CCD sweeps)."""

    def step(self, dt: float) -> Scene:
        gravity = self.world.gravity
        movers = {body.name: body.mover(body.velocity * dt + 0.5 * gravity * dt * dt, dt) for body in self.world.bodies}
        self.last_step = (self.scene_now(), movers)
        self.world.step(dt)
        return self.scene_now()

    def scene_now(self) -> Scene:
        scene = self.start.copy()
        for body in self.world.bodies:
            params = scene.object(body.name).params
            position, rotation = self._body_start[body.name]
            turn = body.rotation @ rotation.T  # from the starting pose
            if "center" in params:
                params["center"] = body.position.tolist()
            elif "radius" in params:
                for end in ("a", "b"):
                    params[end] = (turn @ (np.asarray(params[end], float) - position) + body.position).tolist()
            else:
                corners = posed_vertices(params)
                params["vertices"] = ((corners - position) @ turn.T + body.position).tolist()
                params["origin"], params["axes"] = [0.0, 0.0, 0.0], np.eye(3).tolist()
        return scene

    def step_scene(self, name: str) -> Scene | None:
        """The latest step of body ``name`` as a sweep scene: everything where the step
        began, ``name`` moving along its chord over the step and, when CCD sweeps its
        turn, turning by it about its centre of mass.  With CCD off, the step in which
        it tunnelled: the sweep of that scene finds the contact it missed."""
        if self.last_step is None or name not in self.last_step[1]:
            return None
        before, movers = self.last_step
        scene, mover = before.copy(), movers[name]
        scene.moving, scene.direction = name, mover.chord.tolist()
        if mover.turn is not None and mover.pivot is not None:
            scene.rotation, scene.pivot = mover.turn.tolist(), mover.pivot.tolist()
        return scene
