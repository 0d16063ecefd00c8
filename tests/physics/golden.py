"""The golden corpus: the full answers of a fixed set of sweeps, recorded from the
kernels at a known-good state, replayed by ``test_golden.py`` field by field, bit for
bit — the net under a rewrite of the kernels (issue #18), which must answer as they
did or explain each difference.

Every supported (moving, target) pair of kinds, both ways round, in families:

* ``random`` — shapes a few units apart, the motion towards the target;
* ``lattice`` — coordinates on a half-unit lattice, axis-aligned motions, radii 0,
  0.5, 1: exact tangents, faces landing flat, symmetric ties;
* ``graze`` — a random configuration moved across the motion to the boundary
  between hit and miss (bisection on the float64 answer), and one float either side;
* ``parallel`` — a moving segment or capsule along a target's edge (exactly, or
  turned by rounding-sized amounts), at right angles otherwise;
* ``degenerate`` — zero radii, zero-length segments, zero-area triangles, point,
  straight and flat hulls, zero motions;
* ``far`` — random ones moved 1e6 from the origin, and scaled by 1e-3;
* ``float32`` — random and lattice ones in float32;

and meshes (a bumpy 800-triangle grid, a 512-triangle sphere, a soup) large enough
for several rounds of leaf tests.  Inputs are stored with the answers (floats as
hex, exact), so replaying needs no random generator.

``python -m tests.physics.golden --write`` records the corpus anew (only when an
answer is meant to change: say which and why in the commit); ``--update`` keeps
every record's inputs and records its answer anew (the graze family's inputs sit at
the old boundary, so a rewrite would move them; this keeps the net where it was);
``python -m tests.physics.golden --diff`` lists every record whose answer differs.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
from collections import Counter
from pathlib import Path

import numpy as np

from sweeplab.physics import (Capsule, ConvexPolyhedron, Plane, Point, Polygon, Segment, Sphere, Triangle, TriangleMesh,
                              sweep)

CORPUS = Path(__file__).with_name("golden_corpus.jsonl.gz")
KINDS = ("point", "sphere", "segment", "capsule", "plane", "triangle", "polygon", "polyhedron", "mesh")
FAMILIES = ("random", "lattice", "graze", "parallel", "degenerate", "far", "float32")
PER_FAMILY = 12
"""Configurations per (ordered pair, family); meshes take fewer (their queries cost more)."""
PER_MESH_FAMILY = 6
SEED = 20261125


# --- (de)serialisation: floats as hex, exact ----------------------------------------------

def _hex(value) -> object:
    array = np.asarray(value, dtype=np.float64)
    return float(array).hex() if array.ndim == 0 else [_hex(v) for v in array]


def _unhex(value, dtype) -> np.ndarray:
    if isinstance(value, list):
        return np.array([_unhex(v, dtype) for v in value], dtype=dtype)
    return np.asarray(float.fromhex(value), dtype=dtype)


SHAPE_TYPES = {"point": Point, "sphere": Sphere, "segment": Segment, "capsule": Capsule, "plane": Plane,
               "triangle": Triangle, "polygon": Polygon, "polyhedron": ConvexPolyhedron}


def shape_json(shape, meshes: dict) -> dict:
    """A shape as JSON; a mesh by the name of its vertex and face arrays in ``meshes``
    (added there) plus its pose."""
    if isinstance(shape, TriangleMesh):
        name = f"mesh{len(meshes)}"
        for known, (vertices, _) in meshes.items():
            if vertices is shape.vertices:
                name = known
        meshes.setdefault(name, (shape.vertices, shape.faces))
        return {"kind": "mesh", "mesh": name, "translation": _hex(shape.translation), "rotation": _hex(shape.rotation)}
    kind = next(kind for kind, type_ in SHAPE_TYPES.items() if type(shape) is type_)
    fields = ("vertices",) if kind == "polyhedron" else shape._fields
    return {"kind": kind, **{name: _hex(getattr(shape, name)) for name in fields}}


def shape_from_json(data: dict, dtype, meshes: dict):
    if data["kind"] == "mesh":
        vertices, faces = meshes[data["mesh"]]
        return TriangleMesh(vertices, faces).moved(translation=_unhex(data["translation"], np.float64),
                                                   rotation=_unhex(data["rotation"], np.float64))
    type_ = SHAPE_TYPES[data["kind"]]
    fields = ("vertices",) if data["kind"] == "polyhedron" else type_._fields
    return type_(*[_unhex(data[name], dtype) for name in fields])


def answer_json(result) -> dict:
    """Every field of a scalar ``SweepResult``, floats as hex."""
    def optional(value):
        return None if value is None else _hex(value)

    return {"hit": bool(result.hit), "t": optional(result.t), "point": optional(result.point),
            "normal": optional(result.normal), "depth": optional(result.penetration_depth),
            "overlapping": bool(result.initially_overlapping), "feature": [result.feature.kind, result.feature.index],
            "face_index": result.face_index, "dtype": None if result.normal is None else str(result.normal.dtype)}


def query(record: dict, meshes: dict):
    """Run one record's sweep; returns the ``SweepResult``."""
    dtype = np.dtype(record["dtype"])
    moving = shape_from_json(record["moving"], dtype, meshes)
    target = shape_from_json(record["target"], dtype, meshes)
    return sweep(moving, target, _unhex(record["direction"], dtype), **record["options"])


def read_corpus(path: Path = CORPUS) -> tuple[dict, list[dict]]:
    """(meshes by name, records) of a corpus file."""
    with gzip.open(path, "rt") as lines:
        header = json.loads(next(lines))
        meshes = {name: (_unhex(mesh["vertices"], np.float64), np.array(mesh["faces"], np.int64))
                  for name, mesh in header["meshes"].items()}
        return meshes, [json.loads(line) for line in lines]


def write_corpus(meshes: dict, records: list[dict], path: Path = CORPUS) -> None:
    header = {"format": "sweeplab-golden", "version": 1,
              "meshes": {name: {"vertices": _hex(vertices), "faces": faces.tolist()}
                         for name, (vertices, faces) in meshes.items()}}
    with gzip.GzipFile(path, "wb", mtime=0) as raw:  # mtime 0: the same corpus gives the same bytes
        raw.write((json.dumps(header) + "\n").encode())
        for record in records:
            raw.write((json.dumps(record, separators=(",", ":")) + "\n").encode())


def differences(record: dict, answer: dict) -> list[str]:
    """The fields in which ``answer`` differs from the record's (empty: identical)."""
    expected = record["answer"]
    return [name for name in expected if expected[name] != answer[name]]


# --- the configurations ------------------------------------------------------------------

def supported(moving_kind: str, target_kind: str, examples: dict) -> bool:
    try:
        sweep(examples[moving_kind], examples[target_kind], [0.0, 0, 1])
    except TypeError:
        return False
    return True


def _unit(rng) -> np.ndarray:
    vector = rng.normal(size=3)
    return vector / np.linalg.norm(vector)


def _rotation(rng) -> np.ndarray:
    q = rng.normal(size=4)
    w, x, y, z = q / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def _subdivided(vertices: list, faces: list) -> list:
    """Each triangle split in four at its edges' midpoints, pushed out to the unit
    sphere (appended to ``vertices``, one per edge)."""
    middles: dict[tuple[int, int], int] = {}

    def middle(i, j):
        key = (min(i, j), max(i, j))
        if key not in middles:
            point = vertices[i] + vertices[j]
            vertices.append(point / np.linalg.norm(point))
            middles[key] = len(vertices) - 1
        return middles[key]

    refined = []
    for i, j, k in faces:
        ij, jk, ki = middle(i, j), middle(j, k), middle(k, i)
        refined += [(i, ij, ki), (ij, j, jk), (ki, jk, k), (ij, jk, ki)]
    return refined


def make_meshes(rng) -> dict[str, TriangleMesh]:
    """A bumpy 20 x 20 grid (800 triangles), a 512-triangle sphere (a subdivided
    octahedron) and a 60-triangle soup."""
    cells = 20
    xs = np.linspace(-3.0, 3.0, cells + 1)
    x, y = np.meshgrid(xs, xs, indexing="ij")
    z = 0.3 * np.sin(1.3 * x) * np.cos(0.9 * y)
    index = np.arange((cells + 1) ** 2).reshape(cells + 1, cells + 1)
    a, b, c, d = index[:-1, :-1].ravel(), index[1:, :-1].ravel(), index[1:, 1:].ravel(), index[:-1, 1:].ravel()
    grid = TriangleMesh(np.stack([x.ravel(), y.ravel(), z.ravel()], axis=1),
                        np.concatenate([np.stack([a, b, c], 1), np.stack([a, c, d], 1)]))
    vertices = [np.array(v, float) for v in ([1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1])]
    faces = [(0, 2, 4), (2, 1, 4), (1, 3, 4), (3, 0, 4), (2, 0, 5), (1, 2, 5), (3, 1, 5), (0, 3, 5)]
    for _ in range(3):
        faces = _subdivided(vertices, faces)
    ball = TriangleMesh(1.5 * np.array(vertices), np.array(faces))
    soup = TriangleMesh(rng.uniform(-2, 2, (40, 3)), rng.integers(0, 40, (60, 3)))
    return {"grid": grid, "ball": ball, "soup": soup}


def make_shape(kind: str, family: str, rng, meshes: dict, along=None):
    """One shape of ``kind`` in ``family``'s style; ``along``: a direction a moving
    segment or capsule should share (the ``parallel`` family)."""
    lattice = family == "lattice"

    def point():
        return rng.integers(-4, 5, 3) * 0.5 if lattice else rng.uniform(-2, 2, 3)

    def radius():
        if family == "degenerate":
            return 0.0
        return float(rng.choice([0.0, 0.5, 1.0])) if lattice else float(rng.choice([0.0, rng.uniform(0.05, 1.2)]))

    if kind == "point":
        return Point(point())
    if kind == "sphere":
        return Sphere(point(), radius())
    if kind in ("segment", "capsule"):
        start = point()
        if along is not None:
            end = start + along * float(rng.choice([1.0, -1.0, 0.5, 2.0]))
        elif family == "degenerate" and rng.random() < 0.5:
            end = start.copy()
        else:
            end = point()
        return Segment(start, end) if kind == "segment" else Capsule(start, end, radius())
    if kind == "plane":
        normal = np.eye(3)[rng.integers(3)] * rng.choice([-1, 1]) if lattice else _unit(rng)
        return Plane(normal, float(rng.integers(-2, 3) * 0.5 if lattice else rng.uniform(-1, 1)))
    if kind == "triangle":
        a, b = point(), point()
        if family == "degenerate":
            return Triangle(a, b, a + float(rng.choice([0.0, 0.5, 2.0])) * (b - a))
        return Triangle(a, b, point())
    if kind == "polygon":
        count = int(rng.integers(3, 7))
        if lattice:
            square = np.array([[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]], float) * 0.5 * rng.integers(1, 3)
            return Polygon(np.roll(square, rng.integers(3), axis=1) + point())
        angles = np.sort(rng.uniform(0, 2 * np.pi, count))
        flat = np.stack([np.cos(angles), np.sin(angles), np.zeros(count)], axis=1) * rng.uniform(0.3, 1.5)
        return Polygon(flat @ _rotation(rng).T + point())
    if kind == "polyhedron":
        if family == "degenerate":
            count = int(rng.integers(1, 4))
            corners = [point() for _ in range(count)]
            if count == 3 and rng.random() < 0.5:
                corners[2] = corners[0] + 0.5 * (corners[1] - corners[0])  # straight
            return ConvexPolyhedron(np.array(corners))
        if lattice:
            return ConvexPolyhedron.box(rng.integers(1, 3, 3) * 0.5, point())
        if rng.random() < 0.5:
            return ConvexPolyhedron.box(rng.uniform(0.2, 1.0, 3), point(), _rotation(rng))
        return ConvexPolyhedron(rng.uniform(-1, 1, (int(rng.integers(4, 9)), 3)) + point())
    mesh = meshes[str(rng.choice(list(meshes)))]
    if family == "random" and rng.random() < 0.5:
        return mesh.moved(translation=rng.uniform(-1, 1, 3), rotation=_rotation(rng))
    return mesh


def _an_edge(shape, rng):
    """A direction of one of the shape's edges (None for a shape without edges)."""
    if isinstance(shape, (Segment, Capsule)):
        return shape.b - shape.a
    if isinstance(shape, Polygon):
        i = int(rng.integers(len(shape.vertices)))
        return shape.vertices[(i + 1) % len(shape.vertices)] - shape.vertices[i]
    if isinstance(shape, ConvexPolyhedron) and len(shape.edges):
        i, j = shape.edges[int(rng.integers(len(shape.edges)))]
        return shape.vertices[j] - shape.vertices[i]
    if isinstance(shape, TriangleMesh):
        face = shape.to_world(shape.vertices[shape.faces[int(rng.integers(len(shape.faces)))]])
        return face[1] - face[0]
    return None


def _centre(shape) -> np.ndarray:
    if isinstance(shape, Plane):
        return shape.normal * shape.offset
    if isinstance(shape, TriangleMesh):
        return shape.to_world(shape.vertices).mean(axis=0)
    values = [np.asarray(getattr(shape, name)) for name in shape._fields if name != "radius"]
    return np.mean(np.concatenate([v.reshape(-1, 3) for v in values]), axis=0)


def translated(shape, offset):
    """``shape`` moved by ``offset``."""
    if isinstance(shape, Plane):
        return Plane(shape.normal, shape.offset + float(shape.normal @ offset))
    if isinstance(shape, TriangleMesh):
        return shape.moved(translation=shape.translation + offset)
    if isinstance(shape, ConvexPolyhedron):
        return ConvexPolyhedron(shape.vertices + offset)
    return type(shape)(*[getattr(shape, name) + (0.0 if name == "radius" else offset) for name in shape._fields])


def scaled(shape, factor: float):
    if isinstance(shape, Plane):
        return Plane(shape.normal, shape.offset * factor)
    if isinstance(shape, TriangleMesh):
        return TriangleMesh(shape.vertices * factor, shape.faces).moved(translation=shape.translation * factor,
                                                                        rotation=shape.rotation)
    if isinstance(shape, ConvexPolyhedron):
        return ConvexPolyhedron(shape.vertices * factor)
    return type(shape)(*[getattr(shape, name) * factor for name in shape._fields])


def as_float32(shape):
    if isinstance(shape, TriangleMesh):
        return shape  # meshes are float64 in the corpus; the query's dtype is the moving shape's
    if isinstance(shape, ConvexPolyhedron):
        return ConvexPolyhedron(shape.vertices.astype(np.float32))
    return type(shape)(*[np.asarray(getattr(shape, name), np.float32) for name in shape._fields])


def _direction(moving, target, family, rng) -> np.ndarray:
    if family == "degenerate" and rng.random() < 0.3 or rng.random() < 0.06:
        return np.zeros(3)
    towards = _centre(target) - _centre(moving)
    if family == "lattice":  # along the axis the target lies most along, on the half-unit lattice
        axis = int(np.argmax(np.abs(towards)))
        return np.eye(3)[axis] * (np.round(2 * towards[axis]) / 2 + float(rng.integers(-2, 5)) * 0.5)
    return towards * rng.uniform(0.6, 2.0) + rng.normal(size=3) * 0.5


def _graze(moving, target, direction, rng):
    """(moving, direction) moved across the motion to where the answer turns from
    hit to miss, and the float either side; None when no such boundary is found."""
    across = np.cross(direction, _unit(rng))
    if not np.any(across):
        return None
    across /= np.linalg.norm(across)

    def hit(offset: float) -> bool:
        return bool(sweep(translated(moving, offset * across), target, direction).hit)

    near, far = 0.0, 8.0
    if not hit(near) or hit(far):
        return None
    for _ in range(80):
        middle = 0.5 * (near + far)
        if not near < middle < far:
            break
        near, far = (middle, far) if hit(middle) else (near, middle)
    return [translated(moving, offset * across) for offset in (np.nextafter(near, -1), near, far)]


def configurations(moving_kind, target_kind, family, count, rng, meshes):
    """Up to ``count`` (moving, target, direction, options) of a family."""
    found = []
    for attempt in range(count * 4):
        if len(found) >= count:
            break
        style = {"far": "random", "float32": ("random", "lattice")[attempt % 2], "graze": "random"}.get(family, family)
        target = make_shape(target_kind, style, rng, meshes)
        along = _an_edge(target, rng) if family == "parallel" else None
        if along is not None and attempt % 3 == 1:
            along = along + _unit(rng) * np.linalg.norm(along) * float(rng.choice([1e-16, 1e-12, 1e-8]))
        moving = make_shape(moving_kind, style, rng, meshes, along=along)
        direction = _direction(moving, target, style if family != "degenerate" else family, rng)
        if family == "parallel" and along is not None and attempt % 2 == 0:
            direction = np.cross(along, _unit(rng))  # sideways onto the edge
        options = {"ignore_separating": bool(rng.random() < 0.15)}
        if "mesh" in (moving_kind, target_kind) and rng.random() < 0.25:
            options["raw_edge_normals"] = True
        if family == "graze":
            grazes = _graze(moving, target, direction, rng)
            if grazes is not None:
                found += [(moved, target, direction, options) for moved in grazes]
            continue
        if family == "far":
            if attempt % 2:
                offset = np.array([1e6, -1e6, 1e6]) * float(rng.choice([1.0, 3.0]))
                moving, target = translated(moving, offset), translated(target, offset)
            else:
                moving, target, direction = scaled(moving, 1e-3), scaled(target, 1e-3), direction * 1e-3
        if family == "float32":
            moving, target, direction = as_float32(moving), as_float32(target), direction.astype(np.float32)
        found.append((moving, target, direction, options))
    return found[:count + 2]


def build(rng=None) -> tuple[dict, list[dict]]:
    """(meshes by name, records) of the corpus, answered by the current kernels."""
    rng = np.random.default_rng(SEED) if rng is None else rng
    built = make_meshes(rng)
    examples = {kind: make_shape(kind, "lattice", rng, built) for kind in KINDS}
    meshes, records = {}, []
    for moving_kind in KINDS:
        for target_kind in KINDS:
            if not supported(moving_kind, target_kind, examples):
                continue
            count = PER_MESH_FAMILY if "mesh" in (moving_kind, target_kind) else PER_FAMILY
            for family in FAMILIES:
                for moving, target, direction, options in configurations(moving_kind, target_kind, family, count,
                                                                          rng, built):
                    dtype = np.result_type(*[np.asarray(getattr(s, f)) for s in (moving, target)
                                             if not isinstance(s, TriangleMesh) for f in s._fields], direction)
                    record = {"id": len(records), "pair": f"{moving_kind}-{target_kind}", "family": family,
                              "dtype": str(dtype), "moving": shape_json(moving, meshes),
                              "target": shape_json(target, meshes), "direction": _hex(direction), "options": options}
                    record["answer"] = answer_json(query(record, meshes))
                    records.append(record)
    return meshes, records


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", action="store_true", help="record the corpus anew from the current kernels")
    action.add_argument("--diff", action="store_true", help="list the records whose answers differ now")
    action.add_argument("--update", action="store_true",
                        help="keep the inputs, record the current answers (prints how many changed)")
    arguments = parser.parse_args(argv)
    if arguments.write:
        meshes, records = build()
        write_corpus(meshes, records)
        hits = sum(record["answer"]["hit"] for record in records)
        print(f"wrote {len(records)} records ({hits} hits) over {len({r['pair'] for r in records})} ordered pairs "
              f"to {CORPUS} ({CORPUS.stat().st_size:,} bytes)")
        print(dict(Counter(record["family"] for record in records)))
        return 0
    meshes, records = read_corpus()
    if arguments.update:
        updated = 0
        for record in records:
            answer = answer_json(query(record, meshes))
            updated += bool(differences(record, answer))
            record["answer"] = answer
        write_corpus(meshes, records)
        print(f"recorded the answers of {len(records)} records anew: {updated} changed")
        return 0
    changed, largest = Counter(), {}
    for record in records:
        answer = answer_json(query(record, meshes))
        fields = differences(record, answer)
        if fields:
            changed[(record["pair"], record["family"])] += 1
            sizes = {name: _float_difference(record["answer"][name], answer[name]) if name in FLOAT_FIELDS else math.nan
                     for name in fields}
            for name, size in sizes.items():
                largest[name] = max(largest.get(name, 0.0), size) if not np.isnan(size) else largest.get(name, 0)
            print(f"#{record['id']} {record['pair']} {record['family']}: "
                  + ", ".join(name if np.isnan(size) else f"{name} {size:.3g}" for name, size in sizes.items()))
    print(f"{sum(changed.values())} of {len(records)} records differ; largest difference per float field "
          "(0: only other fields, or a value present in one answer only):", largest)
    return 1 if changed else 0


FLOAT_FIELDS = ("t", "point", "normal", "depth")


def _float_difference(recorded, now) -> float:
    """The largest |difference| of two hex float fields (NaN where one answer has none)."""
    if recorded is None or now is None:
        return math.nan
    return float(np.max(np.abs(_unhex(recorded, np.float64) - _unhex(now, np.float64))))


if __name__ == "__main__":
    raise SystemExit(main())

