"""The playground's CPU cost per step beside pybullet's, the same worlds in the same run.

Every world is a sweeplab ``World`` stepped at dt = 1/60 s with CCD on; pybullet's
copy is built from it (``bullet_copy``): the same shapes (spheres, capsules, boxes,
other polyhedra as convex meshes, planes), masses, poses, velocities, gravity and
dt.  pybullet combines two objects' restitution and friction by their product, so
each of its objects gets √e and √μ: every pair then has the world's e and μ, as in
sweeplab.  pybullet runs with its default solver settings (printed as
``getPhysicsEngineParameters`` reports them: 50 solver iterations, no substeps) and
its CCD on for every body (``ccdSweptSphereRadius`` 0.9 the body's inner radius).
Sleep on in both, as each has it by default: sweeplab's islands after 0.5 s still
(``sleep.TIME_TO_SLEEP``), pybullet's deactivation after 2 s.

Worlds (the issue's figures on the 2-core machine: 100 spheres 329 ms against
0.11 ms, a 16-box stack 170 ms against 0.17 ms):

- ``100 spheres``: spheres of radius 0.25 dropped in a pile (a 5x5x4 grid 0.6 m
  apart, each row shifted a little so they do not land on each other's tops);
- ``16-box stack``: unit boxes resting on each other on the floor;
- ``1000 resting``: a 10x10x10 grid of unit boxes, each column resting on the floor
  and on itself (1 cm between columns), timed after ``SETTLE`` steps;
- the three worlds of the editor's benchmark before #36: the bundled ``playground``
  scene (a ball fired at a thin wall, a crate and a log falling), a ``tumbling
  box`` dropped on an edge, and a ``stack`` of four boxes;
- two stress scenes (``playground.scenes``): Box2D's ``pyramid`` of 20 rows and a
  ``card house`` of two storeys;
- ``floating``: 25 boxes and 25 spheres (0.4 m across, half water's density) dropped
  from 0.5 m into water 1 m deep over the floor (``World.water``, drags 1/s), timed
  from the drop.  pybullet has no buoyancy: its peer is the same world without water
  (the bodies fall to the floor and settle there); sweeplab's time for that dry world
  is printed beside its time with water, and the ratio is dry to dry (the water's own
  cost reads off the two sweeplab figures);
- the ``duck pond`` (``scenes.duck_pond``: a 60x60 shallow-water pool, four floaters,
  two drops).  pybullet has no water: its copy is the same bodies and walls without
  it (the floaters fall to the floor), so the ratio is water and bodies against
  bodies alone;
- ``pool 128x128``: a pool of 128x128 columns (5 cm, 0.3 m deep) alone, a hump of
  water spreading, no bodies: the water's own cost (no peer).

Prints the CPU milliseconds per step (process time: both run on one thread here,
and on a shared machine wall time counts the other processes) of each engine, and
the ratio.  A world whose first step takes longer than ``--limit`` seconds is timed
over that one step, and one still running after ``--limit`` seconds of wall time is
stopped there (printed as over the limit).  ``--quick``: fewer steps and the big worlds cut down (CI-sized:
a smoke test that the bench runs).  Without pybullet installed (``pip install
'sweeplab[bench]'``) it says so and times sweeplab alone.  Not a test.
"""

from __future__ import annotations

import argparse
import math
import os
import signal
import time
from collections.abc import Callable
from functools import partial
from types import ModuleType

import numpy as np

from sweeplab.physics import Capsule, ConvexPolyhedron, Plane, Sphere
from sweeplab.playground import scenes
from sweeplab.playground.buoyancy import Water
from sweeplab.playground.pool import Pool
from sweeplab.playground.world import World, box_body, sphere_body

DT = 1 / 60
SETTLE = 60
"""Steps run before the ``1000 resting`` world is timed (it starts resting: the first
steps settle contacts and warm starts)."""


def floor() -> dict:
    return {"floor": Plane([0.0, 0.0, 1.0], 0.0)}


def sphere_pile(count: int = 100) -> World:
    side = max(1, round((count / 4) ** 0.5))
    bodies = [sphere_body(f"ball {i}", [(i % side - side / 2) * 0.6 + 0.05 * (i // (side * side)),
                                        (i // side % side - side / 2) * 0.6, 0.5 + 0.6 * (i // (side * side))], 0.25)
              for i in range(count)]
    return World(bodies, floor(), restitution=0.5, friction=0.5)


def box_stack(count: int = 16) -> World:
    boxes = [box_body(f"box {i}", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5 + i]) for i in range(count)]
    return World(boxes, floor(), restitution=0.0, friction=0.5)


def resting_grid(side: int = 10) -> World:
    boxes = [box_body(f"box {i} {j} {k}", [0.5, 0.5, 0.5], [1.01 * i, 1.01 * j, 0.5 + k])
             for i in range(side) for j in range(side) for k in range(side)]
    return World(boxes, floor(), restitution=0.0, friction=0.5)


def playground_world() -> World:
    from sweeplab.cli import example_scenes
    from sweeplab.playground.run import PlaygroundRun
    from sweeplab.scene.model import load

    return PlaygroundRun(load(example_scenes()["playground"]), {"crate", "log"}, restitution=0.3).world


def tumbling_box_world() -> World:
    tilt = np.radians(30.0)
    turn = np.array([[1.0, 0.0, 0.0], [0.0, np.cos(tilt), -np.sin(tilt)], [0.0, np.sin(tilt), np.cos(tilt)]])
    box = box_body("box", [0.5, 0.3, 0.2], [0.0, 0.0, 1.5], rotation=turn)
    box.angular_velocity = np.array([4.0, 1.0, 0.0])
    return World([box], floor(), restitution=0.5, friction=0.5)


def floating(count: int = 50) -> World:
    """Half boxes, half spheres (module docstring), in rows 0.6 m apart, 0.5 m above water 1 m deep."""
    side = max(1, round(count ** 0.5))
    bodies = [(box_body(f"box {i}", [0.2, 0.2, 0.2], place, density=500.0) if i % 2 else
               sphere_body(f"ball {i}", place, 0.2, density=500.0))
              for i, place in enumerate([(i % side) * 0.6, (i // side) * 0.6, 1.7] for i in range(count))]
    return World(bodies, floor(), restitution=0.3, friction=0.5,
                 water=Water(level=1.0, density=1000.0, linear_drag=1.0, angular_drag=1.0))


def dry(make: Callable[[], World]) -> World:
    """The world ``make`` builds, without its water (pybullet's peer of a floating world)."""
    world = make()
    world.water = None
    return world


def worlds(quick: bool) -> dict[str, tuple[Callable[[], World], int]]:
    """Each world's builder and the steps it is run before timing."""
    return {"100 spheres": (lambda: sphere_pile(16 if quick else 100), 0),
            "16-box stack": (lambda: box_stack(4 if quick else 16), 0),
            "1000 resting": (lambda: resting_grid(2 if quick else 10), 2 if quick else SETTLE),
            "playground": (playground_world, 0), "tumbling box": (tumbling_box_world, 0),
            "stack": (lambda: box_stack(4), 0),
            "pyramid": (lambda: scenes.pyramid(3 if quick else 20), 0),
            "card house": (lambda: scenes.card_house(1 if quick else 2), 0),
            "floating": (lambda: floating(10 if quick else 50), 0),
            "duck pond": (lambda: scenes.duck_pond(2, 0.1 if quick else 0.05), 0)}


def pool_alone(cells: int = 128) -> Pool:
    """A pool of ``cells`` x ``cells`` columns 5 cm wide and 0.3 m deep, a 5 cm hump of
    water in its middle."""
    pool = Pool((cells, cells), 0.05, 0.3)
    xs, ys = pool.centres()
    middle = cells * 0.05 / 2
    pool.water = pool.water + 0.05 * np.exp(-((xs[:, None] - middle) ** 2 + (ys[None, :] - middle) ** 2) / 0.04)
    return pool


def box_half_extents(shape: ConvexPolyhedron) -> np.ndarray | None:
    """The half extents of a polyhedron that is an axis-aligned box about the origin
    (its 8 corners at ±h), else None."""
    vertices = np.asarray(shape.vertices, float)
    half = np.max(np.abs(vertices), axis=0)
    if len(vertices) == 8 and np.allclose(np.abs(vertices), half, rtol=0, atol=1e-12 * float(np.max(half))):
        return half
    return None


def bullet_shape(p: ModuleType, shape, client: int) -> int:
    """pybullet's collision shape of a sweeplab shape, in the same frame (body space
    for a body, the world for a static shape)."""
    if isinstance(shape, Sphere):
        return p.createCollisionShape(p.GEOM_SPHERE, radius=float(shape.radius),
                                      collisionFramePosition=np.asarray(shape.center, float).tolist(),
                                      physicsClientId=client)
    if isinstance(shape, Capsule):  # body-space capsules lie along z about the origin (world.capsule_body)
        length = float(np.linalg.norm(np.asarray(shape.b) - np.asarray(shape.a)))
        return p.createCollisionShape(p.GEOM_CAPSULE, radius=float(shape.radius), height=length,
                                      physicsClientId=client)
    if isinstance(shape, Plane):
        normal = np.asarray(shape.normal, float)
        return p.createCollisionShape(p.GEOM_PLANE, planeNormal=normal.tolist(),
                                      collisionFramePosition=(normal * float(shape.offset)).tolist(),
                                      physicsClientId=client)
    if isinstance(shape, ConvexPolyhedron):
        vertices = np.asarray(shape.vertices, float)
        centre = (vertices.min(axis=0) + vertices.max(axis=0)) / 2
        half = box_half_extents(ConvexPolyhedron(vertices - centre))
        if half is not None:
            return p.createCollisionShape(p.GEOM_BOX, halfExtents=half.tolist(),
                                          collisionFramePosition=centre.tolist(), physicsClientId=client)
        return p.createCollisionShape(p.GEOM_MESH, vertices=vertices.tolist(), physicsClientId=client)
    raise ValueError(f"shape: pybullet copy has no {type(shape).__name__}")


def quaternion(rotation: np.ndarray) -> list[float]:
    """pybullet's (x, y, z, w) quaternion of a rotation matrix (Shepperd's method)."""
    m = np.asarray(rotation, float)
    trace = float(np.trace(m))
    if trace > 0:
        s = 2.0 * np.sqrt(trace + 1.0)
        q = [(m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s, s / 4]
    else:
        i = int(np.argmax(np.diag(m)))
        j, k = (i + 1) % 3, (i + 2) % 3
        s = 2.0 * np.sqrt(1.0 + m[i, i] - m[j, j] - m[k, k])
        q = [0.0, 0.0, 0.0, (m[k, j] - m[j, k]) / s]
        q[i], q[j], q[k] = s / 4, (m[j, i] + m[i, j]) / s, (m[k, i] + m[i, k]) / s
    return [float(x) for x in q]


def bullet_copy(p: ModuleType, world: World) -> int:
    """A pybullet client holding ``world``'s copy (module docstring); its id."""
    client = p.connect(p.DIRECT)
    p.setGravity(*np.asarray(world.gravity, float).tolist(), physicsClientId=client)
    p.setTimeStep(DT, physicsClientId=client)
    material = {"restitution": float(np.sqrt(world.restitution)), "lateralFriction": float(np.sqrt(world.friction))}
    for shape in world.statics.values():
        body = p.createMultiBody(0.0, bullet_shape(p, shape, client), physicsClientId=client)
        p.changeDynamics(body, -1, **material, physicsClientId=client)
    for source in world.bodies:
        body = p.createMultiBody(source.mass, bullet_shape(p, source.shape, client),
                                 basePosition=source.position.tolist(),
                                 baseOrientation=quaternion(source.rotation), physicsClientId=client)
        inner = source.reach() - source.core_reach() if not isinstance(source.shape, ConvexPolyhedron) else \
            float(np.min(np.max(np.abs(np.asarray(source.shape.vertices, float)), axis=0)))
        p.changeDynamics(body, -1, **material, ccdSweptSphereRadius=0.9 * inner, physicsClientId=client)
        p.resetBaseVelocity(body, source.velocity.tolist(), source.angular_velocity.tolist(),
                            physicsClientId=client)
    return client


class OverLimit(Exception):
    """A first step still running after ``--limit`` seconds of wall time."""


def _over_limit(signum, frame) -> None:
    raise OverLimit


def step_ms(step: Callable[[], object], settle: int, steps: int, limit: float) -> tuple[float, int]:
    """CPU milliseconds per step over ``steps`` steps after ``settle`` (the first step
    alone when it takes over ``limit`` seconds: 0 steps timed; still running after
    ``limit`` seconds of wall time: stopped, inf and -1), and the steps timed."""
    start = time.process_time()
    signal.signal(signal.SIGALRM, _over_limit)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        step()
    except OverLimit:
        return math.inf, -1
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    first = time.process_time() - start
    if first > limit:
        return first * 1e3, 0
    for _ in range(settle - 1):
        step()
    start = time.process_time()
    for _ in range(steps):
        step()
    return (time.process_time() - start) / steps * 1e3, steps


def bullet_ms(p: ModuleType, world: World, settle: int, steps: int, limit: float) -> tuple[float, int]:
    client = bullet_copy(p, world)
    try:
        return step_ms(lambda: p.stepSimulation(physicsClientId=client), settle, steps, limit)
    finally:
        p.disconnect(client)


def bullet() -> ModuleType | None:
    try:
        import pybullet  # type: ignore[import-not-found]
    except ImportError:
        return None
    return pybullet


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--limit", type=float, default=30.0, help="seconds: a slower first step is timed alone")
    parser.add_argument("--quick", action="store_true", help="5 steps, the big worlds cut down")
    args = parser.parse_args()
    steps = 5 if args.quick else args.steps
    p = bullet()
    if p is None:
        print("pybullet not installed: sweeplab alone")
    else:
        client = p.connect(p.DIRECT)
        print("pybullet defaults:", {key: value for key, value in p.getPhysicsEngineParameters(client).items()
                                     if key in ("numSolverIterations", "numSubSteps", "numNonContactInnerIterations")})
        p.disconnect(client)
    for make, _ in worlds(quick=True).values():  # compile (or load) every kernel the worlds use before timing
        small = make()
        for _ in range(2):
            small.step(DT)
    print(f"dt = 1/60 s, CCD on, {steps} steps timed; load {os.getloadavg()[0]:.2f}", flush=True)
    for name, (make, settle) in worlds(args.quick).items():
        world = make()
        ms, timed = step_ms(partial(world.step, DT), settle, steps, args.limit)
        mine = f"over {args.limit:g} s a step" if timed < 0 else f"{ms:10.3f} ms/step ({timed} steps)"
        line = f"{name:>14} ({len(world.bodies):4d} bodies): sweeplab {mine}"
        wet = world.water is not None
        if wet:  # pybullet has no buoyancy: both timed dry as well, the ratio dry to dry (module docstring)
            make = partial(dry, make)
            ms, timed = step_ms(partial(make().step, DT), settle, steps, args.limit)
            line += f", without water {ms:8.3f} ms/step"
        if p is not None:
            peer, _ = bullet_ms(p, make(), settle, steps, args.limit)
            ratio = f"> {args.limit * 1e3 / peer:.0f}" if timed < 0 else f"{ms / peer:9.1f}"
            line += f", pybullet{' without water (no buoyancy)' if wet else ''} {peer:8.3f} ms/step, ratio {ratio}x"
            if world.pool is not None:
                line += " (pybullet: the bodies without water)"
        print(line, flush=True)
    pool = pool_alone(32 if args.quick else 128)
    ms, timed = step_ms(partial(pool.step, DT), 0, steps, args.limit)
    print(f"{f'pool {pool.cells[0]}x{pool.cells[1]}':>14} (   0 bodies): sweeplab {ms:10.3f} ms/step ({timed} steps, "
          f"{pool.substeps(DT, 9.81)} substeps a step), no peer", flush=True)


if __name__ == "__main__":
    main()
