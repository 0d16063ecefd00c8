"""The editor's answers for a scene that turns (#35): every target swept with the
scene's rotation, pivot and interpolation; the parts of the view that picture a
linear sweep say so instead of drawing it."""

import math

import numpy as np
import pytest

from sweeplab.physics import tolerance
from sweeplab.scene.model import Scene, SceneObject
from sweeplab.view.meshes import MeshDisplay
from sweeplab.view.model import build_view_model
from sweeplab.view.scan import ScanSpec, run_scan

CONTACT_ANGLE = math.acos(1 / 6)
"""A bar (a capsule of radius 0.05 along x, 4 long, centred at the origin) turning about
z in place reaches a ball of radius 0.2 at (0, 1.5, 0) when the ball's centre is
0.05 + 0.2 from the bar's line: 1.5 cos(angle) = 0.25 (the bar's nearest point,
1.5 sin(angle) from the pivot, is inside the bar's half-length 2)."""
QUARTER = math.pi / 2


def bar_scene(interpolation: str = "slerp", pivot: list[float] | None = None) -> Scene:
    """The bar turning a quarter turn about z, no translation: it reaches the ball;
    without the turn it stays 1.5 - 0.25 away."""
    return Scene([SceneObject("bar", "capsule", {"a": [-2.0, 0.0, 0.0], "b": [2.0, 0.0, 0.0], "radius": 0.05}),
                  SceneObject("ball", "sphere", {"center": [0.0, 1.5, 0.0], "radius": 0.2})],
                 "bar", [0.0, 0.0, 0.0], rotation=[0.0, 0.0, QUARTER], pivot=pivot, interpolation=interpolation)


def nlerp_time(angle: float, whole: float) -> float:
    """t at which the nlerp of identity and a turn by ``whole`` about z has turned by
    ``angle``: tan(angle / 2) = t sin(whole / 2) / (1 - t + t cos(whole / 2))."""
    k = math.tan(angle / 2)
    return k / (math.sin(whole / 2) + k * (1 - math.cos(whole / 2)))


@pytest.mark.parametrize("interpolation, expected", [("slerp", CONTACT_ANGLE / QUARTER),
                                                     ("nlerp", nlerp_time(CONTACT_ANGLE, QUARTER))])
def test_the_answer_is_the_turning_sweeps(interpolation, expected):
    """t by hand (0.8934 slerp, 0.8853 nlerp), the normal from the ball towards the
    bar's line and the point on the ball; the view's time of impact is it."""
    view = build_view_model(bar_scene(interpolation))
    report = view.reports[0]
    assert report.status == "hit" and abs(report.result.t - expected) <= tolerance.TIME_ATOL
    assert view.time_of_impact == report.result.t and view.earliest == "ball"
    normal = np.array([math.sqrt(35) / 6, -1 / 6, 0.0])
    np.testing.assert_allclose(report.result.normal, normal, atol=1e-6)
    np.testing.assert_allclose(report.result.point, [0.0, 1.5, 0.0] + 0.2 * normal, atol=1e-6)


def test_without_the_turn_the_bar_misses():
    scene = bar_scene()
    scene.rotation = [0.0, 0.0, 0.0]
    view = build_view_model(scene)
    assert view.reports[0].status == "miss" and view.time_of_impact is None


def test_a_pivot_off_the_centroid_swings_the_bar_about_it():
    """About its end P = (-2, 0, 0) the bar points along (cos a, sin a) after a turn by
    a; the ball's centre C = (0, 1.5, 0) is (C - P) x u = 2 sin a - 1.5 cos a from its
    line, -1.5 at the start: it is met where that reaches -0.25, a = atan2(1.5, 2) -
    asin(0.25 / 2.5) = 0.5433 (t = 0.3459; the nearest point of the line is
    2 cos a + 1.5 sin a = 2.5 from P, inside the bar's length 4)."""
    scene = bar_scene(pivot=[-2.0, 0.0, 0.0])
    report = build_view_model(scene).reports[0]
    angle = math.atan2(1.5, 2.0) - math.asin(0.25 / 2.5)
    assert 2 * math.sin(angle) - 1.5 * math.cos(angle) == pytest.approx(-0.25, abs=1e-12)
    assert report.status == "hit" and abs(report.result.t - angle / QUARTER) <= tolerance.TIME_ATOL


def test_the_float32_lens_turns_too_and_the_linear_second_opinions_are_not_asked():
    """The float32 lens sweeps the same turn in float32; the reference and the Minkowski
    picture sweep by translation only: each says so.  Other engines are asked with the
    turn where they turn so (``engines.ask``): fcl by slerp, not Box3D."""
    display = MeshDisplay(minkowski=True, engines=("fcl", "box3d"))
    view = build_view_model(bar_scene(), float32=True, reference=True, display=display)
    report = view.reports[0]
    assert report.single.point.dtype == np.float32 and abs(report.single.t - report.result.t) <= 1e-5
    assert report.reference is None and report.disagreement == ""
    assert "no second opinion: it sweeps without turning" in report.message
    fcl, box3d = report.engines["fcl"], report.engines["box3d"]
    assert fcl.kind != "cannot" or "pip install" in fcl.detail  # (answered with the turn, where installed)
    assert box3d.kind == "cannot" and ("only by nlerp, not by slerp" in box3d.detail or "pip install" in box3d.detail)
    assert [part.split(":")[0] for part in view.not_shown] == ["teaching view"]
    assert not [d for d in view.drawables if d.fill[:3] == (0.2, 0.85, 0.75)]  # no Minkowski surface drawn


def test_every_contact_along_a_turning_path_is_not_listed_but_said_why():
    view = build_view_model(bar_scene(), intervals=True)
    assert view.intervals == [] and len(view.unlisted) == 1
    assert view.unlisted[0].startswith("ball: a turning shape may touch a convex target over several intervals")


def test_a_turn_the_physics_refuses_is_reported_on_every_target_and_the_view_still_builds():
    """An edit may leave nlerp with a half turn (the file loader refuses it): the
    editor reports it on the target, never crashes."""
    scene = bar_scene("nlerp")
    scene.rotation = [0.0, 0.0, math.pi]
    view = build_view_model(scene, float32=True, reference=True)
    report = view.reports[0]
    assert report.status == "invalid" and "rotation" in report.message and view.time_of_impact is None


def test_a_scan_sweeps_each_lane_with_the_turn():
    """Moving the ball along y by +-1e-2: t follows 1.5 cos(angle) = 0.25 lane by lane
    (a linear scan of this still bar would miss in every lane)."""
    result = run_scan(bar_scene(), ScanSpec("ball", "ball", "center", component=1, epsilon=1e-2, steps=21))
    assert result.message == "" and result.hit.all()
    expected = [math.acos(0.25 / (1.5 + offset)) / QUARTER for offset in result.offsets]
    np.testing.assert_allclose(result.t, expected, atol=tolerance.TIME_ATOL)


def test_regression_a_bar_turning_onto_a_ball_stalled_a_step_before_touching():
    """Found by a scan (1 lane of 21 over +-1e-2, at +1e-3): the bar turning a quarter
    turn in place reaches the ball at (0, 1.501, 0) at t = acos(0.25 / 1.501) / (pi/2) =
    0.8934709323687695, but answered no hit, converged False, safe_until
    0.8934709323687643 after 27 steps (the separation along GJK's axis, the least gap
    over the core's vertex pairs, went to -1.3e-15 while the distance was still above
    the touch tolerance).  Fixed on main by advancing a segment core piece by piece
    (``advancement.split_advance``)."""
    from sweeplab.physics import Capsule, Sphere, sweep

    result = sweep(Capsule([-2.0, 0.0, 0.0], [2.0, 0.0, 0.0], 0.05), Sphere([0.0, 1.501, 0.0], 0.2),
                   [0.0, 0.0, 0.0], rotation=[0.0, 0.0, QUARTER])
    assert result.advancement.converged and result.hit
    assert abs(result.t - math.acos(0.25 / 1.501) / QUARTER) <= tolerance.TIME_ATOL


def test_a_turning_box_names_its_feature_pair_and_draws_its_corner_where_it_touches():
    """A unit box turning about x in place meets the plane z = -0.65 when its lowest
    edge, -0.5 (cos a + sin a) below its centre, gets there: a = asin(1.3 / sqrt 2) -
    pi/4 of a turn of pi/4 (t = 0.4848).  The physics names vertex 0 (-0.5, -0.5, -0.5)
    of that edge: the corner the view draws is that vertex turned by a, on the plane."""
    box = [[x, y, z] for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)]
    scene = Scene([SceneObject("box", "polyhedron", {"vertices": box, "origin": [0.0, 0.0, 0.0],
                                                     "axes": [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]}),
                   SceneObject("floor", "plane", {"normal": [0.0, 0.0, 1.0], "offset": -0.65})],
                  "box", [0.0, 0.0, 0.0], rotation=[math.pi / 4, 0.0, 0.0])
    report = build_view_model(scene).reports[0]
    angle = math.asin(1.3 / math.sqrt(2)) - math.pi / 4
    assert report.status == "hit" and abs(report.result.t - angle / (math.pi / 4)) <= tolerance.TIME_ATOL
    assert report.message == "feature pair: vertex 0 of the moving shape, face 0 of the target"
    turned = [-0.5, -0.5 * math.cos(angle) + 0.5 * math.sin(angle), -0.5 * math.sin(angle) - 0.5 * math.cos(angle)]
    np.testing.assert_allclose(report.moving_feature, [turned], atol=1e-9)
    assert abs(turned[2] + 0.65) <= 1e-15
