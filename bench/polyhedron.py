"""Box-box sweeps: sweeplab's batched separating-axis test over time against
python-fcl's ``continuousCollide`` of two boxes in a loop, in the same run.

Random boxes (half extents 0.2-1, random rotations) with random motions; the moving
boxes form one batch of N = 10^5 (``ConvexPolyhedron.box``), fcl runs its
conservative advancement on the first 10^4 pairs.  Prints sweeps/s, the ratio, and
how often the hit flags agree (and, where they differ, what the GJK cast of
``physics.gjk`` says).  Needs the ``bench`` extra.  Not a test.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from timing import describe, thread_rates

from sweeplab.physics import ConvexPolyhedron, sweep
from sweeplab.physics.gjk import convex_cast


def random_rotations(rng, count):
    quaternions = rng.normal(size=(count, 4))
    w, x, y, z = (quaternions / np.linalg.norm(quaternions, axis=1)[:, None]).T
    return np.stack([np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], -1),
                     np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], -1),
                     np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1)], 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=10**5)
    parser.add_argument("--fcl-n", type=int, default=10**4)
    args = parser.parse_args()
    import fcl

    rng = np.random.default_rng(5)
    n = args.n
    half_a, half_b = rng.uniform(0.2, 1, (n, 3)), rng.uniform(0.2, 1, (n, 3))
    turn_a, turn_b = random_rotations(rng, n), random_rotations(rng, n)
    start, motion = rng.uniform(-4, 4, (n, 3)), rng.uniform(-8, 8, (n, 3))
    moving = ConvexPolyhedron.box(half_a, start, turn_a)
    target = ConvexPolyhedron.box(half_b[0], [0.0, 0, 0], turn_b[0])
    rates = thread_rates(lambda: sweep(moving, target, motion), n, 2)
    rate = rates[1]
    ours = sweep(moving, target, motion)

    k = args.fcl_n
    request = fcl.ContinuousCollisionRequest()
    request.ccd_motion_type = fcl.CCDMotionType.CCDM_TRANS
    still = fcl.CollisionObject(fcl.Box(*(2 * half_b[0])), fcl.Transform(turn_b[0], np.zeros(3)))
    prepared = [(fcl.CollisionObject(fcl.Box(*(2 * half_a[i])), fcl.Transform(turn_a[i], start[i])),
                 fcl.Transform(turn_a[i], start[i] + motion[i])) for i in range(k)]
    hits = np.zeros(k, bool)
    began = time.perf_counter()
    for i, (box, end) in enumerate(prepared):
        result = fcl.ContinuousCollisionResult()
        fcl.continuousCollide(box, end, still, fcl.Transform(turn_b[0], np.zeros(3)), request, result)
        hits[i] = result.is_collide
    fcl_rate = k / (time.perf_counter() - began)
    differ = np.flatnonzero(ours.hit[:k] != hits)
    gjk_sides = sum(convex_cast(moving[i], target, motion[i]).hit == ours.hit[i] for i in differ)
    print(f"box-box sweeplab batched N={n:.0e}: {describe(rates, 1e3, 'k/s')}")
    print(f"box-box python-fcl loop  N={k:.0e}: {fcl_rate / 1e3:8.1f} k/s   ratio (one thread) {rate / fcl_rate:6.1f}x"
          "   target >= 10x")
    print(f"hit flags agree on {k - len(differ)}/{k}; of the {len(differ)} that differ the GJK cast sides with "
          f"sweeplab on {gjk_sides}")


if __name__ == "__main__":
    main()
