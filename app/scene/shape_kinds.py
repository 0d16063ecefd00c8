"""Every kind of shape the editor knows: its parameters, physics shape and drawing.

A scene object stores its geometry as named parameters in world coordinates,
exactly what the physics sees (typed values stay bit-exact).  Each ``ShapeKind``
says which parameters it has (for the inspector and the file format), how to
build the physics shape, how to tessellate it for drawing, and its defaults for
"Add".  A new shape type registers one ``ShapeKind`` here; the frame loop, the
inspector and the scene file need no change.

Parameter types: ``"point"`` (3 floats, moves with the shape), ``"direction"``
(3 floats, turns with the shape), ``"radius"`` (a float >= 0), ``"offset"`` (a
float), ``"points"`` (a list of 3-float points), ``"body points"`` (points in the
shape's own frame: a pose moves them), ``"frame"`` (3 unit directions: a body's
x, y and z axes in the world, turning with the shape), ``"source"`` (a mesh
source dict, ``scene.mesh_sources``).

A polyhedron and a mesh have a pose: ``origin`` and ``axes``, world =
origin + body @ axes, computed so that the identity pose gives the body's floats
unchanged (bit for bit).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from collections.abc import Callable

import numpy as np

from sweeplab.scene import tessellate
from sweeplab.scene.mesh_sources import base_mesh, default_source
from sweeplab.physics import Capsule, ConvexPolyhedron, Plane, Point, Polygon, Segment, Sphere, Triangle, TriangleMesh
from sweeplab.physics.shapes import Shape


@dataclass(frozen=True)
class Parameter:
    name: str
    type: str


@dataclass(frozen=True)
class RigidMotion:
    """Rotate by ``rotation`` (3x3) about ``pivot``, then translate by ``translation``.

    A coordinate the motion leaves alone is kept bit for bit: axis k is left alone
    when the rotation maps e_k to e_k exactly (row and column k of the matrix are
    e_k) and ``translation[k]`` is 0.  Dragging along x never rounds y, and a turn
    about z keeps every z (``(z - pivot) + pivot`` need not be z in floating point).
    """

    rotation: np.ndarray
    pivot: np.ndarray
    translation: np.ndarray

    @classmethod
    def translate(cls, offset) -> RigidMotion:
        return cls(np.eye(3), np.zeros(3), np.asarray(offset, float))

    @property
    def is_translation(self) -> bool:
        return bool(np.array_equal(self.rotation, np.eye(3)))

    def _fixed_axes(self) -> np.ndarray:
        """Per axis: True where the rotation maps e_k to itself exactly."""
        unit = np.eye(3)
        return np.array([np.array_equal(self.rotation[k], unit[k]) and np.array_equal(self.rotation[:, k], unit[k])
                         for k in range(3)])

    def points(self, points: np.ndarray) -> np.ndarray:
        if self.is_translation:
            moved = points + self.translation
        else:
            moved = (points - self.pivot) @ self.rotation.T + self.pivot + self.translation
        kept = self._fixed_axes() & (np.asarray(self.translation) == 0)
        return np.where(kept, points, moved)

    def directions(self, directions: np.ndarray) -> np.ndarray:
        if self.is_translation:
            return directions
        return np.where(self._fixed_axes(), directions, directions @ self.rotation.T)


@dataclass(frozen=True)
class ShapeKind:
    name: str
    parameters: tuple[Parameter, ...]
    defaults: dict
    build: Callable[[dict], Shape]
    mesh: Callable[[dict], tessellate.Mesh]
    core_loop: Callable[[dict], np.ndarray] | None = None
    """The vertex loop whose edges and vertices physics numbers in ``feature``
    (None for shapes whose only feature is their surface)."""
    opacity: float = 1.0
    """Fill opacity when drawn (an infinite plane's patch is see-through)."""
    face_loop: Callable[[dict, int], np.ndarray] | None = None
    """For shapes made of many faces (meshes): the vertex loop of face i, whose
    edges and vertices a ``feature`` of that face numbers."""
    highlight: Callable[[dict, str, int], tuple[np.ndarray, np.ndarray]] | None = None
    """For shapes that number their own features (polyhedra): (segments, points) of
    feature ``kind`` ``index``."""
    optional: tuple[str, ...] = ()
    """Parameters a scene file may leave out (added later: a polyhedron's pose); they
    take their ``defaults``."""
    nudged: tuple[str, ...] | None = None
    """The parameters a nudge moves (None: every point, point list and offset)."""

    def anchor_points(self, params: dict) -> np.ndarray:
        """Points that locate the shape (pivot, bounds, framing): (n, 3)."""
        if self.name == "mesh":
            bounds = drawn_mesh(self.name, params).bounds()
            assert bounds is not None  # a physics.TriangleMesh has a face
            return np.stack(bounds)
        if self.name == "polyhedron":
            return posed_vertices(params)
        if self.name == "plane":
            normal = np.asarray(params["normal"], float)
            return (normal * params["offset"] / np.dot(normal, normal))[None]
        points = [np.reshape(np.asarray(params[p.name], float), (-1, 3)) for p in self.parameters
                  if p.type in ("point", "points")]
        return np.concatenate(points)

    def feature_geometry(self, params: dict, kind: str, index: int,
                         face_index: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """What to highlight for a physics ``feature`` (of face ``face_index`` for a
        mesh): (segments (n, 2, 3), points (k, 3))."""
        if self.highlight is not None:
            return self.highlight(params, kind, index)
        loop: np.ndarray | None
        if self.face_loop is not None and face_index is not None:
            loop = self.face_loop(params, face_index)
        else:
            loop = self.core_loop(params) if self.core_loop else None
        if loop is None:
            return drawn_mesh(self.name, params).outline, np.zeros((0, 3))
        if kind == "face":
            return np.stack([loop, np.roll(loop, -1, axis=0)], axis=1), np.zeros((0, 3))
        if kind == "vertex":
            return np.zeros((0, 2, 3)), loop[index][None]
        return np.stack([loop[index], loop[(index + 1) % len(loop)]])[None], np.zeros((0, 3))

    def pickable(self, params: dict):
        """The physics shape a click's view ray is swept against: the shape itself,
        except an infinite plane, which is picked where its patch is drawn."""
        if self.name == "plane":
            return Polygon(_plane_mesh(params).outline[:4, 0])
        return self.build(params)

    def resized(self, params: dict, length_factor: float, radius_factor: float) -> dict:
        """A capsule's or sphere's parameters with its radius scaled by
        ``radius_factor`` and (capsule) its core scaled about its middle by
        ``length_factor``; other kinds are returned unchanged."""
        resized = dict(params)
        if "radius" in params:
            resized["radius"] = float(params["radius"]) * abs(float(radius_factor))
        if self.name == "capsule":
            middle = self.pivot(params)
            for end in ("a", "b"):
                resized[end] = (middle + (np.asarray(params[end], float) - middle) * abs(float(length_factor))).tolist()
        return resized

    def scaled(self, params: dict, factors) -> dict:
        """A polyhedron's body scaled by ``factors`` along its own axes, about its
        centre (the pose stays); other kinds are returned unchanged."""
        if self.name != "polyhedron":
            return dict(params)
        body = np.asarray(params["vertices"], float)
        centre = body.mean(axis=0)
        return {**params, "vertices": (centre + (body - centre) * np.abs(np.asarray(factors, float))).tolist()}

    def axis_frame(self, params: dict) -> np.ndarray:
        """Rows: two directions across the shape and its axis (a capsule's core; z
        otherwise) — the frame a scale gizmo is drawn in."""
        if self.name == "polyhedron":
            return np.asarray(params["axes"], float)
        axis = np.array([0.0, 0.0, 1.0])
        if self.name == "capsule":
            core = np.asarray(params["b"], float) - np.asarray(params["a"], float)
            if np.linalg.norm(core) > 0:
                axis = core / np.linalg.norm(core)
        across = np.cross(axis, np.eye(3)[np.argmin(np.abs(axis))])
        across /= np.linalg.norm(across)
        return np.stack([across, np.cross(axis, across), axis])

    def pivot(self, params: dict) -> np.ndarray:
        return self.anchor_points(params).mean(axis=0)

    def moved(self, params: dict, motion: RigidMotion) -> dict:
        """The parameters after a rigid motion of the shape."""
        moved = dict(params)
        for parameter in self.parameters:
            if parameter.type == "source":
                continue
            value = np.asarray(params[parameter.name], float)
            if parameter.type == "point":
                moved[parameter.name] = motion.points(value[None])[0].tolist()
            elif parameter.type == "points":
                moved[parameter.name] = motion.points(value).tolist()
            elif parameter.type == "direction":
                moved[parameter.name] = motion.directions(value[None])[0].tolist()
            elif parameter.type == "frame":
                moved[parameter.name] = motion.directions(value).tolist()
        if self.name == "plane" and motion.is_translation:  # the offset moves by the shift along the normal
            normal = np.asarray(params["normal"], float)
            shift = float(np.dot(normal, motion.translation) / np.linalg.norm(normal))
            moved["offset"] = params["offset"] + shift if shift != 0 else params["offset"]
        elif self.name == "plane":  # the offset follows the plane's foot point
            normal = np.asarray(moved["normal"], float)
            foot = motion.points(self.anchor_points(params))[0]
            moved["offset"] = float(np.dot(normal, foot) / np.linalg.norm(normal))
            moved["normal"] = (normal / np.linalg.norm(normal)).tolist()
        return moved


PLANE_PATCH_HALF_SIZE = 3.0
"""Half-size of the square drawn for an (infinite) plane, around its foot point."""


def _plane_mesh(params: dict):
    plane = Plane(params["normal"], params["offset"])
    return tessellate.plane_patch(plane.normal, float(plane.offset), PLANE_PATCH_HALF_SIZE)


def posed_vertices(params: dict) -> np.ndarray:
    """A polyhedron's vertices in the world: origin + body @ axes (float64, then in
    the body's dtype).  The identity turn and a zero origin component leave the body's floats
    as they are (no ``x * 1 + y * 0`` sums, no ``-0.0 + 0.0``)."""
    body = np.asarray(params["vertices"])
    dtype = body.dtype if np.issubdtype(body.dtype, np.floating) else np.dtype(np.float64)
    body = body.astype(float)  # posed in float64, then rounded once (the float32 lens rounds inputs only)
    axes, origin = np.asarray(params["axes"], float), np.asarray(params["origin"], float)
    turned = body if np.array_equal(axes, np.eye(3)) else body @ axes
    return np.where(origin == 0, turned, turned + origin).astype(dtype)


def polyhedron_of(params: dict) -> ConvexPolyhedron:
    """A polyhedron object's physics shape, its hull found once per posed vertex list
    and dtype (the sweeps, the float32 lens, the drawing and the highlight all ask)."""
    vertices = posed_vertices(params)
    return _cached_polyhedron(json.dumps(vertices.tolist()), vertices.dtype.str)


@functools.lru_cache(maxsize=32)
def _cached_polyhedron(vertices_json: str, dtype: str) -> ConvexPolyhedron:
    return ConvexPolyhedron(np.array(json.loads(vertices_json), dtype=dtype))


def _polyhedron_drawing(params: dict) -> tessellate.Mesh:
    polyhedron = polyhedron_of(params)
    corners = polyhedron.vertices
    fans = [corners[[loop[0], loop[k], loop[k + 1]]] for loop in polyhedron.faces[:len(polyhedron.faces)]
            for k in range(1, len(loop) - 1)]
    return tessellate.Mesh(np.array(fans).reshape(-1, 3, 3), corners[polyhedron.edges], corners,
                           convex=polyhedron.dimension == 3)


def _polyhedron_feature(params: dict, kind: str, index: int) -> tuple[np.ndarray, np.ndarray]:
    polyhedron = polyhedron_of(params)
    corners, nothing = polyhedron.vertices, (np.zeros((0, 2, 3)), np.zeros((0, 3)))
    if kind == "vertex":
        return nothing[0], corners[index][None]
    if kind == "edge":
        return corners[polyhedron.edges[index]][None], nothing[1]
    loop = corners[list(polyhedron.faces[index])] if polyhedron.faces else corners
    return np.stack([loop, np.roll(loop, -1, axis=0)], axis=1), nothing[1]


POLYHEDRA = {
    "box": [[x, y, z] for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)],
    "tetrahedron": [[0.0, 0.0, 0.8], [0.8, 0.0, -0.3], [-0.4, 0.7, -0.3], [-0.4, -0.7, -0.3]],
}
"""Vertex lists of the polyhedra the Add menu makes (plus hulls of random points)."""


def random_hull_vertices(count: int = 12, seed: int | None = None) -> list:
    """``count`` random points in the unit ball: the Add menu's random hull."""
    points = np.random.default_rng(seed).normal(size=(count, 3))
    points *= (np.random.default_rng(seed).uniform(0.3, 1.0, count) / np.linalg.norm(points, axis=1))[:, None]
    return points.round(6).tolist()


def posed_mesh(params: dict) -> TriangleMesh:
    """A mesh object's physics mesh: its source's mesh (tree built once) at its pose."""
    return base_mesh(params["source"]).moved(translation=params["origin"], rotation=np.asarray(params["axes"]).T)


def _mesh_drawing(params: dict) -> tessellate.Mesh:
    mesh = posed_mesh(params)
    return tessellate.triangle_mesh(mesh.world_vertices()[mesh.faces])


def _mesh_face(params: dict, face: int) -> np.ndarray:
    mesh = posed_mesh(params)
    return mesh.to_world(mesh.vertices[mesh.faces[face]])


KINDS: dict[str, ShapeKind] = {kind.name: kind for kind in (
    ShapeKind("sphere", (Parameter("center", "point"), Parameter("radius", "radius")),
              {"center": [0.0, 0.0, 0.0], "radius": 1.0},
              lambda p: Sphere(p["center"], p["radius"]),
              lambda p: tessellate.sphere(p["center"], p["radius"])),
    ShapeKind("capsule", (Parameter("a", "point"), Parameter("b", "point"), Parameter("radius", "radius")),
              {"a": [0.0, 0.0, -0.5], "b": [0.0, 0.0, 0.5], "radius": 0.5},
              lambda p: Capsule(p["a"], p["b"], p["radius"]),
              lambda p: tessellate.capsule(p["a"], p["b"], p["radius"]),
              lambda p: np.array([p["a"], p["b"]], float)),
    ShapeKind("point", (Parameter("p", "point"),), {"p": [0.0, 0.0, 0.0]},
              lambda p: Point(p["p"]), lambda p: tessellate.marker(p["p"]), lambda p: np.array([p["p"]], float)),
    ShapeKind("segment", (Parameter("a", "point"), Parameter("b", "point")),
              {"a": [-1.0, 0.0, 0.0], "b": [1.0, 0.0, 0.0]},
              lambda p: Segment(p["a"], p["b"]), lambda p: tessellate.segment(p["a"], p["b"]),
              lambda p: np.array([p["a"], p["b"]], float)),
    ShapeKind("plane", (Parameter("normal", "direction"), Parameter("offset", "offset")),
              {"normal": [0.0, 0.0, 1.0], "offset": 0.0},
              lambda p: Plane(p["normal"], p["offset"]), _plane_mesh, opacity=0.7),
    ShapeKind("triangle", (Parameter("a", "point"), Parameter("b", "point"), Parameter("c", "point")),
              {"a": [0.0, 0.0, 0.0], "b": [2.0, 0.0, 0.0], "c": [0.0, 2.0, 0.0]},
              lambda p: Triangle(p["a"], p["b"], p["c"]),
              lambda p: tessellate.polygon([p["a"], p["b"], p["c"]]),
              lambda p: np.array([p["a"], p["b"], p["c"]], float)),
    ShapeKind("polygon", (Parameter("vertices", "points"),),
              {"vertices": [[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [2.0, 2.0, 0.0], [0.0, 2.0, 0.0]]},
              lambda p: Polygon(p["vertices"]), lambda p: tessellate.polygon(p["vertices"]),
              lambda p: np.array(p["vertices"], float)),
    ShapeKind("mesh", (Parameter("source", "source"), Parameter("origin", "point"), Parameter("axes", "frame")),
              {"source": default_source("icosphere"), "origin": [0.0, 0.0, 0.0], "axes": np.eye(3).tolist()},
              posed_mesh, _mesh_drawing, face_loop=_mesh_face),
    ShapeKind("polyhedron", (Parameter("vertices", "body points"), Parameter("origin", "point"),
                             Parameter("axes", "frame")),
              {"vertices": POLYHEDRA["box"], "origin": [0.0, 0.0, 0.0], "axes": np.eye(3).tolist()},
              polyhedron_of, _polyhedron_drawing, highlight=_polyhedron_feature, optional=("origin", "axes"),
              nudged=("vertices",)),
)}
"""Shape kinds by name; the moving shape may be of any kind the physics can sweep."""


def build_shape(kind: str, params: dict, dtype=np.float64) -> Shape:
    """The physics shape of a scene object, every coordinate in ``dtype`` (float32 for
    the precision lens and float32 fixtures; a mesh keeps its source's float64).
    Built once per distinct parameters (shapes are immutable): a drag rebuilds only
    the shape it moves."""
    return _cached_shape(kind, _key(params), np.dtype(dtype).str)


def mesh_shape(params: dict) -> TriangleMesh:
    """A mesh object's physics mesh (``build_shape``'s, built once per distinct parameters)."""
    mesh = build_shape("mesh", params)
    assert isinstance(mesh, TriangleMesh)  # KINDS["mesh"].build is posed_mesh
    return mesh


def drawn_mesh(kind: str, params: dict) -> tessellate.Mesh:
    """The drawn mesh of a scene object, tessellated once per distinct parameters.
    Callers must not modify it."""
    return _cached_drawing(kind, _key(params))


def _key(params: dict) -> str:
    """Scene parameters as a cache key: JSON, whose floats round-trip exactly (numpy
    values, which an edit may set, as their Python equivalents)."""
    return json.dumps(params, sort_keys=True, default=_plain)


def _plain(value):
    if isinstance(value, (np.ndarray, np.generic)):
        return value.tolist()
    raise TypeError(f"a shape parameter cannot be {type(value).__name__}")


@functools.lru_cache(maxsize=256)
def _cached_shape(kind: str, params_json: str, dtype: str) -> Shape:
    params = json.loads(params_json)
    if kind == "mesh":
        return KINDS[kind].build(params)
    return KINDS[kind].build({name: np.asarray(value, dtype=dtype) for name, value in params.items()})


@functools.lru_cache(maxsize=256)
def _cached_drawing(kind: str, params_json: str) -> tessellate.Mesh:
    return KINDS[kind].mesh(json.loads(params_json))
