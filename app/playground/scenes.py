"""Stress scenes (issue #36, section 3): worlds that push the playground where
engines usually fail, each built by one function.

Conventions: z is up, gravity -9.81 along z unless a scene says otherwise, lengths
in metres, the floor is the plane z = 0 named ``"floor"``, density 1 (so a body's
mass is its volume).  Bodies are named by their place (``"row 3 box 2"``), so a
failing test names the body that went wrong.  Each builder validates its arguments
(``ValueError`` naming the argument) and returns a fresh ``World``; ``SCENES`` names
the builders the editor and the bench offer, with their default arguments.

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
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from sweeplab.physics import ConvexPolyhedron, Plane
from sweeplab.playground.world import Body, World, box_body, sphere_body


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
TUMBLER_CENTRE = np.array([0.0, 0.0, 1.5])


def tumbler(spin: float = 1.0, balls: int = 4, boxes: int = 2) -> World:
    """A hollow cube (inner half size ``TUMBLER_HALF``, centred 1.5 m above the
    floor) with ``balls`` spheres (radius 0.2) and ``boxes`` boxes (half size 0.2)
    inside, in rows of three 0.5 m apart along x, rows 0.5 m apart along y, layers
    0.5 m apart from 0.3 m above its floor.  With ``spin`` != 0 its six walls
    are kinematic bodies (r10-editor's ``Body.kinematic``) turning at ``spin`` rad/s
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


SCENES: dict[str, Callable[[], World]] = {
    "pyramid": pyramid, "card house": card_house, "spinning plate": spinning_plate, "tumbler": tumbler,
}
"""The stress scenes by name, built with their default arguments."""
