"""The playground's rigid bodies (#23): energy through elastic bounces, rest without
sinking, no tunneling with CCD (and tunneling without), friction's stopping distance."""

import numpy as np
import pytest

from sweeplab.playground.world import World, box_body, capsule_body, sphere_body
from sweeplab.physics import ConvexPolyhedron, Plane, TriangleMesh

FLOOR = {"floor": Plane([0.0, 0.0, 1.0], 0.0)}
DT = 1 / 60


def energy(world: World) -> float:
    return sum(body.kinetic_energy() - body.mass * float(world.gravity @ body.position) for body in world.bodies)


def test_restitution_1_keeps_a_bouncing_spheres_energy_through_100_bounces():
    ball = sphere_body("ball", [0.0, 0.0, 2.0], 0.5)
    world = World([ball], FLOOR, restitution=1.0, friction=0.0)
    start = energy(world)
    speeds = []
    while len(world.events) < 100:
        bounces = len(world.events)
        world.step(DT)
        if len(world.events) > bounces:
            speeds.append(float(np.linalg.norm(ball.velocity)))
    assert abs(energy(world) - start) <= 1e-9 * start
    kinetic_at_contact = [event.impulse ** 2 / (8 * ball.mass) for event in world.events]  # j = 2 m v
    assert max(kinetic_at_contact) - min(kinetic_at_contact) <= 1e-9 * max(kinetic_at_contact)


def test_restitution_0_comes_to_rest_on_the_surface_without_sinking():
    ball = sphere_body("ball", [0.3, -0.2, 2.0], 0.5)
    world = World([ball], FLOOR, restitution=0.0, friction=0.5)
    heights = []
    for _ in range(600):
        world.step(DT)
        heights.append(ball.position[2])
    assert min(heights) >= 0.5 - 1e-15 and heights[-60:] == [0.5] * 60  # at rest: the same floats every step


@pytest.mark.parametrize("speed", [1.0, 10.0, 1e2, 1e3, 1e4, 1e5, 1e6])
def test_no_tunneling_through_a_thin_wall_with_ccd(speed):
    ball = sphere_body("ball", [-1.0, 0.0, 1.0], 0.1)
    ball.velocity = np.array([speed, 0.0, 0.0])
    wall = ConvexPolyhedron.box([0.0005, 2.0, 2.0], center=[0.5, 0.0, 1.0])  # 1e-3 thick
    world = World([ball], {"wall": wall}, restitution=0.5, friction=0.0, gravity=np.zeros(3))
    for _ in range(120):  # 2 s: even at 1 unit/s the ball reaches the wall
        world.step(DT)
        assert ball.position[0] <= 0.4995 - 0.1 + 1e-12
    assert world.events and world.events[0].second == "wall"


@pytest.mark.parametrize("speed", [1e2, 1e6])
def test_without_ccd_a_fast_sphere_tunnels(speed):
    ball = sphere_body("ball", [-1.0, 0.0, 1.0], 0.1)
    ball.velocity = np.array([speed, 0.0, 0.0])
    wall = ConvexPolyhedron.box([0.0005, 2.0, 2.0], center=[0.5, 0.0, 1.0])
    world = World([ball], {"wall": wall}, restitution=0.5, friction=0.0, gravity=np.zeros(3), ccd=False)
    world.step(DT)
    assert ball.position[0] > 0.5 and not world.events  # through, and it never overlapped the wall


def test_friction_stops_a_sliding_box_within_v_squared_over_2_mu_g():
    mu, speed = 0.5, 3.0
    box = box_body("box", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5])
    box.velocity = np.array([speed, 0.0, 0.0])
    world = World([box], FLOOR, restitution=0.0, friction=mu)
    for _ in range(300):  # 1.25 s: it stops after v / (mu g) = 0.61 s
        world.step(1 / 240)
    expected = speed ** 2 / (2 * mu * 9.81)
    assert abs(box.position[0] - expected) <= 0.01 * expected  # seen: 0.9174293 for 0.9174312
    assert abs(box.position[2] - 0.5) <= 1e-9 and np.linalg.norm(box.angular_velocity) <= 1e-9  # flat, not tipped


def test_a_dropped_box_comes_to_rest_flat_on_its_face():
    box = box_body("box", [0.5, 0.5, 0.5], [0.0, 0.0, 1.5])
    world = World([box], FLOOR, restitution=0.0, friction=0.5)
    heights = []
    for _ in range(300):
        world.step(DT)
        heights.append(box.position[2])
    assert max(abs(z - 0.5) for z in heights[-60:]) <= 1e-12 and np.linalg.norm(box.angular_velocity) <= 1e-12


def test_two_spheres_collide_elastically_and_a_capsule_lies_down():
    left, right = sphere_body("left", [-2.0, 0.0, 1.0], 0.5), sphere_body("right", [2.0, 0.0, 1.0], 0.5)
    left.velocity, right.velocity = np.array([3.0, 0.0, 0.0]), np.array([-1.0, 0.0, 0.0])
    world = World([left, right], {}, restitution=1.0, friction=0.0, gravity=np.zeros(3))
    for _ in range(120):
        world.step(DT)
    np.testing.assert_allclose([left.velocity[0], right.velocity[0]], [-1.0, 3.0], atol=1e-12)  # equal masses swap
    assert world.events[0].first == "left" and world.events[0].second == "right"
    stick = capsule_body("stick", [-1.0, 0.0, 1.0], [1.0, 0.0, 1.0], 0.2)
    world = World([stick], FLOOR, restitution=0.0, friction=0.5)
    for _ in range(300):
        world.step(DT)
    assert abs(stick.position[2] - 0.2) <= 1e-9 and np.linalg.norm(stick.angular_velocity) <= 1e-9


def test_regression_a_body_falling_on_a_body_touches_at_the_relative_contact_time():
    """Review find: the contact time of two bodies was solved on the first body's own
    fall (gravity cancels between them): sphere A at z = 3 falling at 10 onto B at 0
    was resolved at t = 0.1177 with the centres 1.8227 apart (touching: 2)."""
    top, bottom = sphere_body("top", [0.0, 0.0, 3.0], 1.0), sphere_body("bottom", [0.0, 0.0, 0.0], 1.0)
    top.velocity = np.array([0.0, 0.0, -10.0])
    world = World([top, bottom], {}, restitution=1.0, friction=0.0)
    world.step(0.5)
    event = world.events[0]
    assert event.time == pytest.approx(0.1, abs=1e-12)


def test_regression_stacked_spheres_on_a_floor_do_not_sink():
    """Review find: when two bodies overlapped only the first was pushed out, into the
    floor it rested on; the bottom sphere sank to z = 0.2255 in 10 s."""
    bottom, top = sphere_body("bottom", [0.0, 0.0, 0.5], 0.5), sphere_body("top", [0.0, 0.0, 1.5], 0.5)
    world = World([top, bottom], FLOOR, restitution=0.0, friction=0.5)
    for _ in range(600):
        world.step(DT)
    assert bottom.position[2] >= 0.5 - 1e-6 and top.position[2] >= 1.5 - 2e-6


def test_regression_a_resting_body_hit_from_above_does_not_pass_through_a_thin_slab():
    """Review find: a pair marked resting was not swept again in the step even after
    another impact changed the body's velocity: a ball resting on a 1 mm slab, hit by a
    heavy ball at 50 units/s, went through it (z = -0.59, then -1.83)."""
    slab = ConvexPolyhedron.box([2.0, 2.0, 0.0005], center=[0.0, 0.0, -0.0005])
    ball = sphere_body("ball", [0.0, 0.0, 0.5], 0.5)
    heavy = sphere_body("heavy", [0.0, 0.0, 1.6], 0.5, density=100.0)
    heavy.velocity = np.array([0.0, 0.0, -50.0])
    world = World([ball, heavy], {"slab": slab}, restitution=0.5, friction=0.0)
    for _ in range(30):
        world.step(DT)
        assert ball.position[2] >= 0.5 - 1e-6 and heavy.position[2] >= 1.5 - 1e-6


def test_regression_a_box_over_a_ledge_tips_off_it():
    """Review find: every corner on the contact plane took impulses, also those over
    empty space: a box with its centre 0.2 past a ledge's edge stayed flat in the air
    (turn 0, centre at z = 0.5 after 1 s).  Only the corners touching the ledge hold it."""
    ledge = {"ledge": ConvexPolyhedron.box([1.0, 1.0, 0.5], center=[-1.0, 0.0, -0.5])}
    box = box_body("box", [0.5, 0.5, 0.5], [0.2, 0.0, 0.5])
    world = World([box], ledge, restitution=0.0, friction=0.8)
    for _ in range(60):
        world.step(DT)
    tipped = np.degrees(np.arccos(np.clip(box.rotation[2, 2], -1.0, 1.0)))
    assert tipped > 20 and box.position[2] < 0.3


def test_regression_a_dropped_log_stops_rocking():
    """Found checking the review fixes on the playground scene: a capsule dropped tilted
    with restitution 0.5 rocked for ever, end to end every step (0.21 rad/s, sunk 2 mm),
    each end's support speed feeding the turn.  Both ends within the contact slop of the
    floor are one contact of two points."""
    stick = capsule_body("log", [-0.6, 0.0, 1.0], [0.6, 0.0, 1.5], 0.2)
    world = World([stick], FLOOR, restitution=0.5, friction=0.5)
    lowest = []
    for _ in range(600):
        world.step(DT)
        shape = stick.world_shape()
        lowest.append(min(shape.a[2], shape.b[2]) - 0.2)
    assert np.linalg.norm(stick.angular_velocity) <= 1e-9 and np.linalg.norm(stick.velocity[:2]) <= 1e-9
    assert min(lowest[300:]) >= -1e-12


@pytest.mark.parametrize("order", [1, -1])
def test_regression_a_stack_of_four_boxes_stays_put(order):
    """Review find: four equal boxes stacked at rest sank 27 mm and spun (0.57 rad/s)
    within 20 steps, then scattered, in either list order.  The corner probes ran down
    the edges of the box below and missed some corners; contacts solved all at once
    pushed an upper box off the lower one."""
    boxes = [box_body(f"box {i}", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5 + i]) for i in range(4)]
    world = World(boxes[::order], FLOOR, restitution=0.0, friction=0.5)
    for _ in range(120):
        world.step(DT)
        for height, box in enumerate(boxes):
            assert abs(box.position[2] - 0.5 - height) <= 1e-12 and np.linalg.norm(box.position[:2]) <= 1e-12
    assert max(np.linalg.norm(box.angular_velocity) for box in boxes) <= 1e-12


@pytest.mark.parametrize("order", [1, -1])
def test_regression_a_heavy_box_on_a_light_box_stays_put(order):
    """Review find: a box 100 times heavier on a unit box pressed it 0.3 into the floor
    within 2 s (listed bottom first; top first: to z = 0.023), its overlap pushed out
    into the floor because nothing told the push-out what the light box rested on."""
    light, heavy = box_body("light", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5]), \
        box_body("heavy", [0.5, 0.5, 0.5], [0.0, 0.0, 1.5], density=100.0)
    world = World([light, heavy][::order], FLOOR, restitution=0.0, friction=0.5)
    for _ in range(120):
        world.step(DT)
        assert abs(light.position[2] - 0.5) <= 1e-12 and abs(heavy.position[2] - 1.5) <= 1e-12


def test_regression_without_ccd_a_heavy_ball_does_not_press_a_light_one_through_the_floor():
    """Review find: with CCD off, each overlap was pushed out and resolved alone, the
    light ball pushed into the floor by the heavy one's: z = -4.6 after 1 s, -121 after 5 s."""
    light, heavy = sphere_body("light", [0.0, 0.0, 0.5], 0.5), sphere_body("heavy", [0.0, 0.0, 1.5], 0.5,
                                                                           density=100.0)
    world = World([light, heavy], FLOOR, restitution=0.0, friction=0.5, ccd=False)
    for _ in range(120):
        world.step(DT)
        assert light.position[2] >= 0.5 - 1e-12 and heavy.position[2] >= 1.5 - 1e-12


def test_regression_a_resting_ball_hit_sideways_late_in_a_step_does_not_hop():
    """Review find: a ball resting on the floor, bounced between two walls, hopped: at a
    wall hit late in a step the floor contact was solved again from where the ball
    hovered within the step and stopped it there (0.14 mm at one hit, 6 mm after 60 s)."""
    walls = {"left": Plane([1.0, 0.0, 0.0], -1.0), "right": Plane([-1.0, 0.0, 0.0], -1.0), **FLOOR}
    ball = sphere_body("ball", [0.0, 0.0, 0.5], 0.5)
    ball.velocity = np.array([7.0, 0.0, 0.0])
    world = World([ball], walls, restitution=1.0, friction=0.0)
    for _ in range(600):
        world.step(DT)
        assert abs(ball.position[2] - 0.5) <= 1e-12
    assert sum(event.second != "floor" for event in world.events) >= 20


@pytest.mark.parametrize("restitution", [0.5, 1.0])
def test_regression_a_stack_rests_whatever_the_restitution(restitution):
    """Review find: with restitution above 0 the boxes of a stack floated apart (gaps of
    0.7, 1.0 and 2.0 mm at 0.5): a box resting on a supported box meets it at g·dt each
    step, which counted as a bounce."""
    boxes = [box_body(f"box {i}", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5 + i]) for i in range(3)]
    world = World(boxes, FLOOR, restitution=restitution, friction=0.5)
    for _ in range(120):
        world.step(DT)
    for height, box in enumerate(boxes):
        assert abs(box.position[2] - 0.5 - height) <= 1e-12


def test_regression_a_box_dropped_on_a_box_comes_to_rest_on_it():
    """Review find: a box dropped 0.2 onto a resting box (restitution 0.5) bounced every
    step for ever, 0.6 mm above it, J = m·g·dt at each bounce."""
    low, high = box_body("low", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5]), box_body("high", [0.5, 0.5, 0.5], [0.0, 0.0, 1.7])
    world = World([low, high], FLOOR, restitution=0.5, friction=0.5)
    for _ in range(300):
        world.step(DT)
    assert abs(high.position[2] - 1.5) <= 1e-12 and abs(low.position[2] - 0.5) <= 1e-12


@pytest.mark.parametrize("order", [1, -1])
def test_regression_without_ccd_a_stack_of_boxes_is_pushed_apart_in_either_order(order):
    """Review find: with CCD off, overlaps pushed out one pass in list order stayed:
    1.36 mm (and 2.73 mm listed top first) for good."""
    boxes = [box_body(f"box {i}", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5 + i]) for i in range(3)]
    world = World(boxes[::order], FLOOR, restitution=0.0, friction=0.5, ccd=False)
    for _ in range(120):
        world.step(DT)
    for height, box in enumerate(boxes):
        assert abs(box.position[2] - 0.5 - height) <= 1e-12


def test_regression_a_box_overhanging_a_ledge_rests_when_its_centre_is_over_it():
    """Review find: the patch was corners only; where the ledge's edge crosses the box's
    face there were no points, so a box with its centre 0.3 inside the edge rocked
    (±0.33 rad/s) and sank 6 mm into the ledge."""
    ledge = {"ledge": ConvexPolyhedron.box([1.0, 1.0, 0.5], center=[-1.0, 0.0, 0.5])}
    box = box_body("box", [0.5, 0.5, 0.5], [-0.3, 0.0, 1.5])
    world = World([box], ledge, restitution=0.0, friction=0.5)
    for _ in range(300):
        world.step(DT)
        assert box.world_shape().vertices[:, 2].min() >= 1.0 - 1e-12
    assert np.linalg.norm(box.angular_velocity) <= 1e-12 and abs(box.position[0] + 0.3) <= 1e-12


def test_regression_a_box_across_a_capsule_rests_on_two_points():
    """Review find: a box lying across a resting capsule rocked ±0.2 degrees every step
    for ever, 3.5 mm into it: one contact point on what is a line contact."""
    log = capsule_body("log", [-1.0, 0.0, 0.3], [1.0, 0.0, 0.3], 0.3)
    board = box_body("board", [0.5, 0.5, 0.1], [0.0, 0.0, 0.7])
    world = World([log, board], FLOOR, restitution=0.0, friction=0.5)
    for _ in range(120):
        world.step(DT)
    assert abs(board.position[2] - 0.7) <= 1e-12 and np.linalg.norm(board.angular_velocity) <= 1e-12


def test_regression_a_box_on_a_slope_it_grips_stays_put():
    """Review find: a box on a 10 degree slope with friction 1 crept down at 0.014 units/s:
    friction aimed at no sliding, and gravity then moved it ½·g·sinθ·dt² a step."""
    angle = np.radians(10.0)
    normal = np.array([np.sin(angle), 0.0, np.cos(angle)])
    turn = np.array([[np.cos(angle), 0.0, np.sin(angle)], [0.0, 1.0, 0.0], [-np.sin(angle), 0.0, np.cos(angle)]])
    box = box_body("box", [0.5, 0.5, 0.5], 0.5 * normal, rotation=turn)
    world = World([box], {"slope": Plane(normal, 0.0)}, restitution=0.0, friction=1.0)
    for _ in range(120):
        world.step(DT)
    np.testing.assert_allclose(box.position, 0.5 * normal, rtol=0, atol=1e-12)


def test_regression_a_box_over_a_mesh_ledge_rests_when_its_centre_is_over_it():
    """Review find: on a static TriangleMesh ledge the patch was the box's corners over
    the mesh, never where the mesh's edge crosses the box's face: with its centre 0.3
    inside the edge the box rocked and wandered (0.3 rad/s after 10 s, energy up 0.08)."""
    corners = [[-3.0, -3.0, 0.0], [0.0, -3.0, 0.0], [0.0, 3.0, 0.0], [-3.0, 3.0, 0.0]]
    statics = {"ledge": TriangleMesh(corners, [[0, 1, 2], [0, 2, 3]]), "floor": Plane([0.0, 0.0, 1.0], -5.0)}
    box = box_body("box", [0.5, 0.5, 0.5], [-0.3, 0.0, 0.5])
    world = World([box], statics, restitution=0.5, friction=0.5)
    for _ in range(300):
        world.step(DT)
    np.testing.assert_allclose(box.position, [-0.3, 0.0, 0.5], rtol=0, atol=1e-12)
    assert np.linalg.norm(box.angular_velocity) <= 1e-12


def test_regression_without_ccd_a_dropped_log_stops_rocking():
    """Review find: with CCD off the overlaps were resolved with no support speed, one
    end at a time: a dropped log rocked end to end for ever (0.43 rad/s after 20 s, one
    end 7.4 mm up, the other 2.5 mm into the floor)."""
    stick = capsule_body("log", [-0.5, -1.5, 2.0], [0.5, -1.0, 2.3], 0.2)
    world = World([stick], FLOOR, restitution=0.5, friction=0.5, ccd=False)
    lowest = []
    for _ in range(1200):
        world.step(DT)
        shape = stick.world_shape()
        lowest.append(min(shape.a[2], shape.b[2]) - 0.2)
    assert np.linalg.norm(stick.angular_velocity) <= 0.01 and min(lowest[600:]) >= -1e-9


def test_the_event_history_is_bounded_and_the_count_whole(monkeypatch):
    """A resting stack adds contact events every step (~650,000 an hour at 60 Hz in the
    editor): ``events`` keeps the latest, ``contact_count`` counts all, and ``step``
    returns its own."""
    import sweeplab.playground.world as world_module

    monkeypatch.setattr(world_module, "EVENT_HISTORY", 10)
    boxes = [box_body(f"box {i}", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5 + i]) for i in range(2)]
    world = World(boxes, FLOOR, restitution=0.0, friction=0.5)
    returned = [len(world.step(DT)) for _ in range(30)]
    assert world.contact_count == sum(returned) >= 60 and len(world.events) <= 20
    assert world.events[-1].time == pytest.approx(29 * DT)
