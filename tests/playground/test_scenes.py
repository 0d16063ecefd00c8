"""The stress scenes (``playground.scenes``, issue #36 section 3) run for a stated
time, checked after every step of 1/60 s:

- nothing through anything: the deepest overlap over every pair of bodies and every
  body with every static shape, by sweeplab's own overlap query (a sweep with zero
  direction: its penetration depth), stays within ``OVERLAP`` (bodies resting on each
  other touch within rounding);
- energy bounded: kinetic plus gravity's potential never above the start's but for
  overlaps within ``OVERLAP`` pushed out (m|g|·OVERLAP a body; a body at rest reads
  zero velocity since main 44d1678);
- at rest where it should be: the speed a body's centre moved over each step
  (displacement / dt) and the velocity it reads under a stated bound after a stated
  time, and asleep (islands sleep after ``sleep.TIME_TO_SLEEP`` still).

Sizes are cut down to keep the suite within CI's budget.  Measured on the 2-core
machine (2026-11-27, compiled kernels, load ~6 from other sessions), CPU a step on
main f99f8fb (sweep and prune, sleep, the solver in floats): a 3-row pyramid (6
boxes) 25 ms over 1 s (asleep from 0.5 s), 6 rows 215 ms, a one-pair card house 53
ms, two storeys (7 cards) 240 ms, the still tumbler with 6 bodies 13 ms, the plate
3.3 ms.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from sweeplab.cli import example_scenes
from sweeplab.editor import Editor
from sweeplab.physics import Capsule, ConvexPolyhedron, sweep
from sweeplab.playground import scenes
from sweeplab.playground.run import PlaygroundRun, body_of
from sweeplab.playground.world import Body, World
from sweeplab.scene.model import load
from sweeplab.scene.shape_kinds import build_shape, posed_vertices

DT = 1 / 60
OVERLAP = 1e-9
"""The deepest two shapes may overlap (m): a resting body is within rounding of what it
rests on, a turning body within ``ccd.TURN_SLOP`` of its reach (1e-9 m a metre)."""


def deepest_overlap(world: World, skip=frozenset()) -> tuple[float, tuple[str, str] | None]:
    """The largest penetration depth between two bodies or a body and a static shape
    (0 when nothing overlaps), and the pair; ``skip`` holds pairs (sorted names) not
    checked."""
    shapes = [(body.name, body.world_shape()) for body in world.bodies]
    near = [(one, other) for (one, body), (other, second) in itertools.combinations(
        zip(shapes, world.bodies, strict=True), 2)  # bounding balls apart: no overlap
        if np.linalg.norm(body.position - second.position) <= body.reach() + second.reach()]
    pairs = itertools.chain(near, itertools.product(shapes, world.statics.items()))
    worst: tuple[float, tuple[str, str] | None] = (0.0, None)
    for (first, a), (second, b) in pairs:
        if tuple(sorted((first, second))) in skip:
            continue
        found = sweep(a, b, np.zeros(3))
        if found.hit and found.penetration_depth is not None and found.penetration_depth > worst[0]:
            worst = (float(found.penetration_depth), (first, second))
    return worst


def energy(world: World) -> float:
    """Kinetic energy plus gravity's potential, -m g·x summed over the bodies."""
    return sum(body.kinetic_energy() - body.mass * float(world.gravity @ body.position) for body in world.bodies)


def allowance(world: World) -> float:
    """How far the energy may rise above the start (J): every body lifted by
    ``OVERLAP`` (m|g|·OVERLAP: an overlap within rounding pushed out)."""
    return sum(body.mass * float(np.linalg.norm(world.gravity)) * OVERLAP for body in world.bodies)


def run(world: World, seconds: float, skip=frozenset()) -> dict:
    """Step ``world`` for ``seconds``, checking after every step: the deepest overlap
    and its pair, the highest energy above the start, and each step's largest speed
    of a body's centre (its displacement over the step / dt)."""
    start = energy(world)
    deepest: tuple[float, tuple[str, str] | None] = (0.0, None)
    rise, speeds = -math.inf, []
    for _ in range(round(seconds / DT)):
        before = [body.position.copy() for body in world.bodies]
        world.step(DT)
        deepest = max(deepest, deepest_overlap(world, skip), key=lambda found: found[0])
        rise = max(rise, energy(world) - start)
        moved = [float(np.linalg.norm(body.position - at)) for body, at in zip(world.bodies, before, strict=True)]
        speeds.append(max(moved) / DT)
    return {"deepest": deepest, "rise": rise, "speeds": speeds}


def test_the_overlap_check_sees_a_box_sunk_into_the_floor_and_one_resting_on_it():
    """The check itself: a box 1e-3 into the floor reads 1e-3, one resting on it 0."""
    world = scenes.pyramid(1)
    assert deepest_overlap(world) == (0.0, None)
    world.bodies[0].position = world.bodies[0].position - [0.0, 0.0, 1e-3]
    depth, pair = deepest_overlap(world)
    assert depth == pytest.approx(1e-3, abs=1e-12) and pair == ("row 0 box 0", "floor")


def test_a_pyramid_of_three_rows_stays_still_and_sleeps():
    """6 unit boxes (restitution 0, friction 0.6), 1 s: no overlap beyond 1e-9 m,
    energy within ``allowance``, every centre moving under 1e-9 m/s and reading under
    1e-9 m/s from the second step (the first settles the warm starts), all asleep at
    the end.  Measured (main 44d1678 and f99f8fb): deepest 1.1e-16 m, energy never
    above the start, centres 1e-14 m/s.  The 20-row pyramid (210 boxes) is too slow to test
    now: see README."""
    world = scenes.pyramid(3)
    found = run(world, 1.0)
    assert found["deepest"][0] <= OVERLAP, found["deepest"]
    assert found["rise"] <= allowance(world)
    assert max(found["speeds"][1:]) < 1e-9
    assert all(np.linalg.norm(body.velocity) < 1e-9 and body.asleep for body in world.bodies)


@pytest.mark.xfail(strict=True, reason="finding: a leaning card pair walks (up to 7 mm/s a step), "
                                         "overlaps 1.6e-8 m and gains 8.3e-5 J")
def test_a_card_pair_stands():
    """Two cards leaning 15° on each other (friction 0.8), 0.25 s: no overlap beyond
    1e-9 m, energy within ``allowance``, centres moving under 1e-6 m/s from the second
    step.  Fails on main eb38d08: the cards overlap 1.1e-8 to 5.5e-8 m in steps 12 to
    15, then the left card slides along +x at ~13 µm/s while the right one climbs
    (+31 µm in 3 s), each step alternating between two states, and the energy rises
    ~1.4e-6 J/s above the start (the pair's m·g·h is 0.11 J).  Worse on main 44d1678:
    they overlap 6.2e-5 m at step 6, the pair walks along +x at ~3.3 mm/s (9.9 and
    8.6 mm in 3 s) while the left card sinks 2.5 mm and the right one climbs 2.1 mm,
    never asleep, reading ~0.08 m/s down, and the energy is up to 8.6e-5 J above the
    start; on main f99f8fb the same walk (9.1 and 7.9 mm in 3 s) with 1.2e-5 m of
    overlap at step 12 and 8.3e-5 J.  Since r10-fix-b (a stalled turning sweep is a
    contact, ``ccd._stalled``): deepest 1.6e-8 m (was 1.16e-5 m on main 8499337), the
    walk the same (a centre up to 6.8e-3 m/s over a step), energy 8.3e-5 J above the
    start.  Causes measured: (1) the pair's end-of-step gaps are 1e-9 to 3.9e-6 m, above
    ``REST_GAP`` · reach (5.8e-10 m), so ``World._come_to_rest`` leaves one card or the
    other falling at g·dt/2 each step (the pairs are in ``_resting``); some gaps are the
    arc a turning card's point leaves its chord by, ½|ω|²·r·dt² (ω 0.03 to 0.07 rad/s:
    7e-8 to 4e-7 m), others a card pushed off the floor faster than its support by the
    card-card contact (its floor contact only pushes: at step 4 the left card's foot
    leaves 4.7e-4 m/s above its support for the last 8.2e-3 s, and ends 3.86e-6 m up).  With ``REST_GAP`` 1e-6 (an
    experiment, not the fix): deepest 1.8e-15 m, 1.4e-6 J, 4.9e-5 m/s.  (2) Steps 0, 3,
    6, 7, 10 of 15 run out of substeps (17): the touching card pair, both turning, is
    swept again every substep and met again 0.45 % of the time left later (touching
    within the sweep's tolerance, no approach at its points: -2e-19 m/s), until
    ``MAX_SUBSTEPS``; the rest of the step unswept, the overlaps 1.5e-9 to 1.7e-8 m
    come in those steps only (``MAX_SUBSTEPS`` 200: 2.6e-9 m, the walk unchanged).
    Two storeys (7 cards) cost 240 ms a step: not tested yet."""
    world = scenes.card_house(1)
    found = run(world, 0.25)
    assert found["deepest"][0] <= OVERLAP, found["deepest"]
    assert found["rise"] <= allowance(world)
    assert max(found["speeds"][1:]) < 1e-6


@pytest.mark.parametrize("ccd", [True, False])
def test_the_spinning_plate_passes_the_thin_wall_only_with_ccd_off(ccd):
    """The plate at 60 m/s spinning at 40 rad/s, 0.25 s, no gravity: with CCD on it
    hits the 1 cm wall, never overlaps it beyond 1e-9 m and never reaches x > 0;
    with CCD off its first step carries it from x = -0.5 to 0.5, wholly past the
    wall, without a contact.  Energy never rises (restitution 0.5 takes some)."""
    world = scenes.spinning_plate(ccd=ccd)
    plate = world.bodies[0]
    start = energy(world)
    lowest = math.inf
    for _ in range(15):
        world.step(DT)
        lowest = min(lowest, float(np.min(plate.world_shape().vertices[:, 0])))
        assert energy(world) <= start * (1 + 1e-12)
        assert deepest_overlap(world)[0] <= OVERLAP
    if ccd:
        assert world.contact_count > 0 and plate.position[0] < 0 and plate.velocity[0] < 0
    else:
        assert world.contact_count == 0 and lowest > 0.005


def test_the_still_tumbler_holds_its_bodies():
    """The tumbler's walls as static shapes (the turning one needs kinematic bodies),
    4 balls and 2 boxes dropped 0.1 m onto its floor, 1 s: nothing overlaps beyond
    1e-9 m, energy within ``allowance``, every body inside, still (its centre moved
    under 1e-9 m/s in the last step) and asleep at the end.  Measured (main 44d1678):
    deepest 2.2e-16 m, energy 8.9e-16 J above the start at most."""
    world = scenes.tumbler(spin=0.0)
    found = run(world, 1.0)
    assert found["deepest"][0] <= OVERLAP, found["deepest"]
    assert found["rise"] <= allowance(world)
    assert found["speeds"][-1] < 1e-9
    for body in world.bodies:
        assert np.all(np.abs(body.position - scenes.TUMBLER_CENTRE) < scenes.TUMBLER_HALF) and body.asleep


def test_the_turning_tumbler_carries_its_bodies_round():
    """The tumbler turning at 1 rad/s about y (its walls kinematic, kept on their
    circles by ``drive_tumbler``), 2 balls and a box, 0.5 s (2 s: ~72 ms a step here,
    too slow to test): nothing overlaps beyond 1e-9 m, every body stays inside the
    turning cube (its centre within the inner half size of the cube's centre, in the
    cube's own axes), the walls' centres stay on their circles to 1e-9 m, and the
    bodies' energy stays under what the walls could give them: lifted across the cube
    and moving at its corners' speed, m(2|g|·h + ½(ω·√3·h)²) a body (h the inner half
    size).  Failed on main 8499337: at step 22 box 0 ended 1.1e-3 m inside "wall z-",
    its face closing on the wall's nearly parallel face where the turning sweep ran out
    of steps, read as a miss (``ccd._stalled``; test_ccd's regression).  Measured since
    (2 s, 120 steps): no overlap at all (deepest 0), ~72 ms a step."""
    world = scenes.tumbler(spin=1.0, balls=2, boxes=1)
    inside = [body for body in world.bodies if not body.kinematic]
    walls = [body for body in world.bodies if body.kinematic]
    radii = [float(np.linalg.norm(wall.position - scenes.TUMBLER_CENTRE)) for wall in walls]
    g, h = float(np.linalg.norm(world.gravity)), scenes.TUMBLER_HALF
    start = sum(body.kinetic_energy() - body.mass * float(world.gravity @ body.position) for body in inside)
    bound = start + sum(body.mass * (2 * g * h + 0.5 * 3 * h * h) for body in inside)
    walls_meet = {tuple(sorted((a.name, b.name))) for a in walls for b in walls if a is not b}  # never collide
    for _ in range(30):
        scenes.drive_tumbler(world, DT)
        world.step(DT)
        assert deepest_overlap(world, walls_meet)[0] <= OVERLAP
        frame = walls[0].rotation  # every wall turns alike: the cube's axes
        for body in inside:
            assert np.all(np.abs(frame.T @ (body.position - scenes.TUMBLER_CENTRE)) < h)
        assert sum(body.kinetic_energy() - body.mass * float(world.gravity @ body.position) for body in inside) <= bound
    for wall, radius in zip(walls, radii, strict=True):
        assert float(np.linalg.norm(wall.position - scenes.TUMBLER_CENTRE)) == pytest.approx(radius, abs=1e-9)


@pytest.mark.xfail(strict=True, reason="finding: the bridge gains 1.5e-3 J in its first step; joints open 9e-3 m")
def test_the_rope_bridge_holds_its_box():
    """20 planks on ball joints, a box dropped onto the middle one, 0.1 s (~600 ms a
    step here: 1 s would take over 30 s): nothing overlaps beyond 1e-9 m, energy
    within ``allowance`` (joints do no work), the box still on the bridge (its centre
    over it, |y| < 0.5, and above 1.5 m: the bridge hangs at 2 m), every joint within
    1e-3 m of joined.  Fails on main 48ddfd4: the energy is 1.5e-3 J above the start
    after the first step (the box has not landed yet), the box and the middle plank
    overlap 8.8e-6 m at step 12 (1.0e-5 m at step 48), and the joints open up to
    6.6e-3 m by step 12 (9.3e-3 m by step 30); the box stays on the bridge.  The first
    step's 1.5e-3 J is the joints' support speed read at the step's end (their target
    Ċ = -½·C̈·left has the planks come back to their anchors moving ~g·dt/2 down, vz
    -0.073 to -0.088 m/s: kinetic 1.56e-3 J, ½·0.46 kg·(g·dt/2)² = 1.54e-3 J, the
    height down 3.3e-5 J), not a gain that grows (1.53e-3 J after 3 steps): contacts
    stop that approach at the step's end (``World._come_to_rest``), joints do not."""
    world = scenes.rope_bridge()
    found = run(world, 0.1)
    load = world.bodies[-1]
    assert found["deepest"][0] <= OVERLAP, found["deepest"]
    assert found["rise"] <= allowance(world)
    assert abs(load.position[1]) < 0.5 and load.position[2] > 1.5
    assert max(world.joint_errors().values()) < 1e-3


def test_the_ragdoll_falls_down_the_stairs_in_one_piece():
    """The ragdoll pushed off the landing, 0.45 s (~180 ms a step here): no part
    through another that it is not joined to, nor through a step or the floor, beyond
    1e-9 m; energy within ``allowance``; every joint within 1e-2 m of joined; it went
    down (the torso lower than it started).  Failed on main 8499337 (an xfail): the
    joints held to 4e-16 m in the fall, it landed at step 16, and at step 25 the knee's
    thigh and shin, joined by a hinge yet colliding, traded impulses that doubled the
    energy at every solve of the same instant (8e106 J, joints 1e52 m apart).  Joined
    bodies no longer collide (``World.joints``): deepest overlap 0, energy at most
    4.4e-16 J above the start, joints within 6.1e-4 m, the torso 0.53 m lower."""
    world = scenes.ragdoll()
    joined = frozenset(tuple(sorted(joint[:2])) for joint in scenes.RAGDOLL_CONES + scenes.RAGDOLL_HINGES)
    torso = world.bodies[0].position[2]
    found = run(world, 0.45, skip=joined)
    assert found["deepest"][0] <= OVERLAP, found["deepest"]
    assert found["rise"] <= allowance(world)
    assert max(world.joint_errors().values()) < 1e-2
    assert world.bodies[0].position[2] < torso


@pytest.mark.parametrize("build, argument, value", [
    (scenes.pyramid, "rows", 0), (scenes.pyramid, "rows", 2.0), (scenes.pyramid, "gap", -0.1),
    (scenes.pyramid, "gap", math.nan), (scenes.card_house, "storeys", 0), (scenes.card_house, "lean", 0.0),
    (scenes.card_house, "lean", scenes.MAX_LEAN + 1e-9), (scenes.spinning_plate, "speed", 0.0),
    (scenes.spinning_plate, "spin", math.inf), (scenes.tumbler, "balls", -1), (scenes.tumbler, "spin", math.nan),
    (scenes.tumbler, "boxes", 24), (scenes.rope_bridge, "links", 0), (scenes.rope_bridge, "sag", 0.0),
    (scenes.rope_bridge, "sag", math.pi / 2), (scenes.ragdoll, "steps", 0), (scenes.ragdoll, "push", math.nan),
])
def test_bad_arguments_name_themselves(build, argument, value):
    with pytest.raises(ValueError, match=argument):
        build(**{argument: value})


@pytest.mark.parametrize("build, arguments", [
    (scenes.pyramid, {"rows": 1, "gap": 0.0}), (scenes.pyramid, {"rows": 2, "gap": 0.999}),
    (scenes.card_house, {"storeys": 1, "lean": 1e-3}), (scenes.card_house, {"storeys": 2, "lean": scenes.MAX_LEAN}),
    (scenes.tumbler, {"spin": 0.0, "balls": 27, "boxes": 0}), (scenes.tumbler, {"spin": 0.0, "balls": 0, "boxes": 0}),
    (scenes.spinning_plate, {"speed": 1e-9, "spin": 0.0}), (scenes.rope_bridge, {"links": 1, "sag": 1e-3}),
    (scenes.rope_bridge, {"links": 20, "sag": math.pi / 2 - 1e-9}), (scenes.ragdoll, {"steps": 1}),
    (scenes.ragdoll, {"steps": 8, "push": 0.0}),
])
def test_arguments_at_their_limits_build(build, arguments):
    world = build(**arguments)
    assert deepest_overlap(world)[0] <= OVERLAP


def corners(body: Body) -> np.ndarray:
    """The body's shape in the world as points, sorted: a polyhedron's corners, a
    capsule's ends, a sphere's centre."""
    shape = body.world_shape()
    points = shape.vertices if isinstance(shape, ConvexPolyhedron) else np.stack([shape.a, shape.b]) \
        if isinstance(shape, Capsule) else np.asarray(shape.center)[None]
    return np.asarray(sorted(map(tuple, np.round(np.asarray(points, float), 12))))


@pytest.mark.parametrize("world", [scenes.pyramid(2), scenes.card_house(1), scenes.spinning_plate(),
                                   scenes.tumbler(spin=0.0, balls=1, boxes=1)], ids=["pyramid", "cards", "plate",
                                                                                   "tumbler"])
def test_a_scene_document_draws_the_world_where_it_is(world):
    """``scene_of``: every body read back by the editor's ``body_of`` in its pose, every
    static shape built back alike; after a step of the run, the scene follows."""
    scene = scenes.scene_of(world)
    for body in world.bodies:
        back = body_of(scene.object(body.name))
        assert np.allclose(back.position, body.position, atol=1e-15)
        assert np.allclose(corners(back), corners(body), atol=1e-14)  # the same pose (its body frame may differ)
        assert back.mass == pytest.approx(body.mass, rel=1e-12)
    for name, shape in world.statics.items():
        back = build_shape(scene.object(name).kind, scene.object(name).params)
        assert np.allclose(np.asarray(back.vertices if isinstance(shape, ConvexPolyhedron) else back.normal),
                           np.asarray(shape.vertices if isinstance(shape, ConvexPolyhedron) else shape.normal))
    run = PlaygroundRun.of_world(scene, world)
    now = run.step(DT)
    for body in world.bodies:
        assert np.allclose(body_of(now.object(body.name)).position, body.position, atol=1e-12)


def test_the_editor_opens_a_stress_scene_running_and_refuses_a_bad_one():
    editor = Editor(load(example_scenes()["playground"]))
    editor.open_stress_scene("spinning plate")
    assert editor.playground is not None and {o.name for o in editor.scene.objects} == {"plate", "wall"}
    editor.playground_step(DT)
    assert np.mean(posed_vertices(editor.scene.object("plate").params)[:, 0]) > -0.45  # it flew (from -0.5)
    opened = editor.scene.to_json()
    editor.open_stress_scene("no such scene")
    assert editor.scene.to_json() == opened and editor.playground is not None  # the scene and its run kept
