"""Assertions on ``SweepResult`` values shared by the physics tests."""

from __future__ import annotations

import numpy as np

from sweeplab.physics import tolerance


def assert_close(actual, expected, scale=1.0, rtol=tolerance.EXACT_RTOL, what="value"):
    actual, expected = np.asarray(actual, dtype=float), np.asarray(expected, dtype=float)
    bound = rtol * max(1.0, scale)
    assert np.all(np.abs(actual - expected) <= bound), f"{what}: {actual!r} != {expected!r} (bound {bound:g})"


def assert_miss(result):
    assert result.hit is False, f"expected a miss, got {result}"
    assert result.t is None and result.point is None and result.normal is None
    assert result.penetration_depth is None and result.initially_overlapping is False
    assert result.feature.kind is None and result.feature.index is None


def assert_hit(result, *, t, normal, point=None, feature=None, depth=None, scale=1.0, face_index=None):
    """Check every field of a hit; ``depth`` None means no initial overlap."""
    assert result.hit is True, f"expected a hit, got {result}"
    assert_close(result.t, t, what="t")
    assert_close(result.normal, normal, what="normal")
    assert abs(np.linalg.norm(result.normal) - 1) <= tolerance.EXACT_RTOL
    if point is not None:
        assert_close(result.point, point, scale=scale, what="point")
    if feature is not None:
        assert (result.feature.kind, result.feature.index) == feature, result.feature
    if depth is None:
        assert result.penetration_depth is None and result.initially_overlapping is False, result
    else:
        assert result.initially_overlapping is True and result.t == 0.0
        assert_close(result.penetration_depth, depth, scale=scale, what="penetration_depth")
    assert result.face_index == face_index


def assert_identical(actual, expected) -> None:
    """Every field equal, floats bit for bit (None where the answer has none)."""
    assert (actual.hit, actual.t, actual.face_index, actual.initially_overlapping, actual.feature,
            actual.penetration_depth) == (expected.hit, expected.t, expected.face_index,
                                          expected.initially_overlapping, expected.feature, expected.penetration_depth)
    for name in ("point", "normal"):
        value, wanted = getattr(actual, name), getattr(expected, name)
        assert (value is None) == (wanted is None), name
        if value is not None:
            assert value.dtype == wanted.dtype and value.tobytes() == wanted.tobytes(), (name, value, wanted)
