"""The editor's state has owners (#33): one value says what is open, set in one place
(``Files.open_document``), which also stops a playground run; each attribute is
written by one concern's module only; the panels set only ``Editor.SETTINGS``."""

from __future__ import annotations

import ast
import inspect
import json
from pathlib import Path

import pytest

import sweeplab
from sweeplab.cli import DEMO_SCENE, example_scenes
from sweeplab.editor import Editor
from sweeplab.editor.opened import FixtureFile, OpenLesson, QueryLog, SceneFile
from sweeplab.scene.fixture import make_fixture, save_fixture
from sweeplab.scene.model import load
from sweeplab.view.lessons import bundled_lessons

APP = Path(sweeplab.__file__).parent
LESSONS, _ = bundled_lessons()
DEMO_OBJECTS = len(load(DEMO_SCENE).objects)


def lesson_editor() -> Editor:
    editor = Editor(load(DEMO_SCENE))
    editor.open_lesson(LESSONS[0])
    editor.show_step(1)
    return editor


@pytest.mark.parametrize("leave", ["open", "new", "recover"])
def test_opening_anything_closes_the_lesson(leave, tmp_path):
    """Was: after a lesson, File > Open and File > New left it open, and the Lesson
    panel went on stepping the unrelated scene."""
    editor = lesson_editor()
    assert editor.lesson is LESSONS[0] and editor.lesson_step == 1
    if leave == "open":
        assert editor.open(DEMO_SCENE)
    elif leave == "new":
        editor.new()
    else:
        (tmp_path / "autosave.json").write_text(DEMO_SCENE.read_text())
        assert editor.recover(tmp_path / "autosave.json")
    assert editor.lesson is None and editor.lesson_step == 0
    selected = editor.selected
    editor.show_step(2)  # what the Lesson panel would call: nothing to step
    assert editor.lesson is None and editor.selected == selected


def test_a_lesson_then_a_fixture_then_a_query_log_are_each_all_that_is_open(tmp_path):
    editor = lesson_editor()
    fixture = save_fixture(make_fixture(load(DEMO_SCENE)), tmp_path, "demo")
    assert editor.open(fixture)
    assert isinstance(editor.opened, FixtureFile) and editor.fixture is not None
    assert editor.lesson is None and editor.queries is None and editor.path is None
    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps({
        "format": "sweeplab-query", "version": 1, "engine": {"name": "mine", "version": "1", "precision": "float64"},
        "moving": {"kind": "sphere", "params": {"center": [0, 0, 0], "radius": 1}},
        "target": {"kind": "sphere", "params": {"center": [5, 0, 0], "radius": 1}},
        "direction": [4, 0, 0], "answer": {"hit": True, "t": 0.75}}) + "\n")
    assert editor.open(log), editor.message
    assert isinstance(editor.opened, QueryLog) and len(editor.queries) == 1 and editor.query is editor.queries[0]
    assert editor.fixture is None and editor.lesson is None and editor.path is None
    assert editor.engine_answer is not None
    editor.open_lesson(LESSONS[1])
    assert isinstance(editor.opened, OpenLesson) and editor.queries is None and editor.engine_answer is None
    editor.close_lesson()
    assert editor.opened == SceneFile(None) and editor.lesson is None


def test_opening_a_file_stops_the_running_playground():
    """Was: with the playground running, File > Open of demo.json was overwritten on
    the next frame (its 7 objects became the playground's 5), as an unsaved edit."""
    editor = Editor(load(example_scenes()["playground"]))
    editor.start_playground({"crate", "log"}, restitution=0.3, friction=0.5, ccd=True)
    editor.playground_step(1 / 60)
    assert editor.open(DEMO_SCENE)
    assert editor.playground is None
    editor.playground_step(1 / 60)  # what the window does on the next frame while "playing"
    assert len(editor.scene.objects) == DEMO_OBJECTS == 7
    assert editor.scene.to_json() == load(DEMO_SCENE).to_json() and not editor.dirty


def test_an_edit_after_opening_is_unsaved_and_undo_returns_to_the_file():
    editor = lesson_editor()
    assert editor.open(DEMO_SCENE) and not editor.dirty and editor.path == DEMO_SCENE
    editor.set_direction([1.0, 2.0, 3.0])
    assert editor.dirty
    editor.undo()
    assert not editor.dirty


# --- ownership: who writes what ---------------------------------------------------

def _self_writes(node: ast.AST) -> set[str]:
    """Attributes of ``self`` assigned (plain, augmented or annotated) anywhere in ``node``."""
    written = set()
    for child in ast.walk(node):
        targets = child.targets if isinstance(child, ast.Assign) else \
            [child.target] if isinstance(child, (ast.AugAssign, ast.AnnAssign)) else []
        for target in targets:
            for element in ast.walk(target):
                if isinstance(element, ast.Attribute) and isinstance(element.value, ast.Name) \
                        and element.value.id == "self" and isinstance(element.ctx, ast.Store):
                    written.add(element.attr)
    return written


def _property_setters() -> set[str]:
    return {name for name, value in inspect.getmembers(Editor) if isinstance(value, property) and value.fset}


def test_every_editor_attribute_is_written_by_one_concern_and_set_up_in_its_init():
    owners: dict[str, list[str]] = {}
    for concern in Editor.__mro__[:-1]:
        tree = ast.parse(inspect.getsource(concern))
        writes = _self_writes(tree) - _property_setters()
        inits = [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
                 and (node.name == "__init__" or node.name.startswith("_init_"))]
        set_up = set().union(*map(_self_writes, inits))
        assert writes <= set_up, f"{concern.__name__} writes {sorted(writes - set_up)} it does not set up in an _init_"
        for attribute in writes:
            owners.setdefault(attribute, []).append(concern.__name__)
    shared = {attribute: names for attribute, names in owners.items() if len(names) > 1}
    assert shared == {}, f"attributes written by more than one concern: {shared}"
    assert "opened" in owners and owners["opened"] == ["Files"]


def test_outside_the_editor_only_the_settings_are_set():
    assignments = []
    for path in APP.rglob("*.py"):
        if path.parent.name == "editor":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
            for target in targets:
                for element in ast.walk(target):
                    if isinstance(element, ast.Attribute) and isinstance(element.ctx, ast.Store) and (
                            isinstance(element.value, ast.Name) and element.value.id == "editor"
                            or isinstance(element.value, ast.Attribute) and element.value.attr == "editor"):
                        assignments.append((path.relative_to(APP).as_posix(), element.attr))
    assert [found for found in assignments if found[1] not in Editor.SETTINGS] == []
    assert {attribute for _, attribute in assignments} <= set(Editor.SETTINGS)
