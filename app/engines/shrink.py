"""Faithful shrinking: a fuzzer's disagreement made smaller and rounder without
turning it into another one.

Every float of the configuration, in turn, is tried at 0, at an integer and at
itself rounded to 1, 2, … significant digits; a candidate is kept only while

* its **sub-kind** (``SubKind``) is the original's: compare's kind, which side says
  hit, whether sweeplab's answer starts at t = 0 and overlapping, and whether
  sweeplab's hit is deep or a graze (``is_deep``: ``hit_margin`` against
  ``GRAZE_FRACTION`` of the configuration's extent) — a miss of a penetrating hit stays that, never a miss
  of a touch, and a compare that grows new kinds makes the sub-kind stricter with
  no change here;
* it is **as degenerate as** the original, no more (``as_degenerate_as``): the
  direction's length, each radius, a capsule's length, a triangle's height and a
  box's thickness, each as a fraction of the configuration's extent, stays at least
  the original's fraction or ``DEGENERATE_FRACTION``, whichever is smaller.  A
  non-zero length stays non-zero (zero motion, zero-size shapes at the origin are
  not a reproducer of a miss of proper capsules); a length drawn zero stays zero.

A body frame (``axes``) and a mesh's ``source`` are left as drawn: a rounded frame
is a shear, not a turn.  A configuration is (moving, target, direction), or with a
fourth item, the moving shape's turn (``turn_in``): that is kept as drawn too.
Passes repeat until one changes nothing (at most ``SHRINK_PASSES``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sweeplab.engines import Adapter, ask
from sweeplab.engines.compare import Tolerances
from sweeplab.engines.contact_offset import compare_at_offset
from sweeplab.physics import ConvexPolyhedron, SweepResult, sweep
from sweeplab.physics.sweep.turning import Motion, centroid, posed
from sweeplab.scene.model import SceneObject, plain_copy
from sweeplab.scene.query_log import MOVING, TARGET
from sweeplab.scene.shape_kinds import KINDS, RigidMotion, build_shape

SHRINK_PASSES = 4
"""Passes over every float at most (a pass that changes nothing ends it sooner)."""
GRAZE_FRACTION = 1e-3
"""A sweeplab hit whose margin (``hit_margin``) is below this fraction of the
configuration's extent is a graze: within reach of a miss, where either answer may be
right.  Deep and grazing hits are different sub-kinds."""
DEGENERATE_FRACTION = 1e-3
"""A length (``degeneracies``) below this fraction of the configuration's extent is
tiny: shrinking may take a length down to this fraction (or to the original's, if
smaller), no further."""


@dataclass(frozen=True)
class SubKind:
    """What a disagreement is, finer than compare's kind: shrinking keeps all of it."""

    kind: str
    ours_hit: bool
    """With the kind, which side says hit (a "hit" disagreement: sweeplab's side)."""
    ours_at_start: bool
    """sweeplab's answer is at t = 0 (touching or overlapping at the start)."""
    ours_overlapping: bool
    ours_deep: bool
    """sweeplab hits by at least ``GRAZE_FRACTION`` of the extent (False for a miss)."""


def turn_in(configuration) -> dict:
    """The moving shape's turn in a configuration (moving, target, direction[, turn]):
    ``sweep``'s keyword arguments, empty when it does not turn."""
    return configuration[3] if len(configuration) > 3 else {}


def answers(adapter: Adapter, configuration):
    """(the engine's answer, sweeplab's, the physics shapes and direction) of a
    configuration, its shapes built afresh, the moving one turning as drawn."""
    moving, target, direction = configuration[:3]
    turn = turn_in(configuration)
    shapes = build_shape(moving.kind, moving.params), build_shape(target.kind, target.params), direction
    return ask(adapter, *shapes, turn), sweep(*shapes, **turn), shapes


def extent(configuration) -> float:
    """The configuration's extent: the largest of the direction's length and the
    diagonal of the box around both shapes' anchor points, widened by their radii —
    where it is (a translation-free length for the degeneracies), not how far from the
    origin (``margin.size``: the round-off scale of the graze tolerance)."""
    moving, target, direction = configuration[:3]
    points = np.concatenate([KINDS[o.kind].anchor_points(o.params) for o in (moving, target)])
    radius = max(float(o.params.get("radius", 0.0)) for o in (moving, target))
    diagonal = float(np.linalg.norm(np.ptp(points, axis=0))) + 2 * radius
    return max(diagonal, float(np.linalg.norm(direction)))


def hit_margin(configuration, ours: SweepResult) -> float:
    """How far sweeplab's hit is from a miss, a length: the penetration depth when
    the shapes overlap at t = 0, else the length of the path the moving shape spends
    touching the target within the sweep,

        margin = (t_last - t) |d|,

    t_last = 1 - s, s the first contact of the moving shape swept back from its end
    (along -d; s = 0 when it still touches at the end; a turning one posed at its
    end and turned back by -rotation about its pivot there, which retraces its path
    for slerp and nlerp alike).  A graze touches and leaves: its margin is ~0.  0 for
    a miss."""
    if not ours.hit:
        return 0.0
    if ours.initially_overlapping:
        return float(ours.penetration_depth)
    moving, target, direction = configuration[:3]
    direction, turn = np.asarray(direction, float), turn_in(configuration)
    shape = build_shape(moving.kind, moving.params)
    back_turn = {}
    if turn:
        at_end = posed(shape, Motion(direction, **turn), 1.0)
        pivot = centroid(shape) if turn.get("pivot") is None else np.asarray(turn["pivot"], float)
        back_turn = {"rotation": -np.asarray(turn["rotation"], float), "pivot": pivot + direction,
                     "interpolation": turn.get("interpolation", "slerp")}
    elif isinstance(shape, ConvexPolyhedron):
        at_end = shape.posed(np.eye(3), direction)  # no hull search
    else:
        at_end = build_shape(moving.kind, KINDS[moving.kind].moved(moving.params, RigidMotion.translate(direction)))
    back = sweep(at_end, build_shape(target.kind, target.params), -direction, **back_turn)
    if not back.hit:  # (a touch at the very end, lost to rounding on the way back)
        return 0.0
    return max(1.0 - float(back.t) - float(ours.t), 0.0) * float(np.linalg.norm(direction))


def is_deep(margin: float, scale: float) -> bool:
    """Whether a hit's margin makes it deep, not a graze, in a configuration of extent
    ``scale``: margin >= ``GRAZE_FRACTION`` * scale, and a touch (margin 0) never is."""
    return margin > 0 and margin >= GRAZE_FRACTION * scale


def sub_kind(adapter: Adapter, configuration, tolerances: Tolerances) -> SubKind | None:
    """The configuration's ``SubKind``; None where the engine cannot answer it
    (``TypeError``), a shape is refused (``ValueError``) or the engine fails on it
    (``ZeroDivisionError``)."""
    try:
        answer, ours, shapes = answers(adapter, configuration)
    except (TypeError, ValueError, ZeroDivisionError):
        return None
    kind = compare_at_offset(answer, ours, adapter.info.precision, tolerances, shapes=shapes,
                             turn=turn_in(configuration))[0]
    deep = bool(ours.hit) and is_deep(hit_margin(configuration, ours), extent(configuration))
    return SubKind(kind, bool(ours.hit), bool(ours.hit) and float(ours.t) == 0.0,
                   bool(ours.initially_overlapping), deep)


def degeneracies(configuration) -> dict[str, float]:
    """Each length that is zero in a degenerate configuration, as a fraction of the
    configuration's ``extent`` (0 when it is 0): ``direction``, and per shape its
    ``radius``, a capsule's ``length``, a triangle's ``height`` (twice its area over
    its longest side) and a box's ``thickness`` (its smallest extent along its body
    axes)."""
    moving, target, direction = configuration[:3]
    lengths = {"direction": float(np.linalg.norm(direction))}
    for shape in (moving, target):
        lengths.update({f"{shape.name} {name}": value for name, value in _shape_lengths(shape).items()})
    scale = extent(configuration)
    return {name: value / scale if scale > 0 else 0.0 for name, value in lengths.items()}


def _shape_lengths(shape: SceneObject) -> dict[str, float]:
    params = shape.params
    lengths = {"radius": float(params["radius"])} if "radius" in params else {}
    if shape.kind == "capsule":
        lengths["length"] = float(np.linalg.norm(np.subtract(params["b"], params["a"])))
    elif shape.kind == "triangle":
        a, b, c = (np.asarray(params[name], float) for name in ("a", "b", "c"))
        longest = max(float(np.linalg.norm(edge)) for edge in (b - a, c - b, a - c))
        lengths["height"] = float(np.linalg.norm(np.cross(b - a, c - a))) / longest if longest > 0 else 0.0
    elif shape.kind == "polyhedron":
        lengths["thickness"] = float(np.ptp(np.asarray(params["vertices"], float), axis=0).min())
    return lengths


def as_degenerate_as(candidate: dict[str, float], original: dict[str, float]) -> bool:
    """Whether ``candidate``'s lengths (``degeneracies``) are as degenerate as the
    original's, no more: each at least the original's or ``DEGENERATE_FRACTION``,
    whichever is smaller, and each that was zero still zero (a point stays a point)."""
    return all(candidate[name] >= min(value, DEGENERATE_FRACTION) and (value > 0 or candidate[name] == 0)
               for name, value in original.items())


def candidates(value: float) -> list[float]:
    """Simpler values to try in place of ``value``, simplest first."""
    found = [0.0, float(round(value))]
    for digits in range(1, 8):
        found.append(float(f"{value:.{digits}g}"))
    return [candidate for candidate in dict.fromkeys(found) if candidate != value]


def shrink_configuration(adapter: Adapter, configuration, kind: str, tolerances: Tolerances):
    """A smaller, rounder configuration with the original's ``SubKind`` and no more
    degenerate (module docstring); the configuration itself when its own sub-kind is
    not of ``kind`` (the engine cannot answer it, or a fresh build answers otherwise
    than the fuzzer's batch did)."""
    moving, target, direction = configuration[:3]
    turn = configuration[3:]  # (kept as drawn)
    goal = sub_kind(adapter, configuration, tolerances)
    if goal is None or goal.kind != kind:
        return configuration
    floor = degeneracies(configuration)
    state = {"moving": plain_copy(moving.params), "target": plain_copy(target.params), "direction": list(direction)}

    def current():
        return (SceneObject(MOVING, moving.kind, plain_copy(state["moving"])),
                SceneObject(TARGET, target.kind, plain_copy(state["target"])), list(state["direction"]), *turn)

    def faithful() -> bool:
        shrunk = current()
        return as_degenerate_as(degeneracies(shrunk), floor) and sub_kind(adapter, shrunk, tolerances) == goal

    for _ in range(SHRINK_PASSES):
        changed = False
        for path in list(_leaves(state)):
            original = _get(state, path)
            for candidate in candidates(original):
                _put(state, path, candidate)
                if faithful():
                    changed = True
                    break
                _put(state, path, original)
        if not changed:
            break
    return current()


def _leaves(value, path=()):
    """Paths to every float of nested dicts and lists, a body frame's and a mesh
    source's excepted."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in ("source", "axes"):
                yield from _leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, (*path, index))
    elif isinstance(value, float):
        yield path


def _get(state, path):
    for key in path:
        state = state[key]
    return state


def _put(state, path, value) -> None:
    _get(state, path[:-1])[path[-1]] = value

