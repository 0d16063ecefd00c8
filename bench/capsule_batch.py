"""Capsule sweeps: batched throughput against python-fcl, and who is right when they differ.

Prints sweeplab's batched capsule-capsule and capsule-triangle sweeps/second
(N = 10^6 by default), python-fcl's ``continuousCollide`` for capsule-capsule in
a Python loop (10^5 pairs) with its conservative-advancement and naive solvers,
the ratios, how often fcl's hit flag differs from sweeplab's, and on how many of
those disagreements ``physics.reference`` (bisection on the exact distance) sides
with sweeplab.  Needs the ``bench`` extra.  Not a test.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from timing import describe, machine_load, serial_share, thread_rates

from sweeplab.physics import Capsule, Triangle, sweep
from sweeplab.physics.reference import reference_sweep


def random_capsules(rng, count):
    starts = rng.uniform(-10, 10, (count, 3))
    return Capsule(starts, starts + rng.uniform(-3, 3, (count, 3)), rng.uniform(0.1, 1.0, count))


def fcl_capsule(capsule: Capsule, index: int):
    """An fcl capsule (local axis z, centered) and its pose for capsule ``index``."""
    import fcl

    a, b = capsule.a[index], capsule.b[index]
    axis = b - a
    length = float(np.linalg.norm(axis))
    rotation = np.eye(3)
    if length > 0:
        z = axis / length
        helper = np.eye(3)[np.argmin(np.abs(z))]
        x = np.cross(helper, z)
        x /= np.linalg.norm(x)
        rotation = np.stack([x, np.cross(z, x), z], axis=1)
    return fcl.Capsule(float(capsule.radius[index]), length), rotation, (a + b) / 2


def fcl_hits(movers: Capsule, targets: Capsule, directions: np.ndarray, count: int, solver) -> tuple[float, np.ndarray]:
    import fcl

    request = fcl.ContinuousCollisionRequest()
    request.ccd_solver_type = solver
    prepared = []
    for i in range(count):
        moving, moving_rotation, moving_center = fcl_capsule(movers, i)
        target, target_rotation, target_center = fcl_capsule(targets, i)
        prepared.append((fcl.CollisionObject(moving, fcl.Transform(moving_rotation, moving_center)),
                         fcl.Transform(moving_rotation, moving_center + directions[i]),
                         fcl.CollisionObject(target, fcl.Transform(target_rotation, target_center)),
                         fcl.Transform(target_rotation, target_center)))
    hits = np.zeros(count, bool)
    started = time.perf_counter()
    for i, (moving, moving_end, target, target_end) in enumerate(prepared):
        result = fcl.ContinuousCollisionResult()
        fcl.continuousCollide(moving, moving_end, target, target_end, request, result)
        hits[i] = result.is_collide
    return count / (time.perf_counter() - started), hits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=10**6)
    parser.add_argument("--fcl-n", type=int, default=10**5)
    parser.add_argument("--reference-n", type=int, default=500, help="disagreements checked by the reference")
    args = parser.parse_args()
    import fcl

    rng = np.random.default_rng(11)
    movers, targets = random_capsules(rng, args.n), random_capsules(rng, args.n)
    directions = rng.uniform(-20, 20, (args.n, 3))
    corners = targets.a[:, None, :] + rng.uniform(-3, 3, (args.n, 3, 3))
    triangles = Triangle(corners[:, 0], corners[:, 1], corners[:, 2])
    print(f"({machine_load()})")
    capsule_rates = thread_rates(lambda: sweep(movers, targets, directions), args.n)
    triangle_rates = thread_rates(lambda: sweep(movers, triangles, directions), args.n)
    capsule_share = serial_share(lambda: sweep(movers, targets, directions))
    triangle_share = serial_share(lambda: sweep(movers, triangles, directions))
    capsule_rate, triangle_rate = capsule_rates[1], triangle_rates[1]

    k = args.fcl_n
    ours = sweep(movers[:k], targets[:k], directions[:k]).hit
    print(f"capsule-capsule  sweeplab batched N={args.n:.0e}: {describe(capsule_rates, share=capsule_share)}")
    print(f"capsule-triangle sweeplab batched N={args.n:.0e}: {describe(triangle_rates, share=triangle_share)}")
    for name, solver in (("conservative advancement", fcl.CCDSolverType.CCDC_CONSERVATIVE_ADVANCEMENT),
                         ("naive (10 samples)", fcl.CCDSolverType.CCDC_NAIVE)):
        rate, theirs = fcl_hits(movers, targets, directions, k, solver)
        differ = np.flatnonzero(theirs != ours)
        checked = differ[:args.reference_n]
        sides_with_us = sum(reference_sweep(movers[i], targets[i], directions[i]).hit == ours[i] for i in checked)
        print(f"capsule-capsule  python-fcl {name} loop N={k:.0e}: {rate / 1e6:8.4f} M sweeps/s, "
              f"ratio (one thread) capsule-capsule {capsule_rate / rate:6.1f}x, capsule-triangle "
              f"{triangle_rate / rate:6.1f}x (target >= 15x); hit flags differ on {len(differ)}/{k} "
              f"({100 * len(differ) / k:.1f}%), the reference sides with sweeplab on {sides_with_us}/{len(checked)} "
              "of those checked")


if __name__ == "__main__":
    main()
