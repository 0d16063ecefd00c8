"""A query log judged: each engine answer against sweeplab's (``engines.compare``),
worst first, with the second opinion's side, and the fixtures that pin sweeplab's
answer.

Each query is answered by sweeplab (float64, on the logged floats as given: the
exact answer for those inputs, also when the engine computed in float32) and by
the second opinion (``engines.second_opinion``: the reference's bisection on
the exact distance, or a GJK cast).  A disagreement has a kind, ranked by
severity: ``hit`` (the engine says hit where sweeplab says miss, or the other
way), ``start`` (the shapes overlap at t = 0, which the engine misses — often a
convention, not a bug), ``t`` (both hit, |dt| beyond the tolerance), ``normal``
(both hit, the normals more than the angle apart, when the engine gives one).
"""

from __future__ import annotations

from dataclasses import dataclass

from sweeplab.engines.compare import DEFAULT_TOLERANCES, SEVERITY, Tolerances
from sweeplab.engines.contact_offset import compare_at_offset
from sweeplab.engines.second_opinion import second_opinion
from sweeplab.scene.fixture import Fixture, make_fixture
from sweeplab.scene.query_log import MOVING, TARGET, Query
from sweeplab.scene.shape_kinds import build_shape
from sweeplab.physics import SweepResult, sweep, tolerance


@dataclass
class Verdict:
    """One query judged: ``kind`` (a key of ``SEVERITY``), ``size`` (|dt| or the
    angle; for a flipped hit, 1), and sweeplab's and the second opinion's answers."""

    number: int
    query: Query
    kind: str
    size: float
    ours: SweepResult | None
    reference: SweepResult | None
    detail: str = ""

    @property
    def severity(self) -> int:
        return SEVERITY[self.kind]

    @property
    def disagrees(self) -> bool:
        return self.severity > 0


def sweeplab_answer(query: Query) -> SweepResult:
    """sweeplab's float64 answer to the query (``TypeError`` for a pair it has no test for)."""
    scene = query.scene
    moving, target = scene.object(MOVING), scene.object(TARGET)
    return sweep(build_shape(moving.kind, moving.params), build_shape(target.kind, target.params), scene.direction,
                 ignore_separating=scene.options["ignore_separating"])


def judge(number: int, query: Query, tolerances: Tolerances = DEFAULT_TOLERANCES, reference: bool = True) -> Verdict:
    """How the engine's answer compares with sweeplab's."""
    try:
        ours = sweeplab_answer(query)
    except (TypeError, ValueError) as error:
        return Verdict(number, query, "unsupported", 0.0, None, None, str(error))
    second = None
    if reference:
        scene = query.scene
        moving, target = scene.object(MOVING), scene.object(TARGET)
        second = second_opinion(build_shape(moving.kind, moving.params), build_shape(target.kind, target.params),
                                scene.direction)
    answer = query.answer
    if answer is None:
        return Verdict(number, query, "unsupported", 0.0, ours, second, "the log holds no engine answer")
    scene = query.scene
    moved, still = (build_shape(shape.kind, shape.params) for shape in (scene.object(MOVING), scene.object(TARGET)))
    kind, size, detail = compare_at_offset(answer, ours, moved, still, scene.direction, query.engine.precision,
                                           tolerances)
    return Verdict(number, query, kind, size, ours, second, detail)


def triage(queries: list[Query], tolerances: Tolerances = DEFAULT_TOLERANCES, reference: bool = True,
           numbers: list[int] | None = None) -> list[Verdict]:
    """Every query judged, worst first (kind, then size), then in log order; each
    verdict numbered by ``numbers`` (the queries' file lines), else 1, 2, ..."""
    numbers = list(range(1, len(queries) + 1)) if numbers is None else numbers
    verdicts = [judge(number, query, tolerances, reference) for number, query in zip(numbers, queries, strict=True)]
    return sorted(verdicts, key=lambda verdict: (-verdict.severity, -verdict.size, verdict.number))


def reference_side(verdict: Verdict) -> str:
    """Which side the second opinion takes: "sweeplab", "engine", "both", "neither",
    or "" when there is none.  It agrees with a side whose hit flag it shares and
    whose t is within ``tolerance.REFERENCE_TIME_ATOL`` of its own (bisection's t is
    only ~sqrt(round-off) accurate at a graze)."""
    second, answer, ours = verdict.reference, verdict.query.answer, verdict.ours
    if second is None or answer is None or ours is None:
        return ""

    def agrees(hit, t) -> bool:
        return bool(second.hit) == bool(hit) and (not hit or t is None
                                                   or abs(float(second.t) - t) <= tolerance.REFERENCE_TIME_ATOL)

    sides = (agrees(ours.hit, float(ours.t) if ours.hit else None), agrees(answer.hit, answer.t))
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
    """One line: how many queries, how many agree, how many disagree by kind."""
    counts = {kind: sum(verdict.kind == kind for verdict in verdicts) for kind in SEVERITY}
    disagreeing = sum(counts[kind] for kind in ("hit", "start", "t", "normal"))
    parts = [f"{len(verdicts)} queries: {counts['agrees']} agree, {disagreeing} disagree "
             f"({counts['hit']} hit flipped, {counts['start']} overlap at start missed, {counts['t']} |dt| beyond "
             f"tolerance, {counts['normal']} normal)"]
    if counts["unsupported"]:
        parts.append(f"{counts['unsupported']} not judged")
    return ", ".join(parts)
