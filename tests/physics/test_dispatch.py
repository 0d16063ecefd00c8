"""``sweep()``: pair dispatch, subject swap, errors, batching."""

import numpy as np
import pytest

from sweeplab.physics import Plane, Point, Polygon, Segment, Sphere, Triangle, sweep, tolerance
from tests.physics.expect import assert_hit


def test_unsupported_pair_names_both_types():
    with pytest.raises(TypeError, match=r"moving Triangle against a Polygon \(two surfaces"):
        sweep(Triangle([0, 0, 0], [1, 0, 0], [0, 1, 0]), Polygon([[0, 0, 1], [1, 0, 1], [0, 1, 1]]), [1, 0, 0])
    with pytest.raises(TypeError, match="moving Plane against a Plane"):
        sweep(Plane([0, 0, 1], 1), Plane([0, 0, 1], 0), [1, 0, 0])


@pytest.mark.parametrize("direction, message", [
    ([np.nan, 0, 0], "direction must be finite"),
    ([1, 0], r"direction must have shape \(\.\.\., 3\)"),
])
def test_bad_direction(direction, message):
    with pytest.raises(ValueError, match=message):
        sweep(Sphere([0, 0, 0], 1), Point([1, 0, 0]), direction)


def test_moving_point_is_a_zero_radius_sphere():
    as_point = sweep(Point([1.0, 1, 5]), Triangle([0.0, 0, 0], [4.0, 0, 0], [0.0, 4, 0]), [0, 0, -10.0])
    assert_hit(as_point, t=0.5, normal=[0, 0, 1], point=[1, 1, 0], feature=("face", 0))


def test_swapped_subject_flips_normal_and_moves_the_point():
    # The triangle moves up into a still sphere; first touch when it reaches z = 4.
    result = sweep(Triangle([-1.0, -1, 0], [1.0, -1, 0], [0.0, 1, 0]), Sphere([0.0, 0, 5], 1.0), [0, 0, 10.0])
    assert_hit(result, t=0.4, normal=[0, 0, -1], point=[0, 0, 4], feature=("face", 0))


def test_swapped_overlap_puts_the_witness_on_the_target():
    # A segment cuts the sphere 0.5 from its center: it must move 0.5 along +x to separate.
    result = sweep(Segment([0.5, -2, 0], [0.5, 2, 0]), Sphere([0.0, 0, 0], 1.0), [0, 0, 1.0])
    assert_hit(result, t=0.0, normal=[1, 0, 0], point=[1, 0, 0], depth=0.5, feature=("face", 0))


def test_swapped_point_target_feature_is_its_vertex():
    result = sweep(Plane([0.0, 0, 1], 0.0), Point([0.0, 0, 5]), [0, 0, 10.0])
    assert_hit(result, t=0.5, normal=[0, 0, -1], point=[0, 0, 5], feature=("vertex", 0))


def test_batch_of_targets_against_one_sphere():
    targets = Polygon(np.array([[0.0, 0, 0], [2.0, 0, 0], [2.0, 2, 0], [0.0, 2, 0]]) + np.array([[[0, 0, z]] for z in
                                                                                              (0.0, -3.0, -20.0)]))
    result = sweep(Sphere([1.0, 1, 5], 1.0), targets, [0.0, 0, -10])
    assert result.hit.tolist() == [True, True, False]
    np.testing.assert_allclose(result.t[:2], [0.4, 0.7], rtol=0, atol=tolerance.EXACT_RTOL)
    assert result.face_index.tolist() == [0, 0, -1]


def test_swapped_batch_matches_scalar():
    centers = np.array([[0.0, 0, 5], [0.0, 0, 50], [0.0, 0, 0.5]])
    triangle = Triangle([-1.0, -1, 0], [1.0, -1, 0], [0.0, 1, 0])
    batch = sweep(triangle, Sphere(centers, 1.0), [0, 0, 10.0])
    for i, center in enumerate(centers):
        scalar = sweep(triangle, Sphere(center, 1.0), [0, 0, 10.0])
        assert batch.hit[i] == scalar.hit
        if scalar.hit:
            assert batch.t[i] == scalar.t and np.array_equal(batch.point[i], scalar.point)
            assert np.array_equal(batch.normal[i], scalar.normal)
            assert (batch.penetration_depth[i] == scalar.penetration_depth
                    or scalar.penetration_depth is None and np.isnan(batch.penetration_depth[i]))
