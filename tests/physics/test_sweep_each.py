"""``sweep_each``: one moving shape against many targets, each answered by ``sweep``."""

from __future__ import annotations

import numpy as np
import pytest

from sweeplab.physics import Capsule, Plane, Point, Polygon, Segment, Sphere, Triangle, TriangleMesh, sweep
from sweeplab.physics.sweep import sweep_each
from tests.physics.expect import assert_hit, assert_identical, assert_miss

# A sphere of radius 0.5 moving from x = -6 along +x by 14 (t = 1 at x = 8), against
# targets whose contacts are known by construction.
MOVER, MOTION = Sphere([-6.0, 0, 0], 0.5), np.array([14.0, 0, 0])
SQUARE = [[3.0, -1, -1], [3.0, 1, -1], [3.0, 1, 1], [3.0, -1, 1]]


def test_hand_worked_scene():
    scene = [Point([-3.0, 0, 0]), Sphere([-1.0, 0, 0], 0.5), Segment([0.0, -1, 0], [0.0, 1, 0]),
             Capsule([1.0, 0, -1], [1.0, 0, 1], 0.25), Triangle([2.0, -1, -1], [2.0, 1, -1], [2.0, 0, 1]),
             Polygon(SQUARE), Point([0.0, 5, 0]), Plane([1.0, 0, 0], 5.0)]
    answers = sweep_each(MOVER, scene, MOTION)
    facing = [-1.0, 0, 0]
    assert_hit(answers[0], t=2.5 / 14, normal=facing, point=[-3.0, 0, 0], feature=("vertex", 0))
    assert_hit(answers[1], t=4.0 / 14, normal=facing, point=[-1.5, 0, 0], feature=("face", 0))
    assert_hit(answers[2], t=5.5 / 14, normal=facing, point=[0.0, 0, 0], feature=("edge", 0))
    assert_hit(answers[3], t=6.25 / 14, normal=facing, point=[0.75, 0, 0], feature=("edge", 0))
    assert_hit(answers[4], t=7.5 / 14, normal=facing, point=[2.0, 0, 0], feature=("face", 0))
    assert_hit(answers[5], t=8.5 / 14, normal=facing, point=[3.0, 0, 0], feature=("face", 0), face_index=0)
    assert_miss(answers[6])
    assert_hit(answers[7], t=10.5 / 14, normal=facing, point=[5.0, 0, 0], feature=("face", 0))


def test_mixed_precisions_are_swept_in_their_own_precision():
    single = Triangle(*np.array([[2.0, -1, -1], [2.0, 1, -1], [2.0, 0, 1]], np.float32))
    mover = Sphere(np.array([-6.0, 0, 0], np.float32), np.float32(0.5))
    answers = sweep_each(mover, [single, Polygon(SQUARE)], np.array([14.0, 0, 0], np.float32))
    assert answers[0].point.dtype == np.float32 and answers[1].point.dtype == np.float64
    assert_identical(answers[0], sweep(mover, single, np.array([14.0, 0, 0], np.float32)))


def test_other_shapes_and_batches():
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
    with pytest.raises(TypeError, match="Plane"):
        sweep_each(Plane([1.0, 0, 0], 0.0), [Plane([0.0, 1, 0], 0.0)], MOTION)
