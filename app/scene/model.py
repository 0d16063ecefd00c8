"""The scene document: named shapes, which one moves and along what direction.

No GL here.  A ``Scene`` is plain data (JSON-able dicts of floats), saved as a
versioned JSON file (schema in ``docs/scene-format.md``); floats round-trip
bit-exactly (JSON holds ``repr`` of each double); undo and redo are
``scene.history``.  Saves are atomic (``scene.atomic``: a temporary file, fsync,
rename; through links to their file); ``load`` raises ``SceneError`` with a clear
message and changes nothing.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
from dataclasses import dataclass, field

import numpy as np

from sweeplab.scene.atomic import write_text_atomically
from sweeplab.scene.json_files import JsonFileError, brief, is_finite_number, is_integer, read_json
from sweeplab.scene.mesh_sources import as_written, resolved
from sweeplab.scene.shape_kinds import KINDS
from sweeplab.physics.sweep.turning import Motion

FORMAT = "sweeplab-scene"
VERSION = 2
"""Version 2 added the moving shape's turn (``rotation``, ``pivot``, ``interpolation``);
version 1 files are read as scenes that do not turn."""

INTERPOLATIONS = ("slerp", "nlerp")
"""How the moving shape turns over the sweep (``physics.sweep.turning``)."""


class SceneError(ValueError):
    """A scene file or edit that cannot be accepted; the message says why."""


@dataclass
class SceneObject:
    name: str
    kind: str
    params: dict

    def to_json(self, folder: str | None = None) -> dict:
        """As a file in ``folder`` holds it (mesh file paths from there, ``as_written``;
        None: as they are)."""
        params = plain_copy(self.params)
        for parameter in KINDS[self.kind].parameters:
            if parameter.type == "source" and folder is not None:
                params[parameter.name] = as_written(params[parameter.name], folder)
        return {"name": self.name, "kind": self.kind, "params": params}


@dataclass
class Scene:
    """Shapes in world coordinates; ``moving`` names the one swept along ``direction``,
    turning by the rotation vector ``rotation`` (axis times angle in radians, the whole
    turn over the sweep) about ``pivot`` (a world point at t = 0 that travels with the
    translation; None: the moving shape's centroid), as ``interpolation`` says
    (``"slerp"``: constant angular velocity, ``"nlerp"``: Box2D's normalized lerp).  A
    zero ``rotation`` is the linear sweep."""

    objects: list[SceneObject] = field(default_factory=list)
    moving: str | None = None
    direction: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])
    options: dict = field(default_factory=lambda: {"ignore_separating": False})
    rotation: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])
    pivot: list[float] | None = None
    interpolation: str = "slerp"

    @property
    def turns(self) -> bool:
        """Whether the moving shape turns (a nonzero ``rotation``)."""
        return any(component != 0 for component in self.rotation)

    def turn(self, dtype: type = np.float64) -> dict:
        """``sweep``'s keyword arguments for the moving shape's turn, the numbers in
        ``dtype``: ``rotation``, ``pivot`` (None: the centroid) and ``interpolation``;
        empty when the scene does not turn, so a linear scene is swept exactly as
        before the turn existed."""
        if not self.turns:
            return {}
        return {"rotation": np.asarray(self.rotation, dtype),
                "pivot": None if self.pivot is None else np.asarray(self.pivot, dtype),
                "interpolation": self.interpolation}

    def object(self, name: str) -> SceneObject:
        for scene_object in self.objects:
            if scene_object.name == name:
                return scene_object
        raise KeyError(name)

    def moving_object(self) -> SceneObject:
        """The object named ``moving``; ``ValueError`` when the scene has none."""
        if self.moving is None:
            raise ValueError("the scene has no moving shape (its \"moving\" is null)")
        return self.object(self.moving)

    def names(self) -> list[str]:
        return [o.name for o in self.objects]

    def unique_name(self, base: str) -> str:
        names, number = set(self.names()), 1
        while f"{base}{number}" in names:
            number += 1
        return f"{base}{number}"

    def targets(self) -> list[SceneObject]:
        return [o for o in self.objects if o.name != self.moving]

    def to_json(self, folder: str | None = None) -> dict:
        """The file's contents, for a file in ``folder`` (``SceneObject.to_json``)."""
        return {"format": FORMAT, "version": VERSION, "objects": [o.to_json(folder) for o in self.objects],
                "moving": self.moving, "direction": list(self.direction), "options": dict(self.options),
                "rotation": list(self.rotation), "pivot": None if self.pivot is None else list(self.pivot),
                "interpolation": self.interpolation}

    @classmethod
    def from_json(cls, data, folder: str | None = None) -> Scene:
        """Validate and build a scene; raises ``SceneError`` naming what is wrong.  Mesh
        files are taken from ``folder`` (the file's; ``mesh_sources.resolved``)."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise SceneError(f"not a sweeplab scene (expected \"format\": \"{FORMAT}\")")
        version = data.get("version")
        if not is_integer(version):
            raise SceneError("scene has no integer \"version\"")
        if version > VERSION:
            raise SceneError(f"scene version {version} is newer than this sweeplab reads ({VERSION}); upgrade sweeplab")
        objects = []
        if not isinstance(data.get("objects", []), list):
            raise SceneError("\"objects\" must be a list of objects")
        for position, entry in enumerate(data.get("objects", [])):
            objects.append(_object_from_json(entry, position, folder))
        names = [o.name for o in objects]
        if len(set(names)) != len(names):
            raise SceneError("object names must be unique")
        moving = data.get("moving")
        if moving is not None and (not isinstance(moving, str) or moving not in names):
            raise SceneError(f"\"moving\" names {brief(moving)}, which is not an object of the scene")
        direction = _floats(data.get("direction", [0, 0, 0]), "direction", 3)
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise SceneError("\"options\" must be an object")
        ignore_separating = options.get("ignore_separating", False)
        if not isinstance(ignore_separating, bool):
            raise SceneError(f"\"ignore_separating\" must be true or false, got {brief(ignore_separating)}")
        rotation = _floats(data.get("rotation", [0, 0, 0]), "rotation", 3)
        pivot = data.get("pivot")
        pivot = None if pivot is None else _floats(pivot, "pivot", 3)
        interpolation = data.get("interpolation", "slerp")
        if interpolation not in INTERPOLATIONS:
            raise SceneError(f"\"interpolation\" must be one of {', '.join(INTERPOLATIONS)}, "
                             f"got {brief(interpolation)}")
        scene = cls(objects, moving, direction, {"ignore_separating": ignore_separating}, rotation, pivot,
                    interpolation)
        check_turn(scene)
        return scene

    def copy(self) -> Scene:
        """A deep copy (a scene is plain data; ``plain_copy`` is ~9x faster than
        ``copy.deepcopy``, and every edit copies the scene twice)."""
        return Scene([SceneObject(o.name, o.kind, plain_copy(o.params)) for o in self.objects], self.moving,
                     list(self.direction), dict(self.options), list(self.rotation),
                     None if self.pivot is None else list(self.pivot), self.interpolation)


def check_turn(scene: Scene) -> None:
    """``SceneError`` naming "rotation" for a turn the physics would refuse: nlerp by pi
    or more in one sweep (the physics' own check, ``turning.Motion``, so a file and a
    sweep refuse the same turns), or any turn with ``ignore_separating`` (a turning
    sweep takes none: ``physics.sweep``)."""
    try:
        Motion((0.0, 0.0, 0.0), scene.rotation, None, scene.interpolation)
    except ValueError as error:
        raise SceneError(f"\"rotation\" {brief(scene.rotation)} with {scene.interpolation}: {error}") from None
    if scene.turns and scene.options["ignore_separating"]:
        raise SceneError(f"\"rotation\" {brief(scene.rotation)} with \"ignore_separating\": a turning sweep keeps "
                         "every contact at t = 0 (it takes no ignore_separating); set one of them back")


def plain_copy(value):
    """A deep copy of JSON-like data: dicts, lists and numpy arrays (which an edit may
    set) copied, everything else shared (numbers and strings are immutable)."""
    if isinstance(value, dict):
        return {key: plain_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain_copy(item) for item in value]
    if isinstance(value, np.ndarray):
        return value.copy()
    return value


def _floats(value, what: str, count: int | None = None) -> list[float]:
    if not isinstance(value, list) or (count is not None and len(value) != count):
        raise SceneError(f"{what} must be a list of {count or 'some'} numbers")
    if not all(is_finite_number(x) for x in value):
        raise SceneError(f"{what} must hold finite numbers (not NaN, infinity or an integer beyond any float)")
    return [float(x) for x in value]


def _object_from_json(entry, position: int, folder: str | None) -> SceneObject:
    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not entry["name"]:
        raise SceneError(f"object {position} needs a non-empty \"name\"")
    name, kind_name = entry["name"], entry.get("kind")
    label = f"object {brief(name)}"
    if not isinstance(kind_name, str) or kind_name not in KINDS:
        raise SceneError(f"{label}: unknown kind {brief(kind_name)} (known: {', '.join(KINDS)})")
    kind, given = KINDS[kind_name], entry.get("params")
    if not isinstance(given, dict):
        raise SceneError(f"{label}: \"params\" must be an object")
    params = {}
    for parameter in kind.parameters:
        if parameter.name not in given and parameter.name in kind.optional:
            params[parameter.name] = plain_copy(kind.defaults[parameter.name])
            continue
        if parameter.name not in given:
            raise SceneError(f"{label}: missing parameter {parameter.name!r}")
        value, what = given[parameter.name], f"{label} parameter {parameter.name!r}"
        if parameter.type in ("point", "direction"):
            params[parameter.name] = _floats(value, what, 3)
        elif parameter.type in ("points", "body points", "frame"):
            if not isinstance(value, list) or (parameter.type == "frame" and len(value) != 3):
                raise SceneError(f"{what} must be a list of {'3 axes' if parameter.type == 'frame' else 'points'}")
            params[parameter.name] = [_floats(p, what, 3) for p in value]
        elif parameter.type == "source":
            if not isinstance(value, dict):
                raise SceneError(f"{what} must be an object (\"generator\" or \"file\")")
            params[parameter.name] = resolved(plain_copy(value), folder)
        else:
            params[parameter.name] = _floats([value], what, 1)[0]
    try:
        kind.build(params)
    except ValueError as error:
        raise SceneError(f"{label}: {error}") from None
    return SceneObject(name, kind_name, params)


def save(scene: Scene, path: str | os.PathLike) -> None:
    """Write ``scene`` to ``path`` atomically: a crash leaves the old file or the new one.
    ``SceneError`` naming the object (or the direction, rotation or pivot) that holds NaN or infinity,
    which ``load`` would refuse: nothing is written."""
    data = scene.to_json(folder_of(path))
    try:
        text = json.dumps(data, indent=2, allow_nan=False)
    except ValueError:  # (the only one dumps raises for plain data)
        raise SceneError(f"{_not_finite(data)} holds a number that is not finite (NaN or infinity)") from None
    write_text_atomically(path, text + "\n")


def _not_finite(data: dict) -> str:
    """What in a scene's JSON holds NaN or infinity: "object 'NAME'", "the rotation",
    "the pivot" or "the direction"."""
    for entry in data["objects"]:
        try:
            json.dumps(entry["params"], allow_nan=False)
        except ValueError:
            return f"object {brief(entry['name'])}"
    for name in ("rotation", "pivot"):
        try:
            json.dumps(data[name], allow_nan=False)
        except ValueError:
            return f"the {name}"
    return "the direction"


def load(path: str | os.PathLike) -> Scene:
    """Read a scene file; ``SceneError`` (with the file name) if it cannot be used.
    Python's cyclic garbage collector is paused meanwhile: a scene is a tree of
    fresh, acyclic objects, and the collector's passes over them made loading grow
    faster than the file (480,000 points: 7.8 s, 17x the 0.45 s of 40,000; paused,
    5.1 s, 12x — linear)."""
    with _collector_paused():
        try:
            data = read_json(path)
        except JsonFileError as error:
            raise SceneError(str(error)) from None
        try:
            return Scene.from_json(data, folder_of(path))
        except SceneError as error:
            raise SceneError(f"{path}: {error}") from None


def folder_of(path: str | os.PathLike) -> str:
    """The absolute folder of a file: where its relative mesh paths start."""
    return os.path.dirname(os.path.abspath(path))


@contextlib.contextmanager
def _collector_paused():
    """``gc.disable()`` for the block, restored to how it was after (also on errors)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
