"""A query log judged: each engine answer against sweeplab's (``engines.compare``),
worst first, with the second opinion's side, and the fixtures that pin sweeplab's
answer.

Each query is answered by sweeplab (float64, on the logged floats as given: the
exact answer for those inputs, also when the engine computed in float32) and by
the second opinion (``engines.second_opinion``: the reference's bisection on
the exact distance, or a GJK cast).  A verdict has a kind (``compare.SEVERITY``):
the real disagreements ``hit`` (the engine misses a contact sweeplab finds, or
invents one, beyond a graze), ``start`` (the shapes overlap at t = 0, which the
engine misses — often a convention, not a bug), ``t`` and ``normal``; the
tolerance effects ``graze`` (a hit/miss flip within the graze tolerance) and
``convention`` (normals where the cores meet at t = 0); ``agrees``.  Verdicts are
ranked by kind, then by size (a flip's |margin|: deepest first), then by line.

A turning query (#35: ``rotation``, ``pivot``, ``interpolation`` in its scene,
``query_log.turn_of``) is answered by sweeplab's turning sweep and its flips
measured by the margin of its poses (``engines.margin``); it has no second opinion
(the reference and the GJK cast sweep without turning).
"""

from __future__ import annotations

from dataclasses import dataclass

from sweeplab.engines.compare import DEFAULT_TOLERANCES, REAL, SEVERITY, TOLERANCE_EFFECTS, Tolerances
from sweeplab.engines.contact_offset import compare_at_offset
from sweeplab.engines.exact import touches_at
from sweeplab.engines.margin import margin
from sweeplab.engines.second_opinion import second_opinion
from sweeplab.scene.fixture import Fixture, make_fixture
from sweeplab.scene.query_log import MOVING, TARGET, Query, turn_of
from sweeplab.scene.shape_kinds import build_shape
from sweeplab.physics import SweepResult, sweep, tolerance


FLIPS = ("hit", "start", "graze")
"""Kinds whose hit flags differ: their verdicts carry the configuration's margin."""


@dataclass
class Verdict:
    """One query judged: ``kind`` (a key of ``SEVERITY``), ``size`` (|dt|, the
    angle, or a flip's |margin|), sweeplab's and the second opinion's answers, and
    for a flip (``FLIPS``) the signed ``margin`` (``engines.margin``: > 0 the depth
    sweeplab's contact reaches, < 0 minus the gap the shapes pass at; None where
    not a flip or none is known)."""

    number: int
    query: Query
    kind: str
    size: float
    ours: SweepResult | None
    reference: SweepResult | None
    detail: str = ""
    margin: float | None = None

    @property
    def severity(self) -> int:
        return SEVERITY[self.kind]

    @property
    def disagrees(self) -> bool:
        """Listed as a disagreement: a real one, a tolerance effect, or sweeplab's
        turning sweep out of steps (``unconverged``)."""
        return self.severity > 0

    @property
    def real(self) -> bool:
        """A disagreement of substance (``compare.REAL``), not a tolerance effect."""
        return self.kind in REAL


def query_shapes(query: Query) -> tuple:
    """(moving, target, direction) of the query, as physics shapes (``ValueError`` for
    bad parameters)."""
    scene = query.scene
    moving, target = scene.object(MOVING), scene.object(TARGET)
    return build_shape(moving.kind, moving.params), build_shape(target.kind, target.params), scene.direction


def sweeplab_answer(query: Query) -> SweepResult:
    """sweeplab's float64 answer to the query, turning as it says (``TypeError`` for a
    pair it has no test for)."""
    return sweep(*query_shapes(query), ignore_separating=query.scene.options["ignore_separating"],
                 **turn_of(query.scene))


def judge(number: int, query: Query, tolerances: Tolerances = DEFAULT_TOLERANCES, reference: bool = True) -> Verdict:
    """How the engine's answer compares with sweeplab's."""
    try:
        ours = sweeplab_answer(query)
    except (TypeError, ValueError) as error:
        return Verdict(number, query, "unsupported", 0.0, None, None, str(error))
    shapes, turn = query_shapes(query), turn_of(query.scene)
    second = second_opinion(*shapes) if reference and not turn else None
    answer = query.answer
    if answer is None:
        return Verdict(number, query, "unsupported", 0.0, ours, second, "the log holds no engine answer")
    try:
        kind, size, detail = compare_at_offset(answer, ours, query.engine.precision, tolerances, shapes=shapes,
                                               turn=turn)
    except TypeError as error:  # a turning engine's stop sweeplab cannot place (contact_offset.for_separation)
        return Verdict(number, query, "unsupported", 0.0, ours, second, str(error))
    return Verdict(number, query, kind, size, ours, second, detail,
                   margin(*shapes, **turn) if kind in FLIPS else None)


def triage(queries: list[Query], tolerances: Tolerances = DEFAULT_TOLERANCES, reference: bool = True,
           numbers: list[int] | None = None) -> list[Verdict]:
    """Every query judged, worst first (kind, then size), then in log order; each
    verdict numbered by ``numbers`` (the queries' file lines), else 1, 2, ..."""
    numbers = list(range(1, len(queries) + 1)) if numbers is None else numbers
    verdicts = [judge(number, query, tolerances, reference) for number, query in zip(numbers, queries, strict=True)]
    return sorted(verdicts, key=lambda verdict: (-verdict.severity, -verdict.size, verdict.number))


def reference_side(verdict: Verdict) -> str:
    """Which side the second opinion takes: "sweeplab", "engine", "both", "neither",
    or "" when there is none.

    A side is right when it shares the second opinion's hit flag and its t is within
    ``tolerance.REFERENCE_TIME_ATOL`` of the second opinion's (bisection's t is only
    ~sqrt(round-off) accurate at a graze) — unless exact arithmetic decides
    (``exact.touches_at``: spheres and capsules against each other or a triangle),
    over the times said (the hits of sweeplab, the engine and the second opinion):
    a side saying hit at a time where the shapes touch exactly is right unless they
    also touch exactly at a time said more than the window earlier (it is late); a
    side saying miss is wrong when they touch exactly at a time said."""
    second, answer, ours = verdict.reference, verdict.query.answer, verdict.ours
    if second is None or answer is None or ours is None:
        return ""
    said = ((bool(ours.hit), float(ours.t) if ours.hit else None),
            (bool(answer.hit), answer.t if answer.hit else None))
    times = [t for hit, t in said if t is not None] + ([float(second.t)] if second.hit else [])
    moving, target, direction = query_shapes(verdict.query)
    touching = {t: touches_at(moving, target, direction, t) for t in times}

    def within_window(hit: bool, t: float | None) -> bool:
        return bool(second.hit) == hit and (not hit or t is None
                                            or abs(float(second.t) - t) <= tolerance.REFERENCE_TIME_ATOL)

    def right(hit: bool, t: float | None) -> bool:
        if None in touching.values():
            return within_window(hit, t)
        if hit and t is not None and touching[t]:
            return not any(touching[u] and u < t - tolerance.REFERENCE_TIME_ATOL for u in times)
        if not hit and any(touching.values()):
            return False
        return within_window(hit, t)

    sides = (right(*said[0]), right(*said[1]))
    return {(True, True): "both", (True, False): "sweeplab", (False, True): "engine"}.get(sides, "neither")


def disagreement_fixture(verdict: Verdict) -> Fixture:
    """sweeplab's answer as a fixture of the query, the engine's answer recorded."""
    query = verdict.query
    answer = {name: value for name, value in vars(query.answer).items() if value is not None}
    fixture = make_fixture(query.scene, note=f"{query.engine.name} ({query.engine.version or 'version unknown'}, "
                                             f"{query.engine.precision}) disagrees ({verdict.kind}): {verdict.detail}")
    fixture.engine = {"name": query.engine.name, "version": query.engine.version,
                      "precision": query.engine.precision, "answers": {TARGET: answer}}
    return fixture


def summary(verdicts: list[Verdict]) -> str:
    """One line: how many queries, how many agree, the real disagreements by kind
    (``compare.REAL``) and the tolerance effects by kind (``compare.TOLERANCE_EFFECTS``)."""
    counts = {kind: sum(verdict.kind == kind for verdict in verdicts) for kind in SEVERITY}
    real, effects = sum(counts[kind] for kind in REAL), sum(counts[kind] for kind in TOLERANCE_EFFECTS)
    parts = [f"{len(verdicts)} queries: {counts['agrees']} agree; {real} real disagreement{'s' * (real != 1)} "
             f"({counts['hit']} hit: engine misses or invents a contact, {counts['start']} overlap at start missed, "
             f"{counts['t']} |dt| beyond tolerance, {counts['normal']} normal); {effects} tolerance "
             f"effect{'s' * (effects != 1)} ({counts['graze']} graze{'s' * (counts['graze'] != 1)}, "
             f"{counts['convention']} normal convention{'s' * (counts['convention'] != 1)} where the cores meet "
             f"at t = 0)"]
    if counts["unconverged"]:
        parts.append(f"{counts['unconverged']} where sweeplab's turning sweep ran out of steps")
    if counts["unsupported"]:
        parts.append(f"{counts['unsupported']} not judged")
    return ", ".join(parts)
