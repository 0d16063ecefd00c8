"""What a gizmo drag did, in float64, read from ImGuizmo's float32 matrices.

ImGuizmo works in float32: it is given the pivot rounded to float32, and the
matrix it hands back holds every entry the drag did not change exactly as it was
given.  The motion is therefore read as a difference of those float32 numbers:
an untouched coordinate gets an exact 0 (``RigidMotion`` then keeps it bit for
bit), and a turn about a world axis (the gizmo's three rings) is rebuilt in
float64 as an exact rotation about that axis, leaving that coordinate alone.
Matrices are ImGuizmo's: row vectors, ``[x, y, z, 1] @ M``, translation in row 3.
"""

from __future__ import annotations

import math

import numpy as np

AXIS_SNAP = 1e-5
"""A rotation whose axis is within this (float32 noise is ~1e-7) of a world axis is
the gizmo's ring about that axis, rebuilt exactly."""


def float32_matrix(pivot) -> np.ndarray:
    """The 4x4 gizmo matrix of a pivot, as ImGuizmo holds it (float32 values)."""
    matrix = np.eye(4, dtype=np.float32)
    matrix[3, :3] = np.asarray(pivot, float)
    return matrix


def dragged_translation(before: np.ndarray, after) -> np.ndarray:
    """The drag's shift: after - before, per coordinate, of the float32 matrices
    (exactly 0 on the axes the drag did not touch)."""
    after = np.asarray(after, np.float32).reshape(4, 4)
    return after[3, :3].astype(float) - before[3, :3].astype(float)


def dragged_rotation(before: np.ndarray, after) -> np.ndarray:
    """The drag's rotation (3x3, column vectors: p' = R p), exact about a world axis."""
    after = np.asarray(after, np.float32).reshape(4, 4).astype(float)
    step = np.linalg.inv(before.astype(float)) @ after
    return exact_axis_rotation(step[:3, :3].T)


def exact_axis_rotation(rotation: np.ndarray) -> np.ndarray:
    """``rotation`` rebuilt in float64: about world axis k exactly (row and column k
    are e_k) when it is one to ``AXIS_SNAP``, else the nearest rotation (SVD)."""
    for k in range(3):
        others = [i for i in range(3) if i != k]
        if abs(rotation[k, k] - 1) <= AXIS_SNAP and np.all(np.abs(rotation[k, others]) <= AXIS_SNAP) \
                and np.all(np.abs(rotation[others, k]) <= AXIS_SNAP):
            i, j = (k + 1) % 3, (k + 2) % 3  # a right-handed turn about e_k takes e_i towards e_j
            angle = math.atan2(rotation[j, i] - rotation[i, j], rotation[i, i] + rotation[j, j])
            exact = np.eye(3)
            exact[i, i] = exact[j, j] = math.cos(angle)
            exact[j, i], exact[i, j] = math.sin(angle), -math.sin(angle)
            return exact
    u, _, vt = np.linalg.svd(rotation)
    return u @ np.diag([1.0, 1.0, np.linalg.det(u @ vt)]) @ vt


def rotation_vector(rotation: np.ndarray, near=(0.0, 0.0, 0.0)) -> np.ndarray:
    """The rotation vector (axis times angle, radians) of the 3x3 ``rotation`` that is
    nearest to ``near``: of the vectors a (θ + 2πk), k an integer, that all turn by
    ``rotation``, the one closest to ``near``.  A ring dragged round and round thus
    winds the end pose's turn on past ±π (a turn of 3π stays 3π, not -π).

    The log map:  sin θ a = (R - Rᵀ)ˇ / 2,  cos θ = (tr R - 1) / 2,  θ in [0, π];
    past π/2 the axis is read from the symmetric part, (R + Rᵀ)/2 - cos θ I =
    (1 - cos θ) a aᵀ (its largest column), which stays exact where sin θ vanishes.
    A turn about a world axis (``exact_axis_rotation``) gives exact zeros elsewhere.
    """
    rotation = np.asarray(rotation, float)
    sine_axis = 0.5 * np.array([rotation[2, 1] - rotation[1, 2], rotation[0, 2] - rotation[2, 0],
                                rotation[1, 0] - rotation[0, 1]])
    cosine = 0.5 * (np.trace(rotation) - 1.0)
    sine = float(np.linalg.norm(sine_axis))
    angle = math.atan2(sine, cosine)
    if angle == 0.0:
        return _wound(np.zeros(3), 0.0, np.asarray(near, float))
    if cosine >= 0.0:
        axis = sine_axis / sine
    else:
        outer = 0.5 * (rotation + rotation.T) - cosine * np.eye(3)
        column = outer[:, int(np.argmax(np.diag(outer)))]
        axis = column / np.linalg.norm(column)
        if float(axis @ sine_axis) < 0.0:
            axis = -axis
    return _wound(axis, angle, np.asarray(near, float))


def _wound(axis: np.ndarray, angle: float, near: np.ndarray) -> np.ndarray:
    """a (θ + 2πk) for the integer k that brings it nearest to ``near`` (θ + 2πk
    closest to a·near: the component of ``near`` along a)."""
    if not np.any(axis):  # no turn: the nearest whole number of turns about near's own axis
        length = float(np.linalg.norm(near))
        if length == 0.0:
            return np.zeros(3)
        axis, angle = near / length, 0.0
    turns = round((float(axis @ near) - angle) / (2 * math.pi))
    return axis * (angle + 2 * math.pi * turns)
