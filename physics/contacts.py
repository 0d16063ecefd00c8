"""Instantaneous sphere-against-mesh queries: every contact, and a classification.

Both are the mesh sweep of ``physics.sweep.mesh`` with a zero direction (an
overlap test at t = 0), so the triangle-level answers are the sweep kernels' own:
a contact's ``point`` is the witness on the triangle, its ``normal`` the minimum
translation direction from the triangle towards the sphere's center (internal
edges report the face normal, ``physics.mesh_edges``), its ``depth`` how far the
sphere must move along that normal to only touch the triangle (0 when touching).
"""

from __future__ import annotations

import enum
from typing import NamedTuple

import numpy as np

from sweeplab.physics.shapes import Sphere, TriangleMesh, vector_argument
from sweeplab.physics.sweep.lane_answer import Contact
from sweeplab.physics.sweep.mesh import contact_to_world, moving_core, rounded_walks
from sweeplab.physics.traversal import EVERY_HIT, TraversalTrace


class Classification(enum.IntEnum):
    """How a sphere meets a mesh: not at all, touching (within the contact
    tolerance), or overlapping by more than it."""

    CLEAR = 0
    COLLIDING = 1
    PENETRATING = 2


class MeshContacts(NamedTuple):
    """Every triangle a sphere touches or overlaps, one row each, deepest first:
    ``query`` (index into a batch of spheres, 0 for one), ``face``, ``point (K, 3)``
    and ``normal (K, 3)`` in world space, ``depth`` (>= 0), ``feature_code`` /
    ``feature_index`` local to the face (codes of ``physics.result.FEATURE_KINDS``)."""

    query: np.ndarray
    face: np.ndarray
    point: np.ndarray
    normal: np.ndarray
    depth: np.ndarray
    feature_code: np.ndarray
    feature_index: np.ndarray


def _zero_direction(sphere: Sphere) -> np.ndarray:
    return np.zeros(sphere.center.shape, sphere.center.dtype)


def contacts(sphere: Sphere, mesh: TriangleMesh, *, contact_tolerance: float = 0.0, raw_edge_normals: bool = False,
             trace: TraversalTrace | None = None) -> MeshContacts:
    """Every contact of ``sphere`` (one or a batch) with ``mesh`` at rest: each
    triangle within ``radius + contact_tolerance`` of the center (speculative
    contacts, as a solver keeps them; a negative ``depth`` is a gap).

    Degenerate inputs: zero radius — contacts only where the center lies on a
    triangle (depth 0); zero-area faces — their edges; a center exactly on a
    triangle — depth = radius, normal = the face normal (+z side preferred for a
    still sphere, as the sweep kernels pick)."""
    tolerance_ = _tolerance_argument(contact_tolerance)
    core = moving_core(Sphere(sphere.center, sphere.radius + tolerance_), _zero_direction(sphere), mesh)
    walks = rounded_walks(core, mesh, ignore_separating=False, raw_edge_normals=raw_edge_normals, mode=EVERY_HIT,
                          trace=trace)
    order = np.lexsort((walks.found_face, -np.nan_to_num(walks.found.depth), walks.found_query))
    contact = contact_to_world(Contact(*[field[order] for field in walks.found]), mesh)
    return MeshContacts(walks.found_query[order], walks.found_face[order], contact.point, contact.normal,
                        np.nan_to_num(contact.depth) - tolerance_, contact.feature_code, contact.feature_index)


def _tolerance_argument(value) -> float:
    value = float(vector_argument(value, "contact_tolerance", trailing=()))
    if value < 0:
        raise ValueError(f"contact_tolerance must be >= 0, got {value}")
    return value


def classify(sphere: Sphere, mesh: TriangleMesh, *, contact_tolerance: float = 0.0,
             trace: TraversalTrace | None = None):
    """``Classification`` of ``sphere`` against ``mesh`` (an int array for a batch).

    PENETRATING: some triangle is closer to the center than ``radius -
    contact_tolerance``; COLLIDING: otherwise, some triangle is within ``radius +
    contact_tolerance`` (with the default 0: exactly touching); CLEAR: no triangle is.
    The walk stops a query at its first penetrating triangle.  A mesh is a surface:
    a sphere wholly inside a closed mesh without touching it is CLEAR.
    """
    tolerance_ = _tolerance_argument(contact_tolerance)
    band = Sphere(sphere.center, sphere.radius + tolerance_)
    core = moving_core(band, _zero_direction(band), mesh)
    walks = rounded_walks(core, mesh, ignore_separating=False, raw_edge_normals=True, mode=EVERY_HIT,
                          stop_depth=2 * tolerance_, trace=trace)  # a walk stops at its first penetration
    level = np.where(np.nan_to_num(walks.found.depth) > 2 * tolerance_, Classification.PENETRATING,
                     Classification.COLLIDING)
    answer = np.zeros(len(core.radius), np.int64)
    np.maximum.at(answer, walks.found_query, level)
    answer = answer.reshape(core.batch_shape)
    return Classification(int(answer)) if core.batch_shape == () else answer
