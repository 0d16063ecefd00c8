"""What the editor draws for a scene, decided without GL."""

import numpy as np

from sweeplab.cli import DEMO_SCENE, example_scenes
from sweeplab.physics import tolerance
from sweeplab.scene.model import Scene, SceneObject, load
from sweeplab.view.model import CONTACT, EARLIEST, HIT, MISS, OVERLAP, SEPARATION, TIME_OF_IMPACT, build_view_model


def test_demo_scene_shows_hits_a_graze_and_a_miss():
    view = build_view_model(load(DEMO_SCENE))
    status = {r.name: r.status for r in view.reports}
    assert status == {"point": "hit", "graze sphere": "hit", "segment": "hit", "triangle": "hit",
                      "missed polygon": "miss", "plane": "hit"}
    graze = next(r for r in view.reports if r.name == "graze sphere").result
    assert graze.t == 5.5 / 14  # tangent by construction: the path passes 1.5 = 0.5 + 1.0 from its center
    assert view.earliest == "point"
    fills = [d.fill for d in view.drawables]
    assert TIME_OF_IMPACT in fills and MISS in fills and HIT in fills
    assert any(d.outline == EARLIEST for d in view.drawables)
    contact_points = np.concatenate([p.positions for p in view.points if p.color == CONTACT])
    assert len(contact_points) == 5


def test_overlap_gets_its_own_colour_and_separation_arrow():
    scene = Scene([SceneObject("ball", "sphere", {"center": [0.0, 0.0, 0.5], "radius": 1.0}),
                   SceneObject("floor", "triangle", {"a": [-2.0, -2, 0], "b": [2.0, -2, 0], "c": [0.0, 2, 0]})],
                  moving="ball", direction=[1.0, 0.0, 0.0])
    view = build_view_model(scene)
    assert view.reports[0].status == "overlap"
    assert any(d.fill == OVERLAP for d in view.drawables)
    arrows = [b for b in view.lines if b.color == SEPARATION]
    np.testing.assert_allclose(arrows[0].segments[0], [[0, 0, 0], [0, 0, 0.5]])


def test_unsupported_pair_is_reported_not_raised():
    scene = Scene([SceneObject("tri", "triangle", {"a": [0.0, 0, 0], "b": [1.0, 0, 0], "c": [0.0, 1, 0]}),
                   SceneObject("other", "triangle", {"a": [0.0, 0, 1], "b": [1.0, 0, 1], "c": [0.0, 1, 1]})],
                  moving="tri", direction=[0.0, 0.0, 2.0])
    report = build_view_model(scene).reports[0]
    assert report.status == "unsupported" and "Triangle" in report.message


def test_precision_lens_and_reference_on_the_graze_scene():
    from pathlib import Path

    from sweeplab.view.reports import sweep_targets

    scene = load(Path(__file__).resolve().parents[2] / "app" / "scenes" / "graze.json")
    reports = {r.name: r for r in sweep_targets(scene, float32=True, reference=True)}
    lowered = reports["lowered 2^-40 (miss)"]
    assert lowered.result.hit is False and bool(lowered.single.hit) is True  # float32 cannot see 2^-40
    assert lowered.reference.hit is False and lowered.disagreement == ""
    touched = reports["touched edge"]
    assert touched.result.t == 0.5 and touched.reference.hit and touched.disagreement == ""
    assert all(r.single is None and r.reference is None for r in sweep_targets(scene))


def test_targets_swept_together_answer_as_swept_alone():
    """The view sweeps a sphere's core targets in one kernel call (``sweep_each``);
    every report still holds, bit for bit, the answer of the target's own sweep."""
    from sweeplab.scene.shape_kinds import build_shape
    from sweeplab.view.reports import sweep_targets
    from sweeplab.physics import sweep
    from tests.physics.expect import assert_identical

    scene = load(DEMO_SCENE)
    moving = build_shape(scene.object(scene.moving).kind, scene.object(scene.moving).params)
    for report in sweep_targets(scene):
        target = scene.object(report.name)
        assert_identical(report.result, sweep(moving, build_shape(target.kind, target.params), scene.direction))


def test_a_large_scene_reports_its_progress(monkeypatch, capsys):
    """A scene of many targets tells how far its sweeps are (the issue: 480,000
    points took minutes without a word): every PROGRESS_STEP targets and the last;
    the terminal line is printed only for scenes above that step."""
    from sweeplab.cli import report_progress
    from sweeplab.view import reports

    monkeypatch.setattr(reports, "PROGRESS_STEP", 2)
    scene = Scene([SceneObject("ball", "sphere", {"center": [0.0, 0, 0], "radius": 0.5})]
                  + [SceneObject(f"p{i}", "point", {"p": [float(i + 1), 0, 0]}) for i in range(5)],
                  moving="ball", direction=[10.0, 0, 0])
    told = []
    view = build_view_model(scene, progress=lambda done, total: told.append((done, total)))
    assert told == [(0, 5), (2, 5), (4, 5), (5, 5)] and len(view.reports) == 5
    report_progress(5, 5)
    assert capsys.readouterr().err == "\rsweeplab: swept 5 of 5 targets (100%)\n"
    report_progress(1, 2)
    assert capsys.readouterr().err == ""


def test_mesh_targets_get_a_second_opinion_and_a_float32_column():
    """#21 item 12: mesh targets said "when still" forever and had no float32 column."""
    scene = load(example_scenes()["meshes"])
    view = build_view_model(scene, float32=True, reference=True)
    meshes = [r for r in view.reports if r.kind == "mesh"]
    assert meshes and all(r.reference is not None and r.single is not None for r in meshes)
    hits = [r for r in meshes if r.result.hit]
    assert hits and all(r.disagreement == "" for r in meshes)
    for report in hits:  # the triangle-by-triangle reference finds the same triangle, t to tolerance
        assert report.reference.face_index == report.result.face_index
        assert abs(report.reference.t - report.result.t) <= tolerance.REFERENCE_TIME_ATOL
        assert report.single.point.dtype == np.float32 and abs(report.single.t - report.result.t) < 1e-5


def test_a_value_beyond_float32_is_said_plainly(recwarn):
    """#21 item 13: a radius of 1e308 was accepted, then the float32 lens overflowed and
    the shape vanished with warnings.  Now the float64 answer stands and the lens says
    the value does not fit float32, with no warning."""
    scene = load(DEMO_SCENE)
    scene.object("graze sphere").params["radius"] = 1e308
    view = build_view_model(scene, float32=True, reference=True)
    report = next(r for r in view.reports if r.name == "graze sphere")
    assert report.status == "overlap" and report.single is None
    assert report.single_message == "graze sphere: radius 1e+308 does not fit float32 (largest 3.4028235e+38)"
    others = [r for r in view.reports if r.name != "graze sphere"]
    assert all(r.single is not None for r in others)
    scene.object("mover").params["radius"] = 1e300  # the moving shape too
    view = build_view_model(scene, float32=True)
    assert all(r.single is None and "mover: radius 1e+300 does not fit float32" in r.single_message
               for r in view.reports)
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]
