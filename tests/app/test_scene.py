"""The scene document: file round trip, validation, atomic saves, undo/redo (no GL)."""

import json
import os

import numpy as np
import pytest

from sweeplab.cli import DEMO_SCENE
from sweeplab.scene.history import SceneHistory
from sweeplab.scene.model import Scene, SceneError, SceneObject, load, save

AWKWARD_FLOATS = [0.1, 1e-300, 5e-324, 1 / 3, -0.0, 2.0 ** 52 + 1, 1e300]


def awkward_scene() -> Scene:
    return Scene([SceneObject("ball", "sphere", {"center": AWKWARD_FLOATS[:3], "radius": AWKWARD_FLOATS[3]}),
                  SceneObject("tri", "triangle", {"a": AWKWARD_FLOATS[4:7], "b": [1.0, 0, 0], "c": [0, 1.0, 0]})],
                 moving="ball", direction=[0.1, 0.2, 0.30000000000000004])


def test_round_trip_is_bit_exact(tmp_path):
    path = tmp_path / "scene.json"
    save(awkward_scene(), path)
    loaded = load(path)
    assert loaded.to_json() == awkward_scene().to_json()
    floats = loaded.object("ball").params["center"] + [loaded.object("ball").params["radius"]]
    assert [f.hex() for f in floats] == [f.hex() for f in AWKWARD_FLOATS[:4]]
    assert str(loaded.object("tri").params["a"][0]) == "-0.0"


def test_moving_object_is_the_named_one_or_a_clear_error():
    scene = awkward_scene()
    assert scene.moving_object() is scene.objects[0]
    scene.moving = None
    with pytest.raises(ValueError, match="no moving shape"):
        scene.moving_object()


def test_demo_scene_loads():
    scene = load(DEMO_SCENE)
    assert scene.moving == "mover" and len(scene.targets()) == 6


@pytest.mark.parametrize("text, message", [
    ("{not json", "not valid JSON"),
    ('{"format": "other", "version": 1}', "not a sweeplab scene"),
    ('{"format": "sweeplab-scene", "version": 99, "objects": []}', "newer than this sweeplab"),
    ('{"format": "sweeplab-scene", "version": 1, "objects": [{"name": "s", "kind": "blob", "params": {}}]}',
     "unknown kind 'blob'"),
    ('{"format": "sweeplab-scene", "version": 1, "objects": [{"name": "s", "kind": "sphere", '
     '"params": {"center": [0, 0, 0], "radius": -1}}]}', "radius must be >= 0"),
    ('{"format": "sweeplab-scene", "version": 1, "objects": [{"name": "s", "kind": "sphere", '
     '"params": {"center": [0, 0], "radius": 1}}]}', "must be a list of 3 numbers"),
    ('{"format": "sweeplab-scene", "version": 1, "objects": [], "moving": "ghost"}', "not an object of the scene"),
])
def test_bad_files_give_a_clear_message(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(SceneError, match=message):
        load(path)
    assert path.read_text() == text


def test_missing_file():
    with pytest.raises(SceneError, match="cannot read"):
        load("/nonexistent/scene.json")


def test_save_is_atomic_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "scene.json"
    save(awkward_scene(), path)
    before = path.read_text()
    broken = awkward_scene()
    broken.objects[0].params["radius"] = object()  # not JSON-serialisable: the write fails midway
    with pytest.raises(TypeError):
        save(broken, path)
    assert path.read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scene.json"]
    assert json.loads(before)["version"] == 2


def test_saving_through_a_symbolic_link_writes_its_target(tmp_path):
    """The rename replaced the link by a file, and the real file kept the old scene."""
    real, link = tmp_path / "real" / "scene.json", tmp_path / "link.json"
    real.parent.mkdir()
    save(awkward_scene(), real)
    link.symlink_to(real)
    moved = awkward_scene()
    moved.direction = [1.0, 2.0, 3.0]
    save(moved, link)
    assert link.is_symlink() and load(real).direction == [1.0, 2.0, 3.0]
    assert sorted(p.name for p in real.parent.iterdir()) == ["scene.json"]


def test_saving_a_file_with_other_hard_links_changes_them_all(tmp_path):
    """A rename gives the name a new file: the other names kept the old scene."""
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    save(awkward_scene(), first)
    os.link(first, second)
    moved = awkward_scene()
    moved.direction = [1.0, 2.0, 3.0]
    save(moved, first)
    assert load(second).direction == [1.0, 2.0, 3.0] and os.path.samefile(first, second)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "b.json"]


def test_an_overwrite_in_place_that_fails_puts_the_old_content_back(tmp_path, monkeypatch):
    """A hard-linked file is overwritten in place: its old content is copied beside it
    first (fsynced), put back when the overwrite fails, and the copy removed."""
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    save(awkward_scene(), first)
    os.link(first, second)
    before, calls, fsync = first.read_text(), [], os.fsync

    def failing_second_fsync(fd):
        calls.append(fd)
        if len(calls) == 2:  # the first is the copy's, the second the overwrite's
            raise OSError(5, "Input/output error")
        fsync(fd)

    monkeypatch.setattr(os, "fsync", failing_second_fsync)
    moved = awkward_scene()
    moved.direction = [1.0, 2.0, 3.0]
    with pytest.raises(OSError, match="Input/output error"):
        save(moved, first)
    assert second.read_text() == before and len(calls) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "b.json"]


def test_a_save_removes_the_stale_temporaries_a_killed_save_left(tmp_path):
    """Only this file's, by their name, and only old ones (a save in progress is young)."""
    path = tmp_path / "scene.json"
    names = [".scene.json.k1ll3d_x.tmp", ".scene.json.y0ung123.tmp", ".scene.json.notours.tmp",
             ".other.json.k1ll3d_x.tmp", ".scene.json.k1ll3d_x.bak"]
    for name in names:
        (tmp_path / name).write_text("{")
    for name in (names[0], names[2], names[3], names[4]):
        os.utime(tmp_path / name, (1.0, 1.0))
    save(awkward_scene(), path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names[1:] + ["scene.json"])


@pytest.mark.parametrize("where, change", [
    ("object 'ball'", lambda scene: scene.object("ball").params.update(radius=float("nan"))),
    ("object 'tri'", lambda scene: scene.object("tri").params["b"].__setitem__(0, float("inf"))),
    ("the direction", lambda scene: scene.direction.__setitem__(2, -float("inf"))),
    ("the rotation", lambda scene: scene.rotation.__setitem__(1, float("nan"))),
    ("the pivot", lambda scene: setattr(scene, "pivot", [0.0, float("inf"), 0.0])),
])
def test_a_scene_holding_nan_or_infinity_is_refused_by_save_naming_where(tmp_path, where, change):
    """It was written (as NaN or Infinity) and then refused by load."""
    path = tmp_path / "scene.json"
    save(awkward_scene(), path)
    before = path.read_text()
    scene = awkward_scene()
    change(scene)
    with pytest.raises(SceneError, match=f"^{where} holds a number that is not finite"):
        save(scene, path)
    assert path.read_text() == before and sorted(p.name for p in tmp_path.iterdir()) == ["scene.json"]


def spy_on_the_save(monkeypatch) -> list:
    """What a save does, in order: ("fsync", inode) and ("replace", temporary, target, inode)."""
    import os

    events, fsync, replace = [], os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (events.append(("fsync", os.fstat(fd).st_ino)), fsync(fd))[1])
    monkeypatch.setattr(os, "replace", lambda source, target: (
        events.append(("replace", str(source), str(target), os.stat(source).st_ino)), replace(source, target))[1])
    return events


def test_the_temporary_file_is_written_beside_the_target(tmp_path, monkeypatch):
    """A rename is atomic only within one file system: a temporary in the system's temp
    folder (another mount) would be copied, not renamed, over the scene."""
    events = spy_on_the_save(monkeypatch)
    save(awkward_scene(), tmp_path / "scene.json")
    (_, temporary, target, _), = [event for event in events if event[0] == "replace"]
    assert target == str(tmp_path / "scene.json") and os.path.dirname(temporary) == str(tmp_path)


def test_the_temporary_file_is_fsynced_before_it_replaces_the_target(tmp_path, monkeypatch):
    events = spy_on_the_save(monkeypatch)
    save(awkward_scene(), tmp_path / "scene.json")
    replaced = next(index for index, event in enumerate(events) if event[0] == "replace")
    assert ("fsync", events[replaced][3]) in events[:replaced]


def test_undo_redo_and_grouped_drags():
    scene = awkward_scene()
    history = SceneHistory(scene)
    edited = history.scene
    edited.direction = [1.0, 0, 0]
    history.commit(edited)
    history.begin_group()
    for x in (1.0, 2.0, 3.0):  # a drag: many commits, one undo step
        dragged = history.scene
        dragged.object("ball").params["center"] = [x, 0.0, 0.0]
        history.commit(dragged)
    history.end_group()
    assert history.scene.object("ball").params["center"] == [3.0, 0.0, 0.0]
    assert history.undo().object("ball").params["center"] == AWKWARD_FLOATS[:3]
    assert history.scene.direction == [1.0, 0, 0]
    assert history.undo().direction == scene.direction
    assert not history.can_undo()
    assert history.redo().direction == [1.0, 0, 0]
    assert history.redo().object("ball").params["center"] == [3.0, 0.0, 0.0]
    assert not history.can_redo()


def test_new_edit_after_undo_drops_the_redo_branch():
    history = SceneHistory(awkward_scene())
    first = history.scene
    first.direction = [1.0, 0, 0]
    history.commit(first)
    history.undo()
    second = history.scene
    second.direction = [2.0, 0, 0]
    history.commit(second)
    assert not history.can_redo() and history.scene.direction == [2.0, 0, 0]


def test_unique_names():
    scene = awkward_scene()
    assert scene.unique_name("ball") == "ball1"
    scene.objects.append(SceneObject("sphere1", "sphere", {"center": [0.0, 0, 0], "radius": 1.0}))
    assert scene.unique_name("sphere") == "sphere2"


def test_history_states_share_nothing_mutable_with_their_copies():
    scene = awkward_scene()
    scene.objects.append(SceneObject("mesh", "mesh", {"source": {"generator": "box", "size": [1.0, 2.0, 3.0]},
                                                      "offset": np.array([1.0, 2.0, 3.0])}))
    history = SceneHistory(scene)
    edited = history.scene
    edited.object("ball").params["center"][0] = 9.0
    edited.object("mesh").params["source"]["size"][1] = 9.0
    edited.object("mesh").params["offset"][2] = 9.0
    edited.direction[0] = 9.0
    edited.options["ignore_separating"] = True
    edited.objects.pop()
    current = history.current
    assert current.object("ball").params["center"] == AWKWARD_FLOATS[:3]
    assert current.object("mesh").params["source"]["size"] == [1.0, 2.0, 3.0]
    assert current.object("mesh").params["offset"].tolist() == [1.0, 2.0, 3.0]
    assert current.direction == [0.1, 0.2, 0.30000000000000004]
    assert current.options == {"ignore_separating": False} and len(current.objects) == 3
    again = history.scene
    assert again is not current and again.object("mesh").params["offset"] is not current.object("mesh").params["offset"]


def test_loading_pauses_the_garbage_collector_and_restores_it(tmp_path):
    """(Loading is linear in the file with the collector paused; its state comes back
    after a load and after a failed one.)"""
    import gc

    assert gc.isenabled()
    load(DEMO_SCENE)
    assert gc.isenabled()
    (tmp_path / "bad.json").write_text('{"format": "sweeplab-scene", "version": 1, "objects": 5}')
    with pytest.raises(SceneError):
        load(tmp_path / "bad.json")
    assert gc.isenabled()
    gc.disable()
    try:
        load(DEMO_SCENE)
        assert not gc.isenabled()
    finally:
        gc.enable()


VERSION_1_FILE = {"format": "sweeplab-scene", "version": 1, "objects": [
    {"name": "ball", "kind": "sphere", "params": {"center": [0.0, 0.0, 3.0], "radius": 0.5}}],
    "moving": "ball", "direction": [0.0, 0.0, -2.0], "options": {"ignore_separating": False}}


def test_a_version_1_file_loads_as_not_turning_and_saves_as_version_2_with_the_turn(tmp_path):
    old = tmp_path / "old.json"
    old.write_text(json.dumps(VERSION_1_FILE))
    scene = load(old)
    assert (scene.rotation, scene.pivot, scene.interpolation, scene.turns) == ([0.0, 0.0, 0.0], None, "slerp", False)
    save(scene, tmp_path / "new.json")
    saved = json.loads((tmp_path / "new.json").read_text())
    assert saved["version"] == 2
    assert (saved["rotation"], saved["pivot"], saved["interpolation"]) == ([0.0, 0.0, 0.0], None, "slerp")
    assert {key: saved[key] for key in VERSION_1_FILE if key != "version"} == \
        {key: value for key, value in VERSION_1_FILE.items() if key != "version"}


def test_the_turn_round_trips_bit_exactly(tmp_path):
    scene = awkward_scene()
    scene.rotation, scene.pivot, scene.interpolation = [0.1, -0.0, 2.0 ** -1074], [1 / 3, 0.0, 1e300], "nlerp"
    save(scene, tmp_path / "turning.json")
    loaded = load(tmp_path / "turning.json")
    assert [x.hex() for x in loaded.rotation + loaded.pivot] == [x.hex() for x in scene.rotation + scene.pivot]
    assert loaded.interpolation == "nlerp" and loaded.turns
    assert str(loaded.rotation[1]) == "-0.0"


def _with_turn(rotation: list[float], interpolation: str) -> dict:
    return {**VERSION_1_FILE, "version": 2, "rotation": rotation, "interpolation": interpolation}


@pytest.mark.parametrize("angle, interpolation, refused", [
    (np.pi, "nlerp", True),  # the physics refuses an nlerp turn of pi or more
    (np.nextafter(np.pi, 0.0), "nlerp", False),  # just inside
    (3.5, "nlerp", True),  # beyond
    (np.pi, "slerp", False),  # slerp turns any angle: several turns in one sweep
    (20.0, "slerp", False),
])
def test_an_nlerp_turn_of_pi_or_more_is_refused_at_load_naming_the_rotation(tmp_path, angle, interpolation, refused):
    """What the physics would refuse is refused when the file is read, not on every
    sweep of the editor; the limit is the physics' own (``turning.Motion``)."""
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(_with_turn([0.0, 0.0, float(angle)], interpolation)))
    if not refused:
        assert load(path).rotation == [0.0, 0.0, float(angle)]
        return
    with pytest.raises(SceneError, match=r'turn.json: "rotation" \[0.0, 0.0, 3.\d+\] with nlerp: '):
        load(path)


def test_a_turn_with_ignore_separating_is_refused_at_load(tmp_path):
    """The physics refuses ignore_separating with a turn; without the turn it loads."""
    path = tmp_path / "turn.json"
    data = {**_with_turn([0.0, 0.0, 1.0], "slerp"), "options": {"ignore_separating": True}}
    path.write_text(json.dumps(data))
    with pytest.raises(SceneError, match='"rotation" \\[0.0, 0.0, 1.0\\] with "ignore_separating"'):
        load(path)
    path.write_text(json.dumps({**data, "rotation": [0.0, 0.0, 0.0]}))
    assert load(path).options["ignore_separating"]


@pytest.mark.parametrize("change, message", [
    ({"rotation": [0.0, 1.0]}, "rotation must be a list of 3 numbers"),
    ({"rotation": [0.0, "1", 0.0]}, "rotation must hold finite numbers"),
    ({"pivot": [0.0, 0.0]}, "pivot must be a list of 3 numbers"),
    ({"pivot": [0.0, 1e999, 0.0]}, "pivot must hold finite numbers"),
    ({"interpolation": "lerp"}, "\"interpolation\" must be one of slerp, nlerp, got 'lerp'"),
])
def test_a_bad_turn_is_refused_by_name(tmp_path, change, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**_with_turn([0.0, 0.0, 1.0], "slerp"), **change}).replace("Infinity", "1e999"))
    with pytest.raises(SceneError, match=message):
        load(path)
