"""What the editor shows about triangle meshes: sphere trees, walks, contacts, overlaps.

Called by ``view.model``; no GL.  For a mesh target it adds to the target's
report the traversal trace of the sweep, the moving sphere's contacts with the
mesh (at the time of impact, or at rest) and its classification; between two
meshes, the overlapping triangle pairs at rest and, for a moving mesh, the
swept-sphere broadphase interval with the bisection narrowphase (computed once the
scene is still: it runs dozens of overlap tests).  Drawn: the BVH node spheres at
the chosen depth (coloured by what the walk did with them), the leaves the walk
tested, the triangle hit, contact points and normals, and overlapping triangles.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field

import numpy as np

from sweeplab.scene import tessellate
from sweeplab.scene.shape_kinds import posed_mesh
from sweeplab.physics import Sphere, TriangleMesh, tolerance
from sweeplab.physics.broadphase import MeshContact, NarrowphaseTrace, first_mesh_contact
from sweeplab.physics.contacts import MeshContacts, classify, contacts
from sweeplab.physics.overlap import MeshOverlap, mesh_overlap
from sweeplab.physics.traversal import CULLED, LEAF_HIT, LEAF_MISSED, VISITED, TraversalTrace

NODE = (0.55, 0.6, 0.7, 0.35)
NODE_COLORS = {VISITED: (0.3, 0.6, 1.0, 0.9), CULLED: (0.5, 0.5, 0.55, 0.35), LEAF_HIT: (1.0, 0.25, 0.2, 1.0),
               LEAF_MISSED: (1.0, 0.65, 0.1, 0.9)}
"""Node sphere colours: untouched by the walk, and by walk status."""
MESH_CONTACT = (1.0, 0.8, 0.3, 1.0)
MESH_OVERLAP = (0.8, 0.25, 0.85, 1.0)
MAX_DRAWN_NODES = 4096
"""Node spheres drawn at one depth at most (the deepest levels of a big tree hold
millions); the panel says when the drawing is cut."""


@dataclass
class MeshDisplay:
    """The editor's drawing options beyond the shapes: ``bvh_depth`` (None: no node
    spheres), whether to colour nodes by the walk, whether to show contacts, and
    the teaching view (``minkowski``: the Minkowski difference and the ray, see
    ``view.minkowski``)."""

    bvh_depth: int | None = None
    walk_steps: int | None = None
    """Draw only the first this many node tests of the walk, in the order it made them
    (lesson 5 steps through a traversal); None: the nodes at ``bvh_depth``."""
    slide_sweeps: int | None = None
    """Draw only the first this many sweeps of a collide-and-slide move (lesson 8 steps
    through one); None: every sweep."""
    traversal: bool = True
    contacts: bool = True
    minkowski: bool = False
    every_hit: bool = True
    engines: tuple[str, ...] = ()
    """Other engines that also answer every target (``engines``; Results panel)."""
    """List and draw every contact interval along the path (``view.path_hits``), once
    the scene is still."""


@dataclass
class MeshReport:
    """Mesh facts of one target: the walk's ``trace``, the moving sphere's
    ``contacts`` and ``classification`` (sphere targets only), and for a moving mesh
    the ``narrowphase`` answer with its ``narrowphase_trace``."""

    trace: TraversalTrace | None = None
    contacts: MeshContacts | None = None
    classification: str = ""
    narrowphase: MeshContact | None = None
    narrowphase_trace: NarrowphaseTrace | None = None


@dataclass
class MeshOverlapReport:
    first: str
    second: str
    overlap: MeshOverlap
    touching_only: bool = field(init=False)

    def __post_init__(self):
        self.touching_only = bool(len(self.overlap.pairs)) and bool(np.all(self.overlap.touching))


def sphere_contacts(moving, target: TriangleMesh, direction, t: float | None,
                    scale: float) -> tuple[MeshContacts, str]:
    """Contacts of a moving sphere with a mesh at time ``t`` (at rest when None), and
    its classification at rest.  At the time of impact the sphere only touches, and
    ``center + t * direction`` rounds either side of touching: contacts within
    ``tolerance.LENGTH_RTOL * scale`` are kept."""
    center = np.asarray(moving.center, float) + (0.0 if t is None else t) * np.asarray(direction, float)
    found = contacts(Sphere(center, moving.radius), target, contact_tolerance=tolerance.LENGTH_RTOL * scale)
    return found, classify(moving, target).name.lower()


def narrowphase(moving_mesh: TriangleMesh, target: TriangleMesh, direction) -> tuple[MeshContact, NarrowphaseTrace]:
    trace = NarrowphaseTrace()
    return first_mesh_contact(moving_mesh, direction, target, np.zeros(3), trace=trace), trace


def overlaps(mesh_params: dict[str, dict]) -> list[MeshOverlapReport]:
    """Overlapping triangle pairs of every two meshes of the scene (name -> mesh
    object parameters), at rest.  Each pair is computed once per pair of poses and
    sources: dragging anything else reruns no overlap test."""
    names = list(mesh_params)
    keys = {name: json.dumps(params, sort_keys=True) for name, params in mesh_params.items()}
    return [MeshOverlapReport(a, b, _overlap_of(keys[a], keys[b])) for i, a in enumerate(names) for b in names[i + 1:]]


@functools.lru_cache(maxsize=64)
def _overlap_of(first_json: str, second_json: str) -> MeshOverlap:
    """Callers must not modify the arrays (they are shared by the cache)."""
    return mesh_overlap(posed_mesh(json.loads(first_json)), posed_mesh(json.loads(second_json)))


def node_spheres(mesh: TriangleMesh, depth: int, trace: TraversalTrace | None,
                 walk_steps: int | None = None) -> list[tuple[np.ndarray, tuple]]:
    """(wire segments, colour) groups for the nodes at ``depth`` (coloured by what
    ``trace`` did with them) and every leaf the walk tested; with ``walk_steps``, the
    walk's first node tests instead, at any depth: the walk so far."""
    tree = mesh.tree
    depth = min(depth, tree.height - 1)
    nodes = tree.nodes_at_depth(depth)[:MAX_DRAWN_NODES]
    status = np.full(len(nodes), -1)
    groups = []
    if trace is not None and walk_steps is not None:
        nodes, status = trace.node[:walk_steps], trace.status[:walk_steps].astype(int)
    elif trace is not None:
        traced_node, traced_status = trace.node, trace.status
        lookup = dict(zip(traced_node.tolist(), traced_status.tolist(), strict=True))
        status = np.array([_status_of(tree, lookup, node) for node in nodes.tolist()])
        leaves = np.unique(traced_node[(traced_status == LEAF_HIT) | (traced_status == LEAF_MISSED)])
        leaves = leaves[tree.depth[leaves] != depth]
        nodes, status = np.concatenate([nodes, leaves]), np.concatenate(
            [status, [lookup[leaf] for leaf in leaves.tolist()]]).astype(int)
    centers = mesh.to_world(tree.centers[nodes]) if not mesh.has_identity_pose else tree.centers[nodes]
    for code, color in [(-1, NODE)] + list(NODE_COLORS.items()):
        chosen = status == code
        if np.any(chosen):
            groups.append((tessellate.wire_spheres(centers[chosen], tree.radii[nodes[chosen]]), color))
    return groups


def _status_of(tree, lookup: dict, node: int) -> int:
    """A node's walk status; a node the walk did not test itself (the dual walk of
    ``physics.overlap`` steps over levels) was reached if a descendant was, else culled
    if its descendants were tested, else untouched (-1)."""
    if node in lookup:
        return lookup[node]
    child = tree.first_child[node]
    statuses = [status for status in (_status_of(tree, lookup, c) for c in (child, child + 1) if child >= 0)
                if status != -1]
    if not statuses:
        return -1
    return VISITED if any(status != CULLED for status in statuses) else CULLED


def overlapping_triangles(mesh: TriangleMesh, faces: np.ndarray) -> np.ndarray:
    """World corners (k, 3, 3) of the given faces."""
    return mesh.to_world(mesh.vertices[mesh.faces[np.unique(faces)]])
