"""Materials per body and per static shape (#36): Box2D's combine rule (restitution
the larger, friction the geometric mean) seen in bounces and stopping distances, and
bad materials refused."""

import numpy as np
import pytest

from sweeplab.playground.materials import Material, combined
from sweeplab.playground.world import Body, World, box_body, sphere_body
from sweeplab.physics import Plane, Sphere

FLOOR = {"floor": Plane([0.0, 0.0, 1.0], 0.0)}


def test_combined_takes_the_larger_restitution_and_the_geometric_mean_of_friction():
    mixed = combined(Material(0.2, 0.8), Material(0.7, 0.2))
    assert mixed == Material(0.7, 0.4)  # sqrt(0.16) rounds to 0.4
    assert combined(Material(1.0, 0.0), Material(0.0, 5.0)) == Material(1.0, 0.0)  # ice slides on anything
    assert combined(Material(0.3, 0.7), Material(0.3, 0.7)) == Material(0.3, 0.7)  # a material with itself


def test_a_ball_of_restitution_1_bounces_off_a_floor_of_0_to_its_height():
    """The larger restitution wins: the world's and the floor's 0 do not damp the ball's 1.
    Its energy after the bounce is the drop's, to rounding."""
    ball = sphere_body("ball", [0.0, 0.0, 2.0], 0.5)
    ball.material = Material(restitution=1.0, friction=0.0)
    world = World([ball], FLOOR, restitution=0.0, friction=0.5, materials={"floor": Material(0.0, 0.5)})
    g = 9.81
    start = g * 2.0
    while not world.events:
        world.step(1 / 60)
    for _ in range(10):
        world.step(1 / 60)
    assert ball.velocity[2] > 0  # on its way up again
    assert abs(g * ball.position[2] + 0.5 * float(ball.velocity @ ball.velocity) - start) <= 1e-12 * start


def test_two_bodies_bounce_by_the_larger_of_their_restitutions():
    left, right = sphere_body("left", [-2.0, 0.0, 1.0], 0.5), sphere_body("right", [2.0, 0.0, 1.0], 0.5)
    left.velocity, right.velocity = np.array([3.0, 0.0, 0.0]), np.array([-1.0, 0.0, 0.0])
    left.material, right.material = Material(1.0, 0.0), Material(0.0, 0.0)
    world = World([left, right], {}, restitution=0.0, friction=0.0, gravity=np.zeros(3))
    for _ in range(60):
        world.step(1 / 60)
    np.testing.assert_allclose([left.velocity[0], right.velocity[0]], [-1.0, 3.0], rtol=0, atol=1e-12)  # swapped


@pytest.mark.parametrize("body_friction, floor_friction", [(0.8, 0.2), (0.2, 0.8)])
def test_friction_0_8_on_0_2_stops_a_box_at_v_squared_over_2_0_4_g(body_friction, floor_friction):
    speed = 2.0
    box = box_body("box", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5])
    box.velocity = np.array([speed, 0.0, 0.0])
    box.material = Material(0.0, body_friction)
    world = World([box], FLOOR, restitution=0.0, friction=0.5, materials={"floor": Material(0.0, floor_friction)})
    for _ in range(150):  # 0.625 s: it stops after v / (0.4 g) = 0.51 s
        world.step(1 / 240)
    expected = speed ** 2 / (2 * 0.4 * 9.81)  # 0.5097; the mean 0.5 would stop it at 0.4077, 0.8 at 0.2548
    assert abs(box.position[0] - expected) <= 1e-4 * expected
    assert abs(box.velocity[0]) <= 1e-12


@pytest.mark.parametrize("field, value", [("restitution", np.nextafter(1.0, 2.0)), ("restitution", -1e-300),
                                          ("restitution", np.nan), ("friction", np.nextafter(0.0, -1.0)),
                                          ("friction", np.inf), ("friction", np.nan), ("friction", True),
                                          ("friction", "rough")])
def test_a_bad_material_is_named(field, value):
    with pytest.raises(ValueError, match=f"^{field} must be a finite number in"):
        Material(**{field: value})


@pytest.mark.parametrize("restitution, friction", [(0.0, 0.0), (1.0, 0.0), (np.nextafter(1.0, 0.0), 1e300), (1, 2)])
def test_materials_at_their_bounds_are_accepted(restitution, friction):
    material = Material(restitution, friction)
    assert (material.restitution, material.friction) == (restitution, friction)
    assert isinstance(material.friction, float)


def test_a_world_refuses_a_bad_default_or_static_material():
    with pytest.raises(ValueError, match="^restitution must be"):
        World([], FLOOR, restitution=1.5)
    with pytest.raises(ValueError, match="^friction must be"):
        World([], FLOOR, friction=-0.1)
    with pytest.raises(ValueError, match="^materials must map static shapes' names to Materials, got 'wall'"):
        World([], FLOOR, materials={"wall": Material()})
    with pytest.raises(ValueError, match="^materials must map static shapes' names to Materials, got 'floor'"):
        World([], FLOOR, materials={"floor": (0.5, 0.5)})
    with pytest.raises(ValueError, match="^material must be a Material or None"):
        Body("ball", Sphere([0.0, 0.0, 0.0], 0.5), 1.0, np.eye(3), np.zeros(3), material=(1.0, 0.0))
