"""The playground's continuous collision of turning bodies (#35, ``playground.ccd``):
when a turn is swept, when a contact at the start is left, the ball that bounds a
turning body, and the lifts off contacts left."""

from types import SimpleNamespace

import numpy as np
import pytest

from sweeplab.physics import ConvexPolyhedron, Plane, Sphere, sweep
from sweeplab.playground import ccd
from sweeplab.playground.ccd import MAX_LIFTS, TURN_SLOP, Mover, leaves, may_meet, still, turn_over


@pytest.mark.parametrize("spin, swept", [
    (np.nextafter(TURN_SLOP, 0.0), False),  # just inside the slop: the linear sweep
    (TURN_SLOP, False),  # at it
    (np.nextafter(TURN_SLOP, 1.0), True),  # just outside: swept
])
def test_a_turn_is_swept_when_it_moves_a_core_point_farther_than_the_slop(spin, swept):
    """A unit core reach and reach: the arc |ω|·window·core_reach against TURN_SLOP·reach."""
    turn = turn_over(np.array([spin, 0.0, 0.0]), 1.0, 1.0, 1.0)
    assert (turn is not None) == swept
    if swept:
        np.testing.assert_array_equal(turn, [spin, 0.0, 0.0])


def test_the_swept_turn_is_the_angular_velocity_over_the_window_and_a_sphere_never_turns():
    np.testing.assert_array_equal(turn_over(np.array([0.0, 3.0, 4.0]), 0.5, 0.2, 0.7), [0.0, 1.5, 2.0])
    assert turn_over(np.array([0.0, 3e3, 4e3]), 1 / 60, 0.0, 0.5) is None  # a sphere's core is its centre


def mover(chord=(0.0, 0.0, 0.0), turn=None) -> Mover:
    return Mover(Sphere([0.0, 0.0, 0.0], 0.5), np.array(chord, float), None if turn is None else np.array(turn, float),
                 np.zeros(3), 0.5)


@pytest.mark.parametrize("approach, left", [(0.5, True), (1.0, True), (np.nextafter(1.0, 2.0), False)])
def test_a_contact_at_the_start_is_left_unless_its_points_approach_by_more_than_the_slop(approach, left):
    """Along the normal +z: the mover's chord down by ``approach`` slops (inside, at,
    just outside), or the same approach made by a turn about y of a point at +x from
    the pivot (ω × r = (0, w, 0) × (1, 0, 0) = (0, 0, -w))."""
    slop = mover().slop
    normal, point = np.array([0.0, 0.0, 1.0]), np.array([1.0, 0.0, 0.0])
    assert leaves(mover(chord=(0.0, 0.0, -approach * slop)), still(Plane(normal, 0.0)), point, normal) == left
    assert leaves(mover(turn=(0.0, approach * slop, 0.0)), still(Plane(normal, 0.0)), point, normal) == left
    target = mover(turn=(0.0, approach * slop, 0.0))  # the target's point going down as fast: no approach
    assert leaves(mover(turn=(0.0, approach * slop, 0.0)), target, point, normal)


@pytest.mark.parametrize("gap_in_slops, meet", [(0.5, True), (1.0, True), (2.0, False)])
def test_a_turning_body_is_bounded_by_its_ball_widened_by_the_slop(gap_in_slops, meet):
    """A turning cube (reach √3/2 about its centre) and a wall that far beyond its ball
    (in slops): within the widened ball the pair may meet (the turning sweep decides),
    beyond it they cannot."""
    box = ConvexPolyhedron.box([0.5, 0.5, 0.5])
    reach = float(np.sqrt(0.75))
    turning = Mover(box, np.zeros(3), np.array([0.0, 0.0, 1.0]), np.zeros(3), reach)
    wall = still(Plane([1.0, 0.0, 0.0], reach + gap_in_slops * turning.slop))
    assert may_meet(turning, wall) == meet
    assert may_meet(Mover(box, np.array([1.0, 0.0, 0.0]), turning.turn, np.zeros(3), reach),
                    still(Plane([1.0, 0.0, 0.0], reach + 0.9)))  # the ball swept along the chord reaches it


def scripted(monkeypatch, answers):
    """``ccd.time_of_impact`` answering ``answers`` in turn (t, normal, overlap depth or
    None), recording the mover's centre and pivot at each call.  The movers below are
    balls of radius 0.5 at the origin touching the floor z = -0.5 (``may_meet``)."""
    calls = []
    remaining = list(answers)

    def time_of_impact(a, motion_a, b, motion_b):
        calls.append((np.asarray(a.center, float), np.asarray(motion_a.pivot, float)))
        t, normal, depth = remaining.pop(0)
        return SimpleNamespace(hit=True, t=t, point=np.array([0.0, 0.0, -0.5]), normal=np.array(normal, float),
                               initially_overlapping=depth is not None, penetration_depth=depth)

    monkeypatch.setattr(ccd, "time_of_impact", time_of_impact)
    return calls


def test_a_contact_left_at_the_start_lifts_the_mover_and_the_next_is_that_deep(monkeypatch):
    """The mover leaves the floor (+z) at the start, lifted by the slop it meets a wall
    (normal (-1, 0, 1)/√2) at t = 0.25: in the world it is slop/√2 into the wall."""
    up, wall = [0.0, 0.0, 1.0], [-np.sqrt(0.5), 0.0, np.sqrt(0.5)]
    calls = scripted(monkeypatch, [(0.0, up, None), (0.25, wall, None)])
    rising = mover(chord=(0.0, 0.0, 0.1), turn=(0.0, 0.0, 1.0))
    hit = ccd.first_contact(rising, still(Plane(up, -0.5)))
    assert hit is not None and hit.fraction == 0.25
    assert hit.depth == pytest.approx(rising.slop * np.sqrt(0.5), rel=1e-12)
    np.testing.assert_array_equal(calls[1][0], [0.0, 0.0, rising.slop])  # shape and pivot lifted alike
    np.testing.assert_array_equal(calls[1][1], [0.0, 0.0, rising.slop])


def test_after_max_lifts_the_contact_at_the_start_is_reported_with_its_overlap(monkeypatch):
    """Every answer a contact left at the start, 0.25 slop deep: lifted (depth + slop)
    each time, MAX_LIFTS times, then the last answer is the contact, as deep as all
    the lifts and its own overlap."""
    rising = mover(chord=(0.0, 0.0, 0.1), turn=(0.0, 0.0, 1.0))
    depth = 0.25 * rising.slop
    calls = scripted(monkeypatch, [(0.0, [0.0, 0.0, 1.0], depth)] * (MAX_LIFTS + 2))
    hit = ccd.first_contact(rising, still(Plane([0.0, 0.0, 1.0], -0.5)))
    assert len(calls) == MAX_LIFTS + 1 and hit is not None and hit.fraction == 0.0
    assert hit.depth == pytest.approx(depth + MAX_LIFTS * (depth + rising.slop), rel=1e-12)


def test_a_contact_at_the_start_that_the_turn_drives_deeper_is_reported_at_once(monkeypatch):
    calls = scripted(monkeypatch, [(0.0, [0.0, 0.0, 1.0], 1e-3)])
    falling = mover(chord=(0.0, 0.0, -0.1), turn=(0.0, 0.0, 1.0))
    hit = ccd.first_contact(falling, still(Plane([0.0, 0.0, 1.0], -0.5)))
    assert len(calls) == 1 and hit is not None and (hit.fraction, hit.depth) == (0.0, 1e-3)


def _tumbling_box_on_its_floor() -> tuple[Mover, Mover]:
    """The tumbler (``scenes.tumbler(spin=1.0, balls=2, boxes=1)``, ``drive_tumbler``
    before each step) at step 22, its second substep: box 0 (half size 0.2) turning
    -1.418 rad/s about y on the floor wall "wall z-" (half sizes 1.1, 1.1, 0.05)
    turning +1 rad/s, over the 0.0149 s left; the exact floats the world swept."""
    box = ConvexPolyhedron.box([0.2, 0.2, 0.2]).posed(np.array([
        [0.9206386206076806, 2.3189633886104917e-10, 0.39041584271848756],
        [-1.1673999338740913e-10, 1.0, -3.186883798381865e-10],
        [-0.39041584271848756, 2.478196875206287e-10, 0.9206386206076808]]),
        np.array([0.45229347476592485, -0.5000000002527983, 0.9758621103219332]))
    floor = ConvexPolyhedron.box([1.1, 1.1, 0.05]).posed(np.array([
        [0.9328985390784992, 0.0, 0.3601393005285624], [0.0, 1.0, 0.0],
        [-0.3601393005285624, 0.0, 0.9328985390784991]]), np.array([-0.37814127256735486, 0.0, 1.0204693006711545]))
    return (Mover(box, np.array([-0.013089784421747042, -8.228084276464913e-12, -0.016062403879147504]),
                  np.array([-9.036555133711207e-13, -0.021148579419854707, 1.0385103908363358e-11]),
                  np.array([0.45229347476592485, -0.5000000002527983, 0.9758621103219332]), 0.3464101615137755),
            Mover(floor, np.array([-0.014573376820940575, 0.0, 0.005736468417700806]),
                  np.array([0.0, 0.014916124072353095, 0.0]),
                  np.array([-0.37814127256735486, 0.0, 1.0204693006711545]), 1.5564382416273381))


def test_regression_an_unconverged_turning_sweep_is_a_contact_where_it_stopped_not_a_miss():
    """The box's face closes on the floor's, nearly parallel: the advancement stalls at
    t = 0.9255467020018014 after 115 steps (GJK's distance 6.3e-11, the separation along
    its axis 0: no step is allowed) and answers no hit, converged False.  Read as a miss,
    the box ended the step 1.1e-3 m inside the floor.  The contact is where the sweep
    stopped: the shapes posed there touch along the floor's normal (turned with it) to
    within the slop (their overlap 2.2e-16 m)."""
    box, floor = _tumbling_box_on_its_floor()
    assert not ccd.time_of_impact(box.shape, ccd._motion(box), floor.shape, ccd._motion(floor)).advancement.converged
    hit = ccd.first_contact(box, floor)
    assert hit is not None and hit.fraction == 0.9255467020018014 and hit.depth <= box.slop
    face = ccd._motion(floor).matrix(hit.fraction) @ [0.3601393005285624, 0.0, 0.9328985390784991]  # turned with it
    np.testing.assert_allclose(hit.normal, face, atol=1e-9)
    at = ccd.posed_at(box, hit.fraction), ccd.posed_at(floor, hit.fraction)
    gap = sweep(at[0], at[1], -box.slop * hit.normal)
    assert gap.hit and (not gap.initially_overlapping or gap.penetration_depth <= box.slop)


def stalled(monkeypatch, safe_until: float) -> None:
    """``ccd.time_of_impact`` answering no hit, unconverged, certified up to ``safe_until``."""
    answer = SimpleNamespace(hit=False, advancement=SimpleNamespace(converged=False, safe_until=safe_until))
    monkeypatch.setattr(ccd, "time_of_impact", lambda *arguments: answer)


def test_a_sweep_stalled_against_a_static_shape_looks_along_the_relative_chord(monkeypatch):
    """A static shape has no pivot: where the sweep stalled (halfway), the mover is swept
    along its chord.  The ball (radius 0.5) falling 1 touches the floor z = -1 there: the
    contact, on the floor, normal +z, no overlap."""
    stalled(monkeypatch, 0.5)
    hit = ccd.first_contact(mover(chord=(0.0, 0.0, -1.0), turn=(0.0, 0.0, 1.0)), still(Plane([0.0, 0.0, 1.0], -1.0)))
    assert hit is not None and (hit.fraction, hit.depth) == (0.5, 0.0)
    np.testing.assert_allclose(hit.normal, [0.0, 0.0, 1.0], atol=1e-12)
    np.testing.assert_allclose(hit.point, [0.0, 0.0, -1.0], atol=1e-12)


def test_a_sweep_stalled_past_what_it_could_meet_finds_no_contact_there(monkeypatch):
    """The ball rising 2 through where a ball of radius 0.25 sits at z = 1 (``may_meet``),
    stalled at 0.9: at z = 1.8 it is past it (0.8 apart, radii 0.75) and its chord
    looks away: no contact, as a converged miss."""
    stalled(monkeypatch, 0.9)
    assert ccd.first_contact(mover(chord=(0.0, 0.0, 2.0), turn=(0.0, 0.0, 1.0)),
                             still(Sphere([0.0, 0.0, 1.0], 0.25))) is None


def test_a_converged_miss_is_no_contact(monkeypatch):
    answer = SimpleNamespace(hit=False, advancement=SimpleNamespace(converged=True, safe_until=1.0))
    monkeypatch.setattr(ccd, "time_of_impact", lambda *arguments: answer)
    assert ccd.first_contact(mover(chord=(0.0, 0.0, -1.0), turn=(0.0, 0.0, 1.0)),
                             still(Plane([0.0, 0.0, 1.0], -1.0))) is None


def test_a_shape_posed_within_its_window_turns_about_its_pivot():
    """A box 1 × 0.2 × 0.2 centred at (1, 0, 0), turning a quarter turn about z around
    its centre while its centre moves 2 along y: at half the window it is turned an
    eighth of a turn about (1, 1, 0); its corner (1.5, 0.1, 0.1) is there."""
    box = Mover(ConvexPolyhedron.box([0.5, 0.1, 0.1], [1.0, 0.0, 0.0]), np.array([0.0, 2.0, 0.0]),
                np.array([0.0, 0.0, np.pi / 2]), np.array([1.0, 0.0, 0.0]), 0.52)
    posed = np.asarray(ccd.posed_at(box, 0.5).vertices)
    c, s = np.cos(np.pi / 4), np.sin(np.pi / 4)
    corner = np.array([1.0, 1.0, 0.1]) + [c * 0.5 - s * 0.1, s * 0.5 + c * 0.1, 0.0]
    assert np.min(np.linalg.norm(posed - corner, axis=1)) < 1e-12
