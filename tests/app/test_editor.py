"""Editor commands on the scene, headless: edits, validation, undo, files, autosave."""

import numpy as np
import pytest

from sweeplab.cli import DEMO_SCENE
from sweeplab.editor import Editor
from sweeplab.editor.files import AUTOSAVE_SECONDS
from sweeplab.editor.gizmo_motion import dragged_translation, exact_axis_rotation, float32_matrix
from sweeplab.scene.autosave import beside
from sweeplab.scene.model import Scene, load, save
from sweeplab.scene.shape_kinds import KINDS, POLYHEDRA, RigidMotion, drawn_mesh, posed_vertices
from sweeplab.physics import tolerance


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


@pytest.fixture
def editor():
    return Editor(load(DEMO_SCENE))


def test_typed_values_are_kept_bit_exact(editor):
    editor.set_parameter("mover", "center", [0.1, 1e-300, -0.0])
    editor.set_direction([1 / 3, 0.0, 2.0 ** -40])
    scene = editor.scene
    assert [v.hex() for v in scene.object("mover").params["center"]] == [v.hex() for v in (0.1, 1e-300, -0.0)]
    assert scene.direction == [1 / 3, 0.0, 2.0 ** -40]


def test_invalid_value_is_refused_and_the_scene_kept(editor):
    before = editor.scene.to_json()
    editor.set_parameter("mover", "radius", -1.0)
    assert "radius must be >= 0" in editor.message
    editor.set_parameter("missed polygon", "vertices", [[0, 0, 0], [1, 0, 0], [1, 1, 1], [0, 1, 0]])
    assert "planar" in editor.message
    assert editor.scene.to_json() == before and not editor.history.can_undo()


def test_add_duplicate_delete_and_undo_every_step(editor):
    editor.add("triangle")
    assert editor.selected == "triangle1" and "triangle1" in editor.scene.names()
    added = np.asarray(editor.scene.object("triangle1").params["a"])
    editor.duplicate()
    assert editor.selected == "triangle2"
    np.testing.assert_array_equal(editor.scene.object("triangle2").params["a"], added + [0.5, 0.5, 0.0])
    editor.delete()
    assert "triangle2" not in editor.scene.names() and editor.selected is None
    for _ in range(3):
        editor.undo()
    assert editor.scene.to_json() == load(DEMO_SCENE).to_json()
    editor.redo()
    assert "triangle1" in editor.scene.names()


def test_every_kind_can_be_added_and_moved(editor):
    for kind in KINDS:
        editor.add(kind)
        editor.move_selected(RigidMotion.translate([1.0, 2.0, 3.0]))
        assert editor.message == "", editor.message
    assert len(editor.scene.objects) == 7 + len(KINDS)


def test_a_drag_is_one_undo_step(editor):
    editor.select("triangle")
    start = editor.scene.object("triangle").params["a"]
    editor.begin_drag()
    for _ in range(5):
        editor.move_selected(RigidMotion.translate([0.0, 0.25, 0.0]))
    editor.end_drag()
    assert editor.scene.object("triangle").params["a"] == [start[0], start[1] + 1.25, start[2]]
    editor.undo()
    assert editor.scene.object("triangle").params["a"] == start


def test_rotation_about_the_pivot(editor):
    editor.select("segment")
    quarter_turn = np.array([[0.0, -1, 0], [1, 0, 0], [0, 0, 1]])
    pivot = KINDS["segment"].pivot(editor.scene.object("segment").params)
    editor.move_selected(RigidMotion(quarter_turn, pivot, np.zeros(3)))
    params = editor.scene.object("segment").params
    np.testing.assert_allclose(params["a"], [3.0, 0.0, -1.0])
    np.testing.assert_allclose(params["b"], [1.0, 0.0, 1.0])


def test_plane_moves_with_its_offset(editor):
    editor.select("plane")
    editor.move_selected(RigidMotion.translate([1.0, 5.0, 0.0]))
    assert editor.scene.object("plane").params == {"normal": [1.0, 0.0, 0.0], "offset": 8.5}


def test_end_pose_handle_shifts_the_direction(editor):
    editor.shift_end_pose([0.0, 1.0, 0.0])
    assert editor.scene.direction == [14.0, 1.0, 0.0]


def test_drags_keep_every_coordinate_they_do_not_move_bit_for_bit(editor):
    """#21: a centre's y of -1.4999999999999998 became -1.5 on an X drag; a Z drag of
    the end pose turned direction y 0.0 into -2.2e-16."""
    editor.select("mover")
    editor.set_parameter("mover", "center", [0.1, -1.4999999999999998, -0.0])
    before = float32_matrix(KINDS["sphere"].pivot(editor.scene.object("mover").params))
    after = before.copy()
    after[3, 0] += np.float32(0.37)  # what ImGuizmo hands back after a drag along its X arrow
    editor.move_selected(RigidMotion.translate(dragged_translation(before, after)))
    center = editor.scene.object("mover").params["center"]
    assert center[1] == -1.4999999999999998 and str(center[2]) == "-0.0" and center[0] != 0.1
    editor.set_direction([0.3, 0.0, 1e-17])
    editor.shift_end_pose([0.0, 0.0, 0.5])
    assert editor.scene.direction[:2] == [0.3, 0.0] and editor.scene.direction[2] == 0.5 + 1e-17


def test_a_turn_about_a_world_axis_keeps_that_coordinate():
    """ImGuizmo's z ring, read back in float32, is rebuilt as an exact turn about z."""
    angle = 0.3
    noisy = np.array([[np.cos(angle), -np.sin(angle), 3e-8], [np.sin(angle), np.cos(angle), -2e-8], [1e-8, 0, 1]])
    rotation = exact_axis_rotation(noisy)
    assert list(rotation[2]) == [0, 0, 1] and list(rotation[:, 2]) == [0, 0, 1]
    assert abs(np.arctan2(rotation[1, 0], rotation[0, 0]) - angle) < 1e-7
    params = {"a": [0.1, 0.2, -1.4999999999999998], "b": [1.0, 2.0, 1e-17], "radius": 0.5}
    moved = KINDS["capsule"].moved(params, RigidMotion(rotation, np.array([0.7, 0.1, 3.0]), np.zeros(3)))
    assert moved["a"][2] == -1.4999999999999998 and moved["b"][2] == 1e-17  # (1e-17 - 3) + 3 is 0
    assert moved["a"][:2] != params["a"][:2]


def test_moving_shape_and_options(editor):
    editor.set_moving("triangle")
    assert editor.scene.moving == "triangle"
    editor.set_option("ignore_separating", True)
    assert editor.scene.options["ignore_separating"] is True
    editor.rename("triangle", "wall")
    assert editor.scene.moving == "wall"


def test_view_is_recomputed_only_when_the_scene_changes():
    editor = Editor(load(DEMO_SCENE), clock=lambda: 0.0)  # never still: the second opinions stay off
    first = editor.view()
    assert editor.view() is first
    editor.set_direction([0.0, 14.0, 0.0])
    assert editor.view() is not first


def test_save_open_and_bad_file(tmp_path, editor):
    path = tmp_path / "mine.json"
    assert editor.save(path) and not editor.dirty
    editor.set_direction([1.0, 1.0, 1.0])
    assert editor.dirty
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "sweeplab-scene", "version": 7}')
    assert not editor.open(bad)
    assert "newer than this sweeplab" in editor.message and editor.scene.direction == [1.0, 1.0, 1.0]
    assert editor.open(path) and editor.scene.direction == [14.0, 0.0, 0.0]


def test_autosave_writes_unsaved_edits_beside_the_file(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = tmp_path / "scene.json"
    save(load(DEMO_SCENE), path)
    clock = FakeClock()
    editor = Editor(load(path), path, clock=clock)
    editor.set_direction([1.0, 2.0, 3.0])
    assert editor.autosave() is None  # not due yet
    clock.now += AUTOSAVE_SECONDS
    written = editor.autosave()
    assert written == beside(path) and load(written).direction == [1.0, 2.0, 3.0]
    assert editor.autosave() is None  # nothing new
    editor.save()
    assert not beside(path).exists()


def test_nudge_by_one_ulp_and_by_epsilon(editor):
    editor.select("triangle")
    before = editor.scene.object("triangle").params["a"][1]
    editor.set_nudge_axis(1)
    editor.nudge(+1)
    assert editor.scene.object("triangle").params["a"][1] == np.nextafter(before, np.inf)
    editor.toggle_nudge_mode()
    editor.nudge_epsilon = 0.25
    editor.nudge(-1)
    assert editor.scene.object("triangle").params["a"][1] == np.nextafter(before, np.inf) - 0.25
    editor.toggle_nudge_target()
    editor.nudge(+1)
    assert editor.scene.direction == [14.0, 0.25, 0.0]


def test_save_fixture_from_the_editor_never_overwrites(tmp_path, editor):
    assert editor.save_fixture(tmp_path, "demo", note="demo pinned") == tmp_path / "demo.json"
    assert editor.save_fixture(tmp_path, "demo") is None and "exists" in editor.message
    assert editor.save_fixture(tmp_path, "demo", overwrite=True) is not None


def test_open_a_fixture_shows_expected_against_actual(tmp_path, editor):
    path = editor.save_fixture(tmp_path, "demo")
    opened = Editor(load(DEMO_SCENE))
    assert opened.open(path)
    assert opened.fixture is not None and opened.path is None  # Save never writes a scene over it
    assert opened.fixture_report().passed
    opened.set_direction([14.0, 0.5, 0.0])
    report = opened.fixture_report()
    assert not report.passed and any(c.field == "t" and not c.passed for c in report.checks)


def test_reference_waits_until_the_scene_is_still():
    clock = FakeClock()
    editor = Editor(load(DEMO_SCENE), clock=clock)
    editor.set_direction([14.0, 0.1, 0.0])
    assert all(r.reference is None for r in editor.view().reports)  # mid-drag: fast path only
    clock.now += 1.0
    reports = editor.view().reports
    assert all(r.reference is not None for r in reports if r.result is not None)
    assert not any(r.disagreement for r in reports)


def test_clicking_picks_the_first_shape_along_the_view_ray(editor):
    size = (800, 600)
    camera = editor.camera
    for name in ("triangle", "segment", "point"):
        target = KINDS[editor.scene.object(name).kind].pivot(editor.scene.object(name).params)
        pixel = camera.project(target, size)[0]
        origin, segment = camera.ray(pixel, size)
        np.testing.assert_allclose(camera.project(origin + 0.5 * segment, size)[0], pixel, atol=tolerance.NORMAL_ATOL)
        assert editor.pick(origin, segment, 0.005 * camera.distance) == name
    origin, segment = camera.ray((5, 5), size)  # a corner: empty space
    assert editor.pick(origin, segment, 0.005 * camera.distance) is None


def test_resizing_a_capsule_from_its_drag_start_never_compounds(editor):
    editor.add("capsule")
    original = dict(editor.scene.object("capsule1").params)
    editor.begin_drag()
    for factor in (1.5, 2.0, 3.0):  # the gizmo reports the total factor since the drag began
        editor.resize_selected(original, factor, 2.0)
    editor.end_drag()
    params = editor.scene.object("capsule1").params
    middle = (np.asarray(original["a"]) + original["b"]) / 2
    assert params["a"] == (middle + [0.0, 0.0, -1.5]).tolist() and params["b"] == (middle + [0.0, 0.0, 1.5]).tolist()
    assert params["radius"] == 1.0
    editor.undo()
    assert editor.scene.object("capsule1").params == original
    frame = KINDS["capsule"].axis_frame(params)
    np.testing.assert_allclose(frame[2], [0, 0, 1])
    np.testing.assert_allclose(frame @ frame.T, np.eye(3), atol=tolerance.EXACT_RTOL)


def test_new_shapes_spawn_in_front_of_the_camera_clear_of_the_others(editor):
    """#21 item 14: new shapes appeared at the origin, inside other shapes."""
    editor.camera.target = np.array([2.0, 3.0, 1.0])
    for kind in ("sphere", "sphere", "capsule"):
        editor.add(kind)
    boxes = [drawn_mesh(o.kind, o.params).bounds() for o in editor.scene.objects if o.kind != "plane"]
    for first in range(len(boxes)):
        for second in range(first + 1, len(boxes)):
            (low, high), (other_low, other_high) = boxes[first], boxes[second]
            assert not (np.all(low <= other_high) and np.all(high >= other_low)), (first, second)
    first_sphere = editor.scene.object("sphere1").params["center"]
    assert first_sphere == [2.0, 3.0, 1.0]  # the first lands on the camera's target itself


def test_multi_select_and_delete_in_one_step(editor):
    editor.select("point")
    editor.toggle_in_selection("segment")
    editor.toggle_in_selection("triangle")
    editor.toggle_in_selection("segment")  # out again
    assert editor.selection == ["point", "triangle"] and editor.selected == "triangle"
    editor.delete()
    assert "point" not in editor.scene.names() and "triangle" not in editor.scene.names()
    editor.undo()
    assert {"point", "triangle"} <= set(editor.scene.names())


def test_polyhedra_have_a_pose_in_the_inspector():
    """#21 item 14: a polyhedron has an origin and axes like every other posed shape;
    the identity pose gives its vertices bit for bit; old files load without them."""
    editor = Editor(Scene())
    editor.add_polyhedron("tetrahedron")
    params = editor.scene.object("tetrahedron1").params
    assert set(params) == {"vertices", "origin", "axes"}
    body = [[0.1, -0.0, 1.4999999999999998]] + POLYHEDRA["tetrahedron"][1:]
    editor.set_parameter("tetrahedron1", "vertices", body)
    editor.set_parameter("tetrahedron1", "origin", [0.0, 0.0, 0.0])
    assert [v.hex() for v in posed_vertices(editor.scene.object("tetrahedron1").params)[0]] == \
        [v.hex() for v in body[0]]
    editor.set_parameter("tetrahedron1", "origin", [1.0, 2.0, 0.0])
    editor.move_selected(RigidMotion(exact_axis_rotation(np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0],
                                                                   [0.0, 0.0, 1.0]])),
                                     np.array([1.0, 2.0, 0.0]), np.zeros(3)))
    moved = editor.scene.object("tetrahedron1").params
    assert moved["vertices"] == body  # the body stays; the pose turns
    world = posed_vertices(moved)
    assert world[0][2] == 1.4999999999999998  # a turn about z keeps every z
    np.testing.assert_allclose(world[0][:2], [1.0 + 0.0, 2.0 + 0.1], atol=1e-15)
    old_file = Scene.from_json({"format": "sweeplab-scene", "version": 1, "objects": [
        {"name": "box", "kind": "polyhedron", "params": {"vertices": POLYHEDRA["box"]}}], "direction": [1, 0, 0]})
    assert old_file.object("box").params["origin"] == [0.0, 0.0, 0.0]
