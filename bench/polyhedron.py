"""Box-box sweeps: sweeplab's batched separating-axis test over time against
python-fcl's ``continuousCollide`` of two boxes in a loop, in the same run.

Random boxes (half extents 0.2-1, random rotations) with random motions; the moving
boxes form one batch of N = 10^5 (``ConvexPolyhedron.box``), fcl runs its
conservative advancement on the first 10^4 pairs, once with ``fcl.Box`` shapes and
once with the same boxes as ``fcl.Convex`` (the peer of a general polyhedron).  The
figures are the best of ``--rounds`` rounds, each timing every contender once (so a
change of the machine's load touches them alike); one-thread figures are CPU time of
the calling thread (what a loaded machine disturbs least), the 2-thread speedup is
wall time against one thread's.  Prints sweeps/s, the ratios
(target >= 15x on one thread), the serial share of sweeplab's batch (time outside its
lane loops, ``bench/timing.py``; target <= 3 %), its 2-thread speedup (target >=
1.9x), the machine's load, and how often the hit flags agree (and, where they differ,
what the GJK cast of ``physics.gjk`` says).  Needs the ``bench`` extra.  Not a test.
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np
from scaling import random_rotations
from timing import machine_load, serial_share

from sweeplab.physics import ConvexPolyhedron, sweep
from sweeplab.physics.gjk import convex_cast

RATIO_TARGET = 15.0
SERIAL_TARGET = 0.03
TWO_THREAD_TARGET = 1.9


def fcl_box(half_extents):
    import fcl

    return fcl.Box(*(2 * half_extents))


def fcl_convex(half_extents):
    """The box as an ``fcl.Convex``: its hull's corners and face loops."""
    import fcl

    box = ConvexPolyhedron.box(half_extents)
    loops = np.concatenate([[len(loop), *loop] for loop in box.faces])
    return fcl.Convex(box.vertices, len(box.faces), loops)


def fcl_pass(make, half_a, half_b, turn_a, turn_b, start, motion):
    """A function that runs fcl's continuousCollide over every pair (shapes built by
    ``make`` beforehand) and returns the hit flags."""
    import fcl

    request = fcl.ContinuousCollisionRequest()
    request.ccd_motion_type = fcl.CCDMotionType.CCDM_TRANS
    still = fcl.CollisionObject(make(half_b), fcl.Transform(turn_b, np.zeros(3)))
    still_end = fcl.Transform(turn_b, np.zeros(3))
    prepared = [(fcl.CollisionObject(make(half), fcl.Transform(turn, begin)), fcl.Transform(turn, begin + move))
                for half, turn, begin, move in zip(half_a, turn_a, start, motion, strict=True)]

    def run():
        hits = np.zeros(len(prepared), bool)
        for i, (box, end) in enumerate(prepared):
            result = fcl.ContinuousCollisionResult()
            fcl.continuousCollide(box, end, still, still_end, request, result)
            hits[i] = result.is_collide
        return hits

    return run


def seconds(run) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this thread) of ``run()``."""
    start, cpu = time.perf_counter(), time.thread_time()
    run()
    return time.perf_counter() - start, time.thread_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=10**5)
    parser.add_argument("--fcl-n", type=int, default=10**4)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    rng = np.random.default_rng(5)
    n, k = args.n, args.fcl_n
    half_a, half_b = rng.uniform(0.2, 1, (n, 3)), rng.uniform(0.2, 1, (n, 3))
    turn_a, turn_b = random_rotations(rng, n), random_rotations(rng, n)
    start, motion = rng.uniform(-4, 4, (n, 3)), rng.uniform(-8, 8, (n, 3))
    moving = ConvexPolyhedron.box(half_a, start, turn_a)
    target = ConvexPolyhedron.box(half_b[0], [0.0, 0, 0], turn_b[0])
    peers = {name: fcl_pass(make, half_a[:k], half_b[0], turn_a[:k], turn_b[0], start[:k], motion[:k])
             for name, make in (("Box", fcl_box), ("Convex", fcl_convex))}

    def ours():
        return sweep(moving, target, motion)

    available = numba.config.NUMBA_NUM_THREADS
    threads = sorted({1, min(2, available)})
    wall = {name: np.inf for name in [*threads, *peers]}
    cpu = dict(wall)
    load = machine_load()
    try:
        for used in threads:  # compiles (or loads) both loop variants
            numba.set_num_threads(used)
            ours()
        for _ in range(args.rounds):
            for name in threads + list(peers):
                if name in threads:
                    numba.set_num_threads(name)
                taken = seconds(peers.get(name, ours))
                wall[name], cpu[name] = min(wall[name], taken[0]), min(cpu[name], taken[1])
    finally:
        numba.set_num_threads(available)
    share = serial_share(ours)

    rate = n / cpu[1]
    text = f"box-box sweeplab batched N={n:.0e}: {rate / 1e3:8.1f} k/s one thread (CPU)"
    if 2 in wall:
        text += (f", {n / wall[2] / 1e3:8.1f} k/s on 2 (wall: {wall[1] / wall[2]:.2f}x one thread's, target >= "
                 f"{TWO_THREAD_TARGET}x)")
    print(f"{text}; serial share {100 * share:.1f} % (target <= {100 * SERIAL_TARGET:.0f} %)   ({load})")
    hits = ours().hit[:k]
    for name, run in peers.items():
        fcl_rate = k / cpu[name]
        theirs = run()
        differ = np.flatnonzero(hits != theirs)
        gjk_sides = sum(convex_cast(moving[i], target, motion[i]).hit == hits[i] for i in differ)
        print(f"box-box python-fcl {name:6s} loop N={k:.0e}: {fcl_rate / 1e3:8.1f} k/s (CPU)   ratio (one thread) "
              f"{rate / fcl_rate:6.1f}x   target >= {RATIO_TARGET:.0f}x   hit flags agree on {k - len(differ)}/{k}; "
              f"of the {len(differ)} that differ the GJK cast sides with sweeplab on {gjk_sides}")
    print(f"({machine_load()} after)")


if __name__ == "__main__":
    main()
