"""Query logs (#22): exact floats in (numbers or hex-float strings), clear errors."""

import json
import math
import re

import numpy as np
import pytest

from sweeplab.scene.query_log import (MOVING, T_SLACK, TARGET, TURN_FIELDS, EngineAnswer, QueryLogError,
                                      decode_floats, is_query_log, query_scene, read_good_lines, read_log, turn_of,
                                      write_log)

FLOAT32_LOG = [  # as a C++ engine computing in float32 would print it (%a)
    {"format": "sweeplab-query", "version": 1, "id": "frame 1812 / body 7",
     "engine": {"name": "my-engine", "version": "2.3.0", "precision": "float32"},
     "moving": {"kind": "sphere", "params": {"center": ["0x0p+0", "0x0p+0", "0x1.4p+2"], "radius": "0x1p+0"}},
     "target": {"kind": "sphere", "params": {"center": [0.0, 0.0, 0.0], "radius": "0x1p+0"}},
     "direction": ["0x0p+0", "-0x0p+0", "-0x1.4p+3"],
     "answer": {"hit": True, "t": "0x1.333334p-2", "point": [0, 0, 1], "normal": ["0x0p+0", "0x0p+0", "0x1p+0"]}},
]


def test_hex_floats_are_read_exactly():
    assert decode_floats(["0x1.8p-2", "-0x1p-1074", " 0x1.fffffffffffffp+1023 "]) == [0.375, -5e-324,
                                                                                       1.7976931348623157e308]
    assert decode_floats({"a": ["0x1p0", 3], "source": {"file": "0xa.dae"}}) == {"a": [1.0, 3],
                                                                               "source": {"file": "0xa.dae"}}
    with pytest.raises(ValueError, match=re.escape("value.a[1]: 'not hex' is not a number or hex float")):
        decode_floats({"a": ["0x1p0", "not hex", 3]})


def test_a_float32_log_with_hex_floats_round_trips(tmp_path):
    path = tmp_path / "engine.jsonl"
    path.write_text("# logged by my-engine\n" + "\n".join(json.dumps(line) for line in FLOAT32_LOG) + "\n\n")
    (query,) = read_log(path)
    assert is_query_log(path)  # after its comment line (#33 item 5: File > Open told by the first line alone)
    assert query.scene.object(MOVING).params["center"] == [0.0, 0.0, 5.0] and query.scene.direction[2] == -10.0
    assert str(query.scene.direction[1]) == "-0.0"
    assert query.answer == EngineAnswer(True, float.fromhex("0x1.333334p-2"), [0.0, 0.0, 1.0], [0.0, 0.0, 1.0])
    assert query.engine.precision == "float32" and query.id == "frame 1812 / body 7"
    write_log([query], tmp_path / "again.jsonl")
    (again,) = read_log(tmp_path / "again.jsonl")
    assert again.to_json() == query.to_json() and is_query_log(tmp_path / "again.jsonl")
    assert again.scene.object(TARGET).params == {"center": [0.0, 0.0, 0.0], "radius": 1.0}


def test_a_turning_query_round_trips_and_a_linear_one_stays_version_1(tmp_path):
    """#35: a turning query is version 2 with ``rotation`` (hex floats read exactly),
    ``pivot`` (absent or null: the centroid) and ``interpolation``; ``turn_of`` gives
    ``sweep``'s keyword arguments for it, none for a query that does not turn, whose
    line is written as before (version 1: an older sweeplab reads it)."""
    turning = json.loads(json.dumps(FLOAT32_LOG[0]))
    turning.update(version=2, rotation=["0x1.8p-2", 0.0, "-0x1p+1"], pivot=[0.0, "0x1p-1", 5.0],
                   interpolation="nlerp")
    centroid = dict(turning, pivot=None, interpolation="slerp")
    path = tmp_path / "turning.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in (turning, centroid, FLOAT32_LOG[0])) + "\n")
    queries = read_log(path)
    assert [turn_of(query.scene) for query in queries] == [
        {"rotation": [0.375, 0.0, -2.0], "pivot": [0.0, 0.5, 5.0], "interpolation": "nlerp"},
        {"rotation": [0.375, 0.0, -2.0], "pivot": None, "interpolation": "slerp"}, {}]
    write_log(queries, tmp_path / "again.jsonl")
    again = [json.loads(line) for line in (tmp_path / "again.jsonl").read_text().splitlines()]
    assert [line["version"] for line in again] == [2, 2, 1]
    assert again[0]["rotation"] == [0.375, 0.0, -2.0] and again[0]["pivot"] == [0.0, 0.5, 5.0]
    assert "pivot" not in again[1] and not set(TURN_FIELDS) & set(again[2])
    assert [turn_of(query.scene) for query in read_log(tmp_path / "again.jsonl")] == [
        turn_of(query.scene) for query in queries]
    linear = query_scene(queries[2].scene.object(MOVING), queries[2].scene.object(TARGET), [0.0, 0.0, -1.0],
                         turn={"rotation": [0.0, 0.0, 0.0]})
    assert not linear.turns and turn_of(linear) == {}


def test_file_open_tells_a_log_after_blank_and_comment_lines(tmp_path):
    """#33 item 5: File > Open looked at the first line only, so a log starting with a
    ``#`` comment (which ``read_log`` and ``triage`` accept) was opened as a scene."""
    query = json.dumps(FLOAT32_LOG[0])
    cases = {"comment": f"# engine 2.3\n{query}\n", "blank and indented comment": f"\n   \n  # a\n{query}\n",
             "comments only": "# nothing logged\n\n", "scene": '{"format": "sweeplab-scene"}\n' + query,
             "empty": ""}
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
    assert {name: is_query_log(tmp_path / name) for name in cases} == {
        "comment": True, "blank and indented comment": True, "comments only": False, "scene": False, "empty": False}
    assert is_query_log(tmp_path / "missing") is False


@pytest.mark.parametrize("change, message", [
    (lambda line: line.update(engine={"name": "x", "precision": "float16"}), "engine precision must be one of"),
    (lambda line: line["moving"]["params"].update(radius="0xzz"), "radius"),
    (lambda line: line["answer"].update(t="nan"), "answer.t must be finite"),
    (lambda line: line["answer"].pop("hit"), "\"hit\": true or false"),
    (lambda line: line.update(version=3), "query version 3 is not one this sweeplab reads"),
    (lambda line: line.update(rotation=[0.0, 0.0, 1.0]), r"rotation: a turning query is version 2 \(this line says "
                                                          r"version 1\)"),
    (lambda line: line.update(version=2, rotation=[0.0, "nan", 1.0]), r"rotation\[1\] must be finite, got 'nan'"),
    (lambda line: line.update(version=2, rotation=[0.0, 1.0]), "rotation must be a list of 3 numbers"),
    (lambda line: line.update(version=2, rotation=[0.0, 0.0, 1.0], pivot=[1.0, "0x1q"]),
     r"pivot\[1\]: '0x1q' is not a number or hex float"),
    (lambda line: line.update(version=2, rotation=[0.0, 0.0, 1.0], interpolation="squad"),
     "\"interpolation\" must be one of slerp, nlerp, got 'squad'"),
    (lambda line: line["target"].update(kind="torus"), "unknown kind 'torus'"),
])
def test_a_bad_line_is_refused_naming_file_line_and_field(tmp_path, change, message):
    line = json.loads(json.dumps(FLOAT32_LOG[0]))
    change(line)
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(FLOAT32_LOG[0]) + "\n" + json.dumps(line) + "\n")
    with pytest.raises(QueryLogError, match=message) as raised:
        read_log(path)
    assert f"{path} line 2" in str(raised.value)


def test_regression_only_numbers_are_decoded_and_an_overflowing_hex_float_is_refused(tmp_path):
    """Review find: every hex-looking string was decoded ("id": "0xdeadbeef" was refused
    as not a string, an engine version "0x10" became "16.0"), and "0x1p99999" escaped
    as an OverflowError traceback."""
    line = json.loads(json.dumps(FLOAT32_LOG[0]))
    line["id"], line["engine"]["version"] = "0xdeadbeef", "0x10"
    path = tmp_path / "log.jsonl"
    path.write_text(json.dumps(line) + "\n")
    (query,) = read_log(path)
    assert query.id == "0xdeadbeef" and query.engine.version == "0x10"
    line["answer"]["t"] = "0x1p99999"
    path.write_text(json.dumps(line) + "\n")
    with pytest.raises(QueryLogError, match="line 1"):
        read_log(path)


def test_regression_a_mesh_path_that_looks_like_hex_is_kept_and_errors_name_the_value(tmp_path):
    """Review finds: a mesh file "0xa.dae" was decoded to 10.0 and crashed in os.stat;
    an overflowing radius was reported as the whole "moving" field; a direction nested
    500 deep escaped as a RecursionError."""
    line = json.loads(json.dumps(FLOAT32_LOG[0]))
    line["target"] = {"kind": "mesh", "params": {"source": {"file": "0xa.dae"}, "origin": [0.0, 0.0, 0.0],
                                                 "axes": [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]}}
    path = tmp_path / "log.jsonl"
    path.write_text(json.dumps(line) + "\n")
    with pytest.raises(QueryLogError, match="0xa.dae"):
        read_log(path)
    line = json.loads(json.dumps(FLOAT32_LOG[0]))
    line["moving"]["params"]["radius"] = "0x1p1024"
    path.write_text(json.dumps(line) + "\n")
    with pytest.raises(QueryLogError, match=r"moving\.params\.radius"):
        read_log(path)
    line = json.loads(json.dumps(FLOAT32_LOG[0]))
    nested = [0.0]
    for _ in range(500):
        nested = [nested]
    line["direction"] = nested
    path.write_text(json.dumps(line) + "\n")
    with pytest.raises(QueryLogError, match="line 1"):
        read_log(path)


def _log_with(tmp_path, change) -> str:
    """A one-query log, ``change`` applied to its line; the path, as messages name it."""
    line = json.loads(json.dumps(FLOAT32_LOG[0]))
    change(line)
    path = tmp_path / "engine.jsonl"
    path.write_text("# my-engine\n" + json.dumps(line) + "\n")
    return str(path)


def _polygon_target(line) -> None:
    line["target"] = {"kind": "polygon", "params": {"vertices": [
        [-9.0, -9.0, 0.0], [9.0, -9.0, 0.0], [9.0, 9.0, 0.0], ["0x1.8q-2", 9.0, 0.0]]}}


@pytest.mark.parametrize("change, message", [
    (lambda line: line["moving"]["params"]["center"].__setitem__(0, "0x1.8q-2"),
     "moving.params.center[0]: '0x1.8q-2' is not a number or hex float"),
    (lambda line: line["moving"]["params"].update(radius="abc"),
     "moving.params.radius: 'abc' is not a number or hex float"),
    (lambda line: line["moving"]["params"].update(radius=""), "moving.params.radius: '' is not a number or hex float"),
    (_polygon_target, "target.params.vertices[3][0]: '0x1.8q-2' is not a number or hex float"),
    (lambda line: line["direction"].__setitem__(2, "-10"),
     "direction[2]: '-10' is not a number or hex float (a decimal in quotes: write it as a JSON number, without"),
    (lambda line: line["answer"].update(t="0.3f"), "answer.t: '0.3f' is not a number or hex float"),
    (lambda line: line["answer"]["normal"].__setitem__(1, "nan"), "answer.normal[1] must be finite, got 'nan'"),
    (lambda line: line["target"]["params"]["center"].__setitem__(1, float("inf")),
     "target.params.center[1] must be finite, got inf"),
])
def test_a_value_that_is_no_number_names_its_full_path(tmp_path, change, message):
    """#34: ``"center": ["0x1.8q-2", 0, 5]`` was answered "must hold finite numbers (not
    NaN, infinity …)", naming neither the element nor what was wrong with it."""
    path = _log_with(tmp_path, change)
    with pytest.raises(QueryLogError, match="^" + re.escape(f"{path} line 2: {message}")):
        read_log(path)


def test_a_good_hex_float_anywhere_is_read_exactly(tmp_path):
    def hex_everywhere(line):
        _polygon_target(line)
        line["target"]["params"]["vertices"][3][0] = "-0x1.2p+3"
        line["direction"][2] = "-0x1.4p+3"
    (query,) = read_log(_log_with(tmp_path, hex_everywhere))
    assert query.scene.object(TARGET).params["vertices"][3] == [-9.0, 9.0, 0.0] and query.scene.direction[2] == -10.0


def _log_of_times(tmp_path, times) -> str:
    """A log of one query a line, the engine answering hit at each of ``times``."""
    lines = []
    for t in times:
        line = json.loads(json.dumps(FLOAT32_LOG[0]))
        line["answer"] = {"hit": True, "t": float(t).hex()}
        lines.append(json.dumps(line))
    path = tmp_path / "times.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_a_t_outside_0_1_is_read_and_warned_about_beyond_a_float32_step(tmp_path):
    """#34: an engine logging seconds (or a distance) for t was accepted silently.  The
    slack is one float32 step above 1 (``T_SLACK``): round-off of an engine computing in
    float32 is no warning, the next float beyond it is."""
    quiet = [0.0, 1.0, -1e-9, 1 + 1e-9, -T_SLACK / 2, 1 + T_SLACK / 2, -T_SLACK, 1 + T_SLACK]
    loud = [math.nextafter(-T_SLACK, -1), math.nextafter(1 + T_SLACK, 2), 1 + 2 * T_SLACK, -1.0, 3.5]
    path = _log_of_times(tmp_path, quiet + loud)
    reading = read_good_lines(path)
    assert [query.answer.t for query in reading.queries] == quiet + loud and not reading.bad_lines  # judged as logged
    assert reading.warnings == [
        f"{path} line {number}: answer t = {t!r} is outside [0, 1]: t is the fraction of the motion travelled"
        " (the engine may log seconds or a distance); judged as logged"
        for number, t in enumerate(loud, len(quiet) + 1)]
    assert T_SLACK == float(np.finfo(np.float32).eps) and 1 + T_SLACK == float(np.nextafter(np.float32(1), 2))


def test_triage_and_file_open_say_the_t_outside_0_1(tmp_path, capsys):
    from sweeplab.cli import DEMO_SCENE, main
    from sweeplab.editor import Editor
    from sweeplab.scene.model import load

    path = _log_of_times(tmp_path, [0.3, 18.0])  # sweeplab: t = 0.3; 18.0: a time in frames, say
    assert main(["triage", path, "--no-reference"]) == 1
    captured = capsys.readouterr()
    assert captured.err == f"sweeplab triage: warning: {path} line 2: answer t = 18.0 is outside [0, 1]: t is the " \
        "fraction of the motion travelled (the engine may log seconds or a distance); judged as logged\n"
    assert "2 queries: 1 agree; 1 real disagreement" in captured.out, captured.out
    editor = Editor(load(DEMO_SCENE))
    assert editor.open(path), editor.message
    assert editor.message.endswith(f"; 1 warning (first: {path} line 2: answer t = 18.0 is outside [0, 1]: t is the "
                                   "fraction of the motion travelled (the engine may log seconds or a distance);"
                                   " judged as logged)"), editor.message
