"""Where a scene's triangle meshes come from: built-in generators and mesh files.

A mesh object's ``source`` parameter is a small dict: ``{"generator": name, ...}``
with that generator's arguments, or ``{"file": path}`` for an OBJ, STL, PLY or
glTF/GLB file (read with trimesh, which stays out of ``physics``).  A scene file
may name a mesh file relative to its own folder: ``resolved`` makes the path
absolute as the file is read, ``as_written`` relative again as a file is written
in the mesh's folder or one above it (anywhere else, the path stays absolute).  ``load_source`` returns body-space
``(vertices, faces)``; ``base_mesh`` the physics ``TriangleMesh`` at the identity
pose, built once per distinct source so that moving or rotating a mesh in the
editor never rebuilds its sphere tree.

Generators (all centred on the body origin):

* ``icosphere``: ``subdivisions`` (0-8: 20 * 4^s triangles), ``radius``;
* ``box``: ``size`` [x, y, z];
* ``terrain``: a ``cells`` x ``cells`` grid of ``size`` with rolling hills of
  ``height`` (deterministic sums of sines, ``seed`` picks them);
* ``wall``: a thin box ``width`` x ``height`` x ``thickness`` (thin-object cases);
* ``sliver_strip``: ``count`` long triangles of ``width`` across ``length`` (slivers).
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable

import numpy as np

from sweeplab.physics import TriangleMesh
from sweeplab.scene.json_files import brief

GENERATORS: dict[str, dict[str, object]] = {
    "icosphere": {"subdivisions": 2, "radius": 1.0},
    "box": {"size": [1.0, 1.0, 1.0]},
    "terrain": {"cells": 16, "size": 8.0, "height": 0.6, "seed": 1},
    "wall": {"width": 3.0, "height": 2.0, "thickness": 0.01},
    "sliver_strip": {"count": 8, "length": 4.0, "width": 1e-3},
}
"""Generator names and their default arguments (what "Add > Mesh" creates)."""

MAX_SUBDIVISIONS = 8
MAX_FILE_BYTES = 2 ** 30
"""Mesh files above 1 GiB are refused before reading (a 10-million-triangle binary
PLY is ~200 MB; a 4 GiB file took minutes and 8 GB to be refused after reading)."""


class MeshSourceError(ValueError):
    """A mesh source that cannot be read or generated; the message says why."""


def default_source(generator: str) -> dict:
    return {"generator": generator, **json.loads(json.dumps(GENERATORS[generator]))}


def resolved(source: dict, folder: str | None) -> dict:
    """``source`` with a relative ``"file"`` taken from ``folder`` (the folder of the
    file that names it; None: the current folder)."""
    path = source.get("file")
    if folder is None or not isinstance(path, str) or os.path.isabs(path):
        return source
    return {**source, "file": os.path.normpath(os.path.join(folder, path))}


def as_written(source: dict, folder: str) -> dict:
    """``source`` as a file in ``folder`` names it: a mesh file in ``folder`` or below
    by its path from there, any other by its absolute path."""
    path = source.get("file")
    if not isinstance(path, str):
        return source
    relative = os.path.relpath(os.path.abspath(path), folder)
    return {**source, "file": os.path.abspath(path) if relative.split(os.sep)[0] == os.pardir else relative}


def load_source(source: dict) -> tuple[np.ndarray, np.ndarray]:
    """Body-space (vertices (V, 3), faces (F, 3)) of a source; ``MeshSourceError``."""
    return _load(json.dumps(source, sort_keys=True))


def base_mesh(source: dict) -> TriangleMesh:
    """The physics mesh of a source at the identity pose, built once per source."""
    return _base_mesh(json.dumps(source, sort_keys=True))


@functools.lru_cache(maxsize=16)
def _base_mesh(source_json: str) -> TriangleMesh:
    return TriangleMesh(*_load(source_json))


@functools.lru_cache(maxsize=16)
def _load(source_json: str) -> tuple[np.ndarray, np.ndarray]:
    source = json.loads(source_json)
    if not isinstance(source, dict):
        raise MeshSourceError("a mesh source must be an object with \"generator\" or \"file\"")
    if "file" in source:
        if not isinstance(source["file"], str):
            raise MeshSourceError(f"mesh source \"file\" must be a path, got {brief(source['file'])}")
        return _read_file(source["file"])
    name = source.get("generator")
    if not isinstance(name, str) or name not in GENERATORS:
        raise MeshSourceError(f"unknown mesh generator {brief(name)} (known: {', '.join(GENERATORS)})")
    arguments = {**GENERATORS[name], **{k: v for k, v in source.items() if k != "generator"}}
    unknown = set(arguments) - set(GENERATORS[name])
    if unknown:
        raise MeshSourceError(f"generator {name!r} takes {', '.join(GENERATORS[name])}, "
                              f"not {brief(', '.join(sorted(unknown)))}")
    try:
        vertices, faces = _BUILDERS[name](**arguments)
    except (TypeError, ValueError) as error:
        raise MeshSourceError(f"generator {name!r}: {error}") from None
    return np.asarray(vertices, float), np.asarray(faces, np.int64)


def _read_file(path) -> tuple[np.ndarray, np.ndarray]:
    import trimesh

    try:
        size = os.path.getsize(path)
    except OSError as error:
        raise MeshSourceError(f"cannot read mesh {path}: {error.strerror}") from None
    if size > MAX_FILE_BYTES:
        raise MeshSourceError(f"mesh file {path} is {size / 2 ** 30:.1f} GiB; at most {MAX_FILE_BYTES // 2 ** 30} GiB "
                              "is read")
    if str(path).lower().endswith(".obj"):
        _check_obj_indices(path)
    try:
        loaded = trimesh.load_mesh(str(path), process=False)
    except ImportError as error:  # trimesh's fallback for text it cannot parse needs modules of its own
        raise MeshSourceError(f"{path} is not a mesh file trimesh can read ({error})") from None
    except Exception as error:  # trimesh raises many types for unreadable files
        raise MeshSourceError(f"cannot read mesh {path}: {error}") from None
    vertices, faces = np.asarray(loaded.vertices, float), np.asarray(loaded.faces, np.int64)
    if faces.ndim != 2 or len(faces) == 0:
        raise MeshSourceError(f"{path} holds no triangles")
    return vertices, faces


def _check_obj_indices(path) -> None:
    """OBJ vertex indices count from 1 (negative: back from the last vertex); a 0 is
    no vertex, which trimesh would silently take as one."""
    with open(path, "rb") as lines:
        for number, line in enumerate(lines, 1):
            fields = line.split()
            if fields[:1] == [b"f"] and any(field.split(b"/")[0] in (b"0", b"-0", b"+0") for field in fields[1:]):
                raise MeshSourceError(f"{path} line {number}: OBJ face indices count from 1, not 0")


def _finite(value, name: str) -> float:
    """``value`` as a finite float; ``ValueError`` naming ``name`` otherwise (a JSON
    integer beyond float's range, e.g. 2e308 written out, overflows)."""
    try:
        number = float(value)
    except OverflowError:
        number = float("inf")
    except (TypeError, ValueError):  # (float's own message quotes a string whole)
        number = float("nan")
    if not np.isfinite(number):
        raise ValueError(f"{name} must be a finite number, got {brief(value)}")
    return number


def _positive(value, name: str) -> float:
    value = _finite(value, name)
    if not value > 0:
        raise ValueError(f"{name} must be > 0, got {value}")
    return value


def _icosphere(subdivisions, radius):
    import trimesh

    subdivisions = int(subdivisions)
    if not 0 <= subdivisions <= MAX_SUBDIVISIONS:
        raise ValueError(f"subdivisions must be in [0, {MAX_SUBDIVISIONS}], got {subdivisions}")
    sphere = trimesh.creation.icosphere(subdivisions=subdivisions, radius=_positive(radius, "radius"))
    return sphere.vertices, sphere.faces


def _box_corners_and_faces(half):
    corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float) * half
    faces = [[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
             [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]]
    return corners, np.array(faces)


def _box(size):
    size = np.asarray(size, float)
    if size.shape != (3,) or not np.all(size > 0):
        raise ValueError(f"size must be 3 numbers > 0, got {brief(size.tolist())}")
    return _box_corners_and_faces(size / 2)


def _wall(width, height, thickness):
    return _box_corners_and_faces(np.array([_positive(width, "width"), _positive(thickness, "thickness"),
                                            _positive(height, "height")]) / 2)


def _grid_faces(columns: int, rows: int) -> np.ndarray:
    index = np.arange((columns + 1) * (rows + 1)).reshape(columns + 1, rows + 1)
    a, b, c, d = index[:-1, :-1].ravel(), index[1:, :-1].ravel(), index[1:, 1:].ravel(), index[:-1, 1:].ravel()
    return np.concatenate([np.stack([a, b, c], 1), np.stack([a, c, d], 1)])


def _terrain(cells, size, height, seed):
    cells = int(cells)
    if not 1 <= cells <= 512:
        raise ValueError(f"cells must be in [1, 512], got {cells}")
    size = _positive(size, "size")
    xs = np.linspace(-size / 2, size / 2, cells + 1)
    x, y = np.meshgrid(xs, xs, indexing="ij")
    rng = np.random.default_rng(int(seed))
    z = np.zeros_like(x)
    for _ in range(4):
        kx, ky = rng.uniform(0.5, 2.5, 2) * 2 * np.pi / size
        z += np.sin(kx * x + rng.uniform(0, 2 * np.pi)) * np.cos(ky * y + rng.uniform(0, 2 * np.pi))
    z *= _finite(height, "height") / 4
    return np.stack([x.ravel(), y.ravel(), z.ravel()], axis=1), _grid_faces(cells, cells)


def _sliver_strip(count, length, width):
    count = int(count)
    if not 1 <= count <= 10000:
        raise ValueError(f"count must be in [1, 10000], got {count}")
    length, width = _positive(length, "length"), _finite(width, "width")
    if width < 0:
        raise ValueError(f"width must be >= 0, got {width}")
    xs = np.linspace(-length / 2, length / 2, count + 1)
    ys = np.array([-width / 2, width / 2])
    x, y = np.meshgrid(xs, ys, indexing="ij")
    return np.stack([x.ravel(), y.ravel(), np.zeros(x.size)], axis=1), _grid_faces(count, 1)


_BUILDERS: dict[str, Callable[..., tuple]] = {
    "icosphere": _icosphere, "box": _box, "terrain": _terrain, "wall": _wall, "sliver_strip": _sliver_strip}
