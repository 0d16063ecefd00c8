"""Unsaved work is never lost (#21, items 3 and 4): autosave beside the file or in the
user cache, one file per untitled session, offered back when newer than the file."""

import os
import stat

import pytest

from sweeplab.scene import autosave
from sweeplab.cli import DEMO_SCENE
from sweeplab.editor import Editor
from sweeplab.scene.model import load, save


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "sweeplab" / "autosave"


@pytest.fixture
def scene_file(tmp_path):
    path = tmp_path / "work" / "scene.json"
    path.parent.mkdir()
    save(load(DEMO_SCENE), path)
    return path


def test_autosave_sits_beside_the_scene(tmp_path):
    assert autosave.beside(tmp_path / "a.json") == tmp_path / ".a.json.autosave"


def test_an_unwritable_folder_autosaves_to_the_user_cache(scene_file, cache):
    """#21: a scene in a read-only folder, edited, then closed: OSError, edits gone.
    (Tests run as root, whom permissions do not stop: a folder in the way of the
    autosave file makes the write fail the same way.)"""
    autosave.beside(scene_file).mkdir()
    editor = Editor(load(scene_file), scene_file)
    editor.set_direction([1.0, 2.0, 3.0])
    written = editor.autosave(force=True)
    assert written is not None and written.parent == cache and "not writable" in editor.message
    assert load(written).direction == [1.0, 2.0, 3.0]
    reopened = Editor(load(scene_file), scene_file)
    assert reopened.restorable == written  # offered back from the cache too


def test_each_untitled_session_has_its_own_autosave(cache):
    first, second = Editor(load(DEMO_SCENE)), Editor(load(DEMO_SCENE))
    second.session = first.session + "-other"
    for editor, x in ((first, 1.0), (second, 2.0)):
        editor.set_direction([x, 0.0, 0.0])
        editor.autosave(force=True)
    found = autosave.untitled_autosaves()
    assert len(found) == 2 and sorted(load(path).direction[0] for path in found) == [1.0, 2.0]
    recovering = Editor(load(DEMO_SCENE))
    assert recovering.recover(found[0]) and recovering.dirty and recovering.path is None


def test_a_newer_autosave_is_offered_and_restored_as_an_edit(scene_file):
    editor = Editor(load(scene_file), scene_file)
    editor.set_direction([1.0, 2.0, 3.0])
    written = editor.autosave(force=True)
    os.utime(written, (scene_file.stat().st_mtime + 5,) * 2)
    other = Editor(load(DEMO_SCENE))
    assert other.open(scene_file) and other.restorable == written
    assert other.scene.direction == [14.0, 0.0, 0.0] and not other.dirty
    assert other.restore_autosave()
    assert other.scene.direction == [1.0, 2.0, 3.0] and other.dirty and other.restorable is None
    other.undo()
    assert other.scene.direction == [14.0, 0.0, 0.0] and not other.dirty
    assert other.redo() is None and other.save()
    assert not written.exists() and Editor(load(scene_file), scene_file).restorable is None


def test_an_older_autosave_is_not_offered(scene_file):
    editor = Editor(load(scene_file), scene_file)
    editor.set_direction([1.0, 2.0, 3.0])
    written = editor.autosave(force=True)
    os.utime(written, (scene_file.stat().st_mtime - 5,) * 2)
    assert Editor(load(scene_file), scene_file).restorable is None


def test_undo_back_to_the_saved_state_is_clean(scene_file):
    editor = Editor(load(scene_file), scene_file)
    editor.set_direction([1.0, 2.0, 3.0])
    editor.set_direction([4.0, 2.0, 3.0])
    assert editor.dirty
    editor.undo()
    editor.undo()
    assert not editor.dirty
    editor.redo()
    assert editor.dirty


def test_a_new_edit_after_undo_past_the_saved_state_is_unsaved(scene_file):
    """The edit replaces the saved state on the undo stack: its state id must not be
    the saved state's (ids of the dropped branch are dropped with it)."""
    editor = Editor(load(scene_file), scene_file)
    editor.set_direction([1.0, 2.0, 3.0])
    assert editor.save()
    editor.undo()
    editor.set_direction([4.0, 5.0, 6.0])
    assert editor.dirty


def test_an_autosave_as_old_as_its_file_is_not_offered(scene_file):
    editor = Editor(load(scene_file), scene_file)
    editor.set_direction([1.0, 2.0, 3.0])
    written = editor.autosave(force=True)
    os.utime(written, ns=(scene_file.stat().st_mtime_ns,) * 2)
    assert Editor(load(scene_file), scene_file).restorable is None


def test_the_editor_keeps_a_scene_it_cannot_save_and_says_why(scene_file):
    """A scene holding NaN (which edits refuse, but a scene given to the editor may hold)."""
    editor = Editor(load(scene_file), scene_file)
    broken = editor.history.scene
    broken.objects[0].params["radius"] = float("nan")
    editor.history.commit(broken)
    name = broken.objects[0].name
    assert not editor.save()
    assert editor.message == f"could not save {scene_file}: object {name!r} holds a number that is not finite (NaN " \
                             "or infinity)"
    assert editor.dirty and editor.scene is editor.history.current and load(scene_file).to_json() != broken.to_json()
    assert editor.autosave(force=True) is None and editor.message.startswith("autosave failed: object ")
    assert not autosave.beside(scene_file).exists()


def test_opening_a_file_removes_the_stale_temporaries_a_killed_save_left(scene_file):
    stale = scene_file.with_name(f".{scene_file.name}.k1ll3d_x.tmp")
    stale.write_text("{")
    os.utime(stale, (1.0, 1.0))
    assert Editor(load(DEMO_SCENE)).open(scene_file) and not stale.exists()


def test_saved_files_get_normal_permissions(scene_file, tmp_path):
    old_umask = os.umask(0o022)
    try:
        editor = Editor(load(scene_file), scene_file)
        assert editor.save(tmp_path / "new.json")
        assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o644  # mkstemp's 0600 before
        scene_file.chmod(0o664)
        assert editor.save(scene_file)
        assert stat.S_IMODE(scene_file.stat().st_mode) == 0o664  # an existing file keeps its mode
    finally:
        os.umask(old_umask)


def test_new_scene_is_untitled_and_clean():
    editor = Editor(load(DEMO_SCENE))
    editor.set_direction([1.0, 2.0, 3.0])
    editor.new()
    assert editor.path is None and not editor.dirty and editor.scene.names() == ["ball"]
    assert editor.scene.moving == "ball" and not editor.history.can_undo()
