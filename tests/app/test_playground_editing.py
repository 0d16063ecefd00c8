"""What the editor does to a running playground (``editor.playground``): kinematic
ticks, the gizmo moving bodies live (and the edits that still reset the run), the
mouse spring and the kick."""

import numpy as np
import pytest

from sweeplab.cli import example_scenes
from sweeplab.editor import Editor
from sweeplab.editor.playground import SPRING
from sweeplab.scene.model import Scene, SceneObject, load
from sweeplab.scene.shape_kinds import KINDS, POLYHEDRA, RigidMotion

DT = 1 / 60


def box(name: str, centre) -> SceneObject:
    return SceneObject(name, "polyhedron", {**KINDS["polyhedron"].defaults, "vertices": POLYHEDRA["box"],
                                            "origin": list(centre), "axes": np.eye(3).tolist()})


def pushing() -> Editor:
    """A unit box resting on the floor and a kinematic unit box 0.5 to its left."""
    floor = SceneObject("floor", "plane", {"normal": [0.0, 0.0, 1.0], "offset": 0.0})
    editor = Editor(Scene([floor, box("pusher", [-1.5, 0.0, 0.5]), box("box", [0.0, 0.0, 0.5])]))
    editor.start_playground({"box"}, restitution=0.0, friction=0.5, ccd=True, kinematic={"pusher"})
    return editor


def playground() -> Editor:
    editor = Editor(load(example_scenes()["playground"]))
    editor.start_playground({"crate", "log"}, restitution=0.3, friction=0.5, ccd=True)
    return editor


def test_a_shape_ticked_kinematic_is_a_kinematic_body_that_does_not_fall():
    editor = pushing()
    run = editor.playground
    pusher = run.body("pusher")
    assert pusher.kinematic and not run.body("box").kinematic and run.body("floor") is None
    editor.playground_step(DT)
    assert np.array_equal(pusher.position, [-1.5, 0.0, 0.5])


def test_the_gizmo_moves_a_dynamic_body_in_the_running_world_at_rest_with_no_undo_step():
    editor = playground()
    for _ in range(5):
        editor.playground_step(DT)
    run, undo = editor.playground, editor.history.can_undo()
    log = run.body("log")
    before, time = log.position.copy(), run.world.time
    editor.select("log")
    editor.begin_drag()
    editor.move_selected(RigidMotion.translate([0.0, 0.0, 1.0]))
    editor.end_drag()
    assert editor.playground is run and run.world.time == time  # the run goes on
    assert np.array_equal(log.position, before + [0.0, 0.0, 1.0]) and not np.any(log.velocity)
    assert editor.history.can_undo() == undo
    shown = np.mean([editor.scene.object("log").params[end] for end in ("a", "b")], axis=0)
    assert np.allclose(shown, log.position, rtol=0, atol=1e-12)  # the scene shows it there


def test_the_gizmo_turns_a_dynamic_body_about_its_pivot():
    editor = playground()
    run = editor.playground
    crate = run.body("crate")
    rotation_before = crate.rotation.copy()
    quarter = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    editor.select("crate")
    editor.move_selected(RigidMotion(quarter, crate.position.copy(), np.zeros(3)))
    assert np.allclose(crate.rotation, quarter @ rotation_before, rtol=0, atol=1e-12)


@pytest.mark.xfail(strict=True, reason="finding: since ccd._stalled (cf28f72) the pushed box's turn stalls the "
                   "advancement against the pusher's face and the stall is a contact at one corner: the box leaves "
                   "at 59.98258 m/s, not 60, with 0.0126 m/s sideways and 0.0163 rad/s of yaw (read as a miss before, "
                   "it passed)")
def test_a_kinematic_body_moved_during_a_run_is_driven_there_over_the_next_step_and_pushes():
    editor = pushing()
    editor.playground_step(DT)
    run = editor.playground
    pusher, pushed = run.body("pusher"), run.body("box")
    editor.select("pusher")
    editor.move_selected(RigidMotion.translate([1.0, 0.0, 0.0]))  # 0.5 into the box
    assert pusher.position[0] == -1.5  # not yet: the next step drives it
    shown = np.mean(editor.scene.object("pusher").params["vertices"], axis=0)
    assert np.allclose(shown, [-0.5, 0.0, 0.5], rtol=0, atol=1e-12)  # shown where it is driven to
    editor.playground_step(DT)
    assert abs(pusher.position[0] + 0.5) <= 1e-12 and not np.any(pusher.velocity)  # there, its own velocity back
    assert pushed.position[0] - pusher.position[0] >= 1.0 - 1e-9  # pushed, not passed through
    assert abs(pushed.velocity[0] - 1.0 / DT) <= 1e-6  # leaves at the drive's speed (restitution 0)


@pytest.mark.parametrize("edit", [
    lambda editor: editor.set_parameter("ball", "radius", 0.2),  # a body's shape
    lambda editor: (editor.select("floor"), editor.move_selected(RigidMotion.translate([0.0, 0.0, 0.1]))),
    lambda editor: editor.set_direction([1.0, 0.0, 0.0]),
])
def test_any_other_edit_during_a_run_resets_it_and_applies_to_the_scene_as_it_began(edit):
    editor = playground()
    start = editor.playground.start
    for _ in range(3):
        editor.playground_step(DT)
    edit(editor)
    assert editor.playground is None
    assert editor.scene.object("crate").params == start.object("crate").params  # back where it began


def grabbed() -> tuple[Editor, np.ndarray]:
    """The playground with the crate held by the spring through the camera's ray at its centre."""
    editor = playground()
    crate = editor.playground.body("crate")
    eye = editor.camera.eye()
    assert editor.grab_body(eye, 2 * (crate.position - eye), 1e-3)
    return editor, eye


def test_the_mouse_spring_pulls_the_picked_body_towards_the_mouse_on_the_plane_facing_the_camera():
    editor, eye = grabbed()
    crate = editor.playground.body("crate")
    picked = editor.grab.target.copy()
    assert np.allclose(picked, crate.position + crate.rotation @ editor.grab.offset, rtol=0, atol=1e-12)
    goal = crate.position + [0.0, 0.0, 1.0]
    editor.drag_grab(eye, 3 * (goal - eye))
    target = editor.grab.target
    assert abs(float(editor.grab.normal @ (target - picked))) <= 1e-12  # on the plane through the pick
    assert np.linalg.norm(np.cross(target - eye, goal - eye)) <= 1e-9 * np.linalg.norm(goal - eye) ** 2  # on the ray
    distance = np.linalg.norm(crate.position + crate.rotation @ editor.grab.offset - target)
    for _ in range(30):
        editor.playground_step(DT)
    assert np.linalg.norm(crate.position + crate.rotation @ editor.grab.offset - target) < 0.5 * distance
    assert any(batch.color == SPRING for batch in editor.view().lines)
    editor.release_grab()
    assert editor.grab is None and not any(batch.color == SPRING for batch in editor.view().lines)


def test_only_a_dynamic_body_of_a_run_can_be_held():
    editor = pushing()
    eye = editor.camera.eye()
    for name, centre in (("floor", [3.0, 0.0, 0.0]), ("pusher", [-1.5, 0.0, 0.5])):
        assert not editor.grab_body(eye, 2 * (np.array(centre) - eye), 1e-3), name
    editor.reset_playground()
    assert not editor.grab_body(eye, 2 * (np.array([0.0, 0.0, 0.5]) - eye), 1e-3)  # no run
    assert editor.grab is None


def test_a_kick_changes_the_velocity_by_its_speed_along_the_view_at_the_picked_point():
    editor, eye = grabbed()
    editor.release_grab()
    run = editor.playground
    crate = run.body("crate")
    view = (editor.camera.target - eye) / np.linalg.norm(editor.camera.target - eye)
    velocity, spin, inverse = crate.velocity.copy(), crate.angular_velocity.copy(), crate.inverse_inertia()
    arm = crate.rotation @ editor.picked.offset
    editor.kick("crate", 3.0)
    assert np.allclose(crate.velocity, velocity + 3.0 * view, rtol=0, atol=1e-12)
    assert np.allclose(crate.angular_velocity, spin + inverse @ np.cross(arm, crate.mass * 3.0 * view),
                       rtol=1e-12, atol=1e-12)


def test_a_kick_on_a_static_shape_says_so_and_changes_nothing():
    editor = playground()
    editor.kick("floor", 3.0)
    assert "not a dynamic body" in editor.message and editor.playground is not None


def test_a_sleeping_body_moved_by_the_gizmo_wakes_and_falls():
    editor = pushing()
    for _ in range(60):
        editor.playground_step(DT)
    box = editor.playground.body("box")
    assert box.asleep
    editor.select("box")
    editor.move_selected(RigidMotion.translate([0.0, 0.0, 1.0]))
    for _ in range(10):
        editor.playground_step(DT)
    assert not box.asleep and box.position[2] < 1.5 - 0.1  # falling again


def test_the_panels_own_materials_reach_the_run_and_a_deleted_shapes_is_left_out():
    from sweeplab.playground.materials import Material
    from sweeplab.ui.playground import PlaygroundState, _start

    editor = Editor(load(example_scenes()["playground"]))
    state = PlaygroundState()
    state.dynamic = {"crate"}
    state.materials = {"crate": Material(1.0, 0.0), "floor": Material(0.2, 0.9), "deleted": Material()}
    _start(editor, state)
    run = editor.playground
    assert run is not None and run.body("crate").material == Material(1.0, 0.0)
    assert run.world.materials == {"floor": Material(0.2, 0.9)} and run.body("log") is None


def test_a_block_of_particles_is_added_to_the_run_above_the_view_and_drawn_as_sprites():
    editor = pushing()
    editor.add_particles(30, 0.05)  # a cube of 4 a side, its top layer part-filled
    fluid = editor.playground.world.particles
    assert len(fluid) == 30 and fluid.spacing == 0.05
    assert fluid.positions[:, 2].min() == pytest.approx(editor.camera.target[2] + 0.5 + 0.025)
    editor.add_particles(8, 0.05)
    assert len(editor.playground.world.particles) == 38 and "38 in the run" in editor.message
    editor.playground_step(DT)
    sprites = editor.view().sprites
    assert len(sprites) == 1 and np.array_equal(sprites[0].positions, fluid.positions)
    assert sprites[0].radius == fluid.radius


@pytest.mark.parametrize("count, spacing, said", [(0, 0.05, "count"), (2.5, 0.05, "count"), (10, -0.1, "spacing"),
                                                  (10, float("nan"), "spacing")])
def test_a_bad_particle_block_is_said_and_changes_nothing(count, spacing, said):
    editor = pushing()
    editor.add_particles(count, spacing)
    assert editor.playground.world.particles is None and said in editor.message


def test_particles_of_another_spacing_than_the_fluids_are_refused():
    editor = pushing()
    editor.add_particles(8, 0.05)
    editor.add_particles(8, 0.1)
    assert len(editor.playground.world.particles) == 8 and "spacing must be the fluid's" in editor.message


def test_adding_particles_without_a_run_says_to_start_one():
    editor = Editor(Scene([]))
    editor.add_particles(10, 0.05)
    assert editor.playground is None and "start the playground" in editor.message
