"""Regression fixtures: a scene plus the answer it must give, runnable as a test.

A fixture file (schema in ``docs/fixture-format.md``) holds a scene with exact
floats and, per target, the expected ``SweepResult`` fields (``hit``, ``t``,
``point``, ``normal``, ``face_index``, ``penetration_depth``) each with a
tolerance.  ``run_fixture`` sweeps the scene's moving shape against each named
target — in the fixture's precision, float64 or float32 — and compares field by
field.  Expected values come from the current analytic answer, the reference
answer (``physics.reference``) or the user's hand; a fixture may be marked known
failing with a reason, and then runs as a strict expected failure.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sweeplab.scene.atomic import write_text_atomically
from sweeplab.scene.json_files import FIXTURE_FORMAT as FORMAT
from sweeplab.scene.json_files import JsonFileError, brief, is_finite_number, is_integer, read_json
from sweeplab.scene.model import Scene, SceneError, SceneObject, folder_of
from sweeplab.scene.shape_kinds import KINDS, build_shape, posed_vertices
from sweeplab.physics import SweepResult, TriangleMesh, sweep, tolerance
from sweeplab.physics.reference import reference_sweep

VERSION = 2
"""Version 2: the scene may turn (scene format 2: ``rotation``, ``pivot``,
``interpolation``), and the expected values are those of the turning sweep; version 1
fixtures (their scenes never turn) are read and run as before."""
FIELDS = ("hit", "t", "point", "normal", "face_index", "penetration_depth")
DEFAULT_TOLERANCES = {"t": tolerance.TIME_ATOL, "point": tolerance.LENGTH_RTOL, "normal": tolerance.NORMAL_ATOL,
                      "penetration_depth": tolerance.LENGTH_RTOL}
"""Tolerance per float field when a fixture does not give one (absolute; the
length tolerances are meant for unit-scale scenes: give your own for others)."""
PRECISIONS = {"float64": np.float64, "float32": np.float32}
SOURCES = ("current", "reference", "typed")
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


class FixtureError(ValueError):
    """A fixture file that cannot be used; the message names the file and the problem."""


@dataclass
class Fixture:
    scene: Scene
    expected: dict[str, dict[str, dict]]   # target -> field -> {"value": ..., "tolerance": ...}
    note: str = ""
    source: str = "current"
    known_failing: str | None = None
    precision: str = "float64"
    engine: dict | None = None
    """What another engine answered (recorded, not checked): ``{"name", "version",
    "precision", "answers": {target: {"hit", "t", "point", "normal"}}}`` (``sweeplab triage``)."""

    def to_json(self, folder: str | None = None) -> dict:
        """The file's contents, for a file in ``folder`` (``Scene.to_json``)."""
        data = {"format": FORMAT, "version": VERSION, "note": self.note, "source": self.source,
                "known_failing": self.known_failing, "precision": self.precision,
                "scene": self.scene.to_json(folder),
                "expected": self.expected}
        if self.engine is not None:
            data["engine"] = self.engine
        return data


@dataclass
class FieldCheck:
    target: str
    field: str
    expected: object
    actual: object
    tolerance: float | None
    passed: bool


@dataclass
class FixtureReport:
    checks: list[FieldCheck] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.errors and all(check.passed for check in self.checks)

    def table(self) -> str:
        """Expected vs actual, one line per field (failures marked)."""
        lines = [f"{'':2}{'target':18} {'field':18} {'expected':34} {'actual':34} tolerance"]
        for check in self.checks:
            mark = "  " if check.passed else "✗ "
            tolerance_text = "" if check.tolerance is None else f"{check.tolerance:g}"
            lines.append(f"{mark}{check.target:18} {check.field:18} {_text(check.expected):34} "
                         f"{_text(check.actual):34} {tolerance_text}")
        lines += [f"✗ {error}" for error in self.errors]
        return "\n".join(lines)


def _text(value) -> str:
    if value is None or isinstance(value, (bool, int, np.bool_)):
        return str(value)
    if np.ndim(value):
        return "[" + ", ".join(repr(float(v)) for v in np.asarray(value).ravel()) + "]"
    return repr(float(value))


def result_fields(result: SweepResult) -> dict:
    """The comparable fields of a scalar result as plain JSON values."""
    def vector(value):
        return None if value is None else [float(v) for v in value]

    return {"hit": bool(result.hit), "t": None if result.t is None else float(result.t),
            "point": vector(result.point), "normal": vector(result.normal), "face_index": result.face_index,
            "penetration_depth": None if result.penetration_depth is None else float(result.penetration_depth)}


def expected_block(values: dict, tolerances: dict | None = None) -> dict:
    """Field -> {"value", "tolerance"} from plain values (fields given as values only)."""
    tolerances = {**DEFAULT_TOLERANCES, **(tolerances or {})}
    block = {}
    for name, value in values.items():
        entry = {"value": value}
        if name in tolerances and value is not None:
            entry["tolerance"] = tolerances[name]
        block[name] = entry
    return block


def _shapes(scene: Scene, precision: str):
    """The moving shape and every target, built in ``precision``; ``FixtureError``
    naming the object that cannot be (e.g. coordinates beyond float32's range)."""
    def build(scene_object):
        try:
            with np.errstate(over="ignore"):  # beyond float32: refused just below, by name
                return build_shape(scene_object.kind, scene_object.params, PRECISIONS[precision])
        except ValueError as error:
            raise FixtureError(f"object {brief(scene_object.name)} in {precision}: {error}") from None

    if scene.moving is None:
        raise FixtureError("the scene has no moving shape")
    return build(scene.moving_object()), {o.name: build(o) for o in scene.targets()}


def answers(scene: Scene, precision: str = "float64", use_reference: bool = False) -> dict[str, SweepResult]:
    """Each target's answer: analytic (in ``precision``, the moving shape turning as
    the scene says: ``Scene.turn``) or the reference's (float64; it knows no turn, so
    a turning scene has no reference answer: ``FixtureError``).  A target the physics
    has no test for against the moving shape (a moving triangle against a mesh) has no
    answer and is left out.  ``FixtureError`` naming the target whose sweep refuses the
    query (an nlerp turn of pi or more set by an edit), or whose conservative
    advancement ran out of iterations: such a miss is no answer to pin."""
    if use_reference and scene.turns:
        raise FixtureError("the reference (physics.reference) sweeps without turning: a turning scene's expected "
                           "values are the current answer's or typed")
    dtype = PRECISIONS["float64" if use_reference else precision]
    moving, targets = _shapes(scene, "float64" if use_reference else precision)
    direction, turn = np.asarray(scene.direction, dtype=dtype), scene.turn(dtype)
    results = {}
    for name, target in targets.items():
        try:
            if use_reference:
                results[name] = reference_sweep(moving, target, direction)
            else:
                results[name] = sweep(moving, target, direction, ignore_separating=scene.options["ignore_separating"],
                                      **turn)
        except TypeError:
            continue
        except ValueError as error:
            raise FixtureError(f"target {brief(name)}: {error}") from None
        require_converged(name, results[name])
    return results


def require_converged(name: str, result: SweepResult) -> None:
    """``FixtureError`` naming target ``name`` when ``result`` is no answer (``unfinished``)."""
    why = unfinished(result)
    if why:
        raise FixtureError(f"target {brief(name)}: {why}")


def unfinished(result: SweepResult) -> str:
    """Why a turning sweep's answer is none ("" when it is one): its conservative
    advancement ran out of iterations (``result.advancement.converged`` False), so its
    miss only says that no contact comes before ``safe_until``."""
    advancement = result.advancement
    if advancement is None or advancement.converged:
        return ""
    return (f"the conservative advancement ran out of iterations ({advancement.iterations}); contact-free only "
            f"until t = {advancement.safe_until!r}")


def make_fixture(scene: Scene, *, source: str = "current", note: str = "", known_failing: str | None = None,
                 typed: dict[str, dict] | None = None, precision: str = "float64",
                 tolerances: dict | None = None) -> Fixture:
    """A fixture of ``scene`` whose expected values come from ``source``: the current
    analytic answer, the reference answer, or ``typed`` (target -> field -> value)."""
    if source not in SOURCES:
        raise ValueError(f"source must be one of {SOURCES}, got {source!r}")
    if source == "reference":  # bisection's t is ill-conditioned at grazes: ~sqrt(round-off)
        speed = max(1.0, float(np.linalg.norm(scene.direction)))
        tolerances = {"t": tolerance.REFERENCE_TIME_ATOL, "point": tolerance.REFERENCE_TIME_ATOL * speed,
                      **(tolerances or {})}
    if source == "typed":
        expected = {name: expected_block(values, tolerances) for name, values in (typed or {}).items()}
    else:
        found = answers(scene, precision, use_reference=source == "reference")
        expected = {name: expected_block(result_fields(result), tolerances) for name, result in found.items()}
    return Fixture(scene.copy(), expected, note, source, known_failing, precision)


def run_fixture(fixture: Fixture) -> FixtureReport:
    """Sweep and compare every expected field."""
    report = FixtureReport()
    try:
        found = answers(fixture.scene, fixture.precision)
    except (TypeError, ValueError) as error:
        report.errors.append(str(error))
        return report
    for target, fields in fixture.expected.items():
        if target not in found:
            report.errors.append(f"expected answers for {target!r}, which is not a target of the scene")
            continue
        actual = result_fields(found[target])
        for name, entry in fields.items():
            report.checks.append(_check(target, name, entry, actual[name]))
    return report


def _check(target: str, name: str, entry: dict, actual) -> FieldCheck:
    expected, bound = entry["value"], entry.get("tolerance")
    if expected is None or actual is None or name in ("hit", "face_index"):
        passed = expected == actual
    elif name in ("point", "normal"):
        passed = bool(np.max(np.abs(np.asarray(actual) - np.asarray(expected))) <= (bound or 0.0))
    else:
        passed = abs(actual - expected) <= (bound or 0.0)
    return FieldCheck(target, name, expected, actual, bound, bool(passed))


# --- files ------------------------------------------------------------------


def fixture_from_json(data, source_name: str, folder: str | None = None) -> Fixture:
    """Validate a parsed fixture file; ``FixtureError`` naming ``source_name``.  Mesh
    files are taken from ``folder`` (the file's)."""
    def fail(message: str):
        raise FixtureError(f"{source_name}: {message}")

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        fail(f"not a sweeplab fixture (expected \"format\": \"{FORMAT}\")")
    if not is_integer(data.get("version")) or data["version"] > VERSION:
        fail(f"fixture version {brief(data.get('version'))} is not one this sweeplab reads (up to {VERSION})")
    try:
        scene = Scene.from_json(data.get("scene"), folder)
    except SceneError as error:
        fail(f"scene: {error}")
    precision = data.get("precision", "float64")
    if not isinstance(precision, str) or precision not in PRECISIONS:
        fail(f"precision must be one of {sorted(PRECISIONS)}, got {brief(precision)}")
    expected = data.get("expected")
    if not isinstance(expected, dict) or not expected:
        fail("\"expected\" must map target names to expected fields")
    for target, fields in expected.items():
        if target not in scene.names() or target == scene.moving:
            fail(f"expected answers for {brief(target)}, which is not a target of the scene")
        if not isinstance(fields, dict):
            fail(f"expected[{brief(target)}] must be an object")
        for name, entry in fields.items():
            if name not in FIELDS:
                fail(f"expected[{brief(target)}] has unknown field {brief(name)} (fields: {', '.join(FIELDS)})")
            where = f"expected[{brief(target)}][{name!r}]"
            if not isinstance(entry, dict) or "value" not in entry:
                fail(f"{where} must be an object with a \"value\"")
            if not _valid_value(name, entry["value"]):
                fail(f"{where} value must be {VALUE_KINDS[name]}, got {brief(entry['value'])}")
            bound = entry.get("tolerance")
            if bound is not None and not (is_finite_number(bound) and bound >= 0):
                fail(f"{where} tolerance must be a number >= 0")
    for name in ("note", "source"):
        if not isinstance(data.get(name, ""), str):
            fail(f"\"{name}\" must be a string")
    known_failing = data.get("known_failing")
    if known_failing is not None and (not isinstance(known_failing, str) or not known_failing.strip()):
        fail("known_failing must be null or the reason it fails")
    engine = data.get("engine")
    if engine is not None and (not isinstance(engine, dict) or not isinstance(engine.get("name"), str)
                               or not isinstance(engine.get("answers", {}), dict)):
        fail("\"engine\" must be an object with a \"name\" and \"answers\" by target")
    return Fixture(scene, expected, str(data.get("note", "")), str(data.get("source", "typed")), known_failing,
                   precision, engine)


VALUE_KINDS = {"hit": "true or false", "t": "a finite number or null", "penetration_depth": "a finite number or null",
               "point": "a list of 3 finite numbers or null", "normal": "a list of 3 finite numbers or null",
               "face_index": "an integer or null"}
"""What each expected field's value must be, as a fixture's error says it."""


def _valid_value(name: str, value) -> bool:
    """Whether ``value`` is of the kind ``VALUE_KINDS[name]`` says."""
    if name == "hit":
        return isinstance(value, bool)
    if value is None:
        return True
    if name == "face_index":
        return is_integer(value)
    if name in ("point", "normal"):
        return isinstance(value, list) and len(value) == 3 and all(is_finite_number(x) for x in value)
    return is_finite_number(value)


def load_fixture(path) -> Fixture:
    try:
        data = read_json(path)
    except JsonFileError as error:
        raise FixtureError(str(error)) from None
    return fixture_from_json(data, str(path), folder_of(path))


def is_fixture_file(path) -> bool:
    try:
        data = read_json(path)
    except JsonFileError:
        return False
    return isinstance(data, dict) and data.get("format") == FORMAT


def save_fixture(fixture: Fixture, directory, name: str, overwrite: bool = False) -> Path:
    """Write ``directory/name.json`` atomically; never replaces a file unless ``overwrite``."""
    if not NAME_PATTERN.match(name):
        raise ValueError(f"fixture name {name!r} must be letters, digits, '_', '-' or '.'")
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.json"
    if path.exists() and not overwrite:
        raise FileExistsError(f"{path} exists; choose another name or overwrite it explicitly")
    write_text_atomically(path, json.dumps(fixture.to_json(folder_of(path)), indent=2) + "\n")
    return path


def constructor_source(scene_object: SceneObject) -> str:
    """Python that builds the physics shape of ``scene_object`` exactly as the editor
    does, every float written by ``repr`` (exact).  A mesh is written out whole (its
    vertices, faces and pose): the test must not depend on the file or generator it
    came from."""
    shape = KINDS[scene_object.kind].build(scene_object.params)
    if isinstance(shape, TriangleMesh):
        pose = "" if shape.has_identity_pose else \
            f", translation={shape.translation.tolist()!r}, rotation={shape.rotation.tolist()!r}"
        return f"TriangleMesh({shape.vertices.tolist()!r}, {shape.faces.tolist()!r}{pose})"
    if scene_object.kind == "polyhedron":  # its corners in the world, as the editor builds it
        return f"ConvexPolyhedron({posed_vertices(scene_object.params).tolist()!r})"
    arguments = [scene_object.params[parameter.name] for parameter in KINDS[scene_object.kind].parameters]
    return f"{type(shape).__name__}({', '.join(repr(_plain_floats(value)) for value in arguments)})"


def _plain_floats(value):
    """Nested lists of Python floats (an edit may have stored numpy values)."""
    return np.asarray(value, float).tolist()


def pytest_source(scene: Scene, test_name: str = "test_sweep_configuration") -> str:
    """A self-contained pytest function pinning the current answers of ``scene``
    (exact floats via ``repr``), for people who keep their tests in code.  A turning
    scene's sweeps carry its ``rotation``, ``pivot`` and ``interpolation``, and each
    asserts that the conservative advancement converged (a miss is certified)."""
    moving_object = scene.moving_object()
    targets = [o for o in scene.targets()]
    found = answers(scene)

    used = sorted({type(KINDS[o.kind].build(o.params)).__name__ for o in [moving_object, *targets]
                   if o is moving_object or o.name in found})
    lines = [f"def {test_name}():",
             f"    from sweeplab.physics import {', '.join(used + ['sweep'])}",
             "",
             f"    moving = {constructor_source(moving_object)}",
             f"    direction = {scene.direction!r}"]
    options = (", ignore_separating=True" if scene.options["ignore_separating"] else "") + _turn_source(scene)
    for target_object in targets:
        if target_object.name not in found:
            lines += ["", f"    # {target_object.name}: no sweep test for a moving {moving_object.kind} against a "
                          f"{target_object.kind}"]
            continue
        values = result_fields(found[target_object.name])
        lines += ["", f"    # {target_object.name}",
                  f"    result = sweep(moving, {constructor_source(target_object)}, direction{options})",
                  f"    assert result.hit is {values['hit']}"]
        if scene.turns:
            lines.append("    assert result.advancement.converged")
        if not values["hit"]:
            continue
        lines.append(f"    assert abs(result.t - {values['t']!r}) <= {DEFAULT_TOLERANCES['t']!r}")
        for name in ("point", "normal"):
            lines.append(f"    assert max(abs(a - b) for a, b in zip(result.{name}, {values[name]!r})) "
                         f"<= {DEFAULT_TOLERANCES[name]!r}")
        face_index = values["face_index"]
        lines.append("    assert result.face_index is None" if face_index is None
                     else f"    assert result.face_index == {face_index!r}")
        if values["penetration_depth"] is None:
            lines.append("    assert result.penetration_depth is None")
        else:
            lines.append(f"    assert abs(result.penetration_depth - {values['penetration_depth']!r}) <= "
                         f"{DEFAULT_TOLERANCES['penetration_depth']!r}")
    return "\n".join(lines) + "\n"


def _turn_source(scene: Scene) -> str:
    """``sweep``'s turn arguments as Python source (exact floats), "" for a scene that
    does not turn."""
    if not scene.turns:
        return ""
    pivot = None if scene.pivot is None else _plain_floats(scene.pivot)
    return f", rotation={_plain_floats(scene.rotation)!r}, pivot={pivot!r}, interpolation={scene.interpolation!r}"
