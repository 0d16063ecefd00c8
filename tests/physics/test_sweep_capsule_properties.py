"""Capsule sweeps against a brute-force reference (bisection on the exact
segment distance, written here) and invariants."""

from __future__ import annotations

import importlib
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from physics import Capsule, Plane, Point, Polygon, Sphere, sweep, tolerance
from physics.reference import first_touch, minimum_time, segment_closest_points
from tests.physics.brute_force import Core, closest_on_segment
from tests.physics.strategies import convex_polygons, direction, radius, targets, vector

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TARGETS = ("point", "sphere", "segment", "capsule", "plane", "triangle", "polygon")


def _sub(a, b):
    return tuple(x - y for x, y in zip(a, b))


def _dot(a, b):
    return sum(x * y for x, y in zip(a, b))


@st.composite
def configurations(draw, kind):
    return Capsule(draw(vector), draw(vector), draw(radius)), draw(targets(kind)), draw(direction)


def closest_points(capsule: Capsule, target, offset):
    """(point on the moving core, point on the target core, target radius) at a given
    translation of the capsule."""
    p0 = tuple(float(v) for v in capsule.a + offset)
    p1 = tuple(float(v) for v in capsule.b + offset)
    if isinstance(target, Plane):
        normal, level = tuple(target.normal), float(target.offset)
        heights = (_dot(p0, normal) - level, _dot(p1, normal) - level)
        if heights[0] * heights[1] <= 0:  # crossing: a point of the core is on the plane
            s = heights[0] / (heights[0] - heights[1]) if heights[0] != heights[1] else 0.0
            point = tuple(a + s * (b - a) for a, b in zip(p0, p1))
            return point, point, 0.0
        nearest = p0 if abs(heights[0]) <= abs(heights[1]) else p1
        height = heights[0] if nearest is p0 else heights[1]
        return nearest, tuple(x - height * n for x, n in zip(nearest, normal)), 0.0
    if isinstance(target, (Point, Sphere)):
        center = tuple(float(v) for v in (target.p if isinstance(target, Point) else target.center))
        point = closest_on_segment(center, p0, p1)
        return point, center, 0.0 if isinstance(target, Point) else float(target.radius)
    if isinstance(target, Polygon):  # triangles too
        return _closest_to_polygon(p0, p1, [tuple(float(x) for x in v) for v in target.vertices])
    q0, q1 = tuple(float(v) for v in target.a), tuple(float(v) for v in target.b)
    moving_point, target_point = segment_closest_points(p0, p1, q0, q1)
    return moving_point, target_point, float(getattr(target, "radius", 0.0))


def _closest_to_polygon(p0, p1, vertices):
    """Closest points of a segment and a convex polygon: the end points against the
    polygon (triangle fan, Ericson), the segment against every edge, and a point
    where the segment pierces the polygon (distance 0)."""
    polygon = Core("polygon", tuple(vertices))
    candidates = [(end, polygon.closest(end)) for end in (p0, p1)]
    count = len(vertices)
    for i in range(count):
        candidates.append(segment_closest_points(p0, p1, vertices[i], vertices[(i + 1) % count]))
    normal = np.zeros(3)
    for i in range(count):
        normal += np.cross(np.subtract(vertices[i], vertices[0]), np.subtract(vertices[(i + 1) % count], vertices[0]))
    if np.linalg.norm(normal) > 0:
        heights = [float(np.dot(normal, np.subtract(end, vertices[0]))) for end in (p0, p1)]
        if heights[0] * heights[1] <= 0 and heights[0] != heights[1]:
            s = heights[0] / (heights[0] - heights[1])
            pierce = tuple(a + s * (b - a) for a, b in zip(p0, p1))
            candidates.append((pierce, polygon.closest(pierce)))
    moving_point, target_point = min(candidates, key=lambda pair: math.dist(*pair))
    return moving_point, target_point, 0.0


def gap_at(capsule: Capsule, target, offset) -> float:
    """Distance between the capsule translated by ``offset`` and the target (< 0: overlap)."""
    moving_point, target_point, target_radius = closest_points(capsule, target, offset)
    return math.dist(moving_point, target_point) - float(capsule.radius) - target_radius


def scale_of(capsule, target, d):
    arrays = [capsule.a, capsule.b, capsule.radius, d] + [getattr(target, name) for name in target._fields]
    return 1.0 + max(float(np.max(np.abs(a))) for a in arrays)


@pytest.mark.parametrize("kind", TARGETS)
def test_matches_brute_force(kind):
    @SETTINGS
    @given(configurations(kind))
    def check(config):
        capsule, target, d = config
        result = sweep(capsule, target, d)

        def gap(t):
            return gap_at(capsule, target, t * d)

        margin = tolerance.LENGTH_RTOL * scale_of(capsule, target, d)
        closest = gap(minimum_time(gap))
        if abs(closest) <= margin:
            return
        expected = first_touch(gap)
        assert result.hit == (expected is not None), (result, expected)
        if not result.hit:
            return
        if result.initially_overlapping:
            # a minimum translation: moving by depth along the normal leaves the shapes just touching
            assert result.t == 0 and result.penetration_depth >= -gap(0.0) - margin
            assert abs(gap_at(capsule, target, result.penetration_depth * result.normal)) <= margin
            return
        assert abs(gap(result.t)) <= margin, "touching at t"
        assert all(gap(result.t * k / 16) >= -margin for k in range(16)), "no overlap before t"
        moving_point, target_point, _ = closest_points(capsule, target, result.t * d)
        separation = np.subtract(moving_point, target_point)
        if np.linalg.norm(separation) > 1e-3 * scale_of(capsule, target, d):
            assert np.linalg.norm(result.normal - separation / np.linalg.norm(separation)) <= tolerance.NORMAL_ATOL

    check()


@pytest.mark.parametrize("kind", TARGETS)
def test_swapped_subject(kind):
    @SETTINGS
    @given(configurations(kind))
    def check(config):
        capsule, target, d = config
        direct = sweep(capsule, target, d)
        swapped = sweep(target, capsule, -d)
        assert swapped.hit == direct.hit
        if direct.hit:
            assert abs(swapped.t - direct.t) <= tolerance.EXACT_RTOL * scale_of(capsule, target, d)

    check()


def test_batch_matches_scalar():
    @SETTINGS
    @given(st.lists(configurations("capsule"), min_size=1, max_size=6))
    def check(configs):
        moving = Capsule(np.stack([c[0].a for c in configs]), np.stack([c[0].b for c in configs]),
                         np.stack([c[0].radius for c in configs]))
        targets = Capsule(np.stack([c[1].a for c in configs]), np.stack([c[1].b for c in configs]),
                          np.stack([c[1].radius for c in configs]))
        directions = np.stack([c[2] for c in configs])
        batch = sweep(moving, targets, directions)
        for i in range(len(configs)):
            scalar = sweep(moving[i], targets[i], directions[i])
            assert batch.hit[i] == scalar.hit
            if scalar.hit:
                assert batch.t[i] == scalar.t and np.array_equal(batch.normal[i], scalar.normal)
                assert np.array_equal(batch.point[i], scalar.point)

    check()


@pytest.mark.parametrize("kind", ["capsule", "polygon"])
def test_large_batch_matches_scalar(kind):
    """A batch beyond ``CHUNK_SIZE`` runs the capsule kernels one candidate per pass
    (a small query stacks them into one pass): the answers agree bit for bit."""
    from physics import Triangle
    from physics.sweep.batching import CHUNK_SIZE

    rng = np.random.default_rng(11)
    count = CHUNK_SIZE
    moving = Capsule(rng.uniform(-3, 3, (count, 3)), rng.uniform(-3, 3, (count, 3)), rng.uniform(0, 1, count))
    if kind == "capsule":
        target = Capsule(rng.uniform(-3, 3, (count, 3)), rng.uniform(-3, 3, (count, 3)), rng.uniform(0, 1, count))
    else:
        target = Triangle(*rng.uniform(-3, 3, (3, count, 3)))
    directions = rng.uniform(-6, 6, (count, 3))
    batch = sweep(moving, target, directions)
    assert 0.2 * count < np.sum(batch.hit) < count
    for i in rng.choice(count, 60, replace=False):
        element = sweep(moving[i], target[i], directions[i])
        assert batch.hit[i] == element.hit
        if element.hit:
            assert batch.t[i] == element.t and np.array_equal(batch.normal[i], element.normal)
            assert np.array_equal(batch.point[i], element.point)
            assert (batch.feature.kind[i], batch.feature.index[i]) == (element.feature.kind, element.feature.index)


def _touching_threshold(exact, start, end, direction, vertices) -> float:
    """The smallest float radius at which the exact t = 0 test calls a capsule core
    and a polygon touching (found by bisection on the float's bit pattern)."""
    def touching(radius):
        with np.errstate(all="ignore"):
            return bool(exact(start, end, direction, vertices, np.asarray(radius), False, ())[0])

    def radius_of(bits: int) -> float:
        return float(np.int64(bits).view(np.float64))

    low, high = 0, int(np.float64(np.inf).view(np.int64))  # bit patterns; touching(+inf) always
    if touching(0.0):
        return 0.0
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if touching(radius_of(middle)) else (middle, high)
    return radius_of(high)


@settings(max_examples=80, deadline=None)
@given(vector, vector, direction, st.sampled_from([3, 4, 5]).flatmap(convex_polygons),
       st.one_of(st.none(), st.floats(-2, 2)), st.sampled_from([1e-3, 1.0, 1e3]), st.sampled_from([0.0, 1e6]))
def test_start_cull_keeps_every_lane_the_exact_test_touches(start, end, motion, polygon, height, scale, shift):
    """The box cull before the exact t = 0 test skips only lanes that cannot touch:
    at the radius where the exact test starts to call a core and a polygon touching
    (and one float either side), culled and exact answers agree in every field.
    With a ``height``, the polygon lies flat in z and the core level above it: the
    distance is then a box gap, where the cull's margin matters."""
    capsule_module = importlib.import_module("physics.sweep.capsule")
    if height is not None:
        polygon[:, 2] = polygon[0, 2]
        start[2] = end[2] = polygon[0, 2] + height
    start, end, polygon = start * scale + shift, end * scale + shift, polygon * scale + shift
    motion = motion * scale
    threshold = _touching_threshold(capsule_module._exact_polygon_at_start, start, end, motion, polygon)
    for trial_radius in (np.nextafter(threshold, 0), threshold, np.nextafter(threshold, np.inf)):
        with np.errstate(all="ignore"):
            exact = capsule_module._exact_polygon_at_start(start, end, motion, polygon, np.asarray(trial_radius), False, ())
            culled = capsule_module._polygon_at_start(start, end, motion, polygon, np.asarray(trial_radius), False, ())
        assert bool(exact[0]) == bool(culled[0])
        for exact_field, culled_field in zip(exact[1], culled[1]):
            assert np.array_equal(exact_field, culled_field, equal_nan=True)
