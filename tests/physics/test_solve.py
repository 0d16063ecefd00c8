import numpy as np
import pytest

from sweeplab.physics.solve import IDENTICALLY_ZERO, first_nonpositive_time, solve_quadratic


def _roots(a, b, c):
    return solve_quadratic(a, b, c, b * b - 4 * a * c)


def test_two_roots_sorted():
    count, low, high = _roots(1.0, -3.0, 2.0)
    assert (count, low, high) == (2, 1.0, 2.0)


def test_double_root():
    count, low, high = _roots(1.0, -2.0, 1.0)
    assert (count, low, high) == (2, 1.0, 1.0)


def test_no_real_root():
    count, low, high = _roots(1.0, 0.0, 1.0)
    assert count == 0 and np.isnan(low) and np.isnan(high)


def test_linear_when_a_is_zero():
    count, low, high = _roots(0.0, 2.0, -4.0)
    assert (count, low, high) == (1, 2.0, 2.0)


def test_constant_cases():
    assert _roots(0.0, 0.0, 0.0)[0] == IDENTICALLY_ZERO and _roots(0.0, 0.0, 1.0)[0] == 0


def test_small_root_survives_cancellation():
    # t^2 + 1e8 t + 1 = 0: roots -1e8 and -1e-8; the textbook formula loses the small one.
    count, low, high = _roots(1.0, 1e8, 1.0)
    assert count == 2
    assert high == pytest.approx(-1e-8, rel=1e-15)
    assert low == pytest.approx(-1e8, rel=1e-15)


def test_geometric_discriminant_decides():
    count, low, high = solve_quadratic(1.0, -2.0, 1.0 + 1e-20, 0.0)
    assert count == 2 and low == high == 1.0
    count, _, _ = solve_quadratic(1.0, -2.0, 1.0, -1e-300)
    assert count == 0


def test_keeps_float32():
    """A float32 quadratic is solved in float32: the root of t^2 - 2 t + (1 - 2^-30)
    is 1 - 2^-15 in float32 arithmetic, as the same formula gives with numpy float32."""
    a, b, c = np.float32(1.0), np.float32(-2.0), np.float32(1.0 - 2.0**-30)
    _, low, _ = solve_quadratic(a, b, c, b * b - np.float32(4.0) * a * c)
    q = np.float32(-0.5) * (b - np.sqrt(b * b - np.float32(4.0) * a * c))
    assert low == min(q / a, c / q)


@pytest.mark.parametrize("a, half_b, c, time", [
    (1.0, -1.5, 2.0, 1.0),          # roots 1 and 2: enters at 1
    (1.0, -1.5, 0.0, 0.0),          # touching at 0
    (1.0, 1.5, -1.0, 0.0),          # inside at 0, leaving
    (1.0, 1.5, 2.0, np.inf),        # moving away
    (1.0, -1.0, 2.0, np.inf),       # approaching, never reaching (no real root)
    (1.0, -1.0, 1.0, 1.0),          # double root: a graze counts
    (0.0, -1.0, 4.0, 2.0),          # linear
    (0.0, 0.0, 1.0, np.inf),        # constant, positive
    (0.0, 0.0, 0.0, 0.0),           # constant zero
])
def test_first_nonpositive_time(a, half_b, c, time):
    assert first_nonpositive_time(a, half_b, c, half_b * half_b - a * c) == time


def test_first_nonpositive_time_has_no_cancellation():
    # t^2 - 1e8 t + 1: the small root 1e-8 (to 1e-16 relative) survives.
    assert first_nonpositive_time(1.0, -0.5e8, 1.0, 0.25e16 - 1.0) == pytest.approx(1e-8, rel=1e-15)
