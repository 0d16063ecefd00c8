"""Numbers typed or logged as text (#33 item 8): one reader, exact, plain refusals."""

import sys

import pytest

from sweeplab.scene.number_text import parse_number

LARGEST = sys.float_info.max


@pytest.mark.parametrize("text, value", [
    ("0.1", 0.1), (" -2e-9 ", -2e-9), ("1_000", 1000.0), ("-0", -0.0),
    ("0x1p-3", 0.125), ("-0x1.8p+1", -3.0), ("0X.8", 0.5), ("0x1", 1.0),
    ("0x1p-1074", 5e-324), ("0x1p-1075", 0.0),  # the smallest subnormal; half of it rounds to even, 0
    ("1.7976931348623157e308", LARGEST), ("0x1.fffffffffffffp+1023", LARGEST),
    ("1.7976931348623158e308", LARGEST),  # just below the midpoint to infinity: rounds down, finite
])
def test_decimals_and_hex_floats_are_read_exactly(text, value):
    number = parse_number(text, "radius")
    assert number == value and str(number) == str(value)  # -0.0 kept as -0.0


@pytest.mark.parametrize("text, message", [
    ("", "radius: nothing typed (a number is needed)"),
    ("   ", "radius: nothing typed (a number is needed)"),
    ("1,5", "radius: '1,5' is not a number: write the decimal point as '.' (1.5)"),
    ("-1,5e3", "radius: '-1,5e3' is not a number: write the decimal point as '.' (-1.5e3)"),
    ("1,2,3", "radius: '1,2,3' is not a number"),
    ("abc", "radius: 'abc' is not a number"),
    ("0x", "radius: '0x' is not a number"),
    ("nan", "radius must be finite, got 'nan'"),
    ("-inf", "radius must be finite, got '-inf'"),
    ("Infinity", "radius must be finite, got 'Infinity'"),
    ("1.7976931348623159e308", "radius: '1.7976931348623159e308' is beyond the float64 range"),  # past the midpoint
    ("1e999", "radius: '1e999' is beyond the float64 range"),
    ("0x1p+1024", "radius: '0x1p+1024' is beyond the float64 range"),
])
def test_what_is_no_finite_number_is_refused_plainly(text, message):
    with pytest.raises(ValueError) as refused:
        parse_number(text, "radius")
    assert str(refused.value) == message


def test_the_fixture_dialogs_typed_t_is_read_the_same_way():
    """A hex float typed as a fixture's expected t was dropped silently (``float``), and
    so was "abc": the fixture then checked less than the user asked for."""
    from sweeplab.ui.tools import ToolState, _typed

    state = ToolState()
    state.typed_hit = {"wall": True, "floor": True, "post": False}
    state.typed_t = {"wall": "0x1p-3", "floor": " ", "post": "abc"}  # a miss's t is never read
    assert _typed(state) == {"wall": {"hit": True, "t": 0.125}, "floor": {"hit": True}, "post": {"hit": False}}
    state.typed_t["floor"] = "1,5"
    with pytest.raises(ValueError, match=r"^expected t of floor: '1,5' is not a number: write the decimal point"):
        _typed(state)
