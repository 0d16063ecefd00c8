"""Every contact interval along the path (#21 item 15), checked against hand-worked
intervals and against each mesh triangle swept as a triangle of its own."""

import numpy as np
import pytest

from sweeplab.cli import example_scenes
from sweeplab.view.path_hits import ContactInterval, contact_intervals
from sweeplab.scene.model import Scene, SceneObject, load
from sweeplab.scene.shape_kinds import build_shape
from sweeplab.view.model import INTERVAL, build_view_model
from sweeplab.physics import tolerance


def scene_of(moving: SceneObject, *targets: SceneObject, direction) -> Scene:
    return Scene(objects=[moving, *targets], moving=moving.name, direction=list(direction))


def test_a_sphere_through_a_sphere_enters_and_leaves_where_the_quadratic_says():
    """Centres 2 apart at t = 0.3 and again at t = 0.7 (c = -5 + 10 t, |c| = 2)."""
    scene = scene_of(SceneObject("ball", "sphere", {"center": [-5.0, 0.0, 0.0], "radius": 1.0}),
                     SceneObject("rock", "sphere", {"center": [0.0, 0.0, 0.0], "radius": 1.0}),
                     SceneObject("far", "sphere", {"center": [0.0, 5.0, 0.0], "radius": 1.0}),
                     direction=[10.0, 0.0, 0.0])
    intervals, unlisted = contact_intervals(scene)
    assert unlisted == [] and len(intervals) == 1
    assert intervals[0].target == "rock" and intervals[0].face is None
    assert intervals[0].enter == pytest.approx(0.3, abs=1e-15) and intervals[0].leave == pytest.approx(0.7, abs=1e-15)


def test_touching_at_the_start_and_still_touching_at_the_end():
    scene = scene_of(SceneObject("ball", "sphere", {"center": [0.0, 0.0, 0.5], "radius": 1.0}),
                     SceneObject("floor", "plane", {"normal": [0.0, 0.0, 1.0], "offset": 0.0}),
                     SceneObject("wall", "triangle", {"a": [3.0, -5.0, -5.0], "b": [3.0, 5.0, -5.0],
                                                      "c": [3.0, 0.0, 5.0]}),
                     direction=[2.5, 0.0, 0.0])
    intervals, _ = contact_intervals(scene)  # the wall: centre x = 3 - 1 at t = 2 / 2.5
    assert intervals[0] == ContactInterval("floor", None, 0.0, None)
    assert intervals[1].target == "wall" and intervals[1].enter == pytest.approx(0.8, abs=1e-15)
    assert intervals[1].leave is None and len(intervals) == 2


def test_a_graze_is_an_interval_of_no_length():
    scene = scene_of(SceneObject("ball", "sphere", {"center": [-5.0, 2.0, 0.0], "radius": 1.0}),
                     SceneObject("rock", "sphere", {"center": [0.0, 0.0, 0.0], "radius": 1.0}),
                     direction=[10.0, 0.0, 0.0])
    (graze,), _ = contact_intervals(scene)
    assert graze.enter == pytest.approx(0.5, abs=1e-15) and graze.leave == pytest.approx(0.5, abs=1e-15)


def test_every_mesh_triangle_interval_is_that_triangle_swept_alone():
    """The all-hits queries against the hills mesh, forwards and backwards, give each
    triangle the interval the triangle gets as a target of its own."""
    scene = load(example_scenes()["meshes"])
    intervals, unlisted = contact_intervals(scene)
    hills = [interval for interval in intervals if interval.target == "hills"]
    assert unlisted == [] and len(hills) > 10
    assert [i.enter for i in intervals] == sorted(i.enter for i in intervals)
    mesh = build_shape("mesh", scene.object("hills").params)
    ball = scene.object("ball")
    for interval in hills:
        a, b, c = mesh.to_world(mesh.vertices[mesh.faces[interval.face]]).tolist()
        alone = scene_of(ball, SceneObject("face", "triangle", {"a": a, "b": b, "c": c}), direction=scene.direction)
        (expected,), _ = contact_intervals(alone)
        assert abs(interval.enter - expected.enter) <= tolerance.REFERENCE_TIME_ATOL, interval
        if expected.leave is None:
            assert interval.leave is None, interval
        else:
            assert abs(interval.leave - expected.leave) <= tolerance.REFERENCE_TIME_ATOL, interval


def test_the_view_draws_the_intervals_once_still_and_says_what_it_cannot_list():
    scene = load(example_scenes()["polyhedra"])  # a moving polyhedron: every hit against a mesh is not listed
    scene.objects.append(SceneObject("hills", "mesh", load(example_scenes()["meshes"]).object("hills").params))
    moving = build_view_model(scene, intervals=False)
    assert moving.intervals is None
    still = build_view_model(scene, intervals=True)
    assert [i.target for i in still.intervals] == ["wedge"]
    assert still.unlisted and still.unlisted[0].startswith("hills: every hit against a mesh is listed for")
    assert any(batch.color == INTERVAL for batch in still.lines)
    assert np.isclose(still.intervals[0].enter, 0.48333333333333334)
