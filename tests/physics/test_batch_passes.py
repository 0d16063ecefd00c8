"""The passes over a batch's lanes that run on numba's threads instead of NumPy's one
(issue #32): the answer's flags (``result.batch_flags``) and the direction's largest
component with its finiteness check (``unit_size.largest_component``).  Each is checked
against the NumPy expression it replaced, below and above the lane count from which
it runs in parallel."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sweeplab.physics import Sphere, sweep
from sweeplab.physics.lanes import PARALLEL_MIN_LANES
from sweeplab.physics.result import batch_flags
from sweeplab.physics.sweep.unit_size import MAGNITUDE_CHUNKS, largest_component

SIZES = [1, 2, MAGNITUDE_CHUNKS - 1, MAGNITUDE_CHUNKS, MAGNITUDE_CHUNKS + 1, 1000, PARALLEL_MIN_LANES + 7]


def _rng():
    return np.random.default_rng(20261127)


@pytest.mark.parametrize("count", SIZES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_batch_flags_are_numpys(count, dtype):
    rng = _rng()
    t = rng.uniform(0, 1, count).astype(dtype)
    t[rng.uniform(size=count) < 0.4] = np.nan
    depth = np.where(rng.uniform(size=count) < 0.3, rng.uniform(0, 1, count), np.nan).astype(dtype)
    hit, overlapping, faces = batch_flags(t, depth, 3)
    np.testing.assert_array_equal(hit, ~np.isnan(t))
    np.testing.assert_array_equal(overlapping, ~np.isnan(depth))
    np.testing.assert_array_equal(faces, np.where(np.isnan(t), -1, 3))
    assert hit.dtype == overlapping.dtype == np.bool_ and faces.dtype == np.int64
    _, _, none = batch_flags(t, depth, -1)
    np.testing.assert_array_equal(none, np.full(count, -1))


def test_batch_flags_keep_the_batch_shape_and_a_callers_face_array():
    t = np.array([[0.5, np.nan, 0.0], [np.nan, 1.0, 0.25]])
    depth = np.array([[np.nan, np.nan, 0.5], [np.nan, np.nan, np.nan]])
    own = np.array([[7, -1, 2], [-1, 0, 9]])
    hit, overlapping, faces = batch_flags(t, depth, own)
    assert hit.shape == overlapping.shape == faces.shape == (2, 3)
    assert hit.tolist() == [[True, False, True], [False, True, True]]
    assert overlapping.tolist() == [[False, False, True], [False, False, False]]
    assert faces.tolist() == own.tolist() and faces.dtype == np.int64


def test_a_batch_answer_reports_its_flags_and_faces():
    """Through the public API: a batch of spheres against one sphere (no face: -1)."""
    movers = Sphere(np.array([[0.0, 0, 0], [0.0, 5, 0], [2.5, 0, 0]]), np.ones(3))
    answer = sweep(movers, Sphere([3.0, 0, 0], 1.0), np.array([4.0, 0, 0]))
    assert answer.hit.tolist() == [True, False, True]
    assert answer.initially_overlapping.tolist() == [False, False, True]
    assert answer.face_index.tolist() == [-1, -1, -1]


@pytest.mark.parametrize("count", SIZES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("where", ["first", "last", "middle"])
def test_largest_component_is_numpys(count, dtype, where):
    rng = _rng()
    directions = rng.uniform(-1, 1, (count, 3)).astype(dtype)
    row = {"first": 0, "last": count - 1, "middle": count // 2}[where]
    directions[row, 2] = -7.5  # the largest, negative: its magnitude counts
    assert largest_component(directions) == float(np.abs(directions).max()) == 7.5


@pytest.mark.parametrize("count", SIZES)
@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_largest_component_is_inf_where_a_component_is_not_finite(count, bad):
    directions = _rng().uniform(-1, 1, (count, 3))
    directions[count - 1, 0] = bad  # behind every finite value of its chunk
    assert largest_component(directions) == math.inf
    directions[count - 1, 0], directions[0, 1] = 0.5, bad  # ahead of them
    assert largest_component(directions) == math.inf


def test_largest_component_of_one_direction_and_of_none():
    assert largest_component(np.array([1.0, -3.0, 2.0])) == 3.0
    assert largest_component(np.array([1.0, math.nan, 2.0])) == math.inf
    assert largest_component(np.zeros((0, 3))) == 0.0
    assert largest_component(np.zeros((2, 0, 3))) == 0.0


@pytest.mark.parametrize("bad", [math.nan, math.inf])
def test_a_batch_direction_not_finite_is_refused_naming_it(bad):
    directions = np.zeros((PARALLEL_MIN_LANES + 1, 3))
    directions[-1, 1] = bad
    with pytest.raises(ValueError, match="direction"):
        sweep(Sphere(np.zeros((len(directions), 3)), 1.0), Sphere([3.0, 0, 0], 1.0), directions)
