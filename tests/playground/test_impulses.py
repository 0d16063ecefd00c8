"""The compiled contact solver (``playground.impulses``): its impulses against hand-worked
values, and warm starting."""

import numpy as np
import pytest

from sweeplab.physics import Plane
from sweeplab.playground.impulses import Solve, point_velocity
from sweeplab.playground.world import World, box_body, sphere_body

FLOOR = {"floor": Plane([0.0, 0.0, 1.0], 0.0)}


class Touch:
    """A contact as ``impulses.Layer`` reads one."""

    def __init__(self, points, normal, leaving, held=(0.0, 0.0, 0.0), friction=0.0):
        self.points = [np.asarray(p, float) for p in points]
        self.normal, self.held = np.asarray(normal, float), np.asarray(held, float)
        self.leaving, self.friction = list(leaving), friction
        self.normal_sum, self.tangent_sum = np.zeros(len(points)), np.zeros((len(points), 3))


def test_point_velocity_is_v_plus_omega_cross_r():
    ball = sphere_body("ball", [1.0, 2.0, 3.0], 0.5)
    ball.velocity, ball.angular_velocity = np.array([1.0, 0.0, 0.0]), np.array([0.0, 0.0, 2.0])
    assert point_velocity(ball, np.array([1.0, 3.0, 3.0])).tolist() == [-1.0, 0.0, 0.0]


def test_a_ball_stopped_by_the_floor_takes_m_v_and_leaves_at_its_leaving_speed():
    ball = sphere_body("ball", [0.0, 0.0, 0.5], 0.5)
    ball.velocity = np.array([0.0, 0.0, -3.0])
    solve = Solve([ball])
    touch = Touch([[0.0, 0.0, 0.0]], [0.0, 0.0, 1.0], [1.0])
    layer = solve.layer([(touch, (1.0, 1.0))], [(ball, None)])
    assert layer.solve_to(40, 1e-13) == 2  # one pass solves it, the next changes nothing
    layer.unpack()
    solve.store()
    assert ball.velocity.tolist() == [0.0, 0.0, 1.0] and abs(touch.normal_sum[0] - 4.0 * ball.mass) <= 1e-12


@pytest.mark.parametrize(("speed", "left"), [(5.0, 4.5), (0.7, 0.2), (0.4, 0.0)])
def test_friction_is_capped_at_mu_times_the_normal_impulse_while_sliding(speed, left):
    """The box's unit approach is stopped (N = m) and friction takes at most μN = m/2 of its
    slide: 5 and 0.7 units/s slide on at 4.5 and 0.2 (capped: μN of it), 0.4 stops."""
    box = box_body("box", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5])
    box.velocity = np.array([speed, 0.0, -1.0])
    solve = Solve([box])
    corners = [[x, y, 0.0] for x in (-0.5, 0.5) for y in (-0.5, 0.5)]
    touch = Touch(corners, [0.0, 0.0, 1.0], [0.0] * 4, friction=0.5)
    layer = solve.layer([(touch, (1.0, 1.0))], [(box, None)])
    layer.solve_to(40, 1e-13)
    layer.unpack()
    solve.store()
    normal, tangent = touch.normal_sum.sum(), touch.tangent_sum.sum(axis=0)
    # four corners relaxed in turn: converged to ~5e-10 at 0.7 (the cap and the corners' spin interplay)
    assert abs(normal - box.mass) <= 1e-8  # stops the unit approach
    assert abs(np.linalg.norm(tangent) - min(0.5 * normal, speed * box.mass)) <= 1e-8 and tangent[0] < 0
    assert abs(box.velocity[0] - left) <= 1e-8 and abs(box.velocity[2]) <= 1e-8


def test_held_bodies_do_not_move():
    lower = box_body("lower", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5])
    upper = box_body("upper", [0.5, 0.5, 0.5], [0.0, 0.0, 1.5])
    upper.velocity = np.array([0.0, 0.0, -1.0])
    solve = Solve([lower, upper])
    touch = Touch([[0.0, 0.0, 1.0]], [0.0, 0.0, 1.0], [0.0])
    layer = solve.layer([(touch, (1.0, 0.0))], [(upper, lower)])  # the lower held
    layer.solve_to(40, 1e-13)
    solve.store()
    assert lower.velocity.tolist() == [0.0, 0.0, 0.0] and abs(upper.velocity[2]) <= 1e-15


def test_regression_a_resting_box_is_warm_started_two_iterations_a_step():
    """Regression: the compiled solver packed a contact's impulses before its warm start set
    them: every step started cold, 78 iterations a step for a box at rest (2 before)."""
    box = box_body("box", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5])
    world = World([box], FLOOR, restitution=0.0, allow_sleep=False)
    world.step(1 / 60)
    for _ in range(10):
        before = world._iterations
        world.step(1 / 60)
        assert world._iterations - before <= 2
