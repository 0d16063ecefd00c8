"""Box3D as an engine (#34 part 4): hand-worked answers, its linear slop measured and
accounted for, the pairs it cannot answer; skipped when robox3d is not installed
(CI installs it)."""

import numpy as np
import pytest

from sweeplab.engines import EngineUnavailable, engine
from sweeplab.engines.contact_offset import compare_at_offset
from sweeplab.engines.campaign import AdapterRecipe
from sweeplab.engines.fuzz import run
from sweeplab.physics import (Capsule, ConvexPolyhedron, Plane, Point, Segment, Sphere, Triangle, TriangleMesh,
                              sweep)

CUBE = [[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
TRIANGLE = Triangle([-1, -1, 0], [1, -1, 0], [0, 1, 0])


@pytest.fixture(scope="module")
def box3d():
    try:
        return engine("box3d")
    except EngineUnavailable as error:
        pytest.skip(str(error))


def f32(value: float) -> float:
    return float(np.float32(value))


def test_box3d_names_itself_float32(box3d):
    assert box3d.info.name == "box3d" and box3d.info.precision == "float32"
    assert box3d.info.version.startswith("robox3d 0.1") and box3d.info.version.endswith("(Box3D, f32)")


def test_head_on_spheres_stop_the_slop_inside(box3d):
    """Unit spheres 3 apart closing at 10 a sweep: touching at t = 0.3; Box3D stops
    with them 0.005 deep, at 0.3 + 0.005 / 10; the normal from the target towards
    the moving sphere, the point on the target."""
    answer = box3d.answer(Sphere([0, 0, 5], 1.0), Sphere([0, 0, 0], 1.0), [0, 0, -10])
    assert answer.hit and answer.t == f32(0.3005)
    assert answer.normal == [0.0, 0.0, 1.0] and answer.point == [0.0, 0.0, 1.0]
    assert answer.contact_offset == -0.005 and answer.contact_tolerance == 0.00125


@pytest.mark.parametrize("moving, target, exact, offset", [
    (ConvexPolyhedron([[x, y, z + 5] for x, y, z in CUBE]), ConvexPolyhedron(CUBE), 0.3, 0.005),
    (Point([0.2, 0.1, 3]), TRIANGLE, 0.3, 0.005),
    (Segment([0.2, 0.1, 3], [0.3, 0.1, 4]), TRIANGLE, 0.3, 0.005),
    (Sphere([0.2, 0.1, 3], 0.5), TRIANGLE, 0.25, -0.005),
    (Capsule([0, 0, 5], [1, 0, 5], 0.5), Capsule([0, -1, 0], [0, 1, 0], 0.5), 0.4, -0.005),
    (Sphere([0, 0, 5], 1.0), ConvexPolyhedron(CUBE), 0.3, -0.005),
    (Sphere([0.2, 0.1, 3], 0.5), TriangleMesh([[-1, -1, 0], [1, -1, 0], [0, 1, 0]], [[0, 1, 2]]), 0.25, -0.005),
])
def test_each_pair_kind_stops_the_offset_from_contact(box3d, moving, target, exact, offset):
    """Head-on along -z at 10 a sweep: t = exact - offset / 10 (short of contact for
    pairs without radius, inside for rounded ones)."""
    answer = box3d.answer(moving, target, [0, 0, -10])
    assert sweep(moving, target, [0, 0, -10]).t == pytest.approx(exact, abs=1e-12)
    assert answer.contact_offset == offset
    assert answer.t == pytest.approx(exact - offset / 10, abs=1e-7)
    assert answer.normal == pytest.approx([0, 0, 1], abs=1e-7)


@pytest.mark.parametrize("radius", [0.0, 0.001, 0.0025, 0.0099, 0.01, 0.0101, 0.02, 0.5])
def test_the_slop_rule_is_what_box3d_does(box3d, radius):
    """The surfaces end max(0.005 - R, -0.005) apart (R the radii's sum): at, just
    inside and just outside R = 0.01, where short of contact turns into inside."""
    from sweeplab.engines.box3d_engine import contact_offset

    answer = box3d.answer(Sphere([5, 0, 0], radius / 2), Sphere([0, 0, 0], radius / 2), [-10, 0, 0])
    assert answer.contact_offset == contact_offset(radius) == pytest.approx(max(0.005 - radius, -0.005), abs=1e-15)
    assert (5 - radius) - 10 * answer.t == pytest.approx(answer.contact_offset, abs=2e-6)  # Box3D's own stop


def test_miss_and_moving_away(box3d):
    assert box3d.answer(Sphere([0, 3, 5], 1.0), Sphere([0, 0, 0], 1.0), [0, 0, -10]).hit is False
    assert box3d.answer(Sphere([0, 0, 5], 1.0), Sphere([0, 0, 0], 1.0), [0, 0, 10]).hit is False
    assert box3d.answer(Sphere([0, 0, 5], 1.0), Sphere([0, 0, 0], 1.0), [0, 0, -2]).hit is False  # falls short


def test_an_initial_overlap_is_t_0_with_no_normal_and_agrees(box3d):
    deep = (Sphere([0, 0, 1.5], 1.0), Sphere([0, 0, 0], 1.0), [0, 0, -10])
    answer = box3d.answer(*deep)
    assert answer.hit and answer.t == 0.0 and answer.normal is None
    assert compare_at_offset(answer, sweep(*deep), "float32", shapes=deep)[0] == "agrees"
    shallow_apart = (Sphere([0, 0, 1.998], 1.0), Sphere([0, 0, 0], 1.0), [0, 0, 1])  # 0.002 deep, less than slop
    answer = box3d.answer(*shallow_apart)
    assert answer.hit is False and sweep(*shallow_apart).initially_overlapping
    assert compare_at_offset(answer, sweep(*shallow_apart), "float32", shapes=shallow_apart)[0] == "agrees"


def test_the_pairs_box3d_cannot_answer_say_why(box3d):
    with pytest.raises(TypeError, match="no Box3D proxy for a Plane: Box3D has no plane shape"):
        box3d.answer(Sphere([0, 0, 5], 1.0), Plane([0, 0, 1], 0.0), [0, 0, -10])
    mesh = TriangleMesh([[-1, -1, 0], [1, -1, 0], [0, 1, 0]], [[0, 1, 2]])
    with pytest.raises(TypeError, match="a mesh can be the target, not the moving shape"):
        box3d.answer(mesh, Sphere([0, 0, -5], 1.0), [0, 0, -10])
    with pytest.raises(ValueError, match="takes no options"):
        engine("box3d", solver="naive")


def test_fuzzing_box3d_finds_no_disagreement_from_the_slop_alone(box3d):
    """A few hundred sphere pairs and spheres against triangles, random, grazing and
    degenerate: every one agrees once the slop is accounted for; with it dropped from
    the answers, the same run disagrees on t (and, at grazes, on hit)."""
    for pair in ("sphere-sphere", "sphere-triangle"):
        report = run(AdapterRecipe.of_engine("box3d"), pair, 240, seed=1, shrink_each=0, jobs=0)
        assert report.count > 200 and not report.findings, (pair, report.counts)
    report = run(AdapterRecipe("tests.engines.fake_engines:Box3dWithoutSlop"), "sphere-sphere", 150, seed=1,
                 shrink_each=0, jobs=0)
    assert report.counts[("random", "t")] > 10, report.counts


def test_the_results_panel_shows_box3d_beside_sweeplab(box3d):
    """The demo scene with "also answer with: box3d": every target answered, the
    verdict saying where Box3D stops; the plane it has no shape for said so."""
    from sweeplab.cli import DEMO_SCENE
    from sweeplab.scene.model import load
    from sweeplab.ui.results import engine_cell, report_text
    from sweeplab.view.meshes import MeshDisplay
    from sweeplab.view.model import build_view_model

    view = build_view_model(load(DEMO_SCENE), display=MeshDisplay(engines=("box3d",)))
    by_name = {report.name: report.engines["box3d"] for report in view.reports}
    assert by_name["plane"].kind == "cannot" and "Box3D has no plane shape" in by_name["plane"].detail
    assert {name: report.kind for name, report in by_name.items() if name != "plane"} == {
        "point": "agrees", "graze sphere": "agrees", "segment": "agrees", "triangle": "agrees",
        "missed polygon": "agrees"}
    graze = by_name["graze sphere"]  # sweeplab: a graze at touching; Box3D, stopping 0.005 inside: a miss
    assert graze.answer.hit is False and "sweeplab says miss for a stop -0.005 apart" in graze.detail
    assert "at touching" in graze.detail and engine_cell(graze) == ("miss", False)
    assert "box3d says: hit, t = " in report_text(next(r for r in view.reports if r.name == "segment"))


def test_a_box3d_log_keeps_the_slop_and_triage_accounts_for_it(box3d, tmp_path, capsys):
    """The answer's contact_offset and contact_tolerance go through the log: triage
    agrees with Box3D's raw t; the same log without them disagrees on t."""
    from sweeplab.cli import main
    from sweeplab.scene.model import SceneObject
    from sweeplab.scene.query_log import MOVING, TARGET, Query, query_scene, write_log

    moving = SceneObject(MOVING, "sphere", {"center": [0.0, 0.0, 5.0], "radius": 1.0})
    target = SceneObject(TARGET, "sphere", {"center": [0.0, 0.0, 0.0], "radius": 1.0})
    answer = box3d.answer(Sphere([0, 0, 5], 1.0), Sphere([0, 0, 0], 1.0), [0, 0, -10])
    query = Query(query_scene(moving, target, [0.0, 0.0, -10.0]), box3d.info, answer)
    write_log([query], tmp_path / "box3d.jsonl")
    assert main(["triage", str(tmp_path / "box3d.jsonl"), "--no-reference"]) == 0
    assert "1 queries: 1 agree" in capsys.readouterr().out
    query.answer = type(answer)(answer.hit, answer.t, answer.point, answer.normal)
    write_log([query], tmp_path / "raw.jsonl")
    assert main(["triage", str(tmp_path / "raw.jsonl"), "--no-reference"]) == 1
    assert f"engine t = {answer.t!r}, sweeplab t = 0.3 (|dt| = 0.0005)" in capsys.readouterr().out
