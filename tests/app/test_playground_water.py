"""The playground's water in the editor (#37): started with the run, changed while it
runs, drawn as a translucent surface with each body's waterline, and kept with the
recorded frames."""

import numpy as np

from sweeplab.editor import Editor
from sweeplab.playground.buoyancy import Water
from sweeplab.scene.model import Scene, SceneObject
from sweeplab.scene.shape_kinds import KINDS, POLYHEDRA
from sweeplab.view.model import ViewModel
from sweeplab.view.water import SURFACE, WATERLINE, with_water_plane

DT = 1 / 60


def floating() -> Editor:
    """A unit box centred on the water's surface (z = 0.5) and a ball of radius 0.3 above it."""
    box = SceneObject("box", "polyhedron", {**KINDS["polyhedron"].defaults, "vertices": POLYHEDRA["box"],
                                            "origin": [0.0, 0.0, 0.5], "axes": np.eye(3).tolist()})
    ball = SceneObject("ball", "sphere", {"center": [3.0, 0.0, 2.0], "radius": 0.3})
    editor = Editor(Scene([box, ball]))
    editor.start_playground({"box", "ball"}, 0.5, 0.5, True, water=Water(level=0.5, density=2.0))
    return editor


def surfaces(view: ViewModel) -> list:
    return [drawable for drawable in view.drawables if drawable.fill == SURFACE]


def waterlines(view: ViewModel) -> np.ndarray:
    batches = [batch.segments for batch in view.lines if batch.color == WATERLINE]
    return np.concatenate(batches) if batches else np.zeros((0, 2, 3))


def test_the_water_is_drawn_as_a_surface_with_each_cut_bodys_waterline():
    """The surface lies on z = 0.5; the box's waterline is its square cross-section
    there (4 segments, corners at ±0.5); the ball, above, has none."""
    view = floating().view()
    surface, = surfaces(view)
    assert np.allclose(surface.mesh.triangles[..., 2], 0.5)
    lines = waterlines(view)
    assert lines.shape == (4, 2, 3) and np.allclose(lines[..., 2], 0.5)
    assert np.allclose(np.abs(lines[..., :2]), 0.5)


def test_the_water_changed_while_running_is_the_worlds_and_is_drawn_there():
    editor = floating()
    editor.playground_step(DT)
    editor.set_water(Water(level=1.0, density=2.0))
    assert editor.playground.world.water == Water(level=1.0, density=2.0)
    surface, = surfaces(editor.view())
    assert np.allclose(surface.mesh.triangles[..., 2], 1.0)
    editor.set_water(None)
    assert editor.playground.world.water is None and not surfaces(editor.view())


def test_a_bad_water_is_named_on_the_status_line_and_the_water_kept():
    editor = floating()
    editor.set_water({"level": 2.0})  # type: ignore[arg-type]
    assert "water must be a Water or None" in editor.message
    assert editor.playground.world.water == Water(level=0.5, density=2.0)


def test_a_frame_recorded_before_the_water_changed_shows_the_water_it_had():
    """(A change between steps belongs to the frame shown then, as a gizmo move does:
    the recorder amends it; the frames before keep the water they had.)"""
    editor = floating()
    editor.playground_step(DT)
    editor.playground_step(DT)
    editor.set_water(Water(level=0.8, density=2.0))
    editor.playground_step(DT)
    assert editor.playground.recorder.frame(2).state.world["water"] == Water(level=0.8, density=2.0)
    editor.playground_seek(1)
    assert editor.playground.world.water == Water(level=0.5, density=2.0)
    surface, = surfaces(editor.view())
    assert np.allclose(surface.mesh.triangles[..., 2], 0.5)


def test_with_water_plane_skips_loops_of_fewer_than_three_points():
    square = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]])
    view = with_water_plane(ViewModel(), [0.0, 0.0, 0.0], [0.0, 0.0, 1.0], 2.0, [square, np.zeros((0, 3)), square[:2]])
    assert waterlines(view).shape == (4, 2, 3)
    surface, = surfaces(view)
    corners = surface.mesh.triangles.reshape(-1, 3)
    assert len(corners) == 6 and np.allclose(np.abs(corners[:, :2]), 2.0) and np.allclose(corners[:, 2], 0.0)
