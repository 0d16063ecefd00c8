"""A query log opened in the editor (#22): queries judged, the worst shown, the
engine's answer drawn as a second ghost while the scene is the query as logged."""

from sweeplab.cli import DEMO_SCENE
from sweeplab.editor import Editor
from sweeplab.scene.model import load
from sweeplab.view.model import ENGINE

from tests.engines.test_triage import hand_made_log


def test_file_open_of_a_query_log_shows_the_worst_query_and_the_engines_ghost(tmp_path):
    editor = Editor(load(DEMO_SCENE))
    assert editor.open(hand_made_log(tmp_path / "log.jsonl"))
    assert [verdict.number for verdict in editor.queries] == [1, 2, 3, 4]  # the panel lists them in log order
    assert editor.query.kind == "hit" and editor.query.number == 3  # the worst shown first
    assert editor.scene.names() == ["moving", "target"] and editor.path is None
    assert "4 queries, 3 disagree" in editor.message
    assert editor.engine_answer == ("my-engine", editor.queries[2].query.answer)
    editor.show_query(editor.queries[1])  # engine hit at t = 0.31: its ghost, point-less
    assert any(batch.color == ENGINE for batch in editor.view().lines)
    editor.set_direction([0.0, 0.0, -9.0])  # a new question: the engine never answered it
    assert editor.engine_answer is None and not any(batch.color == ENGINE for batch in editor.view().lines)
    editor.undo()
    assert editor.engine_answer is not None
    editor.new()
    assert editor.queries is None and editor.engine_answer is None


def test_a_bad_log_keeps_the_scene_and_says_why(tmp_path):
    editor = Editor(load(DEMO_SCENE))
    path = tmp_path / "bad.jsonl"
    path.write_text('{"format": "sweeplab-query", "version": 1, "engine": {"name": "x"}}\n')
    assert not editor.open(path) and "bad.jsonl line 1" in editor.message
    assert editor.scene.moving == "mover" and editor.queries is None


def test_copy_as_cpp_and_rust_from_the_editor():
    editor = Editor(load(DEMO_SCENE))
    cpp = editor.copy_as_test("C++", "my_engine_sweep")
    assert cpp.count("TEST_CASE(") == 6 and "my_engine_sweep(moving, target, direction)" in cpp
    assert editor.copy_as_test("Rust", "my_engine_sweep").count("#[test]") == 6
    single = editor.copy_as_test("Rust", "my_engine_sweep", "float32")
    assert single.count("#[test]") == 6 and "f32::from_bits(" in single and "f64::" not in single
    assert editor.copy_as_test("Rust", "not a name") is None and "identifier" in editor.message
