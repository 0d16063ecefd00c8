"""Issue #19's file reproducers: every malformed scene or fixture is refused with the
loader's own error in one line naming what is wrong, never another exception; and a
fuzz of the bundled files (hypothesis replacing values anywhere in them) holds the
loaders to it."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sweeplab.cli import main
from sweeplab.scene.fixture import (FixtureError, fixture_from_json, load_fixture, make_fixture, run_fixture,
                                    save_fixture)
from sweeplab.scene.model import Scene, SceneError, load
from sweeplab.scene.query_log import QueryLogError, read_log
from sweeplab.view.camera import OrbitCamera

ROOT = Path(__file__).resolve().parents[2]
SCENES = sorted((ROOT / "app" / "scenes").glob("*.json"))
DEMO = json.loads((ROOT / "app" / "scenes" / "demo.json").read_text())
MESHES = json.loads((ROOT / "app" / "scenes" / "meshes.json").read_text())
FIXTURE = json.loads(sorted((ROOT / "tests" / "fixtures").glob("*.json"))[0].read_text())


def changed(data: dict, path: tuple, value) -> dict:
    """A deep copy of ``data`` with the value at ``path`` (keys and indices) replaced."""
    data = copy.deepcopy(data)
    holder = data
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = value
    return data


@pytest.mark.parametrize("path, value, message", [
    (("objects",), 5, "\"objects\" must be a list"),
    (("objects",), None, "\"objects\" must be a list"),
    (("objects", 0, "kind"), ["sphere"], "unknown kind"),
    (("objects", 0, "kind"), {}, "unknown kind"),
    (("version",), True, "integer \"version\""),
    (("options", "ignore_separating"), "false", "must be true or false"),
    (("objects", 0, "params", "center"), [10 ** 400, 0, 0], "beyond any float"),
    (("moving",), ["mover"], "\"moving\" names"),
])
def test_malformed_scenes_are_refused_by_name(path, value, message):
    with pytest.raises(SceneError, match=message):
        Scene.from_json(changed(DEMO, path, value))


def test_a_mesh_generator_that_is_not_a_name_is_refused():
    with pytest.raises(SceneError, match="unknown mesh generator"):
        Scene.from_json(changed(MESHES, ("objects", 1, "params", "source", "generator"), ["box"]))


@pytest.mark.parametrize("value", [[1], 5, None])
def test_a_mesh_file_that_is_not_a_path_is_refused_by_name(value, tmp_path, capsys):
    """{"file": [1]} was a TypeError traceback in sweeplab render; {"file": 5} read file
    descriptor 5."""
    scene = changed(MESHES, ("objects", 1, "params", "source"), {"file": value})
    with pytest.raises(SceneError, match="mesh source \"file\" must be a path, got " + re.escape(repr(value))):
        Scene.from_json(scene)
    path = tmp_path / "scene.json"
    path.write_text(json.dumps(scene))
    assert main(["render", str(path), "-o", str(tmp_path / "out.png")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"sweeplab render: {path}: object ") and err.count("\n") == 1


def test_deeply_nested_json_is_refused_in_one_line(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(SceneError, match="too deeply"):
        load(path)
    with pytest.raises(FixtureError, match="too deeply"):
        load_fixture(path)


TARGET = next(iter(FIXTURE["expected"]))


@pytest.mark.parametrize("path, value, message", [
    (("precision",), ["float64"], "precision must be one of"),
    (("expected", TARGET, "t"), {"value": "abc"}, "finite number or null"),
    (("expected", TARGET, "point"), {"value": [0, 0]}, "list of 3 finite numbers"),
    (("expected", TARGET, "hit"), {"value": "yes"}, "true or false"),
    (("expected", TARGET, "face_index"), {"value": 1.5}, "an integer or null"),
    (("version",), True, "version True"),
    (("note",), 7, "\"note\" must be a string"),
    (("expected", TARGET, "t", "tolerance"), -10 ** 400, "tolerance must be a number >= 0"),  # found by the fuzz
])
def test_malformed_fixtures_are_refused_by_name(path, value, message):
    with pytest.raises(FixtureError, match=message):
        fixture_from_json(changed(FIXTURE, path, value), "x.json")


def test_coordinates_beyond_float32_name_the_object_in_a_float32_fixture():
    fixture = make_fixture(Scene.from_json(DEMO), precision="float32")
    fixture.scene = Scene.from_json(changed(DEMO, ("objects", 1, "params", "p"), [1e39, 0, 0]))
    report = run_fixture(fixture)
    assert not report.passed and report.errors == [
        "object 'point' in float32: p must be finite (got NaN or infinity)"]


def test_check_prints_a_lone_surrogate_and_reports_every_file(tmp_path, capfd):
    directory = tmp_path / "fixtures"
    fixture = make_fixture(Scene.from_json(DEMO), note="odd \ud800 note")
    fixture.expected = {name: {"hit": {"value": not fields["hit"]["value"]}} for name, fields in
                        fixture.expected.items()}
    save_fixture(fixture, directory, "odd")
    assert main(["check", str(directory)]) == 1
    assert "odd \\ud800 note" in capfd.readouterr().out


# --- fuzz: any value anywhere, the loader's own error or a valid scene -------------

def _paths(data, prefix=()):
    """Every (path to a value) of nested dicts and lists."""
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, prefix + (key,))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _paths(value, prefix + (index,))


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-10 ** 400, 10 ** 400) | st.floats()
                           | st.text(max_size=8), lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=8)
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.sampled_from(SCENES), st.data(), JSON_VALUES)
def test_fuzzed_scenes_load_or_are_refused_by_the_loader(scene_file, data, value):
    original = json.loads(scene_file.read_text())
    path = data.draw(st.sampled_from([path for path in _paths(original) if path]))
    try:
        scene = Scene.from_json(changed(original, path, value))
    except SceneError:
        return
    assert Scene.from_json(json.loads(json.dumps(scene.to_json()))).names() == scene.names()


def test_a_mesh_size_beyond_float_is_refused_by_the_loader():
    """Found by the fuzz test above: a generator's size of 2.0e308 written as a JSON
    integer raised OverflowError (int too large to convert to float), not SceneError."""
    original = json.loads((ROOT / "app" / "scenes" / "meshes.json").read_text())
    value = 201104409979595972668937550201234493649458059953182496191460302673581738781335575759690920843726923749014228519909314986805260842377961023669730891315231366596111339759576827103096154993818266871312631561206774287754685190839469432631373857645088886027651670083639340066753232260310094216484450634908615231787  # noqa: E501
    with pytest.raises(SceneError, match="size must be a finite number"):
        Scene.from_json(changed(original, ("objects", 1, "params", "source", "size"), value))


@FUZZ
@given(st.data(), JSON_VALUES)
def test_fuzzed_fixtures_load_and_run_or_are_refused_by_the_loader(data, value):
    path = data.draw(st.sampled_from([path for path in _paths(FIXTURE) if path]))
    try:
        fixture = fixture_from_json(changed(FIXTURE, path, value), "fuzzed.json")
    except FixtureError:
        return
    run_fixture(fixture)  # errors are reported in the run, never raised


# --- mesh files ---------------------------------------------------------------------

def _read(path):
    from sweeplab.scene.mesh_sources import _read_file
    return _read_file(path)


def test_an_obj_face_index_of_zero_is_refused(tmp_path):
    """OBJ counts vertices from 1; trimesh took "f 0 1 2" as a two-vertex face."""
    from sweeplab.scene.mesh_sources import MeshSourceError

    path = tmp_path / "zero.obj"
    path.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n")
    with pytest.raises(MeshSourceError, match="line 4: OBJ face indices count from 1"):
        _read(path)
    path.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/1 2/2 3/3\nf -3 -2 -1\n")
    assert _read(path)[1].tolist() == [[0, 1, 2], [0, 1, 2]]


def test_a_mesh_file_too_large_is_refused_before_it_is_read(tmp_path):
    from sweeplab.scene.mesh_sources import MAX_FILE_BYTES, MeshSourceError

    path = tmp_path / "huge.stl"
    with open(path, "wb") as sparse:  # no disk used: a hole of MAX_FILE_BYTES
        sparse.truncate(MAX_FILE_BYTES + 1)
    with pytest.raises(MeshSourceError, match="GiB is read"):
        _read(path)


@pytest.mark.parametrize("content", [bytes(range(256)) * 20, b"\0" * 80 + (1000).to_bytes(4, "little") + b"\0" * 100])
def test_random_bytes_or_a_wrong_triangle_count_are_not_a_mesh(tmp_path, content):
    from sweeplab.scene.mesh_sources import MeshSourceError

    path = tmp_path / "bad.stl"
    path.write_bytes(content)
    with pytest.raises(MeshSourceError):
        _read(path)


# --- numbers JSON holds and Python will not convert -----------------------------------

HUGE_INTEGER = "9" * 5000
"""More digits than Python converts from a string (4,300): ``json.loads`` raises ValueError."""


def test_an_integer_of_5000_digits_is_one_line_and_exit_2_in_check_and_triage(tmp_path, capsys):
    from tests.engines.test_query_log import FLOAT32_LOG

    fixture = tmp_path / "huge.json"
    fixture.write_text(json.dumps(FIXTURE).replace('"version": 1', f'"version": {HUGE_INTEGER}', 1))
    assert main(["check", str(fixture)]) == 2
    out = capsys.readouterr().out
    assert f"ERROR  huge.json: {fixture} holds an integer of more than 4300 digits" in out and HUGE_INTEGER not in out
    log = tmp_path / "huge.jsonl"
    log.write_text(json.dumps(FLOAT32_LOG[0]).replace('"version": 1', f'"version": {HUGE_INTEGER}', 1) + "\n")
    assert main(["triage", str(log)]) == 2
    err = capsys.readouterr().err
    assert err == f"sweeplab triage: {log} line 1 holds an integer of more than 4300 digits\n"


# --- a megabyte where a name or a number belongs --------------------------------------

MEGABYTE = "x" * 2 ** 20
SHORT_PREFIX = "x" * 70 + "…"


@pytest.mark.parametrize("refuse", [
    lambda: Scene.from_json(changed(DEMO, ("moving",), MEGABYTE)),
    lambda: Scene.from_json(changed(DEMO, ("objects", 0, "kind"), MEGABYTE)),
    lambda: Scene.from_json(changed(changed(DEMO, ("objects", 0, "kind"), "blob"), ("objects", 0, "name"), MEGABYTE)),
    lambda: Scene.from_json(changed(MESHES, ("objects", 1, "params", "source", "generator"), MEGABYTE)),
    lambda: Scene.from_json(changed(MESHES, ("objects", 1, "params", "source", "size"), MEGABYTE)),
    lambda: Scene.from_json(changed(MESHES, ("objects", 1, "params", "source"), {"generator": "wall",
                                                                               "width": MEGABYTE})),
    lambda: Scene.from_json(changed(MESHES, ("objects", 1, "params", "source"), {"file": [MEGABYTE]})),
    lambda: fixture_from_json(changed(FIXTURE, ("precision",), MEGABYTE), "x.json"),
    lambda: fixture_from_json(changed(FIXTURE, ("expected", TARGET, "t", "value"), MEGABYTE), "x.json"),
    lambda: fixture_from_json(changed(FIXTURE, ("expected", MEGABYTE), {}), "x.json"),
    lambda: OrbitCamera.parse(MEGABYTE),
], ids=["moving", "kind", "name", "generator", "size", "width", "file", "precision", "expected value", "target",
        "camera"])
def test_errors_quote_a_short_prefix_of_what_they_refuse(refuse):
    with pytest.raises(ValueError) as raised:
        refuse()
    assert SHORT_PREFIX in str(raised.value) and len(str(raised.value)) < 400


@pytest.mark.parametrize("field", [("answer", "t"), ("answer", "point"), ("engine", "precision"), ("version",),
                                   ("moving", "kind")])
def test_a_query_log_quotes_a_short_prefix_of_what_it_refuses(tmp_path, field):
    from tests.engines.test_query_log import FLOAT32_LOG

    path = tmp_path / "log.jsonl"
    path.write_text(json.dumps(changed(FLOAT32_LOG[0], field, [MEGABYTE])) + "\n")
    with pytest.raises(QueryLogError) as raised:
        read_log(path)
    assert SHORT_PREFIX in str(raised.value) and len(str(raised.value)) < 400
