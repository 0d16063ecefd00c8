"""The sweep's turn in the editor (issue #35): the end pose's ring, a typed angle, the
pivot and the interpolation as undoable edits; the turning sweep drawn (ghost poses,
the pivot, the farthest point's arc, end and time-of-impact poses turned); the
Conservative advancement panel's report."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sweeplab.cli import DEMO_SCENE, example_scenes
from sweeplab.editor import Editor
from sweeplab.physics import sweep
from sweeplab.physics.sweep.turning import AdvanceStep, Motion, posed
from sweeplab.scene.model import load
from sweeplab.scene.shape_kinds import build_shape, drawn_mesh
from sweeplab.view import model as view_model
from sweeplab.view.advancement import SLOW_OVERESTIMATE, explain, overestimates_of
from sweeplab.view.model import build_view_model
from sweeplab.view.turn import ARC_SAMPLES, GHOSTS, motion_of, pivot_of, posed_mesh
from tests.app.test_gizmo_turn import about_z

TURNING = example_scenes()["turning"]


@pytest.fixture
def editor():
    return Editor(load(DEMO_SCENE), clock=lambda: 0.0)  # never still: no second opinions


def test_a_ring_drag_winds_the_turn_past_a_half_turn_in_one_undo_step(editor):
    """Eight frames of the z ring's drag, 0.5 rad each: the end pose turned 4 rad (a
    gizmo ring alone gives at most π from where a matrix is read), x and y exactly 0."""
    editor.begin_drag()
    for _ in range(8):
        editor.turn_end_pose(about_z(0.5))
    editor.end_drag()
    rotation = editor.scene.rotation
    assert rotation[:2] == [0.0, 0.0] and rotation[2] == pytest.approx(4.0, abs=1e-13)
    assert editor.message == ""
    editor.undo()
    assert editor.scene.rotation == [0.0, 0.0, 0.0]
    editor.redo()
    assert editor.scene.rotation[2] == pytest.approx(4.0, abs=1e-13)


def test_a_ring_drag_composes_with_a_turn_about_another_axis(editor):
    """R' = step R: a z ring step after a turn about x (world axes, as ImGuizmo's rings)."""
    editor.set_rotation([0.4, 0.0, 0.0])
    editor.turn_end_pose(about_z(0.3))
    expected = about_z(0.3) @ np.asarray(Motion(np.zeros(3), np.array([0.4, 0.0, 0.0])).matrix(1.0))
    turned = np.asarray(Motion(np.zeros(3), np.asarray(editor.scene.rotation)).matrix(1.0))
    np.testing.assert_allclose(turned, expected, rtol=0, atol=1e-15)


def test_a_typed_angle_keeps_the_axis_and_may_be_several_turns(editor):
    editor.set_turn_angle(1.5)  # no rotation yet: about the world's up, z
    assert editor.scene.rotation == [0.0, 0.0, 1.5]
    editor.set_rotation([0.0, 3.0, 0.0])
    editor.set_turn_angle(4 * math.pi)
    assert editor.scene.rotation == [0.0, 4 * math.pi, 0.0]
    editor.set_turn_angle(-1.0)
    assert editor.scene.rotation == [0.0, -1.0, 0.0]


def test_nlerp_refuses_a_half_turn_and_more_with_a_message_keeping_the_scene(editor):
    """nlerp cannot turn π or more in one sweep: at π and beyond the edit is refused
    (the physics' reason on the status line); just under π it is taken."""
    editor.set_rotation([0.0, 0.0, 3.0])
    editor.set_interpolation("nlerp")
    assert editor.scene.interpolation == "nlerp"
    under = math.nextafter(math.pi, 0.0)
    editor.set_turn_angle(under)
    assert editor.scene.rotation == [0.0, 0.0, under] and editor.message == ""
    for angle in (math.pi, 3.2):
        editor.set_turn_angle(angle)
        assert editor.scene.rotation == [0.0, 0.0, under]
        assert editor.message.startswith("not applied: ") and "rotation" in editor.message, editor.message
    editor.set_interpolation("slerp")
    editor.set_turn_angle(3.2)
    editor.set_interpolation("nlerp")  # a slerp turn nlerp cannot make: the switch is refused
    assert editor.scene.interpolation == "slerp" and "rotation" in editor.message


@pytest.mark.parametrize("field, value", [("rotation", [math.nan, 0.0, 0.0]), ("rotation", [0.0, math.inf, 0.0]),
                                          ("pivot", [0.0, 0.0, math.nan])])
def test_a_non_finite_turn_or_pivot_is_refused_naming_it(editor, field, value):
    before = editor.scene.to_json()
    getattr(editor, f"set_{field}")(value)
    assert editor.scene.to_json() == before
    assert editor.message.startswith("not applied: ") and field in editor.message, editor.message


def test_a_moving_plane_may_slide_but_not_turn(editor):
    """The physics cannot turn a plane (every far point would move arbitrarily fast):
    the edit is refused with its reason; the plane still sweeps linearly."""
    editor.set_moving("plane")
    editor.set_rotation([0.0, 0.0, 0.5])
    assert editor.scene.rotation == [0.0, 0.0, 0.0] and "Plane cannot turn" in editor.message, editor.message
    editor.set_direction([-1.0, 0.0, 0.0])
    assert editor.scene.direction == [-1.0, 0.0, 0.0] and editor.message == ""


def test_the_pivot_handle_moves_the_pivot_from_the_centroid_and_reset_returns_to_it(editor):
    """The mover is a ball centred at (-6, 0, 0): dragged 0.5 along x, its y and z stay
    the centroid's exactly; reset: the centroid again (``pivot`` None)."""
    editor.toggle_pivot_handle()
    assert editor.pivot_handle and not editor.end_pose
    editor.shift_pivot([0.5, 0.0, 0.0])
    assert editor.scene.pivot == [-5.5, 0.0, 0.0]
    editor.reset_pivot()
    assert editor.scene.pivot is None
    editor.undo()
    assert editor.scene.pivot == [-5.5, 0.0, 0.0]
    editor.set_pivot([-5.5, -0.0, 1e-300])
    editor.shift_pivot([0.25, 0.0, 0.0])  # the coordinates the drag leaves alone are kept, -0.0 too
    assert [value.hex() for value in editor.scene.pivot] == [(-5.25).hex(), (-0.0).hex(), (1e-300).hex()]
    editor.toggle_end_pose()
    assert editor.end_pose and not editor.pivot_handle


def test_a_turning_sweep_is_drawn_with_ghosts_the_pivot_and_the_arc():
    scene = load(TURNING)
    view = build_view_model(scene)
    moving = scene.moving_object()
    mesh = drawn_mesh(moving.kind, moving.params)
    motion = Motion(np.asarray(scene.direction), np.asarray(scene.rotation), pivot_of(scene), scene.interpolation)
    by_colour = {batch.color: batch for batch in view.lines + view.points}
    ghosts = by_colour[view_model.GHOST].segments
    assert ghosts.shape == (GHOSTS * len(mesh.outline), 2, 3)
    np.testing.assert_allclose(ghosts[:len(mesh.outline)], posed_mesh(mesh, motion, 1 / (GHOSTS + 1)).outline)
    arc = by_colour[view_model.ARC].segments
    assert arc.shape == (ARC_SAMPLES, 2, 3)
    np.testing.assert_allclose(arc[-1, 1], motion.point(arc[0, 0], 1.0), atol=1e-12)
    reach = np.linalg.norm(arc[0, 0] - pivot_of(scene))  # the farthest drawn point: the box's corner
    assert reach == pytest.approx(math.hypot(0.15, 2.0, 0.15), abs=1e-12)
    np.testing.assert_array_equal(by_colour[view_model.PIVOT].positions, [pivot_of(scene)])
    end = next(d for d in view.drawables if d.fill == view_model.END)
    np.testing.assert_allclose(end.mesh.outline, posed_mesh(mesh, motion, 1.0).outline, atol=1e-12)
    assert view.time_of_impact is not None
    impact = next(d for d in view.drawables if d.fill == view_model.TIME_OF_IMPACT)
    np.testing.assert_allclose(impact.mesh.outline, posed_mesh(mesh, motion, view.time_of_impact).outline,
                               atol=1e-12)
    assert not np.allclose(impact.mesh.outline, mesh.outline + view.time_of_impact * np.asarray(scene.direction))


def test_a_drawing_is_posed_where_the_physics_poses_the_shape():
    """``posed_mesh`` (the drawing) and ``turning.posed`` (the physics' shape at t) put
    the bat's corners at the same floats."""
    scene = load(TURNING)
    moving = scene.moving_object()
    for t in (0.0, 0.4, 1.0):
        drawn = posed_mesh(drawn_mesh(moving.kind, moving.params), motion_of(scene), t).points
        shape = posed(build_shape(moving.kind, moving.params), motion_of(scene), t)
        np.testing.assert_array_equal(np.sort(drawn, axis=0), np.sort(np.asarray(shape.vertices), axis=0))


def test_a_linear_sweep_draws_no_ghosts():
    view = build_view_model(load(DEMO_SCENE))
    colours = {batch.color for batch in view.lines + view.points}
    assert not colours & {view_model.GHOST, view_model.ARC, view_model.PIVOT}


def test_a_scene_with_a_turn_nlerp_cannot_make_opens_and_says_so():
    """A ``Scene`` built in code is not checked as a file is (a file's reader may refuse
    the turn; an edit does): the editor opens one holding an nlerp turn of π or more,
    draws the start pose and says why in each report."""
    scene = load(TURNING)
    scene.rotation, scene.interpolation = [0.0, 0.0, 4.0], "nlerp"
    editor = Editor(scene, clock=lambda: 0.0)
    view = editor.view()
    assert all("the motion is refused" in report.message for report in view.reports)
    assert isinstance(editor.advancement(), str)


def test_the_advancement_panel_says_a_linear_sweep_has_no_iterations(editor):
    report = editor.advancement()
    assert isinstance(report, str) and "does not turn" in report


def test_the_advancement_of_the_turning_scene_and_its_pose_at_an_iteration():
    editor = Editor(load(TURNING), clock=lambda: 0.0)
    editor.select("wall")  # hit only because the bat turns (its end reaches past the linear sweep's)
    report = editor.advancement()
    assert not isinstance(report, str) and report.target == "wall" and len(report.steps) >= 2
    assert [step.t for step in report.steps] == sorted(step.t for step in report.steps)
    plain = editor.view()
    assert not any(batch.color == view_model.ADVANCE for batch in plain.lines)
    editor.show_advancement_step(1)
    stepped = editor.view()
    assert editor.view() is stepped  # kept while nothing changes
    (ghost,) = [batch for batch in stepped.lines if batch.color == view_model.ADVANCE]
    scene = editor.scene
    moving = scene.moving_object()
    motion = Motion(np.asarray(scene.direction), np.asarray(scene.rotation), pivot_of(scene), scene.interpolation)
    np.testing.assert_allclose(ghost.segments, posed_mesh(drawn_mesh(moving.kind, moving.params), motion,
                                                          report.steps[1].t).outline, atol=1e-12)
    editor.show_advancement_step(None)
    assert editor.view() is plain


def steps_with_overestimate(bound: float) -> list[AdvanceStep]:
    """Two iterations a quarter of t apart whose distance shrank by a quarter: the
    shapes approached at speed 1, so the overestimate is ``bound`` exactly."""
    return [AdvanceStep(0.0, 1.0, bound, 1.0 / bound), AdvanceStep(0.25, 0.75, bound, 0.75 / bound)]


@pytest.mark.parametrize("bound, slow", [(SLOW_OVERESTIMATE, True), (math.nextafter(SLOW_OVERESTIMATE, 0), False),
                                         (math.nextafter(SLOW_OVERESTIMATE, 9), True), (1.0, False)])
def test_a_slow_convergence_is_named_at_the_threshold_and_beyond(bound, slow):
    steps = steps_with_overestimate(bound)
    overestimates = overestimates_of(steps)
    assert overestimates.tolist() == [bound]
    text = explain(steps, overestimates, None)
    assert text.startswith("2 iterations.")
    assert ("Converged slowly" in text) is slow, text


def test_an_iteration_where_the_distance_did_not_shrink_is_named_not_counted_as_slow():
    """The shapes passing each other: the distance grows (an infinite overestimate),
    which is no slow convergence; the median is over the iterations that approached."""
    steps = [AdvanceStep(0.0, 1.0, 1.0, 1.0), AdvanceStep(0.5, 0.5, 1.0, 0.5), AdvanceStep(0.75, 0.9, 1.0, 0.9)]
    overestimates = overestimates_of(steps)
    assert overestimates.tolist() == [1.0, math.inf]
    text = explain(steps, overestimates, None)
    assert "From iteration 1 to 2 the distance did not shrink" in text and "Converged slowly" not in text, text
    unchanged = [AdvanceStep(0.0, 1.0, 1.0, 1.0), AdvanceStep(0.5, 1.0, 1.0, 1.0)]  # (no division by zero)
    assert overestimates_of(unchanged).tolist() == [math.inf]


def test_the_advancement_says_how_it_ended():
    """The turning scene's bat misses the post and hits the wall (only because it turns)."""
    editor = Editor(load(TURNING), clock=lambda: 0.0)
    editor.select("post")
    missed = editor.advancement()
    assert not isinstance(missed, str) and "No contact: the last advance went past t = 1." in missed.explanation
    editor.select("wall")
    hit = editor.advancement()
    assert not isinstance(hit, str)
    scene = editor.scene
    result = sweep(build_shape("polyhedron", scene.moving_object().params),
                   build_shape("polyhedron", scene.object("wall").params), scene.direction, rotation=scene.rotation)
    assert result.hit and f"Contact at t = {result.t:.9g}." in hit.explanation


def test_a_mesh_target_has_no_advancement_table_and_the_panel_says_why():
    """``advancement_steps`` takes a convex or plane target: against a mesh the panel
    shows the physics' reason instead of a table (the editor does not raise)."""
    editor = Editor(load(example_scenes()["meshes"]), clock=lambda: 0.0)
    editor.set_rotation([0.0, 0.0, 1.0])
    editor.select("hills")
    said = editor.advancement()
    assert isinstance(said, str) and said.startswith("No advancement against hills: ") and "convex" in said
