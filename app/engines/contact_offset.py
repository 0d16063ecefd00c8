"""An engine that reports contact short of touching or inside it (Box3D's linear
slop): sweeplab's answer for the engine's own contact, compared with the engine's,
and the sentence saying so.

An answer's ``contact_offset`` δ (length units) is the separation of the surfaces
at which the engine stops: > 0 short of contact, < 0 inside; its
``contact_tolerance`` ε, how much farther apart it may stop (Box3D: 0.00125).  A
stop at separation δ is contact of the same shapes with their radii grown by δ,
which sweeplab answers exactly when a sphere, capsule, point or segment is in the
pair to carry the radius (``grown_pair``: a point grows into a sphere, a segment
into a capsule); for other convex pairs (a box against a box or a triangle) its GJK
cast answers it with the margin grown (``physics.gjk``, to its tolerance).  The
engine's t must then lie between the answers for δ + ε (earliest) and δ (latest).

Where neither applies (a box against a mesh) sweeplab moves its own answer to first
order (``at_offset``): near its contact the separation changes along the sweep at
the rate d·n (d the direction, n sweeplab's normal from the target towards the
moving shape; approaching: d·n < 0),

    s(t) = s0 + (t - t0) d·n,

with s0 = 0 at sweeplab's t0, or s0 = -depth at t0 = 0 when the shapes overlap
there; the engine stops where s = δ:

    t = t0 + (s0 - δ) / |d·n|

— at 0 when that is negative or the shapes start closer than δ, a miss past 1 or
when they do not approach.  Exact for a face against a corner or edges crossing; at
a corner against an edge (where the grown box would be round) it is off by about
δ / (2 |d·n|), and a miss stays a miss there (a graze passing within δ > 0 of
touching is a hit for the engine, found as a ``hit`` disagreement).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from sweeplab.engines.compare import DEFAULT_TOLERANCES, Tolerances, compare
from sweeplab.physics import Capsule, Feature, Point, Segment, Sphere, SweepResult, sweep
from sweeplab.physics.gjk import convex_cast
from sweeplab.physics.result import MISS
from sweeplab.physics.shapes import Shape
from sweeplab.scene.query_log import EngineAnswer


def _radius(shape) -> float | None:
    """The radius a shape can carry (a point's and a segment's: 0), None for one that
    cannot (polygons, polyhedra, meshes, planes)."""
    if isinstance(shape, (Sphere, Capsule)):
        return float(shape.radius)
    return 0.0 if isinstance(shape, (Point, Segment)) else None


def _grown(shape, radius: float | None, by: float):
    """The shape (its radius ``radius``, from ``_radius``) with its radius grown by
    ``by`` (unchanged for 0)."""
    if by == 0 or radius is None:
        return shape
    if isinstance(shape, (Sphere, Point)):
        return Sphere(shape.center if isinstance(shape, Sphere) else shape.p, radius + by)
    return Capsule(shape.a, shape.b, radius + by)


def grown_pair(moving: Shape, target: Shape, offset: float) -> tuple[Shape, Shape] | None:
    """The pair with the sum of its radii grown by ``offset``, the moving shape's
    first (down to 0), the rest the target's; None when the pair cannot carry it
    (no sphere, capsule, point or segment, or radii summing to less than -offset)."""
    moving_radius, target_radius = _radius(moving), _radius(target)
    if moving_radius is None and target_radius is None:
        return None
    if target_radius is None:
        taken = offset
    else:
        taken = 0.0 if moving_radius is None else max(offset, -moving_radius)
    rest = offset - taken
    if (moving_radius is not None and moving_radius + taken < 0) or \
            (rest != 0 and (target_radius is None or target_radius + rest < 0)):
        return None
    return _grown(moving, moving_radius, taken), _grown(target, target_radius, rest)


def at_offset(ours: SweepResult, offset: float, direction) -> SweepResult:
    """sweeplab's answer moved to first order to where the surfaces are ``offset``
    apart (see the module docstring): t shifted (its point and normal kept), a miss
    past t = 1 or when the shapes do not approach, t = 0 when they start within
    ``offset``."""
    if not ours.hit:
        return ours
    start = -float(ours.penetration_depth) if ours.initially_overlapping else 0.0
    if float(ours.t) == 0 and start <= offset:  # the shapes start within the offset: an overlap for the engine
        return dataclasses.replace(ours, t=0.0)
    rate = -float(np.dot(np.asarray(direction, float), np.asarray(ours.normal, float)))
    if rate <= 0:  # not approaching: a shallow overlap never reaches the offset, a tangent contact keeps its t
        return MISS if ours.initially_overlapping else ours
    t = float(ours.t) + (start - offset) / rate
    if t > 1:
        return MISS
    return dataclasses.replace(ours, t=max(t, 0.0), penetration_depth=None, initially_overlapping=False)


def for_separation(ours: SweepResult, moving, target, direction, separation: float,
                   turn: dict | None = None) -> tuple[SweepResult, str]:
    """sweeplab's answer for contact at ``separation``, and how it was found: its
    sweep of the pair grown (``grown_pair``), else its GJK cast with the margin grown
    (convex pairs), else its own answer moved to first order (``at_offset``).  A
    turning query (``turn``: ``sweep``'s keyword arguments) is answered only with the
    radii grown (the cast and the first-order move assume a translation): ``TypeError``
    for a pair with no radius to grow."""
    pair = grown_pair(moving, target, separation)
    if pair is not None:
        return sweep(pair[0], pair[1], direction, **(turn or {})), "the radii grown"
    if turn:
        raise TypeError("sweeplab answers a turning engine's stop short of contact (or inside) only for a pair with "
                        "a sphere, capsule, point or segment to grow")
    try:
        cast = convex_cast(moving, target, direction, grow=separation)
    except TypeError:  # a mesh (or plane) target: no support function
        cast = None
    except ValueError:  # a stop deeper inside than the shapes' rounding: no grown shape reaches it
        cast = None
    if cast is not None and cast.status in ("hit", "miss", "overlap at start"):
        if not cast.hit:
            return MISS, "sweeplab's GJK cast, its margin grown"
        return (SweepResult(hit=True, t=cast.t, point=cast.point, normal=cast.normal, face_index=None,
                            penetration_depth=None, initially_overlapping=cast.status == "overlap at start",
                            feature=Feature(None, None)),
                "sweeplab's GJK cast, its margin grown")
    return at_offset(ours, separation, direction), "moved to first order, t0 + (s0 - offset)/|d·n|"


@dataclass(frozen=True)
class Expected:
    """sweeplab's answers for the engine's latest stop (the surfaces ``offset``
    apart) and, when it has a tolerance and hits, its earliest (``offset +
    tolerance``); how they were found; and the answer the engine's is compared
    with."""

    latest: SweepResult
    earliest: SweepResult | None
    how: str
    compared: SweepResult


def expected_answer(answer: EngineAnswer, ours: SweepResult, moving, target, direction,
                    turn: dict | None = None) -> Expected:
    """sweeplab's answers for the engine's contact: the one compared is the latest
    stop's, or with a ``contact_tolerance`` the stop between the earliest and the
    latest nearest the engine's t — a hit wherever the latest hits, a miss wherever
    the earliest misses, either in between — with the normal sweeplab finds for a
    stop at the separation that t puts the engine at (where the normal turns along
    the sweep, at a corner or an edge, the two ends' normals differ by degrees);
    ``turn``: the moving shape's (``for_separation``)."""
    offset, band = answer.contact_offset or 0.0, answer.contact_tolerance or 0.0
    latest, how = for_separation(ours, moving, target, direction, offset, turn)
    if band == 0 or not answer.hit or answer.t is None:
        return Expected(latest, None, how, latest)
    earliest, _ = for_separation(ours, moving, target, direction, offset + band, turn)
    if not earliest.hit:
        compared = earliest
    elif not latest.hit:
        compared = dataclasses.replace(earliest, t=max(float(earliest.t), answer.t))
    else:  # the engine's stop: its separation found from its t (linear between the ends), its normal there
        t = min(max(answer.t, float(earliest.t)), float(latest.t))
        span = float(latest.t) - float(earliest.t)
        separation = offset + band * (float(latest.t) - t) / span if span > 0 else offset
        matched, _ = for_separation(ours, moving, target, direction, separation, turn)
        compared = dataclasses.replace(matched if matched.hit else latest, t=t)
    return Expected(latest, earliest, how, compared)


def compare_at_offset(answer: EngineAnswer, ours: SweepResult, precision: str,
                      tolerances: Tolerances = DEFAULT_TOLERANCES, *, shapes: tuple,
                      turn: dict | None = None) -> tuple[str, float, str]:
    """``compare.compare`` of the engine's answer with sweeplab's to ``shapes`` =
    (moving, target, direction) for the engine's own contact (``expected_answer``;
    sweeplab's own when the answer has no contact offset or tolerance), the sentence
    saying what sweeplab answers for the engine's stops, how, and at touching.  Every
    engine answer is judged through here; ``turn``: the moving shape's (``sweep``'s
    keyword arguments; None or empty: it does not turn)."""
    if not (answer.contact_offset or answer.contact_tolerance):
        return compare(answer, ours, precision, tolerances, shapes=shapes, turn=turn)
    moving, target, direction = shapes
    expected = expected_answer(answer, ours, moving, target, direction, turn)
    judged = answer
    if expected.compared.hit and expected.compared.normal is None:  # a GJK cast's overlap at start: no normal
        judged = dataclasses.replace(answer, normal=None)
    offset, band = answer.contact_offset or 0.0, answer.contact_tolerance or 0.0
    kind, size, detail = compare(judged, expected.compared, precision, tolerances, shapes=shapes,
                                 contact=(offset, band), turn=turn)
    where = f"{abs(offset):.3g} {'short of touching' if offset > 0 else 'inside'}" if offset else "at touching"
    stops = f"{_said(expected.latest)} for a stop {offset:+.3g} apart"
    if expected.earliest is not None:
        stops = f"{_said(expected.earliest)} for a stop {offset + band:+.3g} apart to {stops}"
    return kind, size, (f"{detail} [the engine stops {where}, up to {band:.3g} farther (contact "
                        f"offset {offset:+.3g}, tolerance {band:.3g}): sweeplab says {stops} ({expected.how}), "
                        f"{_said(ours)} at touching]")


def _said(result: SweepResult) -> str:
    return f"t = {float(result.t)!r}" if result.hit else "miss"
