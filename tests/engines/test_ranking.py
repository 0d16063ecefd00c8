"""#34 part 1: findings a user can act on.  A hit/miss disagreement is judged by its
margin (how deep sweeplab's contact gets, or how far apart the shapes pass): within
the graze tolerance it is a ``graze`` (a tolerance effect), else a ``hit``, deepest
first; a normal where the cores meet at t = 0 is a ``convention``; the reference
column decides an exact touch exactly."""

import math

import numpy as np
import pytest

from sweeplab.cli import main
from sweeplab.engines.compare import DEFAULT_TOLERANCES, GRAZE_TOLERANCE, Tolerances, compare
from sweeplab.engines.margin import margin, size
from sweeplab.engines.triage import Verdict, reference_side, summary, triage
from sweeplab.scene.model import SceneObject
from sweeplab.scene.query_log import MOVING, TARGET, Engine, EngineAnswer, Query, query_scene, write_log
from sweeplab.physics import Capsule, ConvexPolyhedron, Sphere, Triangle, TriangleMesh, sweep

DIRECTION = [0.0, 0.0, -8.0]
"""Every sphere pair below falls from z = 4 through z = 0 at t = 1/2: size 8 (a power of
two, so size x tolerance is exact), and the closest centre distance is |x| exactly."""


def passing(x: float):
    """Two unit spheres, the moving one passing at x: margin = 2 - |x|."""
    return Sphere([x, 0.0, 4.0], 1.0), Sphere([0.0, 0.0, 0.0], 1.0), DIRECTION


def verdict_of(shapes, answer: EngineAnswer, precision: str = "float64", tolerances: Tolerances = DEFAULT_TOLERANCES):
    return compare(answer, sweep(*shapes), precision, tolerances, shapes=shapes)


def flipped(shapes) -> EngineAnswer:
    """The engine's answer opposite to sweeplab's on the hit flag."""
    ours = sweep(*shapes)
    return EngineAnswer(False) if ours.hit else EngineAnswer(True, 0.5)


def test_margin_and_size_by_hand():
    assert margin(*passing(2.5)) == -0.5 and margin(*passing(1.5)) == 0.5 and size(*passing(2.5)) == 8.0
    # the centre passes through the triangle: the cores meet, the margin saturates at the radius
    assert margin(Sphere([1.0, 1.0, 5.0], 0.25), Triangle([0.0, 0, 0], [4.0, 0, 0], [0.0, 4, 0]), [0, 0, -10.0]) \
        == 0.25
    assert margin(Capsule([0.0, -1, 3], [0.0, 1, 3], 0.5), Capsule([-1.0, 0, 0], [1.0, 0, 0], 0.25),
                  [0, 0, -2.0]) == -0.25


def test_margin_against_a_polyhedron_by_hand():
    """A box is its own core: a ball whose centre crosses it or starts inside it
    reaches the radius; else the nearest face decides.  Either order; no ball: None."""
    box = ConvexPolyhedron.box([1.0, 1.0, 1.0])
    assert margin(Sphere([0.0, 0, 5], 0.5), box, [0, 0, -10.0]) == 0.5  # through the box
    assert margin(box, Sphere([0.0, 0, 5], 0.5), [0, 0, 10.0]) == 0.5
    assert margin(Sphere([0.0, 0, 0], 0.5), box, [0, 0, 0.1]) == 0.5  # starts inside
    assert margin(Sphere([0.0, 0, 5], 0.5), box, [0, 0, -3.25]) == -0.25  # stops 0.75 above the top face
    assert margin(Sphere([0.0, 0, 5], 0.5), box, [0, 0, -3.75]) == 0.25
    assert margin(Capsule([-3.0, 0, 1.5], [3.0, 0, 1.5], 0.25), box, [0, 0, -0.25]) == 0  # lands on the top face
    assert margin(box, ConvexPolyhedron.box([1.0, 1.0, 1.0], center=(0.0, 0.0, 5.0)), [0, 0, 1.0]) == -2.0  # top 2 -> 4
    flat, needle, dot = (ConvexPolyhedron(corners) for corners in ([[0.0, 0, 0], [1.0, 0, 0], [0.0, 1, 0], [1.0, 1, 0]],
                                                                   [[0.0, 0, 0], [1.0, 0, 0], [2.0, 0, 0]],
                                                                   [[0.0, 0, 0]]))
    assert (flat.dimension, needle.dimension, dot.dimension) == (2, 1, 0)
    assert margin(Sphere([0.5, 0.0, 3], 0.5), flat, [0, 0, -2.75]) == 0.25  # stops 0.25 above the square
    assert margin(Sphere([0.5, 0.0, 3], 0.5), needle, [0, 0, -2.75]) == 0.25
    assert margin(Sphere([0.0, 0.0, 3], 0.5), dot, [0, 0, -2.75]) == 0.25
    assert margin(TriangleMesh([[0.0, 0, 0], [1.0, 0, 0], [0.0, 1, 0]], [[0, 1, 2]]), box, [0, 0, 1.0]) is None
    assert margin(Triangle([0.0, 0, 0], [1.0, 0, 0], [0.0, 1, 0]), box, [0, 0, 1.0]) is None


def test_margin_of_two_boxes_by_hand():
    """No ball: the deepest penetration over the sweep where they overlap (separating
    axes), else minus the smallest distance (edges against faces)."""
    falling, box = ConvexPolyhedron.box([1.0, 1, 1], center=(0.0, 0.0, 5.0)), ConvexPolyhedron.box([1.0, 1, 1])
    assert margin(falling, box, [0, 0, -10.0]) == 2.0  # through it: coincident at t = 1/2
    assert margin(falling, box, [0, 0, -3.5]) == 0.5 and margin(falling, box, [0, 0, -2.5]) == -0.5
    assert margin(falling, box, [0, 0, -3.0]) == 0  # lands on it
    aside = ConvexPolyhedron.box([1.0, 1, 1], center=(3.0, 3.0, 5.0))
    assert margin(aside, box, [0, 0, -5.0]) == -math.sqrt(2)  # edge to edge, sqrt(1 + 1) apart
    # crossed edges: one box turned 45° about x, the other about y; edges meet at centres 2 sqrt(2) apart
    c = math.sqrt(0.5)
    about_x, about_y = [[1.0, 0, 0], [0, c, -c], [0, c, c]], [[c, 0, c], [0, 1.0, 0], [-c, 0, c]]
    turned = ConvexPolyhedron.box([1.0, 1, 1], center=(0.0, 0.0, 5.0), rotation=about_x)
    crossing = ConvexPolyhedron.box([1.0, 1, 1], rotation=about_y)
    assert margin(turned, crossing, [0, 0, -(5 - 2 * math.sqrt(2) + 0.1)]) == pytest.approx(0.1, abs=1e-14)
    assert margin(turned, crossing, [0, 0, -(5 - 2 * math.sqrt(2) - 0.1)]) == pytest.approx(-0.1, abs=1e-14)
    assert margin(ConvexPolyhedron([[0.0, 0, 0], [1.0, 0, 0], [0.0, 1, 0]]), box, [0, 0, 1.0]) is None  # flat
    # a corner of the standing box up (its diagonal turned onto z), under the falling box's face: 0.1 apart
    axis, angle = np.array([1.0, -1.0, 0.0]) / math.sqrt(2), math.acos(1 / math.sqrt(3))
    skew = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    corner_up = ConvexPolyhedron.box([1.0, 1, 1], rotation=np.eye(3) + math.sin(angle) * skew
                                     + (1 - math.cos(angle)) * skew @ skew)
    assert np.max(corner_up.vertices[:, 2]) == pytest.approx(math.sqrt(3), abs=1e-15)
    assert margin(falling, corner_up, [0, 0, -(4 - math.sqrt(3) - 0.1)]) == pytest.approx(-0.1, abs=1e-14)


def test_margin_against_a_mesh_is_the_largest_over_its_triangles():
    """A square of two triangles at z = 0 and one at z = -1: the sphere stops 0.5 above
    the square, either order."""
    mesh = TriangleMesh([[0.0, 0, 0], [2.0, 0, 0], [2.0, 2, 0], [0.0, 2, 0], [0.0, 0, -1], [2.0, 0, -1], [0.0, 2, -1]],
                        [[0, 1, 2], [0, 2, 3], [4, 5, 6]])
    assert margin(Sphere([1.5, 1.5, 3], 1.0), mesh, [0, 0, -1.5]) == -0.5
    assert margin(mesh, Sphere([1.5, 1.5, 3], 1.0), [0, 0, 1.5]) == -0.5


@pytest.mark.parametrize("precision", ["float64", "float32"])
@pytest.mark.parametrize("side", [+1, -1])  # +1: sweeplab misses, the engine hits; -1: the other way
def test_a_flip_just_inside_the_default_graze_tolerance_is_a_graze_and_just_outside_a_hit(precision, side):
    bound = {"float64": 1e-12, "float32": 1e-5}[precision] * 8.0  # the documented defaults, not the constant read back
    assert bound == GRAZE_TOLERANCE[precision] * 8.0
    for factor, kind in ((0.9, "graze"), (1.1, "hit")):
        shapes = passing(2.0 + side * factor * bound)
        assert bool(sweep(*shapes).hit) == (side < 0)
        found, found_size, detail = verdict_of(shapes, flipped(shapes), precision)
        assert found == kind, (factor, detail)
        assert found_size == abs(margin(*shapes)) and math.isclose(found_size, factor * bound, rel_tol=1e-3)


def test_the_graze_tolerance_is_relative_to_the_size_and_holds_at_its_value():
    """At the tolerance exactly: a graze (<=); one float below it: a hit."""
    shapes = passing(2.0 + 1e-9)
    gap = -margin(*shapes)
    assert gap > 0 and verdict_of(shapes, flipped(shapes), tolerances=Tolerances(graze=gap / 8))[0] == "graze"
    below = math.nextafter(gap / 8, 0.0)
    assert verdict_of(shapes, flipped(shapes), tolerances=Tolerances(graze=below))[0] == "hit"
    scale = 2.0 ** 20  # the same pair 2^20 times larger: a gap of 0.9 x its bound is a graze there, a hit at size 8
    gap = 0.9 * 1e-12 * 8 * scale
    large = Sphere([2 * scale + gap, 0.0, 4 * scale], scale), Sphere([0.0, 0, 0], scale), [0.0, 0, -8 * scale]
    assert size(*large) == 8 * scale and verdict_of(large, flipped(large))[0] == "graze"
    assert verdict_of(passing(2.0 + gap), flipped(passing(2.0 + gap)))[0] == "hit"


def test_graze_tolerance_must_be_a_number_at_least_zero():
    for bad in (-1e-12, math.nan):
        with pytest.raises(ValueError, match="graze"):
            Tolerances(graze=bad)


def _line(number: int, shapes_params, answer: EngineAnswer, direction=DIRECTION) -> Query:
    (moving_kind, moving), (target_kind, target) = shapes_params
    return Query(query_scene(SceneObject(MOVING, moving_kind, moving), SceneObject(TARGET, target_kind, target),
                             direction), Engine("my-engine", "1", "float64"), answer, id=str(number))


def _spheres(x: float, z: float = 4.0):
    return ("sphere", {"center": [x, 0.0, z], "radius": 1.0}), ("sphere", {"center": [0.0, 0.0, 0.0], "radius": 1.0})


def ranked_log() -> list[Query]:
    return [_line(1, _spheres(1.9), EngineAnswer(False)),                # misses a contact 0.1 deep
            _line(2, _spheres(2.0 + 1e-15), EngineAnswer(True, 0.5)),     # invents a touch 1e-15 away: graze
            _line(3, _spheres(0.5), EngineAnswer(False)),                 # misses a contact 1.5 deep
            _line(4, _spheres(0.0), EngineAnswer(True, 0.3)),             # t: sweeplab 0.25
            _line(5, _spheres(0.0), EngineAnswer(True, 0.25)),            # agrees
            _line(6, _spheres(2.5), EngineAnswer(True, 0.5)),             # invents a contact 0.5 away
            _line(7, _spheres(0.0, 0.0), EngineAnswer(True, 0.0, None, [1.0, 0.0, 0.0])),  # centres coincide
            _line(8, _spheres(0.0), EngineAnswer(True, 0.25, None, [1.0, 0.0, 0.0]))]      # normal 90° off


def test_hit_disagreements_rank_deepest_first_above_t_and_grazes_and_conventions_last():
    verdicts = triage(ranked_log(), reference=False)
    assert [(v.number, v.kind) for v in verdicts] == [(3, "hit"), (6, "hit"), (1, "hit"), (4, "t"), (8, "normal"),
                                                       (2, "graze"), (7, "convention"), (5, "agrees")]
    assert [v.margin for v in verdicts[:3]] == [1.5, -0.5, margin(*passing(1.9))]
    assert verdicts[5].margin < 0 and verdicts[3].margin is None and verdicts[4].margin is None


def test_a_normal_where_the_cores_meet_at_t_0_is_a_convention_not_a_disagreement():
    inside = Sphere([0.0, 0, 0], 1.0), Sphere([0.0, 0, 0], 1.0), [0.0, 0, -1]
    ours = sweep(*inside)
    assert ours.initially_overlapping
    kind, _, detail = compare(EngineAnswer(True, 0.0, None, [1.0, 0, 0]), ours, "float64", shapes=inside)
    assert kind == "convention" and "cores meet at t = 0" in detail
    # overlapping at t = 0, but the centres apart: the normal is defined and judged
    apart = Sphere([0.0, 0, 1e-3], 1.0), Sphere([0.0, 0, 0], 1.0), [0.0, 0, -1]
    assert compare(EngineAnswer(True, 0.0, None, [1.0, 0, 0]), sweep(*apart), "float64", shapes=apart)[0] == "normal"


def exact_touch():
    """Two radius-0 capsules (segments) that cross exactly, distance 0, at t = 0.16055:
    the moving one's z is 0.16055 - 1 x 0.16055 = 0 at that t, exactly."""
    moving = ("capsule", {"a": [0.0, -1.0, 0.16055], "b": [0.0, 1.0, 0.16055], "radius": 0.0})
    target = ("capsule", {"a": [-1.0, 0.0, 0.0], "b": [1.0, 0.0, 0.0], "radius": 0.0})
    return _line(30, (moving, target), EngineAnswer(False), direction=[0.5, 0.25, -1.0])


def test_regression_an_exact_touch_sides_with_sweeplab():
    """#34: the reference column said "engine" (its bisection missed the instant of
    touching, so it agreed with the engine's miss); the touch is exact."""
    (verdict,) = triage([exact_touch()])
    assert verdict.ours.hit and verdict.ours.t == 0.16055 and not verdict.reference.hit
    assert reference_side(verdict) == "sweeplab"


def _with_engine_answer(verdict: Verdict, answer: EngineAnswer) -> Verdict:
    query = verdict.query
    return Verdict(verdict.number, Query(query.scene, query.engine, answer), "t", 0.0, verdict.ours, verdict.reference)


def test_exact_times_decide_which_side_is_right():
    """Unit spheres falling 8 from z = 4 touch at t = 1/4 exactly (centres 2 apart).
    The engine's hit within the window and touching is right; a hit touching but
    later than an exact touch by more than the window is late; a hit where the
    shapes do not touch, or a miss where they touch exactly, is wrong."""
    (verdict,) = triage([_line(1, _spheres(0.0), EngineAnswer(True, 0.25))])
    assert verdict.ours.t == 0.25 and verdict.reference.hit
    sides = {t: reference_side(_with_engine_answer(verdict, EngineAnswer(True, t)))
             for t in (0.25, 0.25 + 5e-7, 0.26, 0.2)}
    assert sides == {0.25: "both", 0.25 + 5e-7: "both", 0.26: "sweeplab", 0.2: "sweeplab"}
    assert reference_side(_with_engine_answer(verdict, EngineAnswer(False))) == "sweeplab"
    (exact,) = triage([exact_touch()])
    assert reference_side(_with_engine_answer(exact, EngineAnswer(True, 0.16))) == "sweeplab"  # no touch at 0.16


def test_triage_prints_the_margin_and_a_summary_that_separates_real_disagreements(tmp_path, capsys):
    path = tmp_path / "log.jsonl"
    write_log(ranked_log(), path)
    assert main(["triage", str(path), "--no-reference"]) == 1
    out = capsys.readouterr().out
    assert "8 queries: 1 agree; 5 real disagreements (3 hit: engine misses or invents a contact, 0 overlap at " \
           "start missed, 1 |dt| beyond tolerance, 1 normal); 2 tolerance effects (1 graze, 1 normal convention " \
           "where the cores meet at t = 0)" in out, out
    lines = out.splitlines()
    assert lines[0].split() == ["line", "kind", "pair", "margin", "reference", "detail"]
    assert lines[1].split()[:4] == ["3", "hit", "sphere-sphere", "1.5"]
    assert lines[6].split()[:4] == ["2", "graze", "sphere-sphere", "-8.88e-16"]  # 2 + 1e-15 rounds to 2 + 2 ulp


def test_grazes_alone_exit_0_and_a_tight_graze_tolerance_makes_them_hits(tmp_path, capsys):
    path = tmp_path / "log.jsonl"
    write_log([ranked_log()[1]], path)
    assert main(["triage", str(path), "--no-reference"]) == 0
    assert "1 graze" in capsys.readouterr().out
    assert main(["triage", str(path), "--no-reference", "--graze-tolerance", "0"]) == 1
    assert "1 hit: engine misses or invents a contact" in capsys.readouterr().out


def test_summary_counts_each_kind_once():
    verdicts = triage(ranked_log(), reference=False)
    assert summary(verdicts).startswith("8 queries: 1 agree; 5 real disagreements")


def test_the_results_panel_flags_real_disagreements_and_says_tolerance_effects():
    from sweeplab.ui.results import engine_cell
    from sweeplab.view.reports import EngineReport

    text, differs = engine_cell(EngineReport(EngineAnswer(True, 0.5), "graze", "the shapes pass 8.9e-16 apart"))
    assert text == "hit, t = 0.5  (graze, a tolerance effect: the shapes pass 8.9e-16 apart)" and not differs
    text, differs = engine_cell(EngineReport(EngineAnswer(False), "hit", "the shapes overlap by 0.37"))
    assert text == "miss  DISAGREES (hit): the shapes overlap by 0.37" and differs


def test_a_negative_tolerance_on_the_command_line_is_refused_naming_it(tmp_path, capsys):
    path = tmp_path / "log.jsonl"
    write_log([ranked_log()[1]], path)
    for option in ("--graze-tolerance", "--t-tolerance"):
        with pytest.raises(SystemExit) as stop:
            main(["triage", str(path), f"{option}=-1e-9"])
        name = option[2:].split("-")[0]
        assert stop.value.code == 2 and f"the {name} tolerance must be a number >= 0, got -1e-09" in \
            capsys.readouterr().err


def test_the_fuzz_table_has_a_column_for_each_kind_and_grazes_apart(tmp_path, capsys):
    """fcl says hit on sphere pairs that the grazing draws slid to within round-off of
    touching: those are grazes now, not hits (fcl sphere-sphere -n 3000 --seed 1: 456
    hits before, 456 grazes after)."""
    from tests.engines.test_fuzz import fcl_or_skip

    fcl_or_skip()
    main(["fuzz", "--engine", "fcl", "--pair", "sphere-sphere", "-n", "90", "--out", str(tmp_path / "out"),
          "--shrink-each", "0"])
    rows = {line.split()[0]: line.split()[1:] for line in capsys.readouterr().out.splitlines()[1:5]}
    assert rows["draw"] == ["hit", "start", "t", "normal", "graze", "convention", "unconverged", "agrees",
                            "crashed"], rows
    grazing = dict(zip(rows["draw"], map(int, rows["grazing"]), strict=True))
    assert grazing["graze"] > 0 and grazing["hit"] == 0, rows


def test_skipping_far_triangles_keeps_the_largest_margin():
    """The mesh margin skips triangles whose box bound cannot beat the best so far:
    the same answer as every triangle tried, over seeded spheres and capsules around
    an icosphere (320 triangles)."""
    from sweeplab.scene.mesh_sources import default_source
    from sweeplab.scene.shape_kinds import build_shape

    mesh = build_shape("mesh", {"source": default_source("icosphere"), "origin": [0.1, 0.2, 0.0],
                                "axes": [[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]]})
    triangles = [Triangle(*corners) for corners in mesh.to_world(mesh.vertices[mesh.faces])]
    rng = np.random.default_rng(3)
    for i in range(12):
        start = rng.uniform(-3, 3, 3)
        direction = -start * rng.uniform(0.3, 2) + rng.normal(0, 0.4, 3)
        moving = (Sphere(start, rng.uniform(0.05, 1)) if i % 2
                  else Capsule(start, start + rng.uniform(-1, 1, 3), rng.uniform(0.05, 1)))
        assert margin(moving, mesh, direction) == max(margin(moving, triangle, direction) for triangle in triangles)


def test_a_box_is_its_own_core_for_the_normal_convention():
    """Without point or segment cores on both sides the cores meet where sweeplab's
    depth reaches the summed radius: a sphere's centre inside a box, any overlap of
    two boxes."""
    box = ConvexPolyhedron.box([1.0, 1, 1])
    sideways = EngineAnswer(True, 0.0, None, [1.0, 0, 0])
    for moving, kind in ((Sphere([0.0, 0, 0.9], 0.5), "convention"),   # centre inside
                         (Sphere([0.0, 0, 1.0], 0.5), "convention"),   # centre on the face: depth = radius
                         (Sphere([0.0, 0, 1.2], 0.5), "normal"),       # centre outside: the normal is +z
                         (ConvexPolyhedron.box([1.0, 1, 1], center=(0.0, 0.0, 1.5)), "convention")):
        shapes = moving, box, [0.0, 0, 1.0]
        ours = sweep(*shapes)
        assert ours.initially_overlapping
        assert compare(sideways, ours, "float64", shapes=shapes)[0] == kind


def test_an_overlap_at_start_within_round_off_is_a_graze_and_a_deep_one_start():
    for height, kind in ((2.0 - 2.0 ** -51, "graze"), (1.5, "start")):  # overlapping by 4.4e-16, by 0.5
        shapes = Sphere([0.0, 0, height], 1.0), Sphere([0.0, 0, 0], 1.0), [0.0, 0, 1.0]
        assert sweep(*shapes).initially_overlapping
        assert compare(EngineAnswer(False), sweep(*shapes), "float64", shapes=shapes)[0] == kind


def test_file_open_counts_grazes_and_conventions_apart_from_real_disagreements(tmp_path):
    """The editor's message said "8 queries, 7 disagree", grazes and conventions counted in."""
    from sweeplab.cli import DEMO_SCENE
    from sweeplab.editor import Editor
    from sweeplab.scene.model import load

    path = tmp_path / "ranked.jsonl"
    write_log(ranked_log(), path)
    editor = Editor(load(DEMO_SCENE))
    assert editor.open(path), editor.message
    assert "8 queries, 5 disagree, 2 tolerance effects (grazes, conventions)" in editor.message, editor.message
