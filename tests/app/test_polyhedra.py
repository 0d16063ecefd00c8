"""Polyhedra in the editor, and the teaching view (Minkowski difference and ray)."""

from __future__ import annotations

from importlib import resources

import numpy as np

from sweeplab.editor import Editor
from sweeplab.view.meshes import MeshDisplay
from sweeplab.view.minkowski import obstacle
from sweeplab.scene.model import Scene, load
from sweeplab.scene.shape_kinds import KINDS, RigidMotion, build_shape
from sweeplab.view.model import MINKOWSKI, RAY, build_view_model
from sweeplab.physics import Capsule, ConvexPolyhedron, Sphere

POLYHEDRA_SCENE = resources.files("sweeplab") / "scenes" / "polyhedra.json"


def test_add_every_polyhedron_and_move_it():
    editor = Editor(Scene())
    for shape in ("box", "tetrahedron", "random hull"):
        editor.add_polyhedron(shape)
    assert [o.kind for o in editor.scene.objects] == ["polyhedron"] * 3
    box = editor.scene.object("box1")
    turned = KINDS["polyhedron"].moved(box.params, RigidMotion(np.array([[0.0, -1, 0], [1, 0, 0], [0, 0, 1]]),
                                                                np.zeros(3), np.array([2.0, 0, 0])))
    assert np.allclose(sorted(build_shape("polyhedron", turned).vertices[:, 0]), [1.5] * 4 + [2.5] * 4)


def test_scene_reports_the_feature_pair_and_highlights_the_feature():
    view = build_view_model(load(POLYHEDRA_SCENE))
    wedge = next(r for r in view.reports if r.name == "wedge")
    # the crate's face at x = -3.5, the wedge's edge at x = -0.6
    assert wedge.status == "hit" and abs(wedge.result.t - (3.5 - 0.6) / 6) <= 1e-12
    assert wedge.message == "feature pair: face of the moving shape, edge of the target"
    assert wedge.result.feature.kind == "edge"


def test_obstacle_of_two_spheres_is_the_summed_sphere():
    surface = obstacle(Sphere([1.0, 0, 0], 0.5), Sphere([4.0, 1, 0], 1.0), pivot=[1.0, 0, 0])
    distances = np.linalg.norm(surface.triangles.reshape(-1, 3) - [4, 1, 0], axis=1)
    assert np.allclose(distances, 1.5)


def test_obstacle_of_a_box_and_a_capsule_is_their_rounded_sum():
    box = ConvexPolyhedron.box([0.5, 0.5, 0.5], [10.0, 0, 0])
    surface = obstacle(box, Capsule([0, 0, -1], [0, 0, 1], 0.25), pivot=[10.0, 0, 0])
    corners = surface.triangles.reshape(-1, 3)
    assert np.allclose(corners.max(axis=0), [0.75, 0.75, 1.75])
    assert np.allclose(corners.min(axis=0), [-0.75, -0.75, -1.75])


def test_teaching_view_draws_the_obstacle_and_the_ray():
    scene = load(POLYHEDRA_SCENE)
    view = build_view_model(scene, "wedge", display=MeshDisplay(minkowski=True))
    assert any(d.fill == MINKOWSKI for d in view.drawables)
    ray = next(batch for batch in view.lines if batch.color == RAY)
    crate = build_shape("polyhedron", scene.object("crate").params)
    np.testing.assert_allclose(ray.segments[0, 0], crate.vertices.mean(axis=0))
    hit_point = next(batch for batch in view.points if batch.color == RAY).positions[0]
    np.testing.assert_allclose(hit_point, ray.segments[0, 0] + view.time_of_impact * np.asarray(scene.direction))


def test_scaling_a_polyhedron_from_the_drag_start():
    editor = Editor(Scene())
    editor.add_polyhedron("box")
    start = dict(editor.scene.object("box1").params)
    for factor in (1.5, 2.0):  # a drag: each step from the start, never compounding
        editor.scale_selected(start, [1.0, 1.0, factor])
    vertices = np.asarray(editor.scene.object("box1").params["vertices"])
    assert np.allclose(vertices.max(axis=0) - vertices.min(axis=0), [1, 1, 2])


def test_polyhedra_get_the_gjk_cast_as_second_opinion():
    from sweeplab.view.reports import sweep_targets

    reports = {r.name: r for r in sweep_targets(load(POLYHEDRA_SCENE), reference=True)}
    wedge = reports["wedge"]
    assert wedge.reference.hit and abs(wedge.reference.t - wedge.result.t) <= 1e-9 and wedge.disagreement == ""
    assert reports["post"].reference.hit is False and reports["post"].disagreement == ""


def test_separating_axis_intervals_reach_the_view():
    view = build_view_model(load(POLYHEDRA_SCENE))
    wedge = next(r for r in view.reports if r.name == "wedge")
    axes = wedge.separating_axes
    assert axes is not None and len(axes.axes) == len(axes.enter) == len(axes.exit)
    assert abs(axes.enter[axes.chosen] - wedge.result.t) <= 1e-12  # the last axis to begin overlapping gives t
    assert np.max(axes.enter) <= np.min(axes.exit)  # every interval overlaps at the time of impact
