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

from physics.shapes import Sphere, TriangleMesh, vector_argument
from physics.sweep.ball import Contact
from physics.sweep.mesh import contact_to_world, flatten_internal_edges, moving_core, walk_mesh
from physics.traversal import TraversalTrace


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
    with np.errstate(all="ignore"):
        core = moving_core(Sphere(sphere.center, sphere.radius + tolerance_), _zero_direction(sphere), mesh)
        found = walk_mesh(core, mesh, ignore_separating=False, update_bound=None, trace=trace)
        if not raw_edge_normals:
            found = flatten_internal_edges(found, core, mesh)
    hit = np.flatnonzero(~np.isnan(found.contact.t))
    order = hit[np.lexsort((found.face[hit], -np.nan_to_num(found.contact.depth[hit]), found.query[hit]))]
    contact = contact_to_world(Contact(*[field[order] for field in found.contact]), mesh)
    return MeshContacts(found.query[order], found.face[order], contact.point, contact.normal,
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

    def stop_when_penetrating(bound: np.ndarray, queries: np.ndarray, contact: Contact) -> None:
        bound[queries[np.nan_to_num(contact.depth) > 2 * tolerance_]] = -1

    with np.errstate(all="ignore"):
        core = moving_core(band, _zero_direction(band), mesh)
        found = walk_mesh(core, mesh, ignore_separating=False, update_bound=stop_when_penetrating, trace=trace,
                          first_round_pairs=0)  # small rounds: stop soon after the first penetration
    depth = found.contact.depth
    level = np.where(np.nan_to_num(depth) > 2 * tolerance_, Classification.PENETRATING,
                     np.where(np.isnan(found.contact.t), Classification.CLEAR, Classification.COLLIDING))
    answer = np.zeros(len(core.radius), np.int64)
    np.maximum.at(answer, found.query, level)
    answer = answer.reshape(core.batch_shape)
    return Classification(int(answer)) if core.batch_shape == () else answer
