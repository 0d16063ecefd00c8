"""The kernels keep the dtype they are given: float32 answers agree with float64
within ``tolerance.FLOAT32_RTOL`` on the hand-worked (non-grazing) cases."""

import numpy as np
import pytest

from physics import Plane, Point, Polygon, Segment, Sphere, Triangle, sweep, tolerance

CASES = [
    (Sphere([-5.0, 0, 0], 1.0), Point([0.0, 0, 0]), [10.0, 0, 0]),
    (Sphere([-5.0, 0.6, 0], 1.0), Point([0.0, 0, 0]), [10.0, 0, 0]),
    (Sphere([-5.0, 0, 0], 1.0), Sphere([0.0, 0, 0], 2.0), [10.0, 0, 0]),
    (Sphere([5.0, 0, 0], 1.0), Segment([0.0, -1, 0], [0.0, 1, 0]), [-10.0, 0, 0]),
    (Sphere([5.0, 1.6, 0], 1.0), Segment([0.0, -1, 0], [0.0, 1, 0]), [-10.0, 0, 0]),
    (Sphere([0.0, 0, 10], 1.0), Plane([0.0, 0, 1], 2.0), [10.0, 0, -10]),
    (Sphere([1.0, 1, 5], 1.0), Triangle([0.0, 0, 0], [4.0, 0, 0], [0.0, 4, 0]), [0.0, 0, -10]),
    (Sphere([-5.0, -5, 0], 1.0), Triangle([0.0, 0, 0], [4.0, 0, 0], [0.0, 4, 0]), [10.0, 10, 0]),
    (Sphere([1.0, 1, 0.5], 1.0), Triangle([0.0, 0, 0], [4.0, 0, 0], [0.0, 4, 0]), [1.0, 0, 0]),
    (Sphere([7.0, 7, 0], 1.0), Polygon([[0.0, 0, 0], [2.0, 0, 0], [2.0, 2, 0], [0.0, 2, 0]]), [-10.0, -10, 0]),
]


def as_float32(shape):
    fields = {name: np.asarray(getattr(shape, name), np.float32) for name in shape._fields}
    return type(shape)(**fields)


@pytest.mark.parametrize("moving, target, direction", CASES)
def test_float32_agrees_with_float64(moving, target, direction):
    double = sweep(moving, target, direction)
    single = sweep(as_float32(moving), as_float32(target), np.asarray(direction, np.float32))
    assert single.hit == double.hit and single.initially_overlapping == double.initially_overlapping
    scale = 10.0
    assert abs(single.t - double.t) <= tolerance.FLOAT32_RTOL * scale
    np.testing.assert_allclose(single.point, double.point, atol=tolerance.FLOAT32_RTOL * scale)
    np.testing.assert_allclose(single.normal, double.normal, atol=tolerance.FLOAT32_RTOL * scale)


def test_float32_in_float32_out():
    moving, target, direction = CASES[6]
    batch = sweep(Sphere(np.asarray([moving.center], np.float32), np.float32(1)), as_float32(target),
                  np.asarray(direction, np.float32))
    assert batch.t.dtype == batch.point.dtype == batch.normal.dtype == np.float32
