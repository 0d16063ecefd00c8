"""A configuration as a test in the user's engine's language: C++ or Rust.

Every float is written exactly: a C++17 hex-float literal (``0x1.4p+2``), or in
Rust, which has no hex-float literals, its bit pattern
(``f64::from_bits(0x4014000000000000)``).  One test per target, calling a function the
user names with the moving shape, the target and the direction, and checking
``hit``, ``t``, ``point`` and ``normal`` against sweeplab's answer within the
fixture tolerances.  The shapes are plain aggregates whose fields are named in
the header comment: the user maps them onto the engine's types (or defines them).
"""

from __future__ import annotations

import re
import struct

from sweeplab import __version__
from sweeplab.scene.fixture import DEFAULT_TOLERANCES, answers
from sweeplab.scene.model import Scene, SceneObject
from sweeplab.scene.shape_kinds import posed_mesh, posed_vertices
from sweeplab.physics import SweepResult

SHAPE_FIELDS = {
    "sphere": (("center", "vector"), ("radius", "number")),
    "capsule": (("a", "vector"), ("b", "vector"), ("radius", "number")),
    "point": (("p", "vector"),),
    "segment": (("a", "vector"), ("b", "vector")),
    "plane": (("normal", "vector"), ("offset", "number")),
    "triangle": (("a", "vector"), ("b", "vector"), ("c", "vector")),
    "polygon": (("vertices", "vectors"),),
    "polyhedron": (("vertices", "vectors"),),
    "mesh": (("vertices", "vectors"), ("triangles", "indices")),
}
"""Each kind's fields as the generated tests write them (a polyhedron: its world
corners, whose convex hull it is; a mesh: its world vertices and index triples)."""
TYPE_NAMES = {"sphere": "Sphere", "capsule": "Capsule", "point": "Point", "segment": "Segment", "plane": "Plane",
              "triangle": "Triangle", "polygon": "Polygon", "polyhedron": "ConvexHull", "mesh": "TriangleMesh"}


def _fields(scene_object: SceneObject) -> dict:
    """The values of ``SHAPE_FIELDS`` for one object, in world space."""
    params = scene_object.params
    if scene_object.kind == "polyhedron":
        return {"vertices": posed_vertices(params).tolist()}
    if scene_object.kind == "mesh":
        mesh = posed_mesh(params)
        return {"vertices": mesh.world_vertices().tolist(), "triangles": mesh.faces.tolist()}
    return {name: params[name] for name, _ in SHAPE_FIELDS[scene_object.kind]}


def _identifier(text: str) -> str:
    return re.sub(r"\W+", "_", text, flags=re.ASCII).strip("_").lower() or "target"  # Rust: ASCII only


def _unique_identifiers(names: list[str]) -> list[str]:
    """Each name as an identifier, ``_2``, ``_3``... after one already taken ("Box-1" and
    "box 1" are both ``box_1``)."""
    taken: set[str] = set()
    found = []
    for name in names:
        identifier, number = _identifier(name), 1
        while (candidate := identifier if number == 1 else f"{identifier}_{number}") in taken:
            number += 1
        taken.add(candidate)
        found.append(candidate)
    return found


def _cpp_string(text: str) -> str:
    """``text`` as the inside of a C++ string literal: backslash and quote escaped,
    control characters as octal escapes."""
    return "".join("\\" + char if char in '"\\' else f"\\{ord(char):03o}" if ord(char) < 32 else char
                   for char in text)


def _checks(scene: Scene) -> list[tuple[SceneObject, SweepResult]]:
    """Each target with sweeplab's answer to it (pairs without a sweep test left out)."""
    found = answers(scene)
    return [(target, found[target.name]) for target in scene.targets() if target.name in found]


def _expectations(result) -> list[tuple[str, float, float]]:
    """(field, expected value, tolerance) of a hit: t, then the point's and the
    normal's coordinates; none for a miss."""
    if not result.hit:
        return []
    found = [("t", float(result.t), DEFAULT_TOLERANCES["t"])]
    for name in ("point", "normal"):
        found += [(f"{name}.{axis}", float(value), DEFAULT_TOLERANCES[name])
                  for axis, value in zip("xyz", getattr(result, name), strict=True)]
    return found


def _header(function: str) -> str:
    shapes = "; ".join(f"{TYPE_NAMES[kind]} {{{', '.join(name for name, _ in fields)}}}"
                       for kind, fields in SHAPE_FIELDS.items())
    return (f"// Written by sweeplab {__version__}: expected values are sweeplab's answers (float64).\n"
            f"// Shapes (world space; map them onto your engine's types): {shapes}.\n"
            f"// A polyhedron is the convex hull of its vertices; a mesh is two-sided.  t is the fraction of\n"
            f"// `direction` travelled at first contact; `normal` points from the target to the moving shape.\n"
            f"// Provide: {function}(moving, target, direction) -> {{hit, t, point, normal}}.\n")


# --- C++ ---------------------------------------------------------------------------

def _cpp_number(value: float) -> str:
    return float(value).hex()


def _cpp_value(value, kind: str) -> str:
    if kind == "number":
        return _cpp_number(value)
    if kind == "vector":
        return "{" + ", ".join(_cpp_number(v) for v in value) + "}"
    if kind == "vectors":
        return "{" + ", ".join(_cpp_value(v, "vector") for v in value) + "}"
    return "{" + ", ".join("{" + ", ".join(str(int(i)) for i in triple) + "}" for triple in value) + "}"


def _cpp_shape(scene_object: SceneObject) -> str:
    values = _fields(scene_object)
    return f"{TYPE_NAMES[scene_object.kind]}{{" + ", ".join(
        _cpp_value(values[name], kind) for name, kind in SHAPE_FIELDS[scene_object.kind]) + "}"


def cpp_source(scene: Scene, function: str = "sweep_test") -> str:
    """doctest / Catch2 test cases (``TEST_CASE`` and ``CHECK``) of the scene."""
    moving = scene.moving_object()
    lines = [_header(function)]
    for target, result in _checks(scene):
        lines += [f'TEST_CASE("sweeplab: {_cpp_string(moving.name)} against {_cpp_string(target.name)}") {{',
                  f"    const auto moving = {_cpp_shape(moving)};",
                  f"    const auto target = {_cpp_shape(target)};",
                  f"    const Vec3 direction{_cpp_value(scene.direction, 'vector')};",
                  f"    const auto answer = {function}(moving, target, direction);",
                  f"    CHECK(answer.hit == {'true' if result.hit else 'false'});"]
        lines += [f"    CHECK(std::abs(answer.{field} - {_cpp_number(value)}) <= {bound!r});"
                  for field, value, bound in _expectations(result)]
        lines += ["}", ""]
    return "\n".join(lines)


# --- Rust --------------------------------------------------------------------------

def _rust_number(value: float) -> str:
    """``f64::from_bits(0x...)``: the float64's bit pattern, exactly (no alias that a
    function the user names could hide)."""
    return f"f64::from_bits(0x{struct.unpack('<Q', struct.pack('<d', float(value)))[0]:016x})"


def _rust_vector(value) -> str:
    x, y, z = (_rust_number(v) for v in value)
    return f"Vec3 {{ x: {x}, y: {y}, z: {z} }}"


def _rust_value(value, kind: str) -> str:
    if kind == "number":
        return _rust_number(value)
    if kind == "vector":
        return _rust_vector(value)
    if kind == "vectors":
        return "vec![" + ", ".join(_rust_vector(v) for v in value) + "]"
    return "vec![" + ", ".join("[" + ", ".join(str(int(i)) for i in triple) + "]" for triple in value) + "]"


def _rust_shape(scene_object: SceneObject) -> str:
    values = _fields(scene_object)
    return f"{TYPE_NAMES[scene_object.kind]} {{ " + ", ".join(
        f"{name}: {_rust_value(values[name], kind)}" for name, kind in SHAPE_FIELDS[scene_object.kind]) + " }"


def rust_source(scene: Scene, function: str = "sweep_test") -> str:
    """``#[test]`` functions of the scene."""
    moving = scene.moving_object()
    lines = [_header(function)]
    checks = _checks(scene)
    names = _unique_identifiers([f"sweeplab_{moving.name}_against_{target.name}" for target, _ in checks])
    for (target, result), name in zip(checks, names, strict=True):
        lines += ["#[test]", f"fn {name}() {{",
                  f"    let moving = {_rust_shape(moving)};",
                  f"    let target = {_rust_shape(target)};",
                  f"    let direction = {_rust_vector(scene.direction)};",
                  f"    let answer = {function}(&moving, &target, direction);",
                  f"    assert_eq!(answer.hit, {'true' if result.hit else 'false'});"]
        lines += [f"    assert!((answer.{field} - {_rust_number(value)}).abs() <= {bound!r});"
                  for field, value, bound in _expectations(result)]
        lines += ["}", ""]
    return "\n".join(lines)
