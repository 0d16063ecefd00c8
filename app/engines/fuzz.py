"""A differential fuzzer: random, near-grazing and degenerate configurations, each
answered by an engine and by sweeplab; the disagreements shrunk and written out.

A run draws ``count`` configurations of one pair of shape kinds, in thirds:

* ``random`` — shapes anywhere in [-3, 3]^3, the direction aimed near the target;
* ``grazing`` — a hitting configuration slid sideways (perpendicular to the
  direction) to where sweeplab's answer turns from hit to miss, by bisection on
  the whole batch at once: the moving shape passes within round-off of touching;
* ``degenerate`` — radius 0, a capsule of length 0, a capsule parallel to the
  direction or to the other capsule, a triangle with its corners on a line.

A turning run (``turning``: the interpolation, #35) gives every configuration a
turn of its moving shape about its centroid (``draw_turn``: about its direction, a
spinning bullet or drill, or about a random axis, half and half; an angle up to
``MAX_TURN``), the fourth item of its configuration (``shrink.turn_in``):
sweeplab sweeps it turning (the grazing slide too), the engine is asked it turning
(``engines.ask``) and its log line carries it.

A run is cut into chunks of ``CHUNK_SIZE`` configurations, each drawn from its own
seed (the run's seed spawned by chunk index), judged in a worker process or on a
Dask cluster (``campaign``) and merged in chunk order: the report of a seed is the
same however many processes ran it.  An engine call that kills its worker is a
finding of kind ``crashed`` (``Chunk.after_crash``).

The first real disagreements (``compare.REAL``) of each draw and kind are shrunk
(``shrink``): every float of the configuration, in turn, replaced by 0, an
integer, or itself rounded to 1, 2, … significant digits while the disagreement
keeps its sub-kind and the shapes and motion get no more degenerate than drawn — a
smaller, rounder reproducer of the same bug.  Tolerance effects (grazes,
conventions) and crashes are kept as drawn.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field, replace

import numpy as np

from sweeplab.engines import DRAWS, PAIRS, Adapter, ask
from sweeplab.engines.campaign import NO_QUERY, AdapterRecipe, WorkerLost, workers
from sweeplab.engines.compare import DEFAULT_TOLERANCES, REAL, Tolerances
from sweeplab.engines.contact_offset import compare_at_offset
from sweeplab.engines.shrink import answers, shrink_configuration, turn_in
from sweeplab.scene.model import INTERPOLATIONS, SceneObject
from sweeplab.scene.query_log import MOVING, TARGET, Query, query_scene, turn_of
from sweeplab.scene.shape_kinds import KINDS, RigidMotion, build_shape, posed_vertices
from sweeplab.scene.mesh_sources import default_source
from sweeplab.physics import Capsule, ConvexPolyhedron, Feature, Sphere, SweepResult, Triangle, sweep
from sweeplab.physics.shapes import Shape
from sweeplab.physics.result import MISS
from sweeplab.physics.sweep.turning import Advancement

KINDS_BY_NAME = {"sphere": "sphere", "capsule": "capsule", "box": "polyhedron", "triangle": "triangle",
                 "mesh": "mesh"}
BISECTION_STEPS = 60
MAX_TURN = 3.0
"""The largest angle (radians) of a drawn turn: under π, which neither an engine that
reads a turn from its end pose (fcl) nor ``"nlerp"`` can reach."""


@dataclass
class Finding:
    """A disagreement: the configuration as drawn and shrunk, how it was drawn, the
    kind of disagreement and the engine's and sweeplab's answers (shrunk)."""

    draw: str
    kind: str
    original: Query
    shrunk: Query
    detail: str


@dataclass
class FuzzReport:
    pair: str
    engine: str
    seconds: float = 0.0
    counts: Counter = field(default_factory=Counter)
    """(draw, kind) -> how many configurations."""
    findings: list[Finding] = field(default_factory=list)
    unsupported: str = ""
    cpu_seconds: float = 0.0
    """The workers' CPU time drawing and judging the chunks (``ChunkReport.cpu_seconds``), shrinking not counted."""

    @property
    def count(self) -> int:
        """How many configurations were judged (or refused, or crashed the engine)."""
        return sum(self.counts.values())


def _rotation(rng: np.random.Generator) -> np.ndarray:
    q, r = np.linalg.qr(rng.normal(size=(3, 3)))
    q = q * np.sign(np.diag(r))
    return q if np.linalg.det(q) > 0 else -q


def _point(rng: np.random.Generator, scale: float = 3.0) -> list[float]:
    return rng.uniform(-scale, scale, 3).tolist()


def draw_shape(kind: str, rng: np.random.Generator, degenerate: bool) -> dict:
    """Parameters of one shape of ``kind`` (an editor kind)."""
    if kind == "sphere":
        return {"center": _point(rng), "radius": 0.0 if degenerate else float(rng.uniform(0.05, 1.5))}
    if kind == "capsule":
        a = np.array(_point(rng))
        b = a if degenerate and rng.random() < 0.5 else a + rng.uniform(-3, 3, 3)
        radius = 0.0 if degenerate and rng.random() < 0.3 else float(rng.uniform(0.05, 1.0))
        return {"a": a.tolist(), "b": np.asarray(b).tolist(), "radius": radius}
    if kind == "polyhedron":
        half = rng.uniform(0.2, 1.5, 3)
        corners = [[x * half[0], y * half[1], z * half[2]] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
        return {"vertices": corners, "origin": _point(rng), "axes": _rotation(rng).tolist()}
    if kind == "triangle":
        a, b = np.array(_point(rng)), np.array(_point(rng))
        c = a + rng.uniform(-2, 2) * (b - a) if degenerate else np.array(_point(rng))
        return {"a": a.tolist(), "b": b.tolist(), "c": c.tolist()}
    if kind == "mesh":
        return {"source": default_source("icosphere"), "origin": _point(rng, 1.0), "axes": _rotation(rng).tolist()}
    raise ValueError(f"no fuzzing draw for {kind!r}")


def draw_turn(rng: np.random.Generator, interpolation: str, direction) -> dict:
    """A turn of the moving shape about its centroid (``sweep``'s keyword arguments):
    about ``direction`` (a spin about the path: fcl's screw motion is sweeplab's path
    only then) or a uniformly random axis, half and half; an angle uniform in
    [0, ``MAX_TURN``)."""
    direction = np.asarray(direction, float)
    length = float(np.linalg.norm(direction))
    axis = direction / length if rng.random() < 0.5 and length > 0 else rng.normal(size=3)
    return {"rotation": (axis / np.linalg.norm(axis) * rng.uniform(0.0, MAX_TURN)).tolist(), "pivot": None,
            "interpolation": interpolation}


def _aim(moving: SceneObject, target: SceneObject, rng: np.random.Generator) -> list[float]:
    """A direction from the moving shape towards the target, overshooting or falling
    short at random, a little off."""
    start, goal = KINDS[moving.kind].pivot(moving.params), KINDS[target.kind].pivot(target.params)
    return ((goal - start) * rng.uniform(0.5, 2.0) + rng.normal(0, 0.4, 3)).tolist()


def _degenerate_alignment(moving: SceneObject, target: SceneObject, direction: list[float],
                          rng: np.random.Generator) -> None:
    """Half the degenerate capsules get parallel to the other capsule or to the direction."""
    if moving.kind != "capsule" or rng.random() < 0.5:
        return
    a = np.asarray(moving.params["a"], float)
    length = float(rng.uniform(0.5, 3.0))
    axis = (np.asarray(target.params["b"], float) - np.asarray(target.params["a"], float)
            if target.kind == "capsule" and rng.random() < 0.5 else np.asarray(direction, float))
    norm = float(np.linalg.norm(axis))
    if norm > 0:
        moving.params["b"] = (a + axis / norm * length).tolist()


def draw_configuration(pair: str, draw: str, rng: np.random.Generator) -> tuple[SceneObject, SceneObject, list]:
    moving_kind, target_kind = (KINDS_BY_NAME[name] for name in pair.split("-"))
    degenerate = draw == "degenerate"
    moving = SceneObject(MOVING, moving_kind, draw_shape(moving_kind, rng, degenerate))
    target = SceneObject(TARGET, target_kind, draw_shape(target_kind, rng, degenerate))
    direction = _aim(moving, target, rng)
    if degenerate:
        _degenerate_alignment(moving, target, direction, rng)
    return moving, target, direction


MOVED_FIELDS = {"sphere": ("center",), "capsule": ("a", "b"), "triangle": ("a", "b", "c")}
"""The point fields a translation moves, per batchable kind (a polyhedron: its world corners)."""


def _points(kind: str, params: list[dict]) -> dict[str, np.ndarray]:
    """The moving fields of many shapes of ``kind``, stacked: (N, 3) each, or (N, 8, 3)
    world corners of boxes."""
    if kind == "polyhedron":
        return {"vertices": np.stack([posed_vertices(p) for p in params])}
    return {name: np.array([p[name] for p in params], float) for name in MOVED_FIELDS[kind]}


def _batch(kind: str, points: dict[str, np.ndarray], params: list[dict]):
    """One batched physics shape of many shapes of ``kind`` (``points`` from ``_points``,
    possibly moved; radii from ``params``)."""
    if kind == "sphere":
        return Sphere(points["center"], [p["radius"] for p in params])
    if kind == "capsule":
        return Capsule(points["a"], points["b"], [p["radius"] for p in params])
    if kind == "triangle":
        return Triangle(points["a"], points["b"], points["c"])
    if kind == "polyhedron":
        return ConvexPolyhedron(points["vertices"])
    raise TypeError(f"no batch of {kind}")


def _shifted(points: dict[str, np.ndarray], shift: np.ndarray) -> dict[str, np.ndarray]:
    return {name: array + (shift[:, None, :] if array.ndim == 3 else shift) for name, array in points.items()}


def _batch_turn(configurations) -> dict:
    """``sweep``'s keyword arguments turning each configuration of a batch as drawn
    (``draw_turn``: about its centroid, one interpolation a run); empty for a run
    without turns."""
    turns = [turn_in(c) for c in configurations]
    if not turns[0]:
        return {}
    return {"rotation": np.array([turn["rotation"] for turn in turns], float),
            "interpolation": turns[0]["interpolation"]}


def answer_all(configurations) -> list[tuple[SweepResult, Shape, Shape]]:
    """sweeplab's answer of every configuration, with the physics shapes it answered
    (for the engine: a box's hull is found once a draw, not once a shape): one
    batched query when the target kind batches, else one query a configuration (a
    mesh)."""
    if not configurations:
        return []
    moving_kind, target_kind = configurations[0][0].kind, configurations[0][1].kind
    if target_kind == "mesh":
        shapes = [(build_shape(c[0].kind, c[0].params), build_shape("mesh", c[1].params)) for c in configurations]
        return [(sweep(m, t, c[2], **turn_in(c)), m, t) for (m, t), c in zip(shapes, configurations, strict=True)]
    moving = [c[0].params for c in configurations]
    targets = [c[1].params for c in configurations]
    movers = _batch(moving_kind, _points(moving_kind, moving), moving)
    goals = _batch(target_kind, _points(target_kind, targets), targets)
    batch = sweep(movers, goals, np.array([c[2] for c in configurations]), **_batch_turn(configurations))
    return [(_lane(batch, i), movers[i], goals[i]) for i in range(len(configurations))]


def _lane(batch: SweepResult, i: int) -> SweepResult:
    """Lane ``i`` of a batched answer, as a scalar query's answer (a turning one's
    ``advancement`` with it: whether it converged)."""
    steps = batch.advancement
    if steps is not None:
        steps = Advancement(int(steps.iterations[i]), bool(steps.converged[i]), float(steps.safe_until[i]))
    if not batch.hit[i]:
        return MISS if steps is None else replace(MISS, advancement=steps)
    overlapping = bool(batch.initially_overlapping[i])
    return SweepResult(hit=True, t=float(batch.t[i]), point=batch.point[i], normal=batch.normal[i],
                       face_index=int(batch.face_index[i]) if batch.face_index[i] >= 0 else None,
                       penetration_depth=float(batch.penetration_depth[i]) if overlapping else None,
                       initially_overlapping=overlapping,
                       feature=Feature(str(batch.feature.kind[i]), int(batch.feature.index[i])), advancement=steps)


def graze(configurations: list[tuple[SceneObject, SceneObject, list]],
          rng: np.random.Generator) -> list[tuple[SceneObject, SceneObject, list]]:
    """Each hitting configuration slid sideways to where sweeplab's answer turns from
    hit to miss (bisection, all at once), along an axis across its direction drawn
    from ``rng`` (the chunk's, so each seed and chunk grazes its own way), to the last
    hit or the first miss at random; configurations that do not hit are dropped."""
    if not configurations:
        return []
    moving_kind, target_kind = configurations[0][0].kind, configurations[0][1].kind
    directions = np.array([c[2] for c in configurations], float)
    side = np.cross(directions, rng.normal(size=(len(directions), 3)))
    side /= np.linalg.norm(side, axis=1, keepdims=True)
    moving = [c[0].params for c in configurations]
    points = _points(moving_kind, moving)
    targets = [c[1].params for c in configurations]
    target_batch = None if target_kind == "mesh" else _batch(target_kind, _points(target_kind, targets), targets)
    turn = _batch_turn(configurations)

    movers = _batch(moving_kind, points, moving)  # a box's hull found once, then posed (no hull search a step)

    def hits(offsets: np.ndarray) -> np.ndarray:
        shifted = (movers.posed(np.eye(3), offsets[:, None] * side) if isinstance(movers, ConvexPolyhedron)
                   else _batch(moving_kind, _shifted(points, offsets[:, None] * side), moving))
        if target_batch is None:  # one mesh a query
            return np.array([bool(sweep(shifted[i], build_shape("mesh", targets[i]), directions[i],
                                        **turn_in(configurations[i])).hit) for i in range(len(targets))])
        return np.asarray(sweep(shifted, target_batch, directions, **turn).hit, bool)

    low, high = np.zeros(len(configurations)), np.full(len(configurations), 20.0)
    usable = hits(low) & ~hits(high)
    for _ in range(BISECTION_STEPS):
        middle = (low + high) / 2
        inside = hits(middle)
        low, high = np.where(inside, middle, low), np.where(inside, high, middle)
    chosen = np.where(rng.random(len(low)) < 0.5, low, high)  # the last hit or the first miss
    return [(SceneObject(MOVING, moving_kind, KINDS[moving_kind].moved(c[0].params,
                                                                      RigidMotion.translate(offset * axis))),
             *c[1:])
            for c, offset, axis, keep in zip(configurations, chosen, side, usable, strict=True) if keep]


CHUNK_SIZE = 1000
"""Configurations a chunk of a run draws (the last one fewer): fixed, so that a seed
draws the same configurations however many processes run the chunks."""
CRASHED = "crashed"
"""The kind of a finding whose engine call killed its worker process (a segfault, an abort)."""


@dataclass
class ChunkReport:
    """What one chunk found: counts by (draw, kind), its disagreements in drawing order."""

    engine: str = ""
    counts: Counter = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)
    unsupported: str = ""
    cpu_seconds: float = 0.0
    """The worker's CPU time drawing and judging the chunk (its start and imports not counted)."""


@dataclass(frozen=True)
class Chunk:
    """``size`` configurations of ``pair`` (a third of each draw: ``thirds``) drawn
    from ``seed``, each turning by ``turning`` (an interpolation: ``draw_turn``; None:
    not turning), answered by the adapter of ``recipe``; the queries at ``crashed``
    positions (in drawing order) killed a worker: reported, not asked again."""

    recipe: AdapterRecipe
    pair: str
    seed: np.random.SeedSequence
    size: int
    tolerances: Tolerances
    crashed: frozenset[int] = frozenset()
    turning: str | None = None

    def __call__(self, mark) -> ChunkReport:
        return judge_chunk(self, mark)

    def after_crash(self, position: int | None) -> Chunk:
        """This chunk with the query at ``position`` reported as a crash; ``WorkerLost``
        when the worker died outside an engine call, or on a query not asked (a crash
        there is not the engine's: asked again, it would crash again)."""
        if position is None or position in self.crashed:
            raise WorkerLost(f"a fuzzing worker died outside an engine call (chunk {self.seed.spawn_key} of "
                             f"seed {self.seed.entropy}): out of memory, or a crash in sweeplab itself")
        return replace(self, crashed=self.crashed | {position})


def chunk_sizes(count: int, chunk_size: int) -> list[int]:
    """``count`` configurations in chunks of ``chunk_size``, the last one the rest."""
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be 1 or more, got {chunk_size}")
    return [min(chunk_size, count - first) for first in range(0, count, chunk_size)]


def thirds(count: int) -> dict[str, int]:
    """How many configurations of each draw make ``count``: a third each, the first draws one more."""
    return {draw: count // 3 + (1 if number < count % 3 else 0) for number, draw in enumerate(DRAWS)}


def judge_chunk(chunk: Chunk, mark) -> ChunkReport:
    """Draw ``chunk``'s configurations, answer each with the engine and sweeplab, and
    count the verdicts by draw and kind (``mark``: the position of the query in the
    engine, ``campaign.Marker``)."""
    cpu_started = time.process_time()
    adapter = chunk.recipe.build()
    rng = np.random.default_rng(chunk.seed)
    report = ChunkReport(adapter.info.name)
    position = -1
    for draw, amount in thirds(chunk.size).items():
        configurations: list[tuple] = [draw_configuration(chunk.pair, draw, rng) for _ in range(amount)]
        if chunk.turning is not None:
            configurations = [(*c, draw_turn(rng, chunk.turning, c[2])) for c in configurations]
        if draw == "grazing":
            configurations = graze(configurations, rng)
        answered = answer_all(configurations)
        for configuration, (result, moving_shape, target_shape) in zip(configurations, answered, strict=True):
            moving, target, direction = configuration[:3]
            turn = turn_in(configuration)
            position += 1
            if position in chunk.crashed:
                query = Query(query_scene(moving, target, direction, turn=turn), adapter.info, None,
                              note=f"{draw} draw: the engine crashed its worker process on this query")
                report.findings.append(Finding(draw, CRASHED, query, query, "engine crashed (its worker died)"))
                report.counts[(draw, CRASHED)] += 1
                continue
            shapes = moving_shape, target_shape, direction
            mark(position)  # the engine's call only: a crash in sweeplab's own code is an error, not a finding
            try:
                answer = ask(adapter, *shapes, turn)
            except TypeError as error:
                report.unsupported = f"{adapter.info.name} cannot answer {chunk.pair}: {error}"
                return report
            except ValueError:  # a drawn shape this engine refuses (rapier: a hull of collinear corners)
                report.counts[(draw, "unsupported")] += 1
                continue
            finally:
                mark(NO_QUERY)
            try:
                kind, _, detail = compare_at_offset(answer, result, adapter.info.precision, chunk.tolerances,
                                                    shapes=shapes, turn=turn)
            except TypeError as error:  # a turning engine's stop sweeplab cannot place (contact_offset)
                report.unsupported = f"{adapter.info.name}'s answers to {chunk.pair} cannot be judged: {error}"
                return report
            report.counts[(draw, kind)] += 1
            if kind != "agrees":
                query = Query(query_scene(moving, target, direction, turn=turn), adapter.info, answer)
                report.findings.append(Finding(draw, kind, query, query, detail))
    report.cpu_seconds = time.process_time() - cpu_started
    return report


@dataclass(frozen=True)
class Shrink:
    """The shrinking of one finding (``original``, of ``kind``) with the adapter of
    ``recipe``: (the shrunk query, its verdict's sentence); None, the finding staying
    as drawn, when a variant crashes the engine (marks none: it is given up whatever
    was in the engine) or when the shrunk configuration, its shapes built afresh, is
    judged another kind (the drawn batch's hull and a fresh one can round apart)."""

    recipe: AdapterRecipe
    original: Query
    kind: str
    tolerances: Tolerances

    def __call__(self, mark) -> tuple[Query, str] | None:
        adapter, scene = self.recipe.build(), self.original.scene
        configuration = (scene.object(MOVING), scene.object(TARGET), list(scene.direction), turn_of(scene))
        shrunk = shrink_configuration(adapter, configuration, self.kind, self.tolerances)
        verdict = _verdict(adapter, shrunk, self.tolerances)
        if verdict is None or verdict[0] != self.kind:  # built afresh it is another finding: kept as drawn
            return None
        return _query(adapter, shrunk), verdict[1]

    def after_crash(self, position: int | None) -> None:
        return None


def run(recipe: AdapterRecipe, pair: str, count: int, seed: int, tolerances: Tolerances = DEFAULT_TOLERANCES,
        shrink_each: int = 5, jobs: int = 1, scheduler: str | None = None,
        chunk_size: int = CHUNK_SIZE, turning: str | None = None) -> FuzzReport:
    """Draw ``count`` configurations of ``pair`` in chunks of ``chunk_size`` (a third
    of each draw), chunk ``k`` from the ``k``-th seed ``SeedSequence(seed)`` spawns;
    answer each with the engine (``recipe``'s adapter) and sweeplab in ``jobs`` worker
    processes (0: in this one), or on the Dask cluster at ``scheduler``
    (``campaign.workers``); merge the chunks in order.  Every disagreement is kept;
    the first ``shrink_each`` real ones (``compare.REAL``) of each (draw, kind) in that
    order are shrunk (shrinking tries hundreds of variants: all of 10^5 would take
    hours).  The report is the same for a seed whatever ``jobs`` or ``scheduler``.
    ``turning``: the interpolation every configuration's moving shape turns by
    (``draw_turn``); None: no turns."""
    if pair not in PAIRS:
        raise ValueError(f"pair must be one of {', '.join(PAIRS)}, got {pair!r}")
    if count < 1:
        raise ValueError(f"count must be 1 or more, got {count}")
    started = time.perf_counter()
    sizes = chunk_sizes(count, chunk_size)
    seeds = np.random.SeedSequence(seed).spawn(len(sizes))
    if turning not in (None, *INTERPOLATIONS):
        raise ValueError(f"turning must be one of {', '.join(INTERPOLATIONS)} or None, got {turning!r}")
    chunks = [Chunk(recipe, pair, chunk_seed, size, tolerances, turning=turning)
              for chunk_seed, size in zip(seeds, sizes, strict=True)]
    report = FuzzReport(pair, "")
    with workers(jobs, scheduler) as pool:
        for part in pool.map(chunks):
            report.engine = part.engine
            if part.unsupported:
                report.unsupported = part.unsupported
                break
            report.counts.update(part.counts)
            report.findings += part.findings
            report.cpu_seconds += part.cpu_seconds
        chosen: list[Finding] = []
        seen: Counter[tuple[str, str]] = Counter()
        for finding in report.findings:
            seen[(finding.draw, finding.kind)] += 1
            if finding.kind in REAL and seen[(finding.draw, finding.kind)] <= shrink_each:
                chosen.append(finding)
        shrinkings = [Shrink(recipe, finding.original, finding.kind, tolerances) for finding in chosen]
        for finding, shrunk in zip(chosen, pool.map(shrinkings), strict=True):
            if shrunk is not None:
                finding.shrunk, finding.detail = shrunk
    report.seconds = time.perf_counter() - started
    return report


def _verdict(adapter: Adapter, configuration, tolerances: Tolerances) -> tuple[str, str] | None:
    """(kind, sentence), or None when the engine cannot answer the pair."""
    try:
        answer, ours, shapes = answers(adapter, configuration)
    except TypeError:
        return None
    except ValueError as error:  # a drawn shape the physics refuses (cannot happen by construction)
        return "unsupported", str(error)
    kind, _, detail = compare_at_offset(answer, ours, adapter.info.precision, tolerances, shapes=shapes,
                                        turn=turn_in(configuration))
    return kind, detail


def _query(adapter: Adapter, configuration) -> Query:
    moving, target, direction = configuration[:3]
    answer, _, _ = answers(adapter, configuration)
    return Query(query_scene(moving, target, direction, turn=turn_in(configuration)), adapter.info, answer)
