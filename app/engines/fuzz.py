"""A differential fuzzer: random, near-grazing and degenerate configurations, each
answered by an engine and by sweeplab; the disagreements shrunk and written out.

A run draws ``count`` configurations of one pair of shape kinds, in thirds:

* ``random`` — shapes anywhere in [-3, 3]^3, the direction aimed near the target;
* ``grazing`` — a hitting configuration slid sideways (perpendicular to the
  direction) to where sweeplab's answer turns from hit to miss, by bisection on
  the whole batch at once: the moving shape passes within round-off of touching;
* ``degenerate`` — radius 0, a capsule of length 0, a capsule parallel to the
  direction or to the other capsule, a triangle with its corners on a line.

The first disagreements (``compare``) of each draw and kind are shrunk
(``shrink``): every float of the configuration, in turn, replaced by 0, an
integer, or itself rounded to 1, 2, … significant digits while the disagreement
keeps its sub-kind and the shapes and motion get no more degenerate than drawn — a
smaller, rounder reproducer of the same bug.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from sweeplab.engines import DRAWS, PAIRS, Adapter
from sweeplab.engines.compare import DEFAULT_TOLERANCES, Tolerances
from sweeplab.engines.contact_offset import compare_at_offset
from sweeplab.engines.shrink import answers, shrink_configuration
from sweeplab.scene.model import SceneObject
from sweeplab.scene.query_log import MOVING, TARGET, Query, query_scene
from sweeplab.scene.shape_kinds import KINDS, RigidMotion, build_shape, posed_vertices
from sweeplab.scene.mesh_sources import default_source
from sweeplab.physics import Capsule, ConvexPolyhedron, Feature, Sphere, SweepResult, Triangle, sweep
from sweeplab.physics.shapes import Shape
from sweeplab.physics.result import MISS

KINDS_BY_NAME = {"sphere": "sphere", "capsule": "capsule", "box": "polyhedron", "triangle": "triangle",
                 "mesh": "mesh"}
BISECTION_STEPS = 60


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
    count: int = 0
    seconds: float = 0.0
    counts: Counter = field(default_factory=Counter)
    """(draw, kind) -> how many configurations."""
    findings: list[Finding] = field(default_factory=list)
    unsupported: str = ""


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


def answer_all(configurations) -> list[tuple[SweepResult, Shape, Shape]]:
    """sweeplab's answer of every configuration, with the physics shapes it answered
    (for the engine: a box's hull is found once a draw, not once a shape): one
    batched query when the target kind batches, else one query a configuration (a
    mesh)."""
    if not configurations:
        return []
    moving_kind, target_kind = configurations[0][0].kind, configurations[0][1].kind
    if target_kind == "mesh":
        shapes = [(build_shape(m.kind, m.params), build_shape("mesh", t.params)) for m, t, _ in configurations]
        return [(sweep(m, t, d), m, t) for (m, t), (_, _, d) in zip(shapes, configurations, strict=True)]
    moving = [c[0].params for c in configurations]
    targets = [c[1].params for c in configurations]
    movers = _batch(moving_kind, _points(moving_kind, moving), moving)
    goals = _batch(target_kind, _points(target_kind, targets), targets)
    batch = sweep(movers, goals, np.array([c[2] for c in configurations]))
    return [(_lane(batch, i), movers[i], goals[i]) for i in range(len(configurations))]


def _lane(batch: SweepResult, i: int) -> SweepResult:
    """Lane ``i`` of a batched answer, as a scalar query's answer."""
    if not batch.hit[i]:
        return MISS
    overlapping = bool(batch.initially_overlapping[i])
    return SweepResult(hit=True, t=float(batch.t[i]), point=batch.point[i], normal=batch.normal[i],
                       face_index=int(batch.face_index[i]) if batch.face_index[i] >= 0 else None,
                       penetration_depth=float(batch.penetration_depth[i]) if overlapping else None,
                       initially_overlapping=overlapping,
                       feature=Feature(str(batch.feature.kind[i]), int(batch.feature.index[i])))


def graze(configurations: list[tuple[SceneObject, SceneObject, list]]) -> list[tuple[SceneObject, SceneObject, list]]:
    """Each hitting configuration slid sideways to where sweeplab's answer turns from
    hit to miss (bisection, all at once); configurations that do not hit are dropped."""
    if not configurations:
        return []
    moving_kind, target_kind = configurations[0][0].kind, configurations[0][1].kind
    rng = np.random.default_rng(len(configurations))
    directions = np.array([c[2] for c in configurations], float)
    side = np.cross(directions, rng.normal(size=(len(directions), 3)))
    side /= np.linalg.norm(side, axis=1, keepdims=True)
    moving = [c[0].params for c in configurations]
    points = _points(moving_kind, moving)
    targets = [c[1].params for c in configurations]
    target_batch = None if target_kind == "mesh" else _batch(target_kind, _points(target_kind, targets), targets)

    movers = _batch(moving_kind, points, moving)  # a box's hull found once, then posed (no hull search a step)

    def hits(offsets: np.ndarray) -> np.ndarray:
        shifted = (movers.posed(np.eye(3), offsets[:, None] * side) if isinstance(movers, ConvexPolyhedron)
                   else _batch(moving_kind, _shifted(points, offsets[:, None] * side), moving))
        if target_batch is None:  # one mesh a query
            return np.array([bool(sweep(shifted[i], build_shape("mesh", targets[i]), directions[i]).hit)
                             for i in range(len(targets))])
        return np.asarray(sweep(shifted, target_batch, directions).hit, bool)

    low, high = np.zeros(len(configurations)), np.full(len(configurations), 20.0)
    usable = hits(low) & ~hits(high)
    for _ in range(BISECTION_STEPS):
        middle = (low + high) / 2
        inside = hits(middle)
        low, high = np.where(inside, middle, low), np.where(inside, high, middle)
    chosen = np.where(rng.random(len(low)) < 0.5, low, high)  # the last hit or the first miss
    return [(SceneObject(MOVING, moving_kind, KINDS[moving_kind].moved(c[0].params,
                                                                      RigidMotion.translate(offset * axis))),
             c[1], c[2])
            for c, offset, axis, keep in zip(configurations, chosen, side, usable, strict=True) if keep]


def run(adapter: Adapter, pair: str, count: int, seed: int, tolerances: Tolerances = DEFAULT_TOLERANCES,
        shrink_each: int = 5, progress=None) -> FuzzReport:
    """Draw ``count`` configurations of ``pair`` (a third of each draw), answer each
    with the engine and sweeplab, and count the verdicts by draw and kind.  Every
    disagreement is kept; the first ``shrink_each`` of each (draw, kind) are shrunk
    (shrinking tries hundreds of variants: all of 10^5 would take hours)."""
    if pair not in PAIRS:
        raise ValueError(f"pair must be one of {', '.join(PAIRS)}, got {pair!r}")
    rng = np.random.default_rng(seed)
    report = FuzzReport(pair, adapter.info.name)
    started = time.perf_counter()
    per_draw = {draw: count // 3 + (1 if number < count % 3 else 0) for number, draw in enumerate(DRAWS)}
    for draw, amount in per_draw.items():
        configurations = [draw_configuration(pair, draw, rng) for _ in range(amount)]
        if draw == "grazing":
            configurations = graze(configurations)
        answered = answer_all(configurations)
        for configuration, (result, moving_shape, target_shape) in zip(configurations, answered, strict=True):
            moving, target, direction = configuration
            shapes = moving_shape, target_shape, direction
            try:
                answer = adapter.answer(*shapes)
            except TypeError as error:
                report.unsupported = f"{adapter.info.name} cannot answer {pair}: {error}"
                report.seconds = time.perf_counter() - started
                return report
            except ValueError:  # a drawn shape this engine refuses (rapier: a hull of collinear corners)
                report.counts[(draw, "unsupported")] += 1
                report.count += 1
                continue
            kind, _, detail = compare_at_offset(answer, result, adapter.info.precision, tolerances, shapes=shapes)
            report.counts[(draw, kind)] += 1
            report.count += 1
            if kind != "agrees":
                query = Query(query_scene(moving, target, direction), adapter.info, answer)
                report.findings.append(Finding(draw, kind, query, query, detail))
                if report.counts[(draw, kind)] <= shrink_each:
                    shrunk = shrink_configuration(adapter, configuration, kind, tolerances)
                    report.findings[-1].shrunk = _query(adapter, shrunk)
                    verdict = _verdict(adapter, shrunk, tolerances)
                    assert verdict is not None  # shrinking keeps a configuration the engine answers
                    report.findings[-1].detail = verdict[1]
            if progress is not None and report.count % 10_000 == 0:
                progress(report.count, count)
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
    kind, _, detail = compare_at_offset(answer, ours, adapter.info.precision, tolerances, shapes=shapes)
    return kind, detail


def _query(adapter: Adapter, configuration) -> Query:
    moving, target, direction = configuration
    answer, _, _ = answers(adapter, configuration)
    return Query(query_scene(moving, target, direction), adapter.info, answer)
