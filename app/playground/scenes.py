"""Stress scenes (issue #36, section 3): worlds that push the playground where
engines usually fail, each built by one function.

Conventions: z is up, gravity -9.81 along z unless a scene says otherwise, lengths
in metres, the floor is the plane z = 0 named ``"floor"``, density 1 (so a body's
mass is its volume).  Bodies are named by their place (``"row 3 box 2"``), so a
failing test names the body that went wrong.  Each builder validates its arguments
(``ValueError`` naming the argument) and returns a fresh ``World``; ``SCENES`` names
the builders the editor offers, with their default arguments, and ``scene_of`` makes
the scene document the editor draws a world as.

- ``pyramid``: Box2D's large pyramid, ``rows`` rows of unit boxes, each row on the
  gaps of the one below; a row's neighbours ``gap`` apart (no side contacts).
- ``card_house``: cards (thin boxes) leaning in pairs (a Λ, each pair's cards
  ``lean`` from the vertical, one's top edge on the other's face just below its
  top), a flat card across each storey's pairs and the next storey on it.
- ``spinning_plate``: a thin square plate spinning about its diagonal and flying at
  a 1 cm static wall, no gravity: with CCD off it passes the wall in one step.
- ``tumbler``: bodies inside a hollow box (six walls); with ``spin`` the walls are
  kinematic bodies turning about the box's axis (``Body.kinematic``), else static.
- ``rope_bridge``, ``ragdoll``: bodies joined by ``playground.joints`` (ball, cone
  and hinge joints): a bridge of planks hung between two anchors with a box on it,
  and capsules joined as a person dropped on stairs.
- ``duck_pond``: a shallow-water pool (``playground.pool``) with bodies floating in it
  and a couple dropped in: their waves rock the others.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from sweeplab.physics import Capsule, ConvexPolyhedron, Plane, Sphere
from sweeplab.playground.pool import Pool
from sweeplab.playground.world import Body, World, box_body, capsule_body, sphere_body
from sweeplab.scene.model import Scene, SceneObject


def _floor() -> dict:
    return {"floor": Plane([0.0, 0.0, 1.0], 0.0)}


def _positive(name: str, value: float) -> float:
    value = float(value)
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite number > 0, not {value!r}")
    return value


def _count(name: str, value: int, least: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        raise ValueError(f"{name} must be an int >= {least}, not {value!r}")
    return value


def _turn_y(angle: float) -> np.ndarray:
    """The rotation by ``angle`` about +y: body z leans towards +x for a positive angle."""
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def pyramid(rows: int = 20, gap: float = 0.005) -> World:
    """``rows`` rows of unit boxes resting on the floor and on each other: row r
    (from 0 at the floor) holds ``rows - r`` boxes at z = r + 1/2, x centred on 0,
    neighbours ``1 + gap`` apart (Box2D's large pyramid: 20 rows, 210 boxes)."""
    _count("rows", rows, 1)
    if not math.isfinite(gap) or not 0 <= gap < 1:
        raise ValueError(f"gap must be within [0, 1), not {gap!r}")
    bodies = [box_body(f"row {r} box {i}", [0.5, 0.5, 0.5], [(i - (rows - r - 1) / 2) * (1 + gap), 0.0, r + 0.5])
              for r in range(rows) for i in range(rows - r)]
    return World(bodies, _floor(), restitution=0.0, friction=0.6)


CARD = np.array([0.01, 0.3, 0.5])
"""A card's half extents: 2 cm thick, 60 cm wide, 1 m tall (along body z)."""


def _leaning_pair(name: str, x: float, z: float, lean: float) -> list[Body]:
    """Two cards standing on the plane at height ``z`` and meeting above ``x``: the
    right one leaning by ``lean`` towards -x, the left one's top inner edge on the
    right one's inner face 1 mm below its top.

    A card turned by θ about y on a plane: its lowest corner is its centre less
    h·cos θ + t·sin θ (h, t its half height and thickness).  The right card turns by
    -θ; its inner face point at height a along it is c + t·n + a·u (u = (-sin θ, 0,
    cos θ) its axis, n = (-cos θ, 0, -sin θ) its inner normal).  The left card, turned
    by θ' about y, reaches that point with its top inner edge, at 2h·cos θ' above its
    plane: θ' = acos(point's height / 2h)."""
    t, h = float(CARD[0]), float(CARD[2])
    right_centre = np.array([h * math.sin(lean) + t * math.cos(lean), 0.0, z + h * math.cos(lean)
                             + t * math.sin(lean)])
    axis = np.array([-math.sin(lean), 0.0, math.cos(lean)])
    inner = np.array([-math.cos(lean), 0.0, -math.sin(lean)])
    touch = right_centre + t * inner + (h - 1e-3) * axis
    left_lean = math.acos((touch[2] - z) / (2 * h))
    left_centre = touch - h * np.array([math.sin(left_lean), 0.0, math.cos(left_lean)]) \
        - t * np.array([math.cos(left_lean), 0.0, -math.sin(left_lean)])
    shift = np.array([x - touch[0], 0.0, 0.0])
    return [box_body(f"{name} left", CARD, left_centre + shift, rotation=_turn_y(left_lean)),
            box_body(f"{name} right", CARD, right_centre + shift, rotation=_turn_y(-lean))]


MAX_LEAN = math.radians(30.0)
"""The steepest lean a card pair is built with: the left card leans a little more
(θ' > θ) and its top outer edge stays out of the right card while θ + θ' < 90°."""


def card_house(storeys: int = 2, lean: float = math.radians(15.0)) -> World:
    """``storeys`` storeys of leaning pairs (``storeys - s`` pairs on storey s, their
    tops ``span`` apart: a pair's width at its feet and 10 cm), each
    storey but the top covered by a flat card (a card lying on its face) across its
    pairs' tops, which the next storey stands on.  Friction 0.8 (cards on cards: a
    pair leaning 15° needs about tan 15° / 2 = 0.13 at its feet), no bounce."""
    _count("storeys", storeys, 1)
    if not math.isfinite(lean) or not 0 < lean <= MAX_LEAN:
        raise ValueError(f"lean must be within (0, {MAX_LEAN!r}] radians, not {lean!r}")
    t, h = float(CARD[0]), float(CARD[2])
    span = 4 * (h * math.sin(lean) + t * math.cos(lean)) + 0.1
    bodies: list[Body] = []
    base = 0.0
    for storey in range(storeys):
        pairs = storeys - storey
        for k in range(pairs):
            x = (k - (pairs - 1) / 2) * span
            bodies += _leaning_pair(f"storey {storey} pair {k}", x, base, lean)
        if storey == storeys - 1:
            break
        top = max(float(np.max(body.world_shape().vertices[:, 2])) for body in bodies[-2 * pairs:])
        flat = np.array([span * (pairs - 1) / 2 + 0.2, CARD[1], CARD[0]])
        """Across the pairs' tops, 20 cm beyond the outer ones."""
        bodies.append(box_body(f"storey {storey} floor", flat, [0.0, 0.0, top + CARD[0]]))
        base = top + 2 * CARD[0]
    return World(bodies, _floor(), restitution=0.0, friction=0.8)


def spinning_plate(ccd: bool = True, speed: float = 60.0, spin: float = 40.0) -> World:
    """A plate 1 m square and 2 cm thick, 0.5 m before a static wall 1 cm thick (at x =
    0, 4 m square), flying at it along +x at ``speed`` m/s and spinning at ``spin``
    rad/s about its diagonal in the plate's plane (the plane x = -0.5 at the start: its
    face towards the wall), no gravity.  At 60 m/s a 1/60 s step moves it 1 m: it
    crosses the wall within one step."""
    _positive("speed", speed)
    if not math.isfinite(spin):
        raise ValueError(f"spin must be finite, not {spin!r}")
    plate = box_body("plate", [0.01, 0.5, 0.5], [-0.5, 0.0, 0.0])
    plate.velocity = np.array([speed, 0.0, 0.0])
    plate.angular_velocity = spin * np.array([0.0, 1.0, 1.0]) / math.sqrt(2.0)
    wall = ConvexPolyhedron.box([0.005, 2.0, 2.0])
    return World([plate], {"wall": wall}, restitution=0.5, friction=0.3, gravity=np.zeros(3), ccd=ccd)


TUMBLER_HALF = 1.0
"""The tumbler's inner half size: a hollow cube 2 m across, walls 10 cm thick."""
TUMBLER_CENTRE = np.array([0.0, 0.0, 2.0])
"""Its centre: 2 m up, so that its corners (1.56 m out) clear the floor as it turns."""


def tumbler(spin: float = 1.0, balls: int = 4, boxes: int = 2) -> World:
    """A hollow cube (inner half size ``TUMBLER_HALF``, centred at ``TUMBLER_CENTRE``)
    with ``balls`` spheres (radius 0.2) and ``boxes`` boxes (half size 0.2) inside,
    in rows of three 0.5 m apart along x, rows 0.5 m apart along y, layers 0.5 m
    apart from 0.3 m above its floor.  With ``spin`` != 0 its six walls are kinematic
    bodies (r10-editor's ``Body.kinematic``) turning at ``spin`` rad/s
    about the cube's y axis, which ``drive_tumbler`` keeps on their circles before
    each step; with ``spin`` = 0 they are static shapes."""
    _count("balls", balls, 0)
    _count("boxes", boxes, 0)
    if balls + boxes > 27:
        raise ValueError(f"balls + boxes must be at most 27 (three layers of nine), not {balls + boxes}")
    if not math.isfinite(spin):
        raise ValueError(f"spin must be finite, not {spin!r}")
    centre = TUMBLER_CENTRE
    thick, half = 0.05, TUMBLER_HALF
    walls = {}
    for axis in range(3):
        for side in (-1, 1):
            extents = np.full(3, half + 2 * thick)
            extents[axis] = thick
            offset = np.zeros(3)
            offset[axis] = side * (half + thick)
            walls[f"wall {'xyz'[axis]}{'-+'[side > 0]}"] = (extents, centre + offset)
    inside = [sphere_body(f"ball {i}", [0.0, 0.0, 0.0], 0.2) for i in range(balls)]
    inside += [box_body(f"box {i}", [0.2, 0.2, 0.2], [0.0, 0.0, 0.0]) for i in range(boxes)]
    for i, body in enumerate(inside):
        body.position = centre + np.array([(i % 3 - 1) * 0.5, (i // 3 % 3 - 1) * 0.5, -half + 0.3 + i // 9 * 0.5])
    statics = _floor()
    bodies = inside
    if spin == 0:
        statics.update({name: ConvexPolyhedron.box(extents, at) for name, (extents, at) in walls.items()})
    else:
        omega = np.array([0.0, spin, 0.0])
        for name, (extents, at) in walls.items():
            wall = replace(box_body(name, extents, at), kinematic=True, angular_velocity=omega)
            bodies = bodies + [wall]
    return World(bodies, statics, restitution=0.3, friction=0.5)


def drive_tumbler(world: World, dt: float) -> None:
    """Set each kinematic wall's velocity to the chord that takes its centre along its
    circle about the tumbler's axis over the next ``dt``: with r its offset from the
    axis and R the turn by ω·dt, v = (R r - r) / dt (the tangent ω × r would spiral
    out by |r|(ω dt)²/2 a step)."""
    _positive("dt", dt)
    centre = TUMBLER_CENTRE
    for body in world.bodies:
        if body.kinematic:
            offset = body.position - centre
            angle = body.angular_velocity * dt
            size = float(np.linalg.norm(angle))
            turned = offset if size == 0 else (
                offset * math.cos(size) + np.cross(angle / size, offset) * math.sin(size)
                + angle / size * float(angle / size @ offset) * (1 - math.cos(size)))
            body.velocity = (turned - offset) / dt


def rope_bridge(links: int = 20, sag: float = math.radians(30.0), load: bool = True) -> World:
    """``links`` planks (0.5 m long with 4 cm between them, 1 m wide, 5 cm thick)
    hung on a circular arc whose ends, 2 m above the floor at its lowest, turn ``sag``
    from the horizontal; each plank joined to the next by two ball joints 0.45 m either
    side of the middle (``joints.BallJoint``: the bridge bends along but does not
    twist), the end planks to the world.  With ``load``, a box 0.4 m across (0.064 kg,
    a plank 0.023 kg) dropped 5 cm onto the middle plank.

    The arc: joint k at C + R(sin α_k, 0, -cos α_k), α_k = -sag + 2k·sag/links, R =
    ℓ / (2 sin(sag/links)) so that neighbouring joints are ℓ = 0.5 m apart."""
    from sweeplab.playground.joints import BallJoint  # (r10-joints: #36's contract)

    _count("links", links, 1)
    if not math.isfinite(sag) or not 0 < sag < math.pi / 2:
        raise ValueError(f"sag must be within (0, pi/2) radians, not {sag!r}")
    length, lowest = 0.5, 2.0
    radius = length / (2 * math.sin(sag / links))
    angles = [-sag + 2 * k * sag / links for k in range(links + 1)]
    ends = [np.array([radius * math.sin(a), 0.0, lowest + radius * (1 - math.cos(a))]) for a in angles]
    bodies = []
    for k in range(links):
        along = (ends[k + 1] - ends[k]) / length
        frame = np.stack([along, [0.0, 1.0, 0.0], np.cross(along, [0.0, 1.0, 0.0])], axis=1)
        bodies.append(box_body(f"plank {k}", [length / 2 - 0.02, 0.5, 0.025], (ends[k] + ends[k + 1]) / 2,
                               rotation=frame))
    if load:
        middle = bodies[links // 2]
        top = float(np.max(middle.world_shape().vertices[:, 2]))
        bodies.append(box_body("load", [0.2, 0.2, 0.2], [middle.position[0], 0.0, top + 0.25]))
    world = World(bodies, _floor(), restitution=0.0, friction=0.6)
    for k, end in enumerate(ends):
        first, second = (f"plank {k - 1}", f"plank {k}") if 0 < k < links else (f"plank {min(k, links - 1)}", None)
        for side in (-0.45, 0.45):
            world.add_joint(BallJoint(first, second, end + [0.0, side, 0.0]))
    return world


RAGDOLL = {
    "torso": ((0.0, 0.0, 1.1), (0.0, 0.0, 1.45), 0.15), "head": ((0.0, 0.0, 1.78), (0.0, 0.0, 1.78), 0.12),
    "left upper arm": ((0.0, 0.27, 1.45), (0.0, 0.52, 1.45), 0.06),
    "right upper arm": ((0.0, -0.27, 1.45), (0.0, -0.52, 1.45), 0.06),
    "left forearm": ((0.0, 0.66, 1.45), (0.0, 0.9, 1.45), 0.05),
    "right forearm": ((0.0, -0.66, 1.45), (0.0, -0.9, 1.45), 0.05),
    "left thigh": ((0.0, 0.1, 0.55), (0.0, 0.1, 0.82), 0.07),
    "right thigh": ((0.0, -0.1, 0.55), (0.0, -0.1, 0.82), 0.07),
    "left shin": ((0.0, 0.1, 0.1), (0.0, 0.1, 0.4), 0.06), "right shin": ((0.0, -0.1, 0.1), (0.0, -0.1, 0.4), 0.06),
}
"""A person standing with its feet at z = 0, facing +x, arms out along ±y: each part's
capsule ends and radius (the head a sphere: both ends alike), 3 to 7 cm apart."""
RAGDOLL_CONES = [
    ("torso", "head", (0.0, 0.0, 1.63), (0.0, 0.0, 1.0), math.pi / 6),
    ("torso", "left upper arm", (0.0, 0.18, 1.45), (0.0, 1.0, 0.0), math.pi / 3),
    ("torso", "right upper arm", (0.0, -0.18, 1.45), (0.0, -1.0, 0.0), math.pi / 3),
    ("torso", "left thigh", (0.0, 0.1, 0.92), (0.0, 0.0, -1.0), math.pi / 4),
    ("torso", "right thigh", (0.0, -0.1, 0.92), (0.0, 0.0, -1.0), math.pi / 4),
]
"""The ragdoll's cone joints in the standing pose: the two parts, the world anchor,
the cone's axis and its half angle (radians)."""
RAGDOLL_HINGES = [
    ("left forearm", "left upper arm", (0.0, 0.595, 1.45), (0.0, 0.0, 1.0), -2.5, 0.0),
    ("right forearm", "right upper arm", (0.0, -0.595, 1.45), (0.0, 0.0, 1.0), 0.0, 2.5),
    ("left shin", "left thigh", (0.0, 0.1, 0.475), (0.0, 1.0, 0.0), 0.0, 2.5),
    ("right shin", "right thigh", (0.0, -0.1, 0.475), (0.0, 1.0, 0.0), 0.0, 2.5),
]
"""Its hinges: the two parts, the world anchor, the axis and the limits (radians, the
first part's turn from the pose relative to the second about the axis, right-handed,
as ``joints.HingeJoint`` measures it: a forearm bends forwards, towards +x, a shin
backwards)."""


def ragdoll(steps: int = 5, push: float = 1.5) -> World:
    """The ``RAGDOLL`` on the landing of a flight of stairs going down along +x, 30 cm
    above it, pushed along +x at ``push`` m/s: it topples down the stairs.  The stairs:
    static boxes 2 m wide, ``steps`` steps of 20 cm rise and 30 cm run, the landing
    1.5 m deep at 0.2·``steps`` m, the last step down onto the floor."""
    from sweeplab.playground.joints import ConeJoint, HingeJoint  # (r10-joints: #36's contract)

    _count("steps", steps, 1)
    if not math.isfinite(push):
        raise ValueError(f"push must be finite, not {push!r}")
    rise, run = 0.2, 0.3
    statics = _floor()
    statics["landing"] = ConvexPolyhedron.box([0.75, 1.0, rise * steps / 2], [-0.75, 0.0, rise * steps / 2])
    for k in range(1, steps):
        height = rise * (steps - k)
        statics[f"step {k}"] = ConvexPolyhedron.box([run / 2, 1.0, height / 2], [run * (k - 0.5), 0.0, height / 2])
    lift = np.array([-0.5, 0.0, rise * steps + 0.3])
    bodies = []
    for name, (a, b, radius) in RAGDOLL.items():
        a, b = np.asarray(a) + lift, np.asarray(b) + lift
        body = sphere_body(name, a, radius) if np.array_equal(a, b) else capsule_body(name, a, b, radius)
        body.velocity = np.array([push, 0.0, 0.0])
        bodies.append(body)
    world = World(bodies, statics, restitution=0.1, friction=0.8)
    for first, second, anchor, axis, half_angle in RAGDOLL_CONES:
        world.add_joint(ConeJoint(first, second, np.asarray(anchor) + lift, np.asarray(axis, float), half_angle))
    for first, second, anchor, axis, lower, upper in RAGDOLL_HINGES:
        world.add_joint(HingeJoint(first, second, np.asarray(anchor) + lift, np.asarray(axis, float), lower, upper))
    return world


POND_HALF = 1.5
"""The duck pond's inner half size (m): a 3 m square pool, of 5 cm columns by default
(a body's footprint is sampled at column centres: a duck 8 columns across)."""
POND_DEPTH = 0.3
"""Its water's depth (m)."""


def duck_pond(drops: int = 2, cell_size: float = 0.05) -> World:
    """A pool ``2·POND_HALF`` m square and ``POND_DEPTH`` deep on the floor (columns of
    ``cell_size``; the raft's sides on column faces at the default), walled by four
    static boxes 0.1 m thick rising 0.5 m above the water, with four bodies of density
    500 floating in it at rest, their centres at the water's level (half under: a
    sphere, a box and a capsule lying, symmetric about their middle plane, float so),
    and the first ``drops`` of a box and a sphere (density 800) held 0.6 m above the
    water between the floaters: they fall in and their waves rock the floaters.
    The water starts at rest around the floaters (``Pool.settle``), the floaters
    lifted with the level their volume raises.  Densities are kg/m³ here (water: 1000)."""
    _count("drops", drops, 0)
    if drops > 2:
        raise ValueError(f"drops must be at most 2, not {drops!r}")
    _positive("cell_size", cell_size)
    cells = round(2 * POND_HALF / cell_size)
    if cells < 4 or abs(cells * cell_size - 2 * POND_HALF) > 1e-9 * POND_HALF:
        raise ValueError(f"cell_size must divide {2 * POND_HALF} m into at least 4 columns, not {cell_size!r}")
    pool = Pool((cells, cells), cell_size, POND_DEPTH, corner=(-POND_HALF, -POND_HALF))
    level = POND_DEPTH
    bodies = [sphere_body("duck", [-0.6, -0.5, level], 0.2, density=500.0),
              box_body("raft", [0.3, 0.2, 0.05], [0.5, -0.4, level], density=500.0),
              capsule_body("log", [-0.9, 0.6, level], [-0.1, 0.6, level], 0.12, density=500.0),
              sphere_body("ball", [0.6, 0.7, level], 0.15, density=500.0)]
    falling = [box_body("crate", [0.15, 0.15, 0.15], [0.0, -0.3, level + 0.75], density=800.0),
               sphere_body("stone", [0.0, 0.6, level + 0.75], 0.15, density=800.0)]
    statics = _floor()
    thick, high = 0.05, (POND_DEPTH + 0.5) / 2
    for axis in range(2):
        for side in (-1, 1):
            extents = [POND_HALF + 2 * thick, POND_HALF + 2 * thick, high]
            extents[axis] = thick
            at = [0.0, 0.0, high]
            at[axis] = side * (POND_HALF + thick)
            statics[f"wall {'xy'[axis]}{'-+'[side > 0]}"] = ConvexPolyhedron.box(extents, at)
    for _ in range(3):  # the floaters lifted with the level their own volume raises
        rise = pool.settle(bodies) - level
        level += rise
        for body in bodies:
            body.position = body.position + [0.0, 0.0, rise]
    return World(bodies + falling[:drops], statics, restitution=0.2, friction=0.5, pool=pool)


def scene_of(world: World) -> Scene:
    """The world as a scene document, for the editor to draw and run: each body an
    object of its shape's kind in its pose (a polyhedron's body-space corners with the
    body's position as ``origin`` and its axes, the rows of Rᵀ, as ``axes``), each
    static shape a plane or a polyhedron in the world; nothing moving."""
    objects = []
    for body in world.bodies:
        shape = body.shape
        if isinstance(shape, Sphere):
            params = {"center": body.position.tolist(), "radius": float(shape.radius)}
        elif isinstance(shape, Capsule):
            posed = body.world_shape()
            params = {"a": np.asarray(posed.a, float).tolist(), "b": np.asarray(posed.b, float).tolist(),
                      "radius": float(shape.radius)}
        else:
            params = {"vertices": np.asarray(shape.vertices, float).tolist(), "origin": body.position.tolist(),
                      "axes": body.rotation.T.tolist()}
        objects.append(SceneObject(body.name, KIND[type(shape)], params))
    for name, static in world.statics.items():
        if isinstance(static, Plane):
            params = {"normal": np.asarray(static.normal, float).tolist(), "offset": float(static.offset)}
        elif isinstance(static, ConvexPolyhedron):
            params = {"vertices": np.asarray(static.vertices, float).tolist(), "origin": [0.0, 0.0, 0.0],
                      "axes": np.eye(3).tolist()}
        else:
            raise ValueError(f"world: static shape {name!r} is a {type(static).__name__}, not a plane or polyhedron")
        objects.append(SceneObject(name, KIND[type(static)], params))
    return Scene(objects)


KIND = {Sphere: "sphere", Capsule: "capsule", ConvexPolyhedron: "polyhedron", Plane: "plane"}
"""The scene kind of each shape type ``scene_of`` writes."""


SCENES: dict[str, Callable[[], World]] = {
    "pyramid": pyramid, "card house": card_house, "spinning plate": spinning_plate, "tumbler": tumbler,
    "rope bridge": rope_bridge, "ragdoll": ragdoll, "duck pond": duck_pond,
}
"""The stress scenes by name, built with their default arguments (the editor's
Playground panel offers them)."""
