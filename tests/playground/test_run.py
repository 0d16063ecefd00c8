"""The playground in the editor (#23): a run of the bundled playground scene, the thin
wall with CCD on and off, the tunnelling step saved as a fixture, Reset."""

import numpy as np
import pytest

from sweeplab.cli import example_scenes
from sweeplab.editor import Editor
from sweeplab.scene.fixture import load_fixture, run_fixture
from sweeplab.scene.model import load


def ball_x(editor: Editor) -> float:
    return editor.scene.object("ball").params["center"][0]


def test_ccd_stops_the_fast_ball_at_the_thin_wall_and_reset_restores_the_scene():
    editor = Editor(load(example_scenes()["playground"]))
    start = editor.scene.to_json()
    editor.start_playground({"crate", "log"}, restitution=0.3, friction=0.5, ccd=True)
    for _ in range(30):
        editor.playground_step(1 / 60)
        assert ball_x(editor) <= 1.0 - 0.0005 - 0.1 + 1e-12
    assert editor.scene.object("crate").params["vertices"] != load(example_scenes()["playground"]).object(
        "crate").params["vertices"]  # the crate fell
    assert not editor.dirty and not editor.history.can_undo()  # frames are not edits
    editor.reset_playground()
    assert editor.scene.to_json() == start and editor.playground is None


def test_without_ccd_the_ball_tunnels_and_that_step_becomes_a_fixture(tmp_path):
    editor = Editor(load(example_scenes()["playground"]))
    editor.start_playground(set(), restitution=0.3, friction=0.5, ccd=False)
    crossed = None
    for step in range(30):
        before = ball_x(editor)
        editor.playground_step(1 / 60)
        if before < 1.0 < ball_x(editor):
            crossed = step
            break
    assert crossed is not None and not editor.playground.world.events  # through, never overlapping
    path = editor.save_step_fixture("ball", tmp_path, "tunnelled")
    fixture = load_fixture(path)
    assert fixture.expected["thin wall"]["hit"]["value"] is True  # the step's sweep finds the wall
    assert run_fixture(fixture).passed
    assert np.isclose(fixture.scene.direction[0], 200 / 60)


def test_an_edit_stops_the_run_and_applies_to_the_scene_as_it_began():
    editor = Editor(load(example_scenes()["playground"]))
    editor.start_playground(set(), restitution=0.3, friction=0.5, ccd=True)
    editor.playground_step(1 / 60)
    editor.set_parameter("ball", "radius", 0.2)
    assert editor.playground is None and ball_x(editor) == -2.0 and editor.history.can_undo()


def test_regression_a_turned_box_keeps_its_mass_and_inertia():
    """Review find: mass and inertia came from the world-axis bounding box: a unit cube
    turned 45 degrees had mass 16 instead of 8."""
    from sweeplab.playground.run import body_of
    from sweeplab.scene.model import SceneObject

    corners = [[x, y, z] for x in (-1.0, 1.0) for y in (-1.0, 1.0) for z in (-1.0, 1.0)]
    turn = [[np.sqrt(0.5), np.sqrt(0.5), 0.0], [-np.sqrt(0.5), np.sqrt(0.5), 0.0], [0.0, 0.0, 1.0]]
    straight = body_of(SceneObject("a", "polyhedron", {"vertices": corners, "origin": [0.0, 0.0, 0.0],
                                                       "axes": np.eye(3).tolist()}))
    turned = body_of(SceneObject("b", "polyhedron", {"vertices": corners, "origin": [1.0, 2.0, 3.0], "axes": turn}))
    assert straight.mass == pytest.approx(8.0) and turned.mass == pytest.approx(8.0)
    np.testing.assert_allclose(turned.inertia, straight.inertia, atol=1e-12)
    np.testing.assert_allclose(turned.world_shape().vertices.mean(axis=0), [1.0, 2.0, 3.0], atol=1e-12)


def test_a_turning_bodys_step_scene_turns_by_the_swept_turn_about_its_centre():
    """#35: the step's sweep scene carries what CCD swept: the crate's turn over the step
    (ω·dt) about its centre of mass; a ball's spin turns nothing (no rotation)."""
    from sweeplab.playground.run import PlaygroundRun

    run = PlaygroundRun(load(example_scenes()["playground"]), {"crate"})
    crate = next(body for body in run.world.bodies if body.name == "crate")
    crate.angular_velocity = np.array([0.0, 3.0, 6.0])
    ball = next(body for body in run.world.bodies if body.name == "ball")
    ball.angular_velocity = np.array([5.0, 0.0, 0.0])
    centre = crate.position.copy()
    run.step(1 / 60)
    scene = run.step_scene("crate")
    np.testing.assert_allclose(scene.rotation, [0.0, 0.05, 0.1], rtol=1e-15)
    np.testing.assert_array_equal(scene.pivot, centre)
    assert run.step_scene("ball").rotation == [0.0, 0.0, 0.0] and run.step_scene("ball").pivot is None


def test_a_run_gives_bodies_and_static_shapes_their_own_materials():
    from sweeplab.playground.materials import Material
    from sweeplab.playground.run import PlaygroundRun

    scene = load(example_scenes()["playground"])
    statics = [o.name for o in scene.objects if o.name not in {"crate", "log", scene.moving}]
    run = PlaygroundRun(scene, {"crate", "log"}, 0.3, 0.5, materials={"crate": Material(0.9, 0.1),
                                                                      statics[0]: Material(0.0, 1.0)})
    assert {body.name: body.material for body in run.world.bodies} == {"crate": Material(0.9, 0.1), "log": None,
                                                                      scene.moving: None}
    assert run.world.materials == {statics[0]: Material(0.0, 1.0)}
    with pytest.raises(ValueError, match=r"^materials name objects the scene does not have: \['nowhere'\]"):
        PlaygroundRun(scene, {"crate"}, materials={"nowhere": Material()})
    with pytest.raises(ValueError, match=r"^materials\['crate'\] must be a Material, got 0.5"):
        PlaygroundRun(scene, {"crate"}, materials={"crate": 0.5})


def test_regression_a_flat_polyhedron_ticked_moving_is_refused_with_a_message_not_a_crash():
    """A hull body needs a volume (exact inertia); the bounding box gave a flat polyhedron
    one of 1e-9.  Starting a run with one ticked raised out of the editor: now the status
    line names it, no run starts and the scene is as it was."""
    from sweeplab.scene.model import SceneObject

    scene = load(example_scenes()["playground"])
    scene.objects.append(SceneObject("sheet", "polyhedron", {
        "vertices": [[0.0, 0.0, 3.0], [1.0, 0.0, 3.0], [0.0, 1.0, 3.0], [1.0, 1.0, 3.0]],
        "origin": [0.0, 0.0, 0.0], "axes": np.eye(3).tolist()}))
    editor = Editor(scene)
    start = editor.scene.to_json()
    editor.start_playground({"crate", "sheet"}, restitution=0.3, friction=0.5, ccd=True)
    assert editor.playground is None and editor.scene.to_json() == start
    assert "sheet" in editor.message and "must span a solid" in editor.message
    editor.playground_step(1 / 60)  # the panel's Step after a refused start: nothing happens
    assert editor.scene.to_json() == start


@pytest.mark.parametrize("kind, params, message", [
    ("sphere", {"center": [0.0, 0.0, 1.0], "radius": 0.0}, "radius must be a finite number > 0"),
    ("capsule", {"a": [0.0, 0.0, 1.0], "b": [1.0, 0.0, 1.0], "radius": 0.0}, "radius must be a finite number > 0"),
    ("polyhedron", {"vertices": [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [2.0, 2.0, 2.0], [3.0, 3.0, 3.0]],
                    "origin": [0.0, 0.0, 0.0], "axes": np.eye(3).tolist()}, "must span a solid")])
def test_a_shape_without_volume_has_no_body_and_is_named(kind, params, message):
    from sweeplab.playground.run import body_of
    from sweeplab.scene.model import SceneObject

    with pytest.raises(ValueError, match=f"^scene_object 'thing': .*{message}"):
        body_of(SceneObject("thing", kind, params))


def test_the_editor_starts_a_run_with_materials_and_names_a_bad_one():
    from sweeplab.playground.materials import Material

    editor = Editor(load(example_scenes()["playground"]))
    editor.start_playground({"crate"}, 0.3, 0.5, True, materials={"crate": Material(1.0, 0.0)})
    assert editor.playground is not None
    assert {body.name: body.material for body in editor.playground.world.bodies}["crate"] == Material(1.0, 0.0)
    editor.reset_playground()
    editor.start_playground({"crate"}, 0.3, 0.5, True, materials={"nowhere": Material()})
    assert editor.playground is None and "materials name objects the scene does not have" in editor.message
