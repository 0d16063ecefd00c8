"""A configuration as a test in the user's engine's language: C++ or Rust, in the
engine's precision.

Every float is written exactly: a C++17 hex-float literal (``0x1.4p+2``, in float32
``0x1.99999ap-4f``), or in Rust, which has no hex-float literals, its bit pattern
(``f64::from_bits(0x4014000000000000)``, ``f32::from_bits(0x3dcccccd)``).  One test per
target, calling a function the user names with the moving shape, the target and the
direction (and, where the scene turns, the rotation vector, the pivot and the
interpolation: ``Interpolation::Slerp`` or ``Interpolation::Nlerp``), and checking
``hit``, ``t``, ``point`` and ``normal`` (and ``depth`` where the shapes overlap at
t = 0) against sweeplab's answer.  The shapes are plain
aggregates whose fields are named in the header comment: the user maps them onto the
engine's types (or defines them).

``precision="float32"`` is for float32 engines (Jolt, PhysX, Box3D, rapier): every
input is rounded to the nearest float32 (``numpy.float32``: ties to even), and the
expected values are sweeplab's float64 answers to exactly those rounded inputs, the
exact answer for what the engine is given, rounded to float32 where written.  The
tolerances are float32's (``FLOAT32_LENGTH_RTOL``, ``FLOAT32_NORMAL_ATOL``); float64
tests keep the fixture tolerances (``fixture.DEFAULT_TOLERANCES``).
"""

from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass

import numpy as np

from sweeplab import __version__
from sweeplab.scene.fixture import DEFAULT_TOLERANCES, FixtureError, require_converged
from sweeplab.scene.json_files import brief
from sweeplab.scene.model import Scene, SceneObject
from sweeplab.scene.shape_kinds import posed_mesh, posed_vertices
from sweeplab.physics import (Capsule, ConvexPolyhedron, Plane, Point, Polygon, Segment, Sphere, SweepResult,
                              Triangle, TriangleMesh, sweep)
from sweeplab.physics.sweep.turning import Motion, centroid, speed_bound

PRECISIONS = ("float64", "float32")
SCALARS = {"float64": ("double", "f64"), "float32": ("float", "f32")}
"""The scalar type of every field and answer, in C++ and in Rust, by precision."""
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
corners, whose convex hull it is; a mesh: its world vertices and index triples), in
the order of the physics type's constructor (``PHYSICS_TYPES``)."""
TYPE_NAMES = {"sphere": "Sphere", "capsule": "Capsule", "point": "Point", "segment": "Segment", "plane": "Plane",
              "triangle": "Triangle", "polygon": "Polygon", "polyhedron": "ConvexHull", "mesh": "TriangleMesh"}
PHYSICS_TYPES = {"sphere": Sphere, "capsule": Capsule, "point": Point, "segment": Segment, "plane": Plane,
                 "triangle": Triangle, "polygon": Polygon, "polyhedron": ConvexPolyhedron, "mesh": TriangleMesh}
"""The shape sweeplab answers for, built from the fields exactly as written."""

FLOAT32_LENGTH_ULPS = 128
FLOAT32_LENGTH_RTOL = FLOAT32_LENGTH_ULPS * float(np.finfo(np.float32).eps)
"""Unit: fraction of the test's scale S (its largest written coordinate, radius or
direction component).  1.5e-5: 128 float32 epsilons (eps = 2^-23, the ulp of 1).

The point and the depth are checked within ``FLOAT32_LENGTH_RTOL * S``; t within
``min(1, FLOAT32_LENGTH_RTOL * S / |direction|)``: the same length as a fraction of the
motion (a motion of a few ulps fixes no t: then t is not checked).  Measured
(``bench/float32_error.py``): a textbook float32 sphere sweep over 200,000 random pairs
1 to 1000 units from the origin was off by at most 103 eps S in t |direction| and
27 eps S in the point for the 174,297 hits that are not grazes (medians 0.15 and
0.21); grazes (approach cosine <= 0.1) are ill-conditioned in t, and 1 of 328 went
beyond 128.  sweeplab's own float32 sphere and capsule kernels stayed within 2 eps S
(300 random pairs each).  Smaller fails correct float32 engines; larger hides a wrong
contact feature on small shapes."""
FLOAT32_NORMAL_ATOL = 1e-3
"""Unit: length of the difference of two unit vectors (radians, for small angles),
checked per component.

A normal is a difference of positions over the contact's size: the same textbook
sweep's normals were off by at most 1.6e-4 (all 174,625 hits, grazes included)."""
ROUNDED_SHOWN = 4
"""How many rounded inputs a float32 test names in its comment (then "and N more")."""
INTERPOLATIONS = {"slerp": "Interpolation::Slerp", "nlerp": "Interpolation::Nlerp"}
"""A turning scene's interpolation as the generated tests name it (C++ and Rust alike)."""


@dataclass(frozen=True)
class _Turn:
    """A turning scene's turn as written (rounded to the precision): the rotation
    vector, the pivot (the moving shape's centroid when the scene gives none: the
    user's engine is told it) and the interpolation."""
    rotation: list[float]
    pivot: list[float]
    interpolation: str

    def arguments(self) -> dict:
        """``sweep``'s keyword arguments for this turn (float64)."""
        return {"rotation": np.asarray(self.rotation), "pivot": np.asarray(self.pivot),
                "interpolation": self.interpolation}


@dataclass(frozen=True)
class _Case:
    """One generated test: the fields written (rounded to the precision), the answer
    to them and what the rounding changed."""
    target: SceneObject
    moving_fields: dict
    target_fields: dict
    direction: list[float]
    turn: _Turn | None
    motion: float
    """How far a point of the moving core travels at most (``_motion``)."""
    result: SweepResult
    rounded: list[str]


def _world_fields(scene_object: SceneObject) -> dict:
    """The values of ``SHAPE_FIELDS`` for one object, in world space (float64)."""
    params = scene_object.params
    if scene_object.kind == "polyhedron":
        return {"vertices": posed_vertices(params).tolist()}
    if scene_object.kind == "mesh":
        mesh = posed_mesh(params)
        return {"vertices": mesh.world_vertices().tolist(), "triangles": mesh.faces.tolist()}
    return {name: params[name] for name, _ in SHAPE_FIELDS[scene_object.kind]}


def _in_precision(values, precision: str, name: str, rounded: list[str]):
    """``values`` (a number or nested lists) as Python floats of ``precision``: float32
    rounds to nearest (ties to even); each value the rounding changed is added to
    ``rounded`` as "name[i].x 0.1 -> 0.10000000149011612".  ``FixtureError`` for a value
    beyond float32's range."""
    exact = np.asarray(values, dtype=np.float64)
    if precision == "float64":
        return exact.tolist()
    with np.errstate(over="ignore"):
        single = exact.astype(np.float32).astype(np.float64)
    if not np.all(np.isfinite(single)):
        raise FixtureError(f"{name} = {brief(exact.tolist())} is beyond float32's range "
                           f"(largest {float(np.finfo(np.float32).max):.8g})")
    for index in np.ndindex(exact.shape):
        if single[index] != exact[index]:
            place = "".join(f"[{i}]" for i in index[:-1]) + ("." + "xyz"[index[-1]] if index else "")
            rounded.append(f"{name}{place} {float(exact[index])!r} -> {float(single[index])!r}")
    return single.tolist()


def _written_fields(scene_object: SceneObject, role: str, precision: str, rounded: list[str]) -> dict:
    """The object's fields in ``precision`` (``_in_precision``), named ``role.field``."""
    world = _world_fields(scene_object)
    try:
        return {name: world[name] if kind == "indices" else _in_precision(world[name], precision, f"{role}.{name}",
                                                                           rounded)
                for name, kind in SHAPE_FIELDS[scene_object.kind]}
    except FixtureError as error:
        raise FixtureError(f"object {brief(scene_object.name)}: {error}") from None


def _shape(scene_object: SceneObject, fields: dict, precision: str):
    """The physics shape of the written fields, in float64; ``FixtureError`` naming the
    object when they make none (a polygon no longer planar once rounded)."""
    try:
        return PHYSICS_TYPES[scene_object.kind](*(fields[name] for name, _ in SHAPE_FIELDS[scene_object.kind]))
    except ValueError as error:
        raise FixtureError(f"object {brief(scene_object.name)} in {precision}: {error}") from None


def _cases(scene: Scene, precision: str) -> list[_Case]:
    """A test for each target that has a sweep test against the moving shape, with
    sweeplab's float64 answer to the inputs as written in ``precision``."""
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {PRECISIONS}, got {precision!r}")
    if scene.moving is None:
        raise FixtureError("the scene has no moving shape")
    moving = scene.moving_object()
    shared: list[str] = []
    moving_fields = _written_fields(moving, "moving", precision, shared)
    direction = _in_precision(scene.direction, precision, "direction", shared)
    moving_shape = _shape(moving, moving_fields, precision)
    turn = _written_turn(scene, moving_shape, precision, shared)
    motion = _motion(direction, turn, moving_shape)
    cases = []
    for target in scene.targets():
        rounded = list(shared)
        target_fields = _written_fields(target, "target", precision, rounded)
        try:
            result = sweep(moving_shape, _shape(target, target_fields, precision), np.asarray(direction),
                           ignore_separating=scene.options["ignore_separating"],
                           **({} if turn is None else turn.arguments()))
        except TypeError:  # no sweep test for the pair
            continue
        except ValueError as error:  # e.g. an nlerp turn of pi or more
            raise FixtureError(f"target {brief(target.name)}: {error}") from None
        require_converged(target.name, result)
        cases.append(_Case(target, moving_fields, target_fields, direction, turn, motion, result, rounded))
    return cases


def _written_turn(scene: Scene, moving_shape, precision: str, rounded: list[str]) -> _Turn | None:
    """The scene's turn in ``precision`` (``_in_precision``; the pivot, when the scene
    gives none, is the centroid of the moving shape as written); None when it does
    not turn."""
    if not scene.turns:
        return None
    pivot = centroid(moving_shape) if scene.pivot is None else scene.pivot
    return _Turn(_in_precision(scene.rotation, precision, "rotation", rounded),
                 _in_precision(pivot, precision, "pivot", rounded), scene.interpolation)


def _tolerances(case_values: list, motion: float, precision: str) -> dict[str, float]:
    """The bound on each checked field: float64's fixture tolerances, or float32's
    scaled by the largest of ``case_values`` (every coordinate written) and by
    ``motion``, how far the moving shape's fastest point travels (``_motion``;
    ``FLOAT32_LENGTH_RTOL``)."""
    if precision == "float64":
        return {"t": DEFAULT_TOLERANCES["t"], "point": DEFAULT_TOLERANCES["point"],
                "normal": DEFAULT_TOLERANCES["normal"], "depth": DEFAULT_TOLERANCES["penetration_depth"]}
    scale = max((abs(value) for value in case_values), default=0.0)
    length = FLOAT32_LENGTH_RTOL * scale
    return {"t": min(1.0, length / motion) if motion > 0 else 1.0, "point": length,
            "normal": FLOAT32_NORMAL_ATOL, "depth": length}


def _motion(direction: list[float], turn: _Turn | None, moving_shape) -> float:
    """How far a point of the moving shape's core travels at most over the sweep:
    |direction|, or for a turn the physics' bound on the speed
    (``turning.speed_bound``: |direction| + the largest angular speed times the
    farthest core point from the pivot)."""
    if turn is None:
        return math.hypot(*direction)
    return speed_bound(moving_shape, Motion(direction, turn.rotation, turn.pivot, turn.interpolation))


def _coordinates(fields: dict) -> list[float]:
    """Every float of a shape's written fields (not a mesh's indices)."""
    return [float(value) for name, values in fields.items() if name != "triangles"
            for value in np.ravel(values)]


def _expectations(case: _Case, precision: str) -> list[tuple[str, float, float]]:
    """(field, expected value, tolerance) of a hit: t, the point's and the normal's
    coordinates, and where the shapes overlap at t = 0 the depth; none for a miss."""
    result = case.result
    if not result.hit:
        return []
    pivot = [] if case.turn is None else case.turn.pivot
    bound = _tolerances(_coordinates(case.moving_fields) + _coordinates(case.target_fields) + case.direction + pivot,
                        case.motion, precision)
    found = [("t", float(result.t), bound["t"])]
    for name in ("point", "normal"):
        found += [(f"{name}.{axis}", float(value), bound[name])
                  for axis, value in zip("xyz", getattr(result, name), strict=True)]
    if result.initially_overlapping:
        found.append(("depth", float(result.penetration_depth), bound["depth"]))
    return found


def _comments(case: _Case) -> list[str]:
    """What a reader needs beside the checks: an overlap at t = 0, the inputs rounded."""
    lines = []
    if case.result.initially_overlapping:
        lines.append("    // The shapes overlap at t = 0: t is 0, `depth` how far the moving shape must travel to "
                     "separate, along `normal`.")
    if case.rounded:
        more = len(case.rounded) - ROUNDED_SHOWN
        lines.append("    // Rounded to the nearest float32: " + "; ".join(case.rounded[:ROUNDED_SHOWN])
                     + (f"; and {more} more." if more > 0 else "."))
    return lines


def _turn_arguments(case: _Case) -> str:
    """The call's arguments after the direction: the turn's (both languages), or none."""
    return "" if case.turn is None else f", rotation, pivot, {INTERPOLATIONS[case.turn.interpolation]}"


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


def _decimal(bound: float, precision: str) -> str:
    """A tolerance for a reader: the shortest decimal that reads back as the float64,
    or as the nearest float32 (``7.6293945e-06``)."""
    return repr(float(bound)) if precision == "float64" else str(np.float32(bound))


def _header(function: str, precision: str, turns: bool) -> str:
    """The comment above the tests: types, conventions, tolerances, and what to provide
    (a turning scene's function also takes the turn: ``_TURNING``)."""
    shapes = "; ".join(f"{TYPE_NAMES[kind]} {{{', '.join(name for name, _ in fields)}}}"
                       for kind, fields in SHAPE_FIELDS.items())
    cpp, rust = SCALARS[precision]
    if precision == "float64":
        answers = "// Expected values are sweeplab's answers (float64), within the fixture tolerances.\n"
    else:
        answers = (
            "// float32: every input is the float32 nearest the scene's value (round to nearest, ties to even),\n"
            "// e.g. 0.1 is 0x1.99999ap-4 = 0.100000001490116; each test says which inputs rounding changed.\n"
            "// Expected values are sweeplab's float64 answers to exactly those float32 inputs (the exact answer\n"
            "// for what your engine is given), rounded to float32.  Tolerances, S the test's largest coordinate,\n"
            f"// radius or direction component: point and depth within {FLOAT32_LENGTH_RTOL:.3g} S "
            f"({FLOAT32_LENGTH_ULPS} float32 epsilons), t within\n"
            f"// {FLOAT32_LENGTH_RTOL:.3g} S / {'v' if turns else '|direction|'} (at most 1), each normal "
            f"component within {FLOAT32_NORMAL_ATOL:g}.\n"
            + ("// A turning test's S also takes the pivot's coordinates, and v is the fastest a point of the moving\n"
               "// shape's core travels: |direction| + the largest angular speed times its farthest core point from\n"
               "// the pivot (nlerp's largest angular speed is 4 tan(angle / 4)).\n" if turns else ""))
    return (f"// Written by sweeplab {__version__}, {precision}: every field and answer is {cpp} ({rust}).\n"
            + answers +
            f"// Shapes (world space; map them onto your engine's types): {shapes}.\n"
            f"// A polyhedron is the convex hull of its vertices; a mesh is two-sided.  t is the fraction of\n"
            f"// `direction` travelled at first contact; `normal` points from the target to the moving shape;\n"
            f"// `depth` (read only where the shapes overlap at t = 0) is the penetration depth.\n"
            + (_TURNING.format(function=function) if turns else
               f"// Provide: {function}(moving, target, direction) -> {{hit, t, point, normal, depth}}.\n"))


_TURNING = (
    "// The moving shape turns while it travels: by the rotation vector `rotation` (axis times angle in radians,\n"
    "// the whole turn over t in [0, 1]) about `pivot` (a world point at t = 0 that travels with the\n"
    "// translation), so a point x of it is at pivot + t direction + R(t) (x - pivot) at time t.\n"
    "// Interpolation::Slerp: R(t) = exp(t [rotation]x), constant angular velocity (parry, Bullet, FCL);\n"
    "// Interpolation::Nlerp: the quaternion lerped from identity to the end rotation and normalized\n"
    "// (Box2D / Box3D's sweep).  `point` is on the target at time t.\n"
    "// Provide: enum Interpolation {{ Slerp, Nlerp }} and\n"
    "// {function}(moving, target, direction, rotation, pivot, interpolation) -> {{hit, t, point, normal, depth}}.\n")
"""What a turning scene's header adds: the motion, and the function's turn arguments."""


# --- C++ ---------------------------------------------------------------------------

def _cpp_number(value: float, precision: str) -> str:
    """A hex-float literal of ``value`` in ``precision``: ``0x1.4000000000001p+2``, or
    the nearest float32 with the ``f`` suffix and no trailing zero digits,
    ``0x1.99999ap-4f``."""
    if precision == "float64":
        return float(value).hex()
    return re.sub(r"\.?0*p", "p", float(np.float32(value)).hex()) + "f"


def _cpp_bound(bound: float, precision: str) -> str:
    """A tolerance as a decimal literal (``_decimal``), ``f`` after a float32: ``1e-09``, ``0.001f``."""
    return _decimal(bound, precision) + ("f" if precision == "float32" else "")


def _cpp_value(value, kind: str, precision: str) -> str:
    if kind == "number":
        return _cpp_number(value, precision)
    if kind == "vector":
        return "{" + ", ".join(_cpp_number(v, precision) for v in value) + "}"
    if kind == "vectors":
        return "{" + ", ".join(_cpp_value(v, "vector", precision) for v in value) + "}"
    return "{" + ", ".join("{" + ", ".join(str(int(i)) for i in triple) + "}" for triple in value) + "}"


def _cpp_shape(scene_object: SceneObject, fields: dict, precision: str) -> str:
    return f"{TYPE_NAMES[scene_object.kind]}{{" + ", ".join(
        _cpp_value(fields[name], kind, precision) for name, kind in SHAPE_FIELDS[scene_object.kind]) + "}"


def cpp_source(scene: Scene, function: str = "sweep_test", precision: str = "float64") -> str:
    """doctest / Catch2 test cases (``TEST_CASE`` and ``CHECK``) of the scene, every
    field ``double`` (``precision="float64"``) or ``float`` (``"float32"``)."""
    cases = _cases(scene, precision)
    moving = scene.moving_object()
    lines = [_header(function, precision, scene.turns)]
    for case in cases:
        lines += [f'TEST_CASE("sweeplab: {_cpp_string(moving.name)} against {_cpp_string(case.target.name)}") {{',
                  *_comments(case),
                  f"    const auto moving = {_cpp_shape(moving, case.moving_fields, precision)};",
                  f"    const auto target = {_cpp_shape(case.target, case.target_fields, precision)};",
                  f"    const Vec3 direction{_cpp_value(case.direction, 'vector', precision)};",
                  *([] if case.turn is None else
                    [f"    const Vec3 rotation{_cpp_value(case.turn.rotation, 'vector', precision)};",
                     f"    const Vec3 pivot{_cpp_value(case.turn.pivot, 'vector', precision)};"]),
                  f"    const auto answer = {function}(moving, target, direction{_turn_arguments(case)});",
                  f"    CHECK(answer.hit == {'true' if case.result.hit else 'false'});"]
        lines += [f"    CHECK(std::abs(answer.{field} - {_cpp_number(value, precision)}) <= "
                  f"{_cpp_bound(bound, precision)});"
                  for field, value, bound in _expectations(case, precision)]
        lines += ["}", ""]
    return "\n".join(lines)


# --- Rust --------------------------------------------------------------------------

def _rust_number(value: float, precision: str) -> str:
    """``f64::from_bits(0x...)`` or ``f32::from_bits(0x...)``: the bit pattern of the
    float64, or of the nearest float32, exactly (no alias that a function the user
    names could hide)."""
    if precision == "float64":
        return f"f64::from_bits(0x{struct.unpack('<Q', struct.pack('<d', float(value)))[0]:016x})"
    return f"f32::from_bits(0x{int(np.float32(value).view(np.uint32)):08x})"


def _rust_bound(bound: float, precision: str) -> str:
    """A tolerance as a decimal literal (``_decimal``), ``_f32`` after a float32: ``1e-09``, ``0.001_f32``."""
    return _decimal(bound, precision) + ("_f32" if precision == "float32" else "")


def _rust_vector(value, precision: str) -> str:
    x, y, z = (_rust_number(v, precision) for v in value)
    return f"Vec3 {{ x: {x}, y: {y}, z: {z} }}"


def _rust_value(value, kind: str, precision: str) -> str:
    if kind == "number":
        return _rust_number(value, precision)
    if kind == "vector":
        return _rust_vector(value, precision)
    if kind == "vectors":
        return "vec![" + ", ".join(_rust_vector(v, precision) for v in value) + "]"
    return "vec![" + ", ".join("[" + ", ".join(str(int(i)) for i in triple) + "]" for triple in value) + "]"


def _rust_shape(scene_object: SceneObject, fields: dict, precision: str) -> str:
    return f"{TYPE_NAMES[scene_object.kind]} {{ " + ", ".join(
        f"{name}: {_rust_value(fields[name], kind, precision)}"
        for name, kind in SHAPE_FIELDS[scene_object.kind]) + " }"


def rust_source(scene: Scene, function: str = "sweep_test", precision: str = "float64") -> str:
    """``#[test]`` functions of the scene, every field ``f64`` (``precision="float64"``)
    or ``f32`` (``"float32"``)."""
    cases = _cases(scene, precision)
    moving = scene.moving_object()
    lines = [_header(function, precision, scene.turns)]
    names = _unique_identifiers([f"sweeplab_{moving.name}_against_{case.target.name}" for case in cases])
    for case, name in zip(cases, names, strict=True):
        lines += ["#[test]", f"fn {name}() {{",
                  *_comments(case),
                  f"    let moving = {_rust_shape(moving, case.moving_fields, precision)};",
                  f"    let target = {_rust_shape(case.target, case.target_fields, precision)};",
                  f"    let direction = {_rust_vector(case.direction, precision)};",
                  *([] if case.turn is None else
                    [f"    let rotation = {_rust_vector(case.turn.rotation, precision)};",
                     f"    let pivot = {_rust_vector(case.turn.pivot, precision)};"]),
                  f"    let answer = {function}(&moving, &target, direction{_turn_arguments(case)});",
                  f"    assert_eq!(answer.hit, {'true' if case.result.hit else 'false'});"]
        lines += [f"    assert!((answer.{field} - {_rust_number(value, precision)}).abs() <= "
                  f"{_rust_bound(bound, precision)});"
                  for field, value, bound in _expectations(case, precision)]
        lines += ["}", ""]
    return "\n".join(lines)
