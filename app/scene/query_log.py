"""Query logs: one sweep query a line (JSON Lines), with another engine's answer.

The format is ``docs/query-log.md`` (JSON Schema: ``schemas/query-log.schema.json``).
A line holds the two shapes in the scene format, the direction, the options, the
moving shape's turn when it turns (version 2: ``rotation``, ``pivot``,
``interpolation``, as ``sweep`` takes them), the engine (name, version, precision)
and the engine's answer, as far as it has one.
Every float may be a JSON number (written here with ``repr``: exact) or a
hex-float string (``"0x1.8p-2"``, what C's ``%a`` and C++'s ``std::hexfloat``
print), so any engine can log its floats exactly.  The answer's normal follows
sweeplab's convention: a unit vector from the target towards the moving shape.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from sweeplab.scene.json_files import JsonFileError, brief, is_finite_number, parse_json
from sweeplab.scene.model import FORMAT as SCENE_FORMAT
from sweeplab.scene.model import VERSION as SCENE_VERSION
from sweeplab.scene.model import Scene, SceneError, SceneObject
from sweeplab.scene.number_text import parse_hex_float

FORMAT = "sweeplab-query"
VERSION = 2
"""Version 2 added the moving shape's turn (``TURN_FIELDS``); a line without one, of
either version, is a query that does not turn, and is written as version 1 (an older
sweeplab reads it)."""
TURN_FIELDS = ("rotation", "pivot", "interpolation")
"""A turning query's fields: ``sweep``'s keyword arguments of the same names."""
PRECISIONS = ("float32", "float64")
MOVING, TARGET = "moving", "target"
"""The names a query's shapes get in its scene."""
T_SLACK = 2.0 ** -23
"""How far outside [0, 1] an engine's ``t`` may lie before the reader warns (a
fraction of the motion, no unit): float32's machine epsilon, the step from 1 to the
next float32.  An engine computing in float32 that clamps, or divides a distance by
the sweep's length, can land one such step outside; float64's round-off is far
smaller.  Beyond it the engine likely logs seconds or a distance, not a fraction."""


class QueryLogError(ValueError):
    """A log line that cannot be used: the message names the file, line and field."""


@dataclass(frozen=True)
class EngineAnswer:
    """What the engine said: ``hit``, and ``t``, ``point`` and ``normal`` as far as
    it gives them (None where it does not).  An engine that does not cast to contact
    (Box3D: its linear slop) says where it stops: with the surfaces between
    ``contact_offset`` (length units: > 0 short of touching, < 0 inside) and
    ``contact_offset + contact_tolerance`` apart (None: 0)."""

    hit: bool
    t: float | None = None
    point: list[float] | None = None
    normal: list[float] | None = None
    contact_offset: float | None = None
    contact_tolerance: float | None = None


@dataclass(frozen=True)
class Engine:
    name: str
    version: str = ""
    precision: str = "float64"


@dataclass
class Query:
    """One logged query: ``scene`` holds the shapes as ``"moving"`` and ``"target"``."""

    scene: Scene
    engine: Engine
    answer: EngineAnswer | None
    id: str = ""
    note: str = ""
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        moving, target = self.scene.object(MOVING), self.scene.object(TARGET)
        turn = turn_of(self.scene)
        line = {"format": FORMAT, "version": VERSION if turn else 1, "id": self.id,
                "engine": {"name": self.engine.name, "version": self.engine.version,
                           "precision": self.engine.precision},
                "moving": {"kind": moving.kind, "params": moving.params},
                "target": {"kind": target.kind, "params": target.params},
                "direction": list(self.scene.direction), "options": dict(self.scene.options)}
        line.update({name: value for name, value in turn.items() if value is not None})  # (a pivot None: centroid)
        if self.answer is not None:
            line["answer"] = {name: value for name, value in vars(self.answer).items() if value is not None}
        if self.note:
            line["note"] = self.note
        return line


def query_scene(moving: SceneObject, target: SceneObject, direction, ignore_separating: bool = False,
                turn: dict | None = None) -> Scene:
    """The two-shape scene of a query, its shapes named ``"moving"`` and ``"target"``,
    the moving one turning as ``turn`` says (``turn_of``; None or empty: it does not)."""
    scene = Scene([SceneObject(MOVING, moving.kind, moving.params), SceneObject(TARGET, target.kind, target.params)],
                  MOVING, [float(x) for x in direction], {"ignore_separating": ignore_separating})
    if turn:
        scene.rotation = [float(x) for x in turn["rotation"]]
        scene.pivot = None if turn.get("pivot") is None else [float(x) for x in turn["pivot"]]
        scene.interpolation = turn.get("interpolation", "slerp")
    return scene


def turn_of(scene: Scene) -> dict:
    """The keyword arguments of ``sweep`` (and of an adapter's ``answer``) for the
    moving shape's turn in ``scene``: ``rotation``, ``pivot`` (None: the centroid) and
    ``interpolation``; empty for a scene that does not turn, whose query is then the
    linear sweep's, bit for bit."""
    if not scene.turns:
        return {}
    return {"rotation": list(scene.rotation), "pivot": None if scene.pivot is None else list(scene.pivot),
            "interpolation": scene.interpolation}


def decode_floats(value, where: str = "value"):
    """``value`` with every hex-float string replaced by its float (exactly), through
    lists and dicts (a mesh's ``source``, a file, is kept); other values as they are
    (the validation that follows names a missing number, a list of the wrong length).
    ``ValueError`` naming the place (``where``, then keys and indices:
    ``moving.params.vertices[3][1]``) for any other string (``parse_hex_float``: "is
    not a number or hex float"), a hex float beyond float64, and NaN or infinity."""
    if isinstance(value, str):
        return parse_hex_float(value, where)
    if isinstance(value, float) and not math.isfinite(value):  # (Python's json reads NaN and Infinity)
        raise ValueError(f"{where} must be finite, got {value!r}")
    if isinstance(value, list):
        return [decode_floats(item, f"{where}[{index}]") for index, item in enumerate(value)]
    if isinstance(value, dict):
        return {key: item if key == "source" else decode_floats(item, f"{where}.{key}") for key, item in value.items()}
    return value


def query_from_json(data, where: str) -> Query:
    """Validate one parsed log line; ``QueryLogError`` naming ``where`` and the field."""
    def fail(message: str):
        raise QueryLogError(f"{where}: {message}")

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        fail(f"not a sweeplab query (expected \"format\": \"{FORMAT}\")")
    if not isinstance(data.get("version"), int) or not 1 <= data["version"] <= VERSION:
        fail(f"query version {brief(data.get('version'))} is not one this sweeplab reads (up to {VERSION})")
    data = _decode_numbers(data, fail)
    engine_data = data.get("engine")
    if not isinstance(engine_data, dict) or not isinstance(engine_data.get("name"), str) or not engine_data["name"]:
        fail("\"engine\" must be an object with a \"name\"")
    precision = engine_data.get("precision", "float64")
    if precision not in PRECISIONS:
        fail(f"engine precision must be one of {', '.join(PRECISIONS)}, got {brief(precision)}")
    engine = Engine(engine_data["name"], str(engine_data.get("version", "")), precision)
    turn = {name: data[name] for name in TURN_FIELDS if name in data}
    if turn and data["version"] < 2:
        fail(f"{', '.join(turn)}: a turning query is version 2 (this line says version {data['version']})")
    shapes = []
    for role in (MOVING, TARGET):
        shape = data.get(role)
        if not isinstance(shape, dict):
            fail(f"\"{role}\" must be a shape: {{\"kind\": ..., \"params\": {{...}}}}")
        shapes.append({"name": role, "kind": shape.get("kind"), "params": shape.get("params")})
    try:
        scene = Scene.from_json({"format": SCENE_FORMAT, "version": SCENE_VERSION, "objects": shapes,
                                 "moving": MOVING, "direction": data.get("direction"),
                                 "options": data.get("options", {}), **turn})
    except SceneError as error:
        fail(str(error))
    answer = None
    if "answer" in data:
        answer = _answer(data["answer"], fail)
    for name in ("id", "note"):
        if not isinstance(data.get(name, ""), str):
            fail(f"\"{name}\" must be a string")
    known = {"format", "version", "engine", "moving", "target", "direction", "options", "answer", "id", "note",
             *TURN_FIELDS}
    return Query(scene, engine, answer, data.get("id", ""), data.get("note", ""),
                 {key: value for key, value in data.items() if key not in known})


NUMERIC_FIELDS = {"moving": ("params",), "target": ("params",), "direction": (), "rotation": (), "pivot": (),
                  "answer": ("t", "point", "normal", "contact_offset", "contact_tolerance")}
"""Where a log may write numbers as hex floats: shape parameters, the direction, the
turn's rotation and pivot, and the answer's numbers.  Names, ids and versions are
kept as written."""


def _decode_numbers(data: dict, fail) -> dict:
    data = dict(data)
    for name, inner in NUMERIC_FIELDS.items():
        if data.get(name) is None:  # absent (or a null pivot: the centroid)
            continue
        value = data[name]
        try:
            if not inner:
                data[name] = decode_floats(value, name)
            elif isinstance(value, dict):
                data[name] = {key: decode_floats(item, f"{name}.{key}") if key in inner else item
                              for key, item in value.items()}
        except ValueError as error:
            fail(str(error))
        except RecursionError:
            fail(f"\"{name}\" is nested too deeply")
    return data


def _answer(data, fail) -> EngineAnswer:
    if not isinstance(data, dict) or not isinstance(data.get("hit"), bool):
        fail("\"answer\" must be an object with \"hit\": true or false")
    t = data.get("t")
    if t is not None and not (is_finite_number(t) and not isinstance(t, bool)):
        fail(f"answer t must be a finite number, got {brief(t)}")
    vectors = {}
    for name in ("point", "normal"):
        value = data.get(name)
        if value is not None and (not isinstance(value, list) or len(value) != 3
                                  or not all(is_finite_number(x) and not isinstance(x, bool) for x in value)):
            fail(f"answer {name} must be 3 finite numbers, got {brief(value)}")
        vectors[name] = None if value is None else [float(x) for x in value]
    contact = {}
    for name in ("contact_offset", "contact_tolerance"):
        value = data.get(name)
        if value is not None and not (is_finite_number(value) and not isinstance(value, bool)
                                      and (name == "contact_offset" or value >= 0)):
            fail(f"answer {name} must be a finite{' non-negative' * (name == 'contact_tolerance')} number "
                 f"(length units), got {brief(value)}")
        contact[name] = None if value is None else float(value)
    return EngineAnswer(data["hit"], None if t is None else float(t), vectors["point"], vectors["normal"], **contact)


def read_log(path) -> list[Query]:
    """Every query of a log file (blank lines and ``#`` comments skipped);
    ``QueryLogError`` naming the file and line of the first bad one, or saying that
    the file holds none."""
    reading = read_good_lines(path)
    if reading.bad_lines:
        raise QueryLogError(reading.bad_lines[0])
    return reading.queries


@dataclass(frozen=True)
class LogReading:
    """A log's queries that could be read, with the file line of each (``lines``),
    why each other query line could not be (``bad_lines``: file, line, field), and
    what looks wrong in a line that was read (``warnings``: file, line, what)."""

    queries: list[Query]
    lines: list[int]
    bad_lines: list[str]
    warnings: list[str] = field(default_factory=list)


def read_good_lines(path) -> LogReading:
    """Every query line of a log that can be read, the others reported: a log cut off
    by the crash it was written to debug keeps its good lines.  ``QueryLogError`` when
    the file cannot be read or holds no query (naming the bad lines, if any)."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise QueryLogError(f"{path}: cannot be read ({error})") from None
    reading = LogReading([], [], [])
    for number, line in enumerate(lines, 1):
        if not holds_query(line):
            continue
        where = f"{path} line {number}"
        try:
            query = query_from_json(parse_json(line, where), where)
        except (JsonFileError, QueryLogError) as error:
            reading.bad_lines.append(str(error))
            continue
        reading.queries.append(query)
        reading.lines.append(number)
        reading.warnings.extend(f"{where}: {warning}" for warning in query_warnings(query))
    bad = reading.bad_lines
    if reading.queries:
        return reading
    if not bad:
        raise QueryLogError(f"query log {path} holds no queries")
    if len(bad) == 1:  # (its own message, as for a one-line log)
        raise QueryLogError(bad[0])
    raise QueryLogError(f"query log {path} holds no query that can be read: " + "; ".join(bad[:3])
                        + (f"; and {len(bad) - 3} more" if len(bad) > 3 else ""))


def query_warnings(query: Query) -> list[str]:
    """What looks wrong in a query that can be judged: an answer's ``t`` outside
    [0, 1] by more than ``T_SLACK`` (``t`` is the fraction of the motion travelled)."""
    t = None if query.answer is None else query.answer.t
    if t is None or -T_SLACK <= t <= 1 + T_SLACK:
        return []
    return [f"answer t = {t!r} is outside [0, 1]: t is the fraction of the motion travelled"
            " (the engine may log seconds or a distance); judged as logged"]


def write_log(queries: list[Query], path) -> None:
    """One JSON line per query, floats as ``repr`` (exact)."""
    text = "".join(json.dumps(query.to_json(), allow_nan=False) + "\n" for query in queries)
    Path(path).write_text(text, encoding="utf-8")


def holds_query(line: str) -> bool:
    """Whether a log line is a query: blank lines and ``#`` comments are not (the
    format's rule, for ``read_log`` and ``is_query_log`` alike)."""
    return bool(line.strip()) and not line.lstrip().startswith("#")


def is_query_log(path) -> bool:
    """Whether the file's first query line (after blank lines and ``#`` comments, as
    ``read_log`` skips them) declares a sweeplab query: File > Open tells a log from a
    scene by this.  Only the lines up to that one are read, each to 64 KiB."""
    try:
        with open(path, encoding="utf-8", errors="replace") as stream:
            for line in iter(lambda: stream.readline(65536), ""):
                if holds_query(line):
                    return re.search(r'"format"\s*:\s*"' + FORMAT + '"', line) is not None
    except OSError:
        return False
    return False

