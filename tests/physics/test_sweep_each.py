"""``sweep_each`` and ``sweep_sphere_targets``: many targets in one kernel call, each
answer bit for bit the answer of its own ``sweep``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from physics import Capsule, Plane, Point, Polygon, Segment, Sphere, Triangle, TriangleMesh, sweep
from physics.sweep import sweep_each, sweep_sphere_targets
from tests.physics.expect import assert_hit, assert_identical, assert_miss
from tests.physics.strategies import direction, radius, targets, vector

MIXED_KINDS = ("point", "sphere", "segment", "capsule", "plane", "triangle", "polygon")


def in_float32(shape):
    """The same shape with float32 coordinates (None when rounding makes it invalid)."""
    try:
        return type(shape)(*[np.asarray(getattr(shape, name), np.float32) for name in shape._fields])
    except ValueError:
        return None


@st.composite
def mixed_targets(draw):
    """1 to 8 targets of any kinds, some in float32."""
    drawn = draw(st.lists(st.sampled_from(MIXED_KINDS).flatmap(targets), min_size=1, max_size=8))
    singles = draw(st.lists(st.booleans(), min_size=len(drawn), max_size=len(drawn)))
    converted = [in_float32(target) if single else target for target, single in zip(drawn, singles)]
    return [target for target in converted if target is not None] or drawn


@st.composite
def aimed_motions(draw, drawn, center, always=False):
    """A motion from ``center`` towards a point near one of the targets (most random
    motions miss everything), or (unless ``always``) any motion."""
    if not always and not draw(st.booleans()):
        return draw(direction)
    target = drawn[draw(st.integers(0, len(drawn) - 1))]
    if isinstance(target, Plane):
        aim = target.normal * target.offset
    else:
        aim = np.mean(target.core_vertices().astype(float), axis=0)
    return draw(st.floats(0.5, 2)) * (aim + draw(vector) / 10 - center)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mixed_targets(), vector, radius, st.booleans(), st.booleans(), st.data())
def test_each_answer_is_the_answer_of_its_own_sweep(drawn, center, sphere_radius, as_point, ignore_separating,
                                                    data):
    motion = data.draw(aimed_motions(drawn, center))
    moving = Point(center) if as_point else Sphere(center, sphere_radius)
    answers = sweep_each(moving, drawn, motion, ignore_separating=ignore_separating)
    assert len(answers) == len(drawn)
    for answer, target in zip(answers, drawn):
        assert_identical(answer, sweep(moving, target, motion, ignore_separating=ignore_separating))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(["triangle", "polygon", "segment", "point"]).flatmap(targets), min_size=2,
                max_size=5), vector, radius, st.data())
def test_padded_cores_answer_as_alone(drawn, center, sphere_radius, data):
    """Polygons of 3 to 6 vertices, segments and points in one batch (the most
    padding), with the sphere always aimed at one of them."""
    motion = data.draw(aimed_motions(drawn, center, always=True))
    for answer, target in zip(sweep_sphere_targets(Sphere(center, sphere_radius), drawn, motion), drawn):
        assert_identical(answer, sweep(Sphere(center, sphere_radius), target, motion))


# A sphere of radius 0.5 moving from x = -6 along +x by 14 (t = 1 at x = 8), against
# targets whose contacts are known by construction.
MOVER, MOTION = Sphere([-6.0, 0, 0], 0.5), np.array([14.0, 0, 0])
SQUARE = [[3.0, -1, -1], [3.0, 1, -1], [3.0, 1, 1], [3.0, -1, 1]]


def test_hand_worked_scene_in_one_call():
    scene = [Point([-3.0, 0, 0]), Sphere([-1.0, 0, 0], 0.5), Segment([0.0, -1, 0], [0.0, 1, 0]),
             Capsule([1.0, 0, -1], [1.0, 0, 1], 0.25), Triangle([2.0, -1, -1], [2.0, 1, -1], [2.0, 0, 1]),
             Polygon(SQUARE), Point([0.0, 5, 0]), Plane([1.0, 0, 0], 5.0)]
    answers = sweep_sphere_targets(MOVER, scene[:-1], MOTION)
    facing = [-1.0, 0, 0]
    assert_hit(answers[0], t=2.5 / 14, normal=facing, point=[-3.0, 0, 0], feature=("vertex", 0))
    assert_hit(answers[1], t=4.0 / 14, normal=facing, point=[-1.5, 0, 0], feature=("face", 0))
    assert_hit(answers[2], t=5.5 / 14, normal=facing, point=[0.0, 0, 0], feature=("edge", 0))
    assert_hit(answers[3], t=6.25 / 14, normal=facing, point=[0.75, 0, 0], feature=("edge", 0))
    assert_hit(answers[4], t=7.5 / 14, normal=facing, point=[2.0, 0, 0], feature=("face", 0))
    assert_hit(answers[5], t=8.5 / 14, normal=facing, point=[3.0, 0, 0], feature=("face", 0), face_index=0)
    assert_miss(answers[6])
    each = sweep_each(MOVER, scene, MOTION)
    for answer, target in zip(each, scene):
        assert_identical(answer, sweep(MOVER, target, MOTION))
    assert_hit(each[-1], t=10.5 / 14, normal=facing, point=[5.0, 0, 0], feature=("face", 0))


def test_padding_never_wins_a_tie():
    """Padded features are copies of vertex 0 (next to a pentagon, a triangle's
    vertices 3 and 4, a segment's 2 to 4) or zero-length edges: a first contact on
    vertex 0, and an overlap centred on it, still report vertex 0."""
    triangle = Triangle([0.0, 0, 0], [0.0, 2, 0], [0.0, 1, 2])
    segment = Segment([0.0, 0, 0], [0.0, 2, 0])
    pentagon = Polygon([[5.0, 0, 0], [5.0, 1, 0], [5.0, 2, 1], [5.0, 1, 2], [5.0, 0, 1]])
    sliding = sweep_sphere_targets(Sphere([0.0, -3, 0], 0.5), [triangle, pentagon], [0.0, 5, 0])
    assert_hit(sliding[0], t=0.5, normal=[0.0, -1, 0], point=[0.0, 0, 0], feature=("vertex", 0))
    centred = sweep_sphere_targets(Sphere([0.0, 0, 0], 0.5), [pentagon, segment, Point([0.0, 0, 0])], [0.0, 0, 0])
    assert (centred[1].feature.kind, centred[1].feature.index, centred[1].penetration_depth) == ("vertex", 0, 0.5)
    assert_hit(centred[2], t=0.0, normal=[0.0, 0, 1], point=[0.0, 0, 0], feature=("vertex", 0), depth=0.5)
    for answer, target in zip(centred, [pentagon, segment, Point([0.0, 0, 0])]):
        assert_identical(answer, sweep(Sphere([0.0, 0, 0], 0.5), target, [0.0, 0, 0]))


def test_mixed_precisions_are_swept_in_their_own_precision():
    single = Triangle(*np.array([[2.0, -1, -1], [2.0, 1, -1], [2.0, 0, 1]], np.float32))
    mover = Sphere(np.array([-6.0, 0, 0], np.float32), np.float32(0.5))
    answers = sweep_each(mover, [single, Polygon(SQUARE)], np.array([14.0, 0, 0], np.float32))
    assert answers[0].point.dtype == np.float32 and answers[1].point.dtype == np.float64
    assert_identical(answers[0], sweep(mover, single, np.array([14.0, 0, 0], np.float32)))


def test_other_shapes_are_swept_one_by_one():
    mesh = TriangleMesh([[2.0, -1, -1], [2.0, 1, -1], [2.0, 0, 1]], [[0, 1, 2]])
    capsule = Capsule([-6.0, 0, -0.5], [-6.0, 0, 0.5], 0.5)
    assert_identical(sweep_each(MOVER, [mesh], MOTION)[0], sweep(MOVER, mesh, MOTION))
    assert_identical(sweep_each(capsule, [Polygon(SQUARE)], MOTION)[0], sweep(capsule, Polygon(SQUARE), MOTION))
    batch = Sphere([[-6.0, 0, 0], [-6.0, 3, 0]], 0.5)
    assert sweep_each(batch, [Polygon(SQUARE)], MOTION)[0].hit.tolist() == [True, False]
    assert sweep_each(MOVER, [], MOTION) == []


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="direction"):
        sweep_each(MOVER, [Point([0.0, 0, 0])], [np.nan, 0, 0])
    with pytest.raises(ValueError, match="sphere"):
        sweep_sphere_targets(Sphere([[0.0, 0, 0], [1.0, 0, 0]], 0.5), [Point([0.0, 0, 0])], MOTION)
    with pytest.raises(ValueError, match="direction"):
        sweep_sphere_targets(MOVER, [Point([0.0, 0, 0])], [[1.0, 0, 0], [2.0, 0, 0]])
    with pytest.raises(ValueError, match=r"targets\[1\]"):
        sweep_sphere_targets(MOVER, [Point([0.0, 0, 0]), Point([[0.0, 0, 0], [1.0, 0, 0]])], MOTION)
    with pytest.raises(TypeError, match=r"targets\[0\] is a Plane"):
        sweep_sphere_targets(MOVER, [Plane([1.0, 0, 0], 0.0)], MOTION)
    with pytest.raises(TypeError, match="Plane"):
        sweep_each(Plane([1.0, 0, 0], 0.0), [Plane([0.0, 1, 0], 0.0)], MOTION)
