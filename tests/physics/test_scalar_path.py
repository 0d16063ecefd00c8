"""``sweep``'s scalar path (``physics.sweep.scalar``) answers exactly as the general
path, bit for bit, for every query it takes, and takes none it should not: batches,
float32, reversed pairs, planes, subclasses, options, a direction to validate, a
query outside the unit-size band.  Shapes built from Python numbers (the
constructors' own fast path) equal those built from arrays."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sweeplab.physics import Capsule, Plane, Point, Polygon, Segment, Sphere, Triangle, sweep
from sweeplab.physics.shapes import EXACT_INTEGER
from sweeplab.physics.sweep import scalar
from sweeplab.physics.sweep.dispatch import PAIR_TESTS
from sweeplab.physics.sweep.query import answer_query
from sweeplab.physics.sweep.unit_size import band_exponent, unit_size_plan

from .strategies import convex_polygons

FLOAT64 = np.dtype(np.float64)


def same_answer(fast, general) -> None:
    """Every field equal, floats bit for bit (NaN-free: a scalar answer holds None)."""
    assert fast.hit == general.hit
    for name in ("t", "penetration_depth", "face_index", "initially_overlapping", "feature"):
        assert getattr(fast, name) == getattr(general, name), name
        assert type(getattr(fast, name)) is type(getattr(general, name)), name
    for name in ("point", "normal"):
        mine, theirs = getattr(fast, name), getattr(general, name)
        if theirs is None:
            assert mine is None
        else:
            assert mine.dtype == theirs.dtype and mine.shape == theirs.shape
            assert mine.tobytes() == theirs.tobytes(), name


def served(moving, target, direction, ignore_separating=False, unless_all_zero=False):
    """The scalar path's answer, checked against the general path's; fails where the
    scalar path does not take the query (``unless_all_zero``: unless both shapes are
    all zeros, below the unit-size band: the general path's case)."""
    fast = scalar.answer(moving, target, direction, ignore_separating)
    if (type(moving), type(target)) not in scalar.PAIRS:  # (a capsule against a point: swapped)
        assert fast is None
        return None
    if fast is None and unless_all_zero:
        assert not any(np.any(getattr(shape, name)) for shape in (moving, target) for name in shape._length_fields)
        return None
    assert fast is not None, "the scalar path did not take the query"
    same_answer(fast, answer_query(PAIR_TESTS, moving, target, np.asarray(direction, float), ignore_separating, {}))
    return fast


coordinate = st.floats(-4, 4, allow_subnormal=False).map(lambda x: 0.0 if abs(x) < 1e-3 else x)
points = st.tuples(coordinate, coordinate, coordinate)
radii = st.one_of(st.just(0.0), st.floats(0.01, 2))


@st.composite
def movers(draw):
    kind = draw(st.sampled_from(["sphere", "point", "capsule", "segment"]))
    if kind == "sphere":
        return Sphere(draw(points), draw(radii))
    if kind == "point":
        return Point(draw(points))
    if kind == "capsule":
        return Capsule(draw(points), draw(points), draw(radii))
    return Segment(draw(points), draw(points))


@st.composite
def targets(draw):
    kind = draw(st.sampled_from(["point", "sphere", "segment", "capsule", "triangle", "sliver", "polygon"]))
    if kind == "point":
        return Point(draw(points))
    if kind == "sphere":
        return Sphere(draw(points), draw(radii))
    if kind == "segment":
        return Segment(draw(points), draw(points))
    if kind == "capsule":
        return Capsule(draw(points), draw(points), draw(radii))
    if kind == "triangle":
        return Triangle(draw(points), draw(points), draw(points))
    if kind == "sliver":  # zero area: its edges only
        a, b = np.array(draw(points)), np.array(draw(points))
        return Triangle(a, b, a + draw(st.sampled_from([0.5, 2.0, -1.0])) * (b - a))
    return Polygon(draw(convex_polygons()))


def aimed(moving, target, draw) -> tuple:
    """A direction: at the target (a hit), grazing past it, away, or zero."""
    kind = draw(st.sampled_from(["at", "beside", "random", "zero"]))
    if kind == "zero":
        return (0.0, 0.0, 0.0)
    start = np.asarray(moving.core_vertices() if hasattr(moving, "core_vertices") else moving.p).reshape(-1, 3)[0]
    goal = np.asarray(target.core_vertices()).reshape(-1, 3).mean(axis=0)
    if kind == "random":
        return tuple(float(v) for v in np.array(draw(points)) * 2)
    offset = np.array(draw(points)) * (0.3 if kind == "beside" else 0.0)
    return tuple(float(v) for v in 1.7 * (goal + offset - start))


@settings(max_examples=400, deadline=None)
@given(moving=movers(), target=targets(), data=st.data(), ignore_separating=st.booleans(),
       as_array=st.booleans())
def test_scalar_path_answers_as_the_general_path(moving, target, data, ignore_separating, as_array):
    direction = aimed(moving, target, data.draw)
    served(moving, target, np.array(direction) if as_array else list(direction), ignore_separating,
           unless_all_zero=True)


def test_scalar_path_hits_graze_and_overlap_exactly_as_worked_out():
    sphere, triangle = Sphere([1.0, 1, 5], 1.0), Triangle([0.0, 0, 0], [2.0, 0, 0], [1.0, 3, 0])
    hit = served(sphere, triangle, [0.0, 0.0, -10.0])
    assert hit.t == 0.4 and hit.feature.kind == "face" and hit.normal.tolist() == [0.0, 0.0, 1.0]
    graze = served(Sphere([-1.0, 0, 5], 1.0), triangle, [0.0, 0.0, -10.0])  # touches vertex 0's ball edge-on
    assert graze.hit and graze.feature.kind == "vertex" and graze.feature.index == 0
    assert not served(Sphere([-1.0 - 2**-40, 0, 5], 1.0), triangle, [0.0, 0.0, -10.0]).hit
    overlap = served(Sphere([1.0, 1, 0.5], 1.0), triangle, [0.0, 0.0, 0.0])
    assert overlap.initially_overlapping and overlap.penetration_depth == 0.5
    assert served(Sphere([0.0, 0, 0], 0.5), Sphere([3.0, 0, 0], 1.0), [3.0, 0.0, 0.0]).feature.kind == "face"
    assert served(Capsule([0.0, 0, 0], [0.0, 1, 0], 0.3), Capsule([2.0, 0, 0], [2.0, 0, 1], 0.5),
                  [3.0, 0.0, 0.0]).t == pytest.approx(1.2 / 3)
    assert served(Sphere([0.0, 0, 0], 0.5), Polygon([[2.0, -1, -1], [2.0, 1, -1], [2.0, 1, 1], [2.0, -1, 1]]),
                  [3.0, 0.0, 0.0]).face_index == 0


@pytest.mark.parametrize("moving, target, direction", [
    (Sphere(np.zeros((2, 3)), 1.0), Sphere([3.0, 0, 0], 1.0), [4.0, 0, 0]),                   # a batch
    (Sphere([0.0, 0, 0], 1.0), Sphere([3.0, 0, 0], 1.0), np.array([[4.0, 0, 0]])),           # a batch direction
    (Sphere(np.zeros(3, np.float32), np.float32(1)), Sphere([3.0, 0, 0], 1.0), [4.0, 0, 0]),  # float32
    (Sphere([0.0, 0, 0], 1.0), Sphere([3.0, 0, 0], 1.0), np.array([4.0, 0, 0], np.float32)),
    (Triangle([2.0, -1, -1], [2.0, 1, -1], [2.0, 0, 1]), Sphere([0.0, 0, 0], 1.0), [-3.0, 0, 0]),  # reversed
    (Sphere([0.0, 0, 0], 1.0), Plane([1.0, 0, 0], 2.0), [3.0, 0, 0]),                      # a plane
    (Sphere([0.0, 0, 0], 1.0), Sphere([3.0, 0, 0], 1.0), [4, 0, 0]),                       # integers: validated
    (Sphere([0.0, 0, 0], 1.0), Sphere([3.0, 0, 0], 1.0), [4.0, 0]),                        # wrong length
    (Sphere([0.0, 0, 0], 1.0), Sphere([3.0, 0, 0], 1.0), np.array([4, 0, 0])),             # an integer array
])
def test_scalar_path_leaves_what_it_does_not_serve(moving, target, direction):
    assert scalar.answer(moving, target, direction, False) is None


def test_a_shape_moves_and_is_swept_against_in_turn():
    """Regression: the kept kernel arguments of a shape used as a target were taken
    for its arguments as the moving shape (AttributeError: 'Target' object has no
    attribute 'start'), and the reverse."""
    capsule, other = Capsule([0.0, 0, 0], [0.0, 0, 1], 0.5), Capsule([2.0, 0, 0], [2.0, 1, 0], 0.5)
    forward = served(capsule, other, [3.0, 0.0, 0.0])
    backward = served(other, capsule, [-3.0, 0.0, 0.0])
    assert forward.t == backward.t == pytest.approx(1 / 3)
    served(capsule, other, [3.0, 0.0, 0.0])
    sphere = Sphere([0.0, 0, 3], 1.0)
    served(sphere, capsule, [0.0, 0.0, -3.0])
    served(Sphere([0.0, 0, -3], 0.5), sphere, [0.0, 0.0, 3.0])


def test_a_subclass_takes_the_general_path():
    class Ball(Sphere):
        __slots__ = ()

    assert scalar.answer(Ball([0.0, 0, 0], 1.0), Sphere([3.0, 0, 0], 1.0), [4.0, 0, 0], False) is None


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_a_non_finite_direction_is_refused_naming_it(bad):
    sphere, target = Sphere([0.0, 0, 0], 1.0), Sphere([3.0, 0, 0], 1.0)
    assert scalar.answer(sphere, target, [bad, 0.0, 0.0], False) is None
    with pytest.raises(ValueError, match="direction"):
        sweep(sphere, target, [bad, 0.0, 0.0])
    with pytest.raises(ValueError, match="direction"):
        sweep(sphere, target, np.array([0.0, bad, 0.0]))


def test_options_take_the_general_path():
    with pytest.raises(TypeError, match="trace"):
        sweep(Sphere([0.0, 0, 0], 1.0), Sphere([3.0, 0, 0], 1.0), [4.0, 0, 0], trace=object())


# The unit-size band (``unit_size.within_band``), at, just inside and just outside each
# of its limits: the scalar path serves a query only where the general one answers it
# as given.  float64: magnitudes in [2^-64, 2^64), direction at most 2^32 the magnitude.
BAND = band_exponent(FLOAT64)


@pytest.mark.parametrize("magnitude, served_here", [
    (math.ldexp(1.0, -BAND), True), (math.ldexp(1.0, -BAND) * (1 + 2**-52), True),
    (math.ldexp(1.0, -BAND) * (1 - 2**-53), False),
    (math.ldexp(1.0, BAND) * (1 - 2**-53), True), (math.ldexp(1.0, BAND), False),
])
def test_band_of_shape_magnitudes(magnitude, served_here):
    moving, target = Sphere([0.0, 0, 0], magnitude / 2), Point([magnitude, 0, 0])  # the lane's magnitude
    direction = [magnitude / 4, 0.0, 0.0]
    fast = scalar.answer(moving, target, direction, False)
    assert (fast is not None) == served_here
    if fast is not None:
        same_answer(fast, answer_query(PAIR_TESTS, moving, target, np.array(direction), False, {}))


@pytest.mark.parametrize("length, served_here", [
    (math.ldexp(1.0, BAND // 2), True), (math.ldexp(1.0, BAND // 2) * (1 - 2**-53), True),
    (math.ldexp(1.0, BAND // 2) * (1 + 2**-52), False),
])
def test_band_of_direction_length(length, served_here):
    """|x| + |y| + |z| of the direction against 2^32 times the magnitude (here 1)."""
    moving, target = Sphere([0.0, 0, 0], 1.0), Sphere([0.0, 0, 0], 0.5)
    direction = [length / 2, -length / 4, length / 4]
    assert (scalar.answer(moving, target, direction, False) is not None) == served_here


@pytest.mark.parametrize("length, served_here", [
    (math.ldexp(1.0, BAND) * (1 - 2**-53), True), (math.ldexp(1.0, BAND), False),
])
def test_band_of_direction_length_on_its_own(length, served_here):
    """A direction of 2^64 is out of the band even where the shapes' magnitude (2^32)
    would allow it 2^32 times their size."""
    magnitude = math.ldexp(1.0, BAND // 2)
    moving, target = Sphere([0.0, 0, 0], magnitude), Point([magnitude, 0, 0])
    assert (scalar.answer(moving, target, [length, 0.0, 0.0], False) is not None) == served_here


def test_the_direction_sum_is_a_bound_not_the_largest_component():
    """A direction whose largest component is within the band but whose |x|+|y|+|z|
    is not goes to the general path, which answers it as given: same answer."""
    length = math.ldexp(1.0, BAND // 2)
    moving, target = Sphere([0.0, 0, 0], 1.0), Sphere([1.0, 0, 0], 0.5)  # magnitude 1
    direction = [length, length, 0.0]
    assert scalar.answer(moving, target, direction, False) is None
    assert unit_size_plan(moving, target, np.array(direction)) is None
    same_answer(sweep(moving, target, direction),
                answer_query(PAIR_TESTS, moving, target, np.array(direction), False, {}))
    assert sweep(moving, target, direction).hit


# Constructors from Python numbers (``shapes._plain_numbers``)


@pytest.mark.parametrize("center, radius", [([1.0, 2.0, 3.0], 0.5), ([1, 2, 3], 1), ((1.0, 2, 3), 2),
                                            ([EXACT_INTEGER, -EXACT_INTEGER, 0], 0.0),
                                            ([EXACT_INTEGER + 1, 0, 0], 1.0), ([True, 0.0, 1.0], 1.0)])
def test_shapes_from_python_numbers_equal_shapes_from_arrays(center, radius):
    plain, arrays = Sphere(center, radius), Sphere(np.asarray(center, float), np.asarray(radius, float))
    for name in ("center", "radius"):
        mine, theirs = getattr(plain, name), getattr(arrays, name)
        assert mine.dtype == FLOAT64 and mine.shape == theirs.shape and mine.tobytes() == theirs.tobytes()
        assert not mine.flags.writeable


@pytest.mark.parametrize("bad", [math.nan, math.inf, 10**400])
def test_shapes_refuse_non_finite_python_numbers_naming_the_argument(bad):
    with pytest.raises(ValueError, match="center"):
        Sphere([bad, 0.0, 0.0], 1.0)
    with pytest.raises(ValueError, match="radius"):
        Sphere([0.0, 0.0, 0.0], bad)
    with pytest.raises(ValueError, match="radius"):
        Sphere([0.0, 0.0, 0.0], -1.0)
    with pytest.raises(ValueError, match="b"):
        Triangle([0.0, 0, 0], [0.0, bad, 0], [1.0, 0, 0])


def test_a_triangle_from_python_numbers_equals_one_from_arrays():
    corners = ([0.0, 1, 2], [3, 4, 5], [6.5, 7, 8])
    plain, arrays = Triangle(*corners), Triangle(*(np.asarray(c, float) for c in corners))
    for name in ("a", "b", "c", "vertices"):
        assert getattr(plain, name).tobytes() == getattr(arrays, name).tobytes()
        assert getattr(plain, name).shape == getattr(arrays, name).shape
