"""The end pose's turn read from the gizmo's ring (issue #35): ``rotation_vector``
is the log map of a rotation, wound to the rotation vector nearest the old one, so a
ring dragged round and round turns past a half turn."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sweeplab.editor.gizmo_motion import exact_axis_rotation, rotation_vector


def rodrigues(vector) -> np.ndarray:
    """exp([v]x): the test's own rotation of a rotation vector (Rodrigues' formula)."""
    vector = np.asarray(vector, float)
    angle = float(np.linalg.norm(vector))
    if angle == 0:
        return np.eye(3)
    x, y, z = vector / angle
    cross = np.array([[0, -z, y], [z, 0, -x], [-y, x, 0]])
    return np.eye(3) + math.sin(angle) * cross + (1 - math.cos(angle)) * cross @ cross


def about_z(angle: float) -> np.ndarray:
    return exact_axis_rotation(np.array([[math.cos(angle), -math.sin(angle), 0.0],
                                         [math.sin(angle), math.cos(angle), 0.0], [0.0, 0.0, 1.0]]))


def test_a_turn_about_a_world_axis_keeps_the_other_components_exactly_zero():
    for angle in (0.3, -1.2, 2.9, math.pi - 1e-12):
        vector = rotation_vector(about_z(angle))
        assert vector[0] == 0.0 and vector[1] == 0.0
        assert vector[2] == pytest.approx(angle, abs=4e-16)


@pytest.mark.parametrize("angle", [1e-9, 0.7, math.pi / 2, 2.0, math.pi - 1e-7, math.pi - 1e-12, math.pi])
def test_the_log_map_inverts_rodrigues_at_every_angle(angle):
    """Past π/2 the axis comes from the symmetric part: sin θ vanishes at π, where the
    antisymmetric part alone gives no axis."""
    axis = np.array([0.36, -0.48, 0.8])
    vector = rotation_vector(rodrigues(axis * angle), axis * angle)
    np.testing.assert_allclose(vector, axis * angle, rtol=0, atol=2e-15 + 2e-7 * (angle > 3.14))
    np.testing.assert_allclose(rodrigues(vector), rodrigues(axis * angle), rtol=0, atol=4e-16 * 8)


def test_random_rotations_round_trip():
    generator = np.random.default_rng(35)
    for _ in range(200):
        vector = generator.normal(size=3)
        vector *= generator.uniform(0, math.pi) / np.linalg.norm(vector)
        np.testing.assert_allclose(rotation_vector(rodrigues(vector)), vector, rtol=0, atol=1e-14)


def test_the_turn_winds_on_to_the_vector_nearest_the_old_one():
    """Dragging the z ring on from 3π - 0.1 by 0.15: 3π + 0.05, not -π + 0.05."""
    old = np.array([0.0, 0.0, 3 * math.pi - 0.1])
    vector = rotation_vector(about_z(0.15) @ rodrigues(old), old)
    assert vector[:2].tolist() == [0.0, 0.0]
    assert vector[2] == pytest.approx(3 * math.pi + 0.05, abs=1e-14)
    backwards = rotation_vector(about_z(-0.15) @ rodrigues(-old), -old)
    assert backwards[2] == pytest.approx(-3 * math.pi - 0.05, abs=1e-14)


def test_a_whole_number_of_turns_stays_on_the_old_axis():
    """The identity is 0, or 2πk about the old vector's axis: two whole turns stay two."""
    assert rotation_vector(np.eye(3)).tolist() == [0.0, 0.0, 0.0]
    old = np.array([0.0, 2 * math.pi + 0.1, 0.0])
    assert rotation_vector(np.eye(3), old).tolist() == [0.0, 2 * math.pi, 0.0]
    assert rotation_vector(np.eye(3), [0.0, 0.0, 3.0]).tolist() == [0.0, 0.0, 0.0]  # 3 is nearer 0 than 2π
    assert rotation_vector(np.eye(3), [0.0, 0.0, 3.2]).tolist() == [0.0, 0.0, 2 * math.pi]


def test_a_half_turn_takes_the_sign_nearest_the_old_vector():
    """At exactly π both a π and -a π are the rotation: the old vector picks."""
    half = about_z(math.pi)
    assert rotation_vector(half, [0.0, 0.0, 3.0])[2] == pytest.approx(math.pi, abs=1e-15)
    assert rotation_vector(half, [0.0, 0.0, -3.0])[2] == pytest.approx(-math.pi, abs=1e-15)
