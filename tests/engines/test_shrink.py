"""Faithful shrinking (#34): a shrunk disagreement keeps its sub-kind, its motion and
its shapes' sizes; fake engines disagree by a rule, so no engine is needed but for
the one regression case fcl found."""

import numpy as np
import pytest

from sweeplab.engines import EngineUnavailable, engine
from sweeplab.engines.compare import Tolerances
from sweeplab.engines.fuzz import draw_configuration, shrink_configuration
from sweeplab.engines.shrink import (DEGENERATE_FRACTION, GRAZE_FRACTION, degeneracies, hit_margin, is_deep,
                                     as_degenerate_as, extent, sub_kind)
from sweeplab.physics import sweep
from sweeplab.scene.model import SceneObject
from sweeplab.scene.query_log import Engine, EngineAnswer
from sweeplab.scene.shape_kinds import build_shape

TOLERANCES = Tolerances()


def _agreeing(ours) -> EngineAnswer:
    if not ours.hit:
        return EngineAnswer(False)
    return EngineAnswer(True, float(ours.t), [float(v) for v in ours.point], [float(v) for v in ours.normal])


class Fake:
    """An engine that answers as sweeplab does, except where ``rule(ours)`` gives its
    own answer."""

    info = Engine("fake", "1", "float64")

    def __init__(self, rule):
        self.rule = rule

    def answer(self, moving, target, direction):
        ours = sweep(moving, target, direction)
        return self.rule(ours) or _agreeing(ours)


MISSES_EVERYTHING = Fake(lambda ours: EngineAnswer(False))
MISSES_SIDEWAYS_NORMALS = Fake(lambda ours: EngineAnswer(False) if ours.hit and abs(ours.normal[1]) > 1e-9 else None)
ALWAYS_HALFWAY = Fake(lambda ours: EngineAnswer(True, 0.5) if ours.hit else None)
CONTRARY = Fake(lambda ours: EngineAnswer(False) if ours.hit else EngineAnswer(True, 0.5))


def _shape(name, kind, **params):
    return SceneObject(name, kind, {key: [float(v) for v in value] if isinstance(value, list) else float(value)
                                    for key, value in params.items()})


def _spheres(moving_center, direction, moving_radius=1.0, target_radius=1.0):
    return (_shape("moving", "sphere", center=moving_center, radius=moving_radius),
            _shape("target", "sphere", center=[0, 0, 0], radius=target_radius), [float(v) for v in direction])


FCL_CAPSULES = (  # a deep miss of proper capsules: `sweeplab fuzz --engine fcl --pair capsule-capsule --seed 1`
    _shape("moving", "capsule", a=[-0.8049388249168974, -2.64946530225719, 0.8400633499060595],
           b=[-3.525739612467743, -5.239007489006856, -1.6802816164452272], radius=0.3081958747377355),
    _shape("target", "capsule", a=[0.45814840797990364, 1.8326917057851224, -1.3968504929924352],
           b=[-0.842825252603298, 3.779584569496744, 0.07883978806550007], radius=0.1704740109394679),
    [2.8388156842447274, 11.794890321069879, -0.42063206518079393])


def _assert_faithful(adapter, original, shrunk):
    assert sub_kind(adapter, shrunk, TOLERANCES) == sub_kind(adapter, original, TOLERANCES)
    assert as_degenerate_as(degeneracies(shrunk), degeneracies(original)), (original, shrunk)


def test_regression_fcl_capsule_miss_does_not_shrink_to_two_points_at_rest():
    """#34: 5 of 15 fcl capsule-capsule reproducers shrank to two zero-size capsules at
    the origin with zero motion (sweeplab: touching at t = 0, fcl: miss); their
    originals were deep misses of proper capsules."""
    try:
        fcl = engine("fcl")
    except EngineUnavailable as error:
        pytest.skip(str(error))
    original = sub_kind(fcl, FCL_CAPSULES, TOLERANCES)
    assert original is not None and original.kind == "hit" and original.ours_deep and not original.ours_at_start
    moving, target, direction = shrunk = shrink_configuration(fcl, FCL_CAPSULES, "hit", TOLERANCES)
    assert np.any(direction) and moving.params["radius"] > 0 and target.params["radius"] > 0
    assert moving.params["a"] != moving.params["b"] and target.params["a"] != target.params["b"]
    _assert_faithful(fcl, FCL_CAPSULES, shrunk)


def test_a_miss_of_a_deep_hit_stays_one_with_a_fake_engine():
    """The same original, an engine that misses everything: the shrinker used to take
    it to zero sizes and zero motion too."""
    shrunk = shrink_configuration(MISSES_EVERYTHING, FCL_CAPSULES, "hit", TOLERANCES)
    _assert_faithful(MISSES_EVERYTHING, FCL_CAPSULES, shrunk)
    assert np.any(shrunk[2]) and shrunk[0].params["radius"] > 0 and shrunk[1].params["radius"] > 0
    assert len(str(shrunk)) < len(str(FCL_CAPSULES))  # and still rounder


def test_a_deep_miss_does_not_shrink_to_a_graze():
    """An engine that misses hits with a sideways normal: rounding the offset 1.9999 to 2
    would keep the disagreement, at a graze (the spheres touch and part)."""
    original = _spheres([0, 1.9999, 5.4321], [0, 0, -10])
    assert sub_kind(MISSES_SIDEWAYS_NORMALS, original, TOLERANCES).ours_deep
    shrunk = shrink_configuration(MISSES_SIDEWAYS_NORMALS, original, "hit", TOLERANCES)
    _assert_faithful(MISSES_SIDEWAYS_NORMALS, original, shrunk)
    assert shrunk[0].params["center"][1] == 1.9999


def test_a_hit_in_flight_does_not_shrink_to_a_touch_at_the_start():
    """z = 2.3 rounded to 2 starts the spheres touching: a hit at t = 0, another sub-kind."""
    original = _spheres([0, 0, 2.3], [0, 0, -1])
    shrunk = shrink_configuration(MISSES_EVERYTHING, original, "hit", TOLERANCES)
    _assert_faithful(MISSES_EVERYTHING, original, shrunk)
    assert shrunk[0].params["center"] == [0.0, 0.0, 2.3]


def test_a_shallow_overlap_does_not_shrink_to_a_touch():
    """An engine that says t = 0.5 for every hit: z = 1.9999999 rounded to 2 keeps the
    "t" disagreement at t = 0, but the spheres touch instead of overlapping."""
    original = _spheres([0, 0, 1.9999999], [1.234, 0, 0])
    goal = sub_kind(ALWAYS_HALFWAY, original, TOLERANCES)
    assert goal.kind == "t" and goal.ours_overlapping and not goal.ours_deep
    shrunk = shrink_configuration(ALWAYS_HALFWAY, original, "t", TOLERANCES)
    _assert_faithful(ALWAYS_HALFWAY, original, shrunk)
    assert shrunk[0].params["center"][2] == 1.9999999


def test_which_side_says_hit_is_kept():
    """An engine that always says the contrary: y = 2.5 -> 0 keeps a "hit" disagreement
    but turns sweeplab's miss into sweeplab's hit."""
    original = _spheres([0, 2.5, 5.4], [0, 0, -10])
    assert not sub_kind(CONTRARY, original, TOLERANCES).ours_hit
    shrunk = shrink_configuration(CONTRARY, original, "hit", TOLERANCES)
    _assert_faithful(CONTRARY, original, shrunk)
    assert shrunk[0].params["center"][1] == 2.5


def test_the_motion_stays_non_zero_where_the_shapes_start_overlapping():
    """A "start" disagreement holds at any direction: zero motion would be another query."""
    original = _spheres([0, 0, 1.5], [0.1, 0.2, -1.234])
    assert sub_kind(MISSES_EVERYTHING, original, TOLERANCES).kind == "start"
    shrunk = shrink_configuration(MISSES_EVERYTHING, original, "start", TOLERANCES)
    _assert_faithful(MISSES_EVERYTHING, original, shrunk)
    assert np.linalg.norm(shrunk[2]) >= DEGENERATE_FRACTION * extent(shrunk) and shrunk[2] != [0.1, 0.2, -1.234]


def test_radii_and_lengths_stay_non_zero():
    """Crossing capsules hit as deep with radius 0 or length 0: the shrinker must not
    take them there."""
    original = (_shape("moving", "capsule", a=[-1.2345, 0.1, 3.2], b=[1.1, 0.2, 3.3], radius=0.31),
                _shape("target", "capsule", a=[0.1, -1.3, 0.1], b=[0.2, 1.4, -0.1], radius=0.27), [0.0, 0.1, -6.1])
    moving, target, direction = shrunk = shrink_configuration(MISSES_EVERYTHING, original, "hit", TOLERANCES)
    _assert_faithful(MISSES_EVERYTHING, original, shrunk)
    assert min(degeneracies(shrunk).values()) >= DEGENERATE_FRACTION


@pytest.mark.parametrize(("pair", "wanted"), [("capsule-capsule", 3), ("sphere-box", 1), ("capsule-triangle", 1)])
def test_shrunk_draws_keep_their_sub_kind_motion_and_sizes(pair, wanted):
    """Property: every drawn configuration sweeplab hits, shrunk against an engine that
    misses everything, keeps its sub-kind and is no more degenerate than drawn."""
    rng = np.random.default_rng(7)
    shrunk_any = 0
    for _ in range(12):
        original = draw_configuration(pair, "random", rng)
        goal = sub_kind(MISSES_EVERYTHING, original, TOLERANCES)
        if goal is None or goal.kind == "agrees":
            continue
        shrunk = shrink_configuration(MISSES_EVERYTHING, original, goal.kind, TOLERANCES)
        _assert_faithful(MISSES_EVERYTHING, original, shrunk)
        assert np.linalg.norm(shrunk[2]) >= DEGENERATE_FRACTION * extent(shrunk)
        shrunk_any += 1
        if shrunk_any == wanted:
            return
    pytest.fail(f"no drawn {pair} configuration was a hit")


def test_a_degenerate_draw_stays_as_degenerate():
    """A capsule drawn with length 0 and radius 0 (a point) stays a point."""
    original = (_shape("moving", "capsule", a=[0.123, 0.0, 3.21], b=[0.123, 0.0, 3.21], radius=0.0),
                _shape("target", "sphere", center=[0, 0, 0], radius=1.234), [0.0, 0.0, -6.1])
    shrunk = shrink_configuration(MISSES_EVERYTHING, original, "hit", TOLERANCES)
    _assert_faithful(MISSES_EVERYTHING, original, shrunk)
    assert shrunk[0].params["radius"] == 0.0 and shrunk[0].params["a"] == shrunk[0].params["b"]


def test_zero_length_capsules_stay_zero_length():
    """A degenerate fcl draw (two zero-length capsules) shrank to two proper capsules:
    rounding one end at a time parts the ends."""
    point = [0.31028049841033667, -1.1213477793731397, -0.17428126254365583]
    other = [1.3807019620217993, 0.8422487077134138, -1.9237983502310345]
    original = (_shape("moving", "capsule", a=point, b=point, radius=0.21484791541076165),
                _shape("target", "capsule", a=other, b=other, radius=0.0),
                [2.0949518143947947, 3.209733867403375, -3.0963759197968437])
    moving, target, _ = shrunk = shrink_configuration(MISSES_EVERYTHING, original, "hit", TOLERANCES)
    _assert_faithful(MISSES_EVERYTHING, original, shrunk)
    assert moving.params["a"] == moving.params["b"] and target.params["a"] == target.params["b"]


def test_is_deep_at_and_around_the_graze_fraction():
    assert is_deep(GRAZE_FRACTION * 4.0, 4.0)
    assert is_deep(GRAZE_FRACTION * 4.0 * (1 + 1e-12), 4.0)
    assert not is_deep(GRAZE_FRACTION * 4.0 * (1 - 1e-12), 4.0)
    assert not is_deep(0.0, 0.0)  # a touch is a graze, even of points at rest


def test_as_degenerate_as_at_and_around_its_floor():
    big, tiny = {"radius": 0.5}, {"radius": DEGENERATE_FRACTION / 10}
    assert as_degenerate_as({"radius": DEGENERATE_FRACTION}, big)
    assert not as_degenerate_as({"radius": DEGENERATE_FRACTION * (1 - 1e-12)}, big)
    assert as_degenerate_as(tiny, tiny)
    assert not as_degenerate_as({"radius": tiny["radius"] * (1 - 1e-12)}, tiny)
    assert as_degenerate_as({"radius": 0.0}, {"radius": 0.0})
    assert not as_degenerate_as({"radius": 1e-300}, {"radius": 0.0})  # a point stays a point


def test_hit_margin_is_the_path_length_spent_touching():
    through = _spheres([0, 0, 5], [0, 0, -10])  # touches at z = 2 (t = 0.3), parts at z = -2 (t = 0.7)
    assert hit_margin(through, _ours(through)) == pytest.approx(4.0)
    stops_inside = _spheres([0, 0, 5], [0, 0, -4])  # touches at t = 0.75, still inside at the end
    assert hit_margin(stops_inside, _ours(stops_inside)) == pytest.approx(1.0)
    overlapping = _spheres([0, 0, 1.5], [0, 0, -1])
    assert hit_margin(overlapping, _ours(overlapping)) == pytest.approx(0.5)
    graze = _spheres([0, 2, 5], [0, 0, -10])
    assert hit_margin(graze, _ours(graze)) < 1e-6
    miss = _spheres([0, 3, 5], [0, 0, -10])
    assert hit_margin(miss, _ours(miss)) == 0.0


def test_hit_margin_of_boxes_poses_the_hull():
    def box(name, z):
        corners = [[x, y, w] for x in (-1.0, 1.0) for y in (-1.0, 1.0) for w in (-1.0, 1.0)]
        return SceneObject(name, "polyhedron", {"vertices": corners, "origin": [0.0, 0.0, z],
                                                "axes": np.eye(3).tolist()})
    through = (box("moving", 5.0), box("target", 0.0), [0.0, 0.0, -10.0])
    assert hit_margin(through, _ours(through)) == pytest.approx(4.0)


def test_degeneracies_measure_each_shape():
    triangle = _shape("target", "triangle", a=[0, 0, 0], b=[4, 0, 0], c=[2, 1.5, 0])
    capsule = _shape("moving", "capsule", a=[0, 0, 5], b=[0, 3, 5], radius=0.5)
    configuration = (capsule, triangle, [0.0, 0.0, -2.0])
    scale = extent(configuration)
    assert scale == pytest.approx(np.linalg.norm([4, 3, 5]) + 1.0)
    lengths = {name: value * scale for name, value in degeneracies(configuration).items()}
    assert lengths == pytest.approx({"direction": 2.0, "moving radius": 0.5, "moving length": 3.0,
                                     "target height": 1.5})
    flat_box = SceneObject("target", "polyhedron", {
        "vertices": [[x, y, z] for x in (-1.0, 1.0) for y in (-0.25, 0.25) for z in (-2.0, 2.0)],
        "origin": [0.0, 0.0, 0.0], "axes": np.eye(3).tolist()})
    lengths = degeneracies((capsule, flat_box, [0.0, 0.0, -2.0]))
    assert lengths["target thickness"] * extent((capsule, flat_box, [0.0, 0.0, -2.0])) == pytest.approx(0.5)
    points = (_shape("moving", "sphere", center=[0, 0, 0], radius=0), _shape("target", "sphere", center=[0, 0, 0],
                                                                              radius=0), [0.0, 0.0, 0.0])
    assert set(degeneracies(points).values()) == {0.0}


def _ours(configuration):
    moving, target, direction = configuration
    return sweep(build_shape(moving.kind, moving.params), build_shape(target.kind, target.params), direction)
