"""The shallow-water pool (``playground.pool``): water kept, a still pool still, waves
at √(g·h), walls that reflect, no negative depth, Archimedes' draft, the water pushing
bodies and bodies pushing the water, and bad arguments refused by name."""

import math

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from sweeplab.cli import example_scenes
from sweeplab.editor import Editor
from sweeplab.physics import ConvexPolyhedron, Plane, Point, sweep
from sweeplab.playground import pool as pool_module
from sweeplab.playground.pool import COURANT, LID_STIFFNESS, Pool
from sweeplab.playground.scenes import duck_pond
from sweeplab.playground.waves import Waves
from sweeplab.playground.world import World, box_body, sphere_body
from sweeplab.scene.model import load
from sweeplab.view.frame import WATER, surface_mesh
from sweeplab.view.model import ViewModel

DT = 1 / 60
G = 9.81


def bump(pool: Pool, centre: float, height: float, width: float) -> None:
    """A Gaussian hump of water along x (the same across y)."""
    xs, _ = pool.centres()
    pool.water = pool.water + height * np.exp(-((xs - centre) / width) ** 2)[:, None]


def channel(cells: int = 200, depth: float = 0.1, cell_size: float = 0.02) -> Pool:
    """A long pool one column wide, undamped: waves along x alone."""
    return Pool((cells, 1), cell_size, depth, damping=0.0)


def crest(pool: Pool, beyond: float) -> float:
    """Where the surface is highest among the columns past x = ``beyond``."""
    xs, _ = pool.centres()
    right = xs > beyond
    return float(xs[right][np.argmax(pool.heights()[right, 0])])


# --- water kept ------------------------------------------------------------------------


def test_water_volume_is_kept_to_1e_9_over_10_s_with_bodies_dropped_in():
    """The issue's test: two bodies dropped into a small pool, 600 steps; the water's
    volume Σ water·A (bodies not counted) read every step.  (The pool's floor holds
    water, not bodies: without the floor plane both fell through it, the volume still
    kept.)"""
    pool = Pool((16, 16), 0.1, 0.3, corner=(-0.8, -0.8))
    ball = sphere_body("ball", [-0.2, 0.1, 0.7], 0.15, density=600.0)
    crate = box_body("crate", [0.15, 0.1, 0.1], [0.25, -0.2, 0.9], density=800.0)
    world = World([ball, crate], {"floor": Plane([0.0, 0.0, 1.0], 0.0)}, pool=pool)
    start, drift, deepest = pool.volume(), 0.0, 0.0
    for _ in range(600):
        world.step(DT)
        drift = max(drift, abs(pool.volume() / start - 1))
        deepest = max(deepest, float(np.max(pool.displaced)))
    assert drift <= 1e-9
    assert deepest > 0.1  # the bodies were in the water
    assert all(0.1 < body.position[2] < 0.4 for body in (ball, crate))  # and float in it
    assert world.time == pytest.approx(10.0)


def test_a_still_pool_stays_still_to_the_bit():
    pool = Pool((9, 7), 0.1, 0.25, corner=(1.0, -2.0), floor=0.5)
    before = pool.heights().copy()
    for _ in range(120):
        pool.step(DT)
    assert np.array_equal(pool.heights(), before)
    assert not np.any(pool.flow_x) and not np.any(pool.flow_y)


def test_a_dam_break_never_leaves_a_negative_depth_and_reaches_the_far_wall():
    """Half the pool 0.5 m deep, half dry: the front runs at up to 2√(g·h) into dry
    columns, which the limiter keeps from being drained below zero."""
    pool = Pool((40, 4), 0.05, 0.0)
    pool.water[:20] = 0.5
    start = pool.volume()
    for _ in range(180):
        pool.step(DT)
        assert np.min(pool.water) >= 0.0
        assert pool.volume() == pytest.approx(start, rel=1e-12)
    assert np.min(pool.water[-1]) > 0.05


# --- waves -----------------------------------------------------------------------------


def test_a_bump_spreads_at_the_shallow_water_wave_speed():
    """A 1 mm hump in water 0.1 m deep splits in two crests running at c = √(g·h) =
    0.990 m/s: after 1.5 s each is 1.486 m out, to within 3 % (two columns)."""
    pool = channel()
    middle = 2.0
    bump(pool, middle, 1e-3, 0.05)
    for _ in range(90):
        pool.step(DT)
    speed = (crest(pool, middle) - middle) / 1.5
    assert speed == pytest.approx(math.sqrt(G * 0.1), rel=0.03)


def test_walls_reflect_the_wave_back():
    """The two crests of a hump in the middle of a 2 m channel meet the walls 1 m away
    and come back: after 2 m / c they are together at the middle again, over half as
    high as the hump, and no water went through a wall."""
    pool = channel(cells=100)
    bump(pool, 1.0, 1e-3, 0.05)
    start = pool.volume()
    back = 2.0 / math.sqrt(G * 0.1)
    steps = round(back / DT)
    for _ in range(steps):
        pool.step(DT)
        assert pool.flow_x[0, 0] == 0.0 and pool.flow_x[-1, 0] == 0.0
    rise = pool.heights()[:, 0] - 0.1
    assert abs(crest(pool, 0.0) - 1.0) <= 0.04
    assert np.max(rise) > 0.5e-3
    assert pool.volume() == pytest.approx(start, rel=1e-12)


# --- the substeps: the Courant number at, inside and outside COURANT --------------------


@pytest.mark.parametrize("scale, expected", [(1.0, 1), (1.0 - 1e-9, 1), (1.0 + 1e-9, 2)])
def test_a_step_is_split_when_its_courant_number_passes_the_limit(scale, expected):
    """c·dt/dx = COURANT exactly: one substep; a hair more: two."""
    depth = 0.1
    dt = COURANT * 0.05 / math.sqrt(G * depth) * scale
    assert Pool((3, 3), 0.05, depth).substeps(dt, G) == expected


def test_a_lid_counts_in_the_substeps():
    pool = Pool((3, 3), 0.05, 0.1)
    assert pool.substeps(DT, G, lidded=True) == math.ceil(
        math.sqrt(G * 0.1 * (1 + LID_STIFFNESS)) * DT / (COURANT * 0.05))


# --- the limiter: a column giving exactly, just under and just over what it holds -------


@pytest.mark.parametrize("share, limited", [(1.0, False), (1.0 - 1e-6, False), (1.0 + 1e-6, True)])
def test_a_column_never_gives_more_than_it_holds(share, limited):
    """One column of 1 cm between dry ones, its two faces' velocities set so that its
    outflow over one substep is ``share`` of its volume: up to all of it flows out as
    asked; more is scaled to all of it (the column left dry, never negative)."""
    pool = Pool((3, 1), 0.1, 0.0, damping=0.0)
    pool.water[1] = 0.01
    tau = 0.01
    speed = share * 0.1 / (2 * tau)  # each face takes half: 2·u·τ·dx·w = share·w·dx²
    pool.flow_x[1, 0], pool.flow_x[2, 0] = -speed, speed
    pool._flow(tau, 0.0)
    assert pool.water[1, 0] >= 0.0
    assert np.sum(pool.water) == pytest.approx(0.01, rel=1e-15)
    if limited:
        assert pool.water[1, 0] == 0.0 and pool.water[0, 0] == pytest.approx(0.005, rel=1e-15)
    else:
        assert pool.water[0, 0] == pytest.approx(0.005 * share, rel=1e-12)


# --- bodies and water ------------------------------------------------------------------


def test_a_floating_box_settles_at_archimedes_draft():
    """A 0.2 m box of density 500 dropped 2 cm into a pool of 5 cm columns (its sides on
    column faces, so its footprint is 16 whole columns): it floats with m/(ρ·A) = 0.1 m
    under the water around it, to 1 mm, once its bobbing has died (damped water, 4 s)."""
    pool = Pool((24, 24), 0.05, 0.2, damping=3.0)
    box = box_body("box", [0.1, 0.1, 0.1], [0.6, 0.6, 0.32], density=500.0)
    world = World([box], {}, pool=pool)
    for _ in range(240):
        world.step(DT)
    level = pool.surface_at(0.025, 0.025)
    draft = level - (box.position[2] - 0.1)
    assert draft == pytest.approx(box.mass / (1000.0 * 0.04), abs=1e-3)
    assert abs(box.velocity[2]) < 0.01


def test_a_thin_plate_settles_for_its_buoyancy_acts_where_it_will_be_half_way_through_the_step():
    """A plate 0.2 m square and 0.1 m thick of density 200 floats 2 cm deep (√(g/draft)·dt
    = 0.37): dropped 2 cm it bobs, and in its fourth second its vertical speed (and 0.1
    m times its turning rate) stays under 3 cm/s (measured 1.8; 4.6 with the buoyancy
    taken where the plate is at the step's start)."""
    pool = Pool((24, 24), 0.05, 0.2, damping=3.0)
    plate = box_body("plate", [0.1, 0.1, 0.05], [0.6, 0.6, 0.27], density=200.0)
    world = World([plate], {}, pool=pool)
    fastest = 0.0
    for step in range(240):
        world.step(DT)
        if step >= 180:
            fastest = max(fastest, abs(plate.velocity[2]), 0.1 * float(np.max(np.abs(plate.angular_velocity))))
    assert fastest < 0.03
    assert pool.surface_at(0.025, 0.025) - (plate.position[2] - 0.05) == pytest.approx(0.02, abs=2e-3)


def test_a_submerged_box_is_pushed_up_by_the_weight_of_the_water_it_displaces():
    """A box of 16 whole columns held 5 cm under still water: ρ·g·V up through its
    centre, no torque, no drag at rest."""
    pool = Pool((12, 12), 0.05, 0.4)
    box = box_body("box", [0.1, 0.1, 0.05], [0.3, 0.3, 0.3], density=500.0)
    load = pool.step(DT, [box], G)["box"]
    assert load.force == pytest.approx([0.0, 0.0, 1000.0 * G * 0.2 * 0.2 * 0.1], rel=1e-12, abs=1e-9)
    assert load.torque == pytest.approx([0.0, 0.0, 0.0], abs=1e-9)


def test_a_body_above_the_water_or_beside_the_pool_gets_nothing():
    pool = Pool((4, 4), 0.1, 0.2)
    above = sphere_body("above", [0.2, 0.2, 0.5], 0.1)
    beside = sphere_body("beside", [3.0, 0.2, 0.1], 0.1)
    assert pool.step(DT, [above, beside], G) == {}
    assert not np.any(pool.displaced)


def test_a_body_lowered_in_pushes_the_water_up_around_it():
    """A kinematic box (no load: it is moved) set into still water: the surface around
    it rises and a wave runs off, the water's volume unchanged."""
    pool = Pool((20, 20), 0.05, 0.2)
    box = box_body("box", [0.1, 0.1, 0.1], [0.5, 0.5, 0.25])
    box.kinematic = True
    start = pool.volume()
    assert pool.step(DT, [box], G) == {}
    assert pool.surface_at(0.63, 0.5) > 0.2 + 1e-2  # the next column out, after one step
    for _ in range(4):
        pool.step(DT, [box], G)
    assert pool.surface_at(0.73, 0.5) > 0.2 + 1e-2  # a wave two columns further out
    assert pool.volume() == pytest.approx(start, rel=1e-14)


@pytest.mark.parametrize("water, displaced", [
    (0.10 - 1e-4, 0.0),                   # below the body's bottom: no lid
    (0.10, 0.0),                          # at the body's bottom: no lid yet
    (0.10 + 1e-4, LID_STIFFNESS * 1e-4),  # just in: K times as high
    (0.10 + 0.05 / LID_STIFFNESS, 0.05),  # the whole body's thickness: full
    (0.30, 0.05),                         # more: the water runs over it
])
def test_a_lid_raises_the_surface_k_times_the_water_pushed_into_the_body(water, displaced):
    got = pool_module._lid(np.array([water]), np.array([0.10]), np.array([0.05]))
    assert got[0] == pytest.approx(displaced, rel=1e-9, abs=1e-15)


def test_settle_puts_the_water_at_rest_level_around_a_body_and_keeps_its_volume():
    pool = Pool((12, 12), 0.05, 0.2)
    box = box_body("box", [0.1, 0.1, 0.1], [0.3, 0.3, 0.2], density=500.0)
    start = pool.volume()
    level = pool.settle([box])
    assert pool.volume() == pytest.approx(start, rel=1e-12)
    assert np.allclose(pool.heights(), level, rtol=0, atol=1e-9)
    # the box's half under water, 0.004 m³, raised the open water over 128 of 144 columns
    assert level - 0.2 == pytest.approx(0.004 * LID_STIFFNESS / (1 + LID_STIFFNESS) / (128 * 0.0025), rel=0.05)


# --- the duck pond -----------------------------------------------------------------------


def raft_motion(drops: int, steps: int = 30) -> float:
    """The raft's largest tilt (radians) over ``steps`` steps of a coarse duck pond (0.5 s:
    1.4 degrees with the drops, 0.04 without, measured)."""
    world = duck_pond(drops, cell_size=0.1)
    raft = next(body for body in world.bodies if body.name == "raft")
    tilt = 0.0
    for _ in range(steps):
        world.step(DT)
        tilt = max(tilt, math.acos(min(1.0, float(raft.rotation[2, 2]))))
    return tilt


def test_drops_make_waves_that_rock_a_floating_raft_and_without_them_it_stays_level():
    still, rocked = raft_motion(0), raft_motion(2)
    assert rocked > math.radians(0.5)
    assert rocked > 5 * still


# --- bad arguments -------------------------------------------------------------------------


@pytest.mark.parametrize("arguments, name", [
    (dict(cells=(0, 3)), "cells"), (dict(cells=(2.5, 3)), "cells"), (dict(cells=(True, 3)), "cells"),
    (dict(cells=4), "cells"), (dict(cell_size=0.0), "cell_size"), (dict(cell_size=math.nan), "cell_size"),
    (dict(depth=-1e-3), "depth"), (dict(depth=math.inf), "depth"), (dict(corner=(1.0,)), "corner"),
    (dict(corner=(0.0, math.nan)), "corner"),
    (dict(corner=("west", "south")), "corner"), (dict(floor=math.nan), "floor"), (dict(density=0.0), "density"),
    (dict(damping=-1.0), "damping"), (dict(drag=math.nan), "drag"),
])
def test_bad_arguments_raise_naming_them(arguments, name):
    given = dict(cells=(4, 4), cell_size=0.1, depth=0.2) | arguments
    with pytest.raises(ValueError, match=name):
        Pool(**given)


@pytest.mark.parametrize("arguments, name", [
    (dict(drops=-1), "drops"), (dict(drops=3), "drops"), (dict(drops=1.0), "drops"),
    (dict(cell_size=0.0), "cell_size"), (dict(cell_size=0.07), "cell_size"), (dict(cell_size=1.0), "cell_size"),
])
def test_the_duck_ponds_bad_arguments_raise_naming_them(arguments, name):
    with pytest.raises(ValueError, match=name):
        duck_pond(**arguments)


def test_bad_step_and_point_raise_naming_them():
    pool = Pool((4, 4), 0.1, 0.2)
    with pytest.raises(ValueError, match="dt"):
        pool.step(0.0)
    with pytest.raises(ValueError, match="g must"):
        pool.step(DT, [], -1.0)
    with pytest.raises(ValueError, match="x must"):
        pool.surface_at(0.41, 0.2)
    with pytest.raises(ValueError, match="y must"):
        pool.surface_at(0.2, math.nan)
    with pytest.raises(ValueError, match="pool must"):
        World([], {}, pool="deep")  # type: ignore[arg-type]
    assert pool.surface_at(0.4, 0.0) == pytest.approx(0.2)  # the far edge is the pool's


def test_a_world_with_a_pool_restores_and_continues_bit_for_bit():
    world = duck_pond(2, cell_size=0.1)
    for _ in range(10):
        world.step(DT)
    state = world.snapshot()
    for _ in range(5):
        world.step(DT)
    after = world.pool.heights().copy(), [body.position.copy() for body in world.bodies]
    world.restore(state)
    for _ in range(5):
        world.step(DT)
    assert np.array_equal(world.pool.heights(), after[0])
    assert all(np.array_equal(body.position, kept) for body, kept in zip(world.bodies, after[1], strict=True))


# --- drawn ---------------------------------------------------------------------------------


def test_the_surface_is_two_triangles_a_column_reaching_the_walls_at_the_columns_mean_heights():
    heights = np.array([[1.0, 2.0, 3.0], [5.0, 6.0, 7.0]])
    mesh = surface_mesh((-1.0, 2.0), 0.5, heights)
    assert mesh.triangles.shape == (2 * 2 * 3, 3, 3)
    corners = mesh.triangles.reshape(-1, 3)
    assert corners[:, 0].min() == -1.0 and corners[:, 0].max() == 0.0
    assert corners[:, 1].min() == 2.0 and corners[:, 1].max() == 3.5
    at = {(x, y): z for x, y, z in corners.tolist()}
    assert at[(-1.0, 2.0)] == 1.0            # a pool corner: its one column
    assert at[(-0.5, 2.5)] == (1 + 2 + 5 + 6) / 4  # inside: the four columns meeting there
    assert at[(0.0, 3.0)] == (6 + 7 + 6 + 7) / 4  # on the far wall: its two columns, each counted twice


def test_the_duck_ponds_run_draws_its_water_at_the_frame_shown():
    editor = Editor(load(example_scenes()["playground"]))
    editor.open_stress_scene("duck pond")
    run = editor.playground
    assert run is not None and run.world.pool is not None
    editor.playground_step(DT)
    editor.playground_step(DT)
    water = [d for d in editor.with_playground_frame(ViewModel()).drawables if d.fill == WATER]
    assert len(water) == 1
    first = run.world.pool.heights().copy()
    editor.playground_seek(0)
    again = [d for d in editor.with_playground_frame(ViewModel()).drawables if d.fill == WATER][0]
    assert not np.array_equal(again.mesh.triangles, water[0].mesh.triangles)  # frame 0's water, not frame 2's
    assert not np.array_equal(run.world.pool.heights(), first)


@pytest.mark.parametrize("turned", [(0.3, -0.5, 0.7), (0.0, 0.0, math.pi / 4)])
def test_a_hulls_vertical_chords_are_where_point_sweeps_enter_and_leave_it(turned):
    """The face planes cut along each vertical line (``_vertical_chords``) against
    ``physics.sweep``'s point sweeps down and up, on a box turned about a slanted axis
    and one turned about z (upright faces): lines through it and lines missing it
    inside its box, at random (a line along an edge touches it: the cut may keep it
    and the sweep miss it, to rounding)."""
    turn = Rotation.from_rotvec(turned).as_matrix()
    hull = ConvexPolyhedron.box([0.3, 0.2, 0.1], [1.0, 2.0, 0.5], rotation=turn)
    vertices = np.asarray(hull.vertices, float)
    low, high = vertices.min(axis=0), vertices.max(axis=0)
    x, y = np.random.default_rng(37).uniform(low[:2], high[:2], (300, 2)).T  # (a line along an edge: either answer)
    bottom, top = pool_module._vertical_chords(hull, x, y, low[2], high[2])
    span = high[2] - low[2] + 2.0
    starts = np.column_stack([x, y, np.full(len(x), high[2] + 1.0)])
    down = sweep(Point(starts), hull, np.array([0.0, 0.0, -span]))
    starts[:, 2] = low[2] - 1.0
    up = sweep(Point(starts), hull, np.array([0.0, 0.0, span]))
    through = top >= bottom
    assert np.array_equal(through, down.hit & up.hit)
    assert 0 < np.sum(through) < len(x)
    assert top[through] == pytest.approx(high[2] + 1.0 - down.t[through] * span, abs=1e-12)
    assert bottom[through] == pytest.approx(low[2] - 1.0 + up.t[through] * span, abs=1e-12)


def test_the_editor_puts_waves_on_the_running_pools_drawing_and_takes_them_off():
    editor = Editor(load(example_scenes()["playground"]))
    editor.set_water_waves(True)  # no run yet: said, nothing changed
    assert "no pool" in editor.message
    editor.open_stress_scene("duck pond")
    pool = editor.playground.world.pool
    calm = [d for d in editor.with_playground_frame(ViewModel()).drawables if d.fill == WATER][0]
    editor.set_water_waves(True)
    assert pool.waves == Waves()
    wavy = [d for d in editor.with_playground_frame(ViewModel()).drawables if d.fill == WATER][0]
    assert not np.array_equal(wavy.mesh.triangles, calm.mesh.triangles)
    editor.set_water_waves(False)
    assert pool.waves is None
    again = [d for d in editor.with_playground_frame(ViewModel()).drawables if d.fill == WATER][0]
    assert np.array_equal(again.mesh.triangles, calm.mesh.triangles)
