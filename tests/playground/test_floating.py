"""Where a body floats (``playground.floating``): the equilibrium draft against the
closed forms of a box and a sphere, a body too dense to float, the draft now."""

import math

import numpy as np
import pytest

from sweeplab.playground.buoyancy import Water
from sweeplab.playground.floating import draft, equilibrium_draft, lowest
from sweeplab.playground.world import box_body, capsule_body, sphere_body, turned

UP = np.array([0.0, 0.0, 1.0])


@pytest.mark.parametrize("density", [0.1, 0.5, 0.9])
def test_a_box_floats_at_its_density_ratio_of_its_height(density):
    """d = (rho_b / rho_w)·h for a box floating flat, whatever its width."""
    box = box_body("raft", [0.7, 0.3, 0.2], [5.0, -1.0, 3.0], density=density)
    assert equilibrium_draft(box, Water(1.0, 1.0), UP) == pytest.approx(density * 0.4, rel=1e-14)


@pytest.mark.parametrize("density", [0.25, 0.5, 0.75])
def test_a_sphere_floats_where_its_cap_holds_its_mass(density):
    """pi d² (3r - d)/3 = m / rho_w: the cubic's root in [0, 2r] (half the density: d = r)."""
    r = 0.3
    ball = sphere_body("ball", [0.0, 0.0, 2.0], r, density=density)
    found = equilibrium_draft(ball, Water(0.0, 1.0), UP)
    assert math.pi * found ** 2 * (3 * r - found) / 3 == pytest.approx(ball.mass, rel=1e-13)
    if density == 0.5:
        assert found == pytest.approx(r, rel=1e-14)


def test_a_turned_box_floats_at_the_draft_of_its_turn():
    """A cube turned 45° about x floats corner-down: its draft is deeper than upright."""
    upright = box_body("cube", [0.5, 0.5, 0.5], [0.0, 0.0, 0.0], density=0.5)
    turned_cube = box_body("cube", [0.5, 0.5, 0.5], [0.0, 0.0, 0.0], turned(np.eye(3), np.array([math.pi / 4, 0, 0])),
                           density=0.5)
    assert equilibrium_draft(upright, Water(0.0, 1.0), UP) == pytest.approx(0.5, rel=1e-14)
    assert equilibrium_draft(turned_cube, Water(0.0, 1.0), UP) == pytest.approx(math.sqrt(2) / 2, rel=1e-14)


@pytest.mark.parametrize("density", [1.0, 1.5])
def test_a_body_as_dense_as_the_water_or_denser_sinks(density):
    assert equilibrium_draft(sphere_body("ball", [0.0, 0.0, 0.0], 0.5, density=density), Water(0.0, 1.0), UP) is None


def test_a_body_just_lighter_than_the_water_floats_deep():
    ball = sphere_body("ball", [0.0, 0.0, 0.0], 0.5, density=1.0)
    assert equilibrium_draft(ball, Water(0.0, math.nextafter(1.0, 2.0)), UP) == pytest.approx(1.0, rel=1e-7)


def test_the_draft_now_is_the_lowest_points_depth():
    capsule = capsule_body("log", [0.0, 0.0, 0.5], [1.0, 0.0, 0.25], 0.125)
    assert lowest(capsule, UP) == pytest.approx(0.125, abs=1e-15)
    assert draft(capsule, Water(0.5, 1.0), UP) == pytest.approx(0.375, abs=1e-15)
    assert draft(capsule, Water(0.0, 1.0), UP) == pytest.approx(-0.125, abs=1e-15)  # above the surface
