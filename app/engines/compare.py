"""How an engine's answer compares with sweeplab's: the kinds of verdict, worst
first, and the tolerances, which follow the engine's precision.

Kinds (``SEVERITY``).  Real disagreements (``REAL``): ``hit`` (the hit flags differ
by more than a graze: the engine misses a contact or invents one), ``start`` (the
shapes overlap at t = 0 beyond a graze and the engine says miss), ``t`` (both hit,
|dt| beyond the tolerance), ``normal`` (both hit, the normals further apart than
the angle).  ``unconverged``: sweeplab's own turning sweep ran out of
conservative advancement steps (``SweepResult.advancement``), so it has no answer
to judge the engine's by (listed, neither real nor a tolerance effect: a finding
about sweeplab).  Tolerance effects (``TOLERANCE_EFFECTS``): ``graze`` (the hit flags
differ, but the configuration's margin — ``engines.margin``: how deep the contact
gets, or how far apart the shapes pass — is within the graze tolerance times its
size) and ``convention`` (both hit at t = 0 with the cores themselves meeting,
where no normal is defined, and the normals differ).  Then ``agrees`` and
``unsupported`` (not judged).  A hit/miss disagreement's size is |margin| (deepest
first; infinite where no margin is known, so it is never ranked below a measured
one), a ``t``'s |dt|, a ``normal``'s or ``convention``'s angle.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sweeplab.engines.exact import cores_meet_at_start
from sweeplab.engines.margin import margin, size
from sweeplab.scene.query_log import EngineAnswer
from sweeplab.physics import SweepResult

SEVERITY = {"hit": 6, "start": 5, "t": 4, "normal": 3, "graze": 2, "convention": 1, "unconverged": 1, "agrees": 0,
            "unsupported": -1}
"""Kinds of verdict, worst first."""
REAL = ("hit", "start", "t", "normal")
"""The kinds that are disagreements of substance (``sweeplab triage`` exits 1 on any)."""
TOLERANCE_EFFECTS = ("graze", "convention")
"""The kinds listed as disagreements but counted apart: round-off and conventions."""
T_TOLERANCE = {"float64": 1e-6, "float32": 1e-4}
"""|dt| allowed by default, by the engine's precision (t is a fraction of the sweep)."""
NORMAL_TOLERANCE = {"float64": 1e-3, "float32": 1e-2}
"""Angle between the normals allowed by default (radians), by the engine's precision."""
GRAZE_TOLERANCE = {"float64": 1e-12, "float32": 1e-5}
"""|margin| / size within which a hit/miss disagreement is a graze, by the engine's
precision (size: ``engines.margin.size``, the configuration's largest magnitude).

A distance computed from coordinates of magnitude L carries a round-off of a few
ulps of L, and an engine's iterations (conservative advancement, GJK) add tens more:
float64's ulp is 2.2e-16 L, so 1e-12 L (4,500 ulps) covers that with room, and a
missed contact 1e-9 deep in a unit scene is still reported; float32's ulp is
1.2e-7 L, so 1e-5 L (84 ulps; the t tolerance is 1e-4).  The contacts the fuzzer's
grazing draws make on purpose pass within 1e-16 to 1e-15 of touching at L ~ 3."""


@dataclass(frozen=True)
class Tolerances:
    """Tolerances given on the command line; None: the engine's precision's default."""

    t: float | None = None
    normal: float | None = None
    graze: float | None = None

    def __post_init__(self) -> None:
        for name in ("t", "normal", "graze"):
            value = getattr(self, name)
            if value is not None and not value >= 0:
                raise ValueError(f"the {name} tolerance must be a number >= 0, got {value!r}")

    def for_precision(self, precision: str) -> tuple[float, float, float]:
        """(|dt|, normal angle, graze) allowed for an engine of ``precision``."""
        return (T_TOLERANCE[precision] if self.t is None else self.t,
                NORMAL_TOLERANCE[precision] if self.normal is None else self.normal,
                GRAZE_TOLERANCE[precision] if self.graze is None else self.graze)


DEFAULT_TOLERANCES = Tolerances()
"""The tolerances by the engine's precision (``T_TOLERANCE``, ``NORMAL_TOLERANCE``, ``GRAZE_TOLERANCE``)."""


def compare(answer: EngineAnswer, ours: SweepResult, precision: str, tolerances: Tolerances = DEFAULT_TOLERANCES,
            *, shapes: tuple, contact: tuple[float, float] = (0.0, 0.0),
            turn: dict | None = None) -> tuple[str, float, str]:
    """(kind, size, a sentence) of the engine's answer against sweeplab's to
    ``shapes`` = (moving, target, direction), the physics shapes of the query, the
    moving one turning as ``turn`` says (``sweep``'s keyword arguments; None or
    empty: it does not); ``contact`` = (offset, tolerance): where the engine's
    contact is, as ``contact_offset`` says (``ours`` is then sweeplab's answer for
    that contact)."""
    t_tolerance, normal_tolerance, graze_tolerance = tolerances.for_precision(precision)
    steps = ours.advancement
    if steps is not None and not bool(steps.converged):
        return "unconverged", 0.0, (f"sweeplab's turning sweep ran out of steps ({int(steps.iterations)}): no contact "
                                    f"before t = {float(steps.safe_until)!r}, no answer after; engine says "
                                    f"{f'hit at t = {answer.t!r}' if answer.hit else 'miss'}")
    if bool(answer.hit) != bool(ours.hit):
        return _flipped(answer, ours, shapes, graze_tolerance, contact, turn or {})
    if not ours.hit:
        return "agrees", 0.0, "both miss"
    if answer.t is not None:
        gap = abs(answer.t - float(ours.t))
        if gap > t_tolerance:
            return "t", gap, f"engine t = {answer.t!r}, sweeplab t = {float(ours.t)!r} (|dt| = {gap:.3g})"
    if answer.normal is not None:
        angle = _angle(np.asarray(answer.normal, float), np.asarray(ours.normal, float))
        if angle > normal_tolerance:
            said = (f"normals {math.degrees(angle):.3g}° apart: engine {answer.normal}, "
                    f"sweeplab {[float(v) for v in ours.normal]}")
            if ours.initially_overlapping and _cores_meet(shapes, ours):
                return "convention", angle, f"the cores meet at t = 0, where a normal is a convention: {said}"
            return "normal", angle, said
    return "agrees", 0.0, "both hit, t and normal within tolerance"


def _flipped(answer: EngineAnswer, ours: SweepResult, shapes: tuple, graze_tolerance: float,
             contact: tuple[float, float], turn: dict) -> tuple[str, float, str]:
    """A hit/miss disagreement judged by the margin: graze, start or hit.  For an
    engine whose contact is at separation δ (up to δ + ε: ``contact``) the margin m is
    measured from there: the shapes reach m + δ past that contact, up to m + δ + ε,
    and the flip is a graze when that interval comes within the bound of 0."""
    said = f"engine says {f'hit at t = {answer.t!r}' if answer.hit else 'miss'}; sweeplab says {_said(ours)}"
    found = margin(*shapes, **turn)
    if found is None:
        kind = "start" if ours.initially_overlapping else "hit"
        return kind, math.inf, f"{said} (no margin known for this pair)"
    offset, band = contact
    bound = graze_tolerance * size(*shapes)
    how = f"overlap by {found:.3g}" if found > 0 else f"pass {-found:.3g} apart" if found < 0 else "touch exactly"
    if offset or band:
        how += f" ({found + offset:.3g} to {found + offset + band:.3g} past the engine's contact)"
    low, high = found + offset, found + offset + band
    away = max(low, -high, 0.0)  # how far the interval [low, high] is from 0
    if away <= bound:
        return "graze", away, f"{said}; the shapes {how} at their closest (a graze: within {bound:.3g})"
    if ours.initially_overlapping:  # (a GJK cast's overlap, engines.contact_offset, has no depth)
        depth = "" if ours.penetration_depth is None else f" (depth {float(ours.penetration_depth):.3g})"
        return "start", away, f"{said}; the shapes overlap at t = 0{depth}"
    return "hit", away, f"{said}; the shapes {how} at their closest"


def _cores_meet(shapes: tuple, ours: SweepResult) -> bool:
    """Whether the cores meet at t = 0: exactly for point and segment cores against
    each other or a triangle (``exact.cores_meet_at_start``), else by sweeplab's
    depth reaching the summed radius (a polyhedron is its own core: radius 0)."""
    moving, target, _ = shapes
    exact = cores_meet_at_start(moving, target)
    if exact is not None:
        return exact
    radius = sum(float(getattr(shape, "radius", 0.0)) for shape in (moving, target))
    return float(ours.penetration_depth) >= radius


def _said(result: SweepResult) -> str:
    return f"hit at t = {float(result.t)!r}" if result.hit else "miss"


def _angle(a: np.ndarray, b: np.ndarray) -> float:
    """The angle between two directions, accurate for small angles (atan2 of the
    cross and dot products)."""
    return float(math.atan2(np.linalg.norm(np.cross(a, b)), float(np.dot(a, b))))
