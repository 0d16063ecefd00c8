"""An engine that stops short of contact or inside it (#34 part 4, Box3D's linear
slop): sweeplab's answer for the engine's own contact, hand-worked; no engine needed."""

import dataclasses
import json

import numpy as np
import pytest

from sweeplab.engines.contact_offset import at_offset, compare_at_offset, expected_answer, grown_pair
from sweeplab.physics import Capsule, ConvexPolyhedron, Point, Segment, Sphere, Triangle, TriangleMesh, sweep
from sweeplab.scene.query_log import EngineAnswer, QueryLogError, read_log

CUBE = [[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
SPHERES = (Sphere([0, 0, 5], 1.0), Sphere([0, 0, 0], 1.0), [0, 0, -10])  # touching at t = 0.3 (gap 3 of 10)
BOXES = (ConvexPolyhedron([[x, y, z + 5] for x, y, z in CUBE]), ConvexPolyhedron(CUBE), [0, 0, -10])


def judged(answer, moving, target, direction):
    return compare_at_offset(answer, sweep(moving, target, direction), "float32", shapes=(moving, target, direction))


def test_a_rounded_pair_stopping_the_slop_inside_agrees_and_the_sentence_says_so():
    """Two unit spheres, gap 3 along a sweep of 10: touching at t = 0.3, the radii
    shrunk by 0.005 at t = 0.3005 — what Box3D answers."""
    kind, _, detail = judged(EngineAnswer(True, 0.3005, normal=[0, 0, 1], contact_offset=-0.005), *SPHERES)
    assert kind == "agrees"
    assert detail.endswith("[the engine stops 0.005 inside, up to 0 farther (contact offset -0.005, tolerance 0): "
                           "sweeplab says t = 0.3005 for a stop -0.005 apart (the radii grown), t = 0.3 at touching]")
    assert judged(EngineAnswer(True, 0.3005, normal=[0, 0, 1]), *SPHERES)[0] == "t"  # the slop not accounted


@pytest.mark.parametrize("offset, verdict", [(-0.005, "agrees"), (0.005, "t"), (-0.05, "t"), (-0.00399, "t"),
                                             (-0.00601, "t"), (-0.00401, "agrees"), (-0.00599, "agrees")])
def test_the_offset_shifts_t_by_offset_over_the_closing_speed(offset, verdict):
    """At 10 length units a sweep, 0.001 of length is 1e-4 of t, the float32
    tolerance: the sign flipped or the slop ×10 is a disagreement, and so is an
    offset off by just over 0.001; just under is not."""
    assert judged(EngineAnswer(True, 0.3005, contact_offset=offset), *SPHERES)[0] == verdict


def test_a_pair_without_radius_stops_the_slop_short_by_gjk_or_to_first_order():
    """Boxes: sweeplab's GJK cast with its margin grown; a box onto a mesh (no
    support function): sweeplab's answer moved to first order.  Both 0.3 - 0.005 / 10."""
    kind, _, detail = judged(EngineAnswer(True, 0.2995, normal=[0, 0, 1], contact_offset=0.005), *BOXES)
    assert kind == "agrees" and "GJK cast" in detail and "stops 0.005 short of touching" in detail
    assert judged(EngineAnswer(True, 0.2995 + 1.01e-4, contact_offset=0.005), *BOXES)[0] == "t"
    slab = TriangleMesh([[-5, -5, 1], [5, -5, 1], [0, 5, 1]], [[0, 1, 2]])
    kind, _, detail = judged(EngineAnswer(True, 0.2995, normal=[0, 0, 1], contact_offset=0.005), BOXES[0], slab,
                             BOXES[2])
    assert kind == "agrees" and "first order" in detail
    moved = at_offset(sweep(*BOXES), 0.005, BOXES[2])
    assert moved.t == pytest.approx(0.2995, abs=1e-15)  # 0.3 - 0.005 / |d·n|, |d·n| = 10
    assert at_offset(sweep(*BOXES), -0.005, BOXES[2]).t == pytest.approx(0.3005, abs=1e-15)


def test_first_order_edges_start_and_end():
    ours = sweep(BOXES[0], BOXES[1], [0, 0, -4])  # touches at t = 3 / 4, 1 of length short of the end
    assert at_offset(ours, -1.0, [0, 0, -4]).t == 1.0  # at the sweep's end: a hit (touching counts)
    assert at_offset(ours, -1.0 + 1e-9, [0, 0, -4]).hit is True  # just inside
    assert at_offset(ours, -1.0 - 1e-9, [0, 0, -4]).hit is False  # just past it: a miss
    near = sweep(ConvexPolyhedron([[x, y, z + 2.004] for x, y, z in CUBE]), BOXES[1], [0, 0, -1])  # gap 0.004
    assert at_offset(near, 0.005, [0, 0, -1]).t == 0.0  # starts within the slop: t = 0 for the engine
    assert at_offset(near, 0.003, [0, 0, -1]).t == pytest.approx(0.001, abs=1e-12)
    away = sweep(BOXES[0], BOXES[1], [0, 0, 10])
    assert at_offset(away, 0.005, [0, 0, 10]) is away  # a miss stays a miss


@pytest.mark.parametrize("offset, hit", [(-0.001, True), (-0.001 + 1e-9, True), (-0.001 - 1e-9, False)])
def test_first_order_a_shallow_overlap_moving_apart_is_a_hit_only_within_the_offset(offset, hit):
    """Boxes 0.001 deep moving apart: t = 0 for an engine that stops 0.001 inside or
    less deep (at, just inside), a miss for one that stops deeper (just outside)."""
    apart = sweep(ConvexPolyhedron([[x, y, z + 1.999] for x, y, z in CUBE]), BOXES[1], [0, 0, 1])
    assert apart.initially_overlapping and apart.penetration_depth == pytest.approx(0.001, abs=1e-12)
    moved = at_offset(dataclasses.replace(apart, penetration_depth=0.001), offset, [0, 0, 1])
    assert moved.hit is hit and (not hit or moved.t == 0.0)


@pytest.mark.parametrize("tilt, t", [(0.0, 0.5), (-1e-6, 0.5), (1e-6, 0.499)])
def test_first_order_a_tangent_contact_keeps_its_t_and_an_approaching_one_moves(tilt, t):
    """The closing speed |d·n| at 0 (a tangent contact: no first-order shift), just
    below (moving apart: kept) and just above (1e-6: 1e-9 of offset is 1e-3 of t)."""
    normal = np.array([1.0, 0.0, tilt]) / np.hypot(1.0, tilt)
    ours = dataclasses.replace(sweep(*BOXES), t=0.5, normal=normal)
    assert at_offset(ours, 1e-9, [0, 0, -1]).t == pytest.approx(t, abs=1e-9)


def test_a_shallow_overlap_is_none_for_an_engine_that_stops_inside():
    """Spheres overlapping by 0.002 (less than the slop): Box3D moves them on until
    0.005 deep, or says miss when they move apart; sweeplab says overlap at t = 0."""
    shallow = (Sphere([0, 0, 1.998], 1.0), Sphere([0, 0, 0], 1.0))
    ours = sweep(*shallow, [0, 0, -1])
    assert ours.initially_overlapping
    assert judged(EngineAnswer(True, 0.003, contact_offset=-0.005), *shallow, [0, 0, -1])[0] == "agrees"
    assert judged(EngineAnswer(False, contact_offset=-0.005), *shallow, [0, 0, 1])[0] == "agrees"
    assert judged(EngineAnswer(False), *shallow, [0, 0, 1])[0] == "start"  # the slop not accounted
    deep = (Sphere([0, 0, 1.5], 1.0), Sphere([0, 0, 0], 1.0), [0, 0, -1])
    assert judged(EngineAnswer(True, 0.0, contact_offset=-0.005), *deep)[0] == "agrees"


def test_the_contact_tolerance_accepts_a_stop_within_it_and_no_farther():
    """Box3D stops with the surfaces between the offset and the offset + tolerance
    apart: head-on at 10 a sweep, t between 0.3005 - 1.25e-4 and 0.3005."""
    def verdict(t):
        return judged(EngineAnswer(True, t, contact_offset=-0.005, contact_tolerance=0.00125), *SPHERES)[0]

    detail = judged(EngineAnswer(True, 0.3004, contact_offset=-0.005, contact_tolerance=0.00125), *SPHERES)[2]
    assert "sweeplab says t = 0.300375 for a stop -0.00375 apart to t = 0.3005 for a stop -0.005 apart" in detail

    assert verdict(0.3005) == verdict(0.300375) == verdict(0.3004) == "agrees"
    assert verdict(0.300375 - 1e-4 - 1e-6) == "t"  # beyond the early end by more than the float32 tolerance
    assert verdict(0.300375 - 1e-4 + 1e-6) == "agrees"
    assert verdict(0.3005 + 1e-4 + 1e-6) == "t"
    graze = (Sphere([2.002, 0, 5], 1.0), Sphere([0, 0, 0], 1.0), [0, 0, -10])  # passes 0.002 apart
    assert judged(EngineAnswer(True, 0.5, contact_offset=0.0, contact_tolerance=0.003), *graze)[0] == "agrees"
    assert judged(EngineAnswer(True, 0.5, contact_offset=0.0, contact_tolerance=0.001), *graze)[0] == "hit"


def test_the_normal_is_sweeplabs_at_the_engines_stop_within_the_tolerance():
    """A point falling 0.003 beside a cube's edge: grown into a ball of radius s it
    touches the edge dz = sqrt(s² - 0.003²) above it, the normal (0.003, 0, dz) / s
    turning 8° between s = 0.005 and 0.00625.  An engine stopping at s = 0.005625
    (t = (4 - dz) / 10) agrees with sweeplab's normal there, not at either end."""
    edge = (Point([1.003, 0, 5]), ConvexPolyhedron(CUBE), [0, 0, -10])
    dz = float(np.sqrt(0.005625**2 - 0.003**2))
    normal = [0.003 / 0.005625, 0.0, dz / 0.005625]
    kind, _, detail = judged(EngineAnswer(True, (4 - dz) / 10, normal=normal, contact_offset=0.005,
                                          contact_tolerance=0.00125), *edge)
    assert kind == "agrees", detail
    at_the_end = [0.6, 0.0, 0.8]  # sweeplab's normal for s = 0.005: 4.6° off
    assert judged(EngineAnswer(True, (4 - dz) / 10, normal=at_the_end, contact_offset=0.005,
                               contact_tolerance=0.00125), *edge)[0] == "normal"


def test_an_engine_miss_is_right_only_where_the_latest_stop_misses():
    graze = (Sphere([2.002, 0, 5], 1.0), Sphere([0, 0, 0], 1.0), [0, 0, -10])
    ours = sweep(*graze)
    answer = EngineAnswer(False, contact_offset=0.003, contact_tolerance=0.001)
    assert expected_answer(answer, ours, *graze).compared.hit  # within 0.003: the engine must hit
    assert judged(answer, *graze)[0] == "hit"
    assert judged(EngineAnswer(False, contact_offset=0.001, contact_tolerance=0.003), *graze)[0] == "agrees"


@pytest.mark.parametrize("moving, target, offset, radii", [
    (Sphere([0, 0, 5], 1.0), Sphere([0, 0, 0], 2.0), -0.005, (0.995, 2.0)),
    (Sphere([0, 0, 5], 0.001), Sphere([0, 0, 0], 2.0), -0.005, (0.0, 1.996)),  # the moving radius down to 0
    (Point([0, 0, 5]), Triangle([0, 0, 0], [1, 0, 0], [0, 1, 0]), 0.005, (0.005, None)),
    (Segment([0, 0, 5], [1, 0, 5]), Capsule([0, 0, 0], [1, 0, 0], 0.0), 0.005, (0.005, 0.0)),
    (ConvexPolyhedron(CUBE), Sphere([0, 0, 5], 1.0), -0.005, (None, 0.995)),
])
def test_the_radii_grow_on_the_moving_shape_first(moving, target, offset, radii):
    grown = grown_pair(moving, target, offset)
    assert tuple(None if not hasattr(shape, "radius") else float(shape.radius) for shape in grown) == \
        pytest.approx(radii, abs=1e-15)


def test_a_box_grazing_within_the_offset_is_a_hit_for_the_engine():
    """A box passing 0.004 beside another: a hit for an engine that stops 0.005 short
    (sweeplab's GJK cast with its margin grown: the grown edges are round, they meet
    sqrt(0.005² - 0.004²) = 0.003 before the faces' levels do, at t = 0.2997), a miss
    for one that stops 0.003 short."""
    beside = (ConvexPolyhedron([[x + 2.004, y, z + 5] for x, y, z in CUBE]), ConvexPolyhedron(CUBE), [0, 0, -10])
    assert sweep(*beside).hit is False
    assert judged(EngineAnswer(True, 0.2997, contact_offset=0.005), *beside)[0] == "agrees"
    assert judged(EngineAnswer(True, 0.2995, contact_offset=0.005), *beside)[0] == "t"
    assert judged(EngineAnswer(True, 0.2997, contact_offset=0.003), *beside)[0] == "hit"


def test_a_pair_that_cannot_carry_the_offset_has_no_grown_twin():
    assert grown_pair(ConvexPolyhedron(CUBE), Triangle([0, 0, 0], [1, 0, 0], [0, 1, 0]), 0.005) is None
    assert grown_pair(Sphere([0, 0, 5], 0.001), Triangle([0, 0, 0], [1, 0, 0], [0, 1, 0]), -0.001) is not None
    assert grown_pair(Sphere([0, 0, 5], 0.001), Triangle([0, 0, 0], [1, 0, 0], [0, 1, 0]), -0.0011) is None


def test_the_log_keeps_the_contact_offset_and_refuses_a_negative_tolerance(tmp_path):
    from jsonschema import ValidationError

    from tests.app.test_schemas import VALIDATORS
    from tests.engines.test_query_log import FLOAT32_LOG

    line = json.loads(json.dumps(FLOAT32_LOG[0]))
    line["answer"].update(contact_offset="-0x1.47ae147ae147bp-8", contact_tolerance=0.00125)
    VALIDATORS["query-log"].validate(line)
    with pytest.raises(ValidationError):
        VALIDATORS["query-log"].validate({**line, "answer": {**line["answer"], "contact_tolerance": -0.001}})
    (tmp_path / "log.jsonl").write_text(json.dumps(line) + "\n")
    (query,) = read_log(tmp_path / "log.jsonl")
    assert query.answer.contact_offset == -0.005 and query.answer.contact_tolerance == 0.00125
    assert query.to_json()["answer"]["contact_offset"] == -0.005
    line["answer"]["contact_tolerance"] = -1e-300
    (tmp_path / "bad.jsonl").write_text(json.dumps(line) + "\n")
    with pytest.raises(QueryLogError, match="contact_tolerance must be a finite non-negative number"):
        read_log(tmp_path / "bad.jsonl")


def test_regression_a_stop_inside_a_pair_without_radius_is_judged_not_a_crash():
    """A log's negative ``contact_offset`` on two boxes: sweeplab's GJK cast cannot
    grow a margin below 0 (``ValueError``), which ended triage in a traceback, exit 1;
    the answer is moved to first order instead."""
    kind, _, detail = judged(EngineAnswer(True, 0.3005, normal=[0, 0, 1], contact_offset=-0.005), *BOXES)
    assert kind == "agrees" and "moved to first order" in detail, detail


@pytest.mark.parametrize("past_the_stop, kind", [(0.9e-4, "graze"), (1.1e-4, "hit")])
def test_a_flip_is_graded_from_the_engines_own_contact(past_the_stop, kind):
    """Unit spheres passing with their surfaces overlapping by 0.005 + p; an engine
    that stops 0.005 inside says miss.  Past its own contact the shapes reach only p:
    within the float32 graze bound (1e-5 x size 10 = 1e-4) a graze, beyond it a hit.
    (Graded at touching it was a 0.005-deep "hit" however small p.)"""
    x = 2.0 - (0.005 + past_the_stop)
    shapes = (Sphere([x, 0, 5], 1.0), Sphere([0, 0, 0], 1.0), [0, 0, -10])
    found, size, detail = judged(EngineAnswer(False, contact_offset=-0.005), *shapes)
    assert found == kind and size == pytest.approx(past_the_stop, rel=1e-6), detail
    assert "past the engine's contact" in detail


def test_a_flip_is_graded_from_the_farthest_stop_the_engine_may_make():
    """The engine may stop up to ε farther apart than δ, at δ + ε = -0.00375: shapes
    whose surfaces reach only 5e-5 short of that (never 0.00375 deep), which the engine
    says hit, are a graze 5e-5 from its contact; graded from δ alone they were a hit
    1.3e-3 away."""
    x = 2.0 - (0.00375 - 5e-5)
    shapes = (Sphere([x, 0, 5], 1.0), Sphere([0, 0, 0], 1.0), [0, 0, -10])
    answer = EngineAnswer(True, 0.5, normal=[1, 0, 0], contact_offset=-0.005, contact_tolerance=0.00125)
    kind, size, detail = judged(answer, *shapes)
    assert kind == "graze" and size == pytest.approx(5e-5, rel=1e-6), detail
    assert judged(dataclasses.replace(answer, contact_tolerance=1e-4), *shapes)[0] == "hit"


@pytest.mark.parametrize("moving, target", [
    (Sphere([0, 0, 1.5], 1.0), Sphere([0, 0, 0], 1.0)),
    (ConvexPolyhedron([[x, y, z + 1.5] for x, y, z in CUBE]), ConvexPolyhedron(CUBE)),
])
def test_an_engine_missing_shapes_that_overlap_at_the_start_is_a_start_disagreement_for_every_pair(moving, target):
    """Overlapping 0.5 deep at t = 0, moving apart, an engine with a contact tolerance
    (Jolt: culverin ignores back faces) says miss: ``start``, the same for boxes (their
    stop from sweeplab's GJK cast) as for spheres (their radii grown); it said ``hit``
    for boxes."""
    overlapping = (moving, target, [0, 0, 10])
    assert sweep(*overlapping).initially_overlapping
    assert judged(EngineAnswer(False, contact_tolerance=1e-4), *overlapping)[0] == "start"
