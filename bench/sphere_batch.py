"""Sphere sweeps: batched throughput and single-query latency, against python-fcl.

Prints sweeps/second of sweeplab's batched API (N = 10^6 by default) for
sphere-sphere and sphere-triangle, python-fcl's ``continuousCollide`` called in a
Python loop over 10^5 pairs in the same run, the ratios, and the median latency of
one scalar ``sweep(Sphere, Triangle, d)``.  Needs the ``bench`` extra
(``pip install -e '.[bench]'``).  Not a test: numbers depend on the machine.

fcl settings: sphere-sphere uses its default solver (conservative advancement,
exact for two spheres); conservative advancement reports no hit for a sphere
against a one-triangle BVHModel, so sphere-triangle uses the naive solver (10
samples of t), which is what fcl can answer there.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from timing import best_rate

from physics import Sphere, Triangle, sweep


def random_spheres(rng, count):
    return Sphere(rng.uniform(-10, 10, (count, 3)), rng.uniform(0.1, 2, count))


def random_triangles(rng, count):
    centers = rng.uniform(-10, 10, (count, 1, 3))
    return Triangle(*np.moveaxis(centers + rng.uniform(-3, 3, (count, 3, 3)), 1, 0))


def fcl_rate(pairs, solver) -> tuple[float, np.ndarray]:
    """continuousCollide in a loop; returns sweeps/s and the hit flags."""
    import fcl

    request = fcl.ContinuousCollisionRequest()
    request.ccd_solver_type = solver
    request.ccd_motion_type = fcl.CCDMotionType.CCDM_TRANS
    prepared = [(fcl.CollisionObject(moving, fcl.Transform(start)), fcl.Transform(start + direction),
                 fcl.CollisionObject(target, fcl.Transform()), fcl.Transform()) for moving, start, direction, target
                in pairs]
    hits = np.zeros(len(prepared), bool)
    started = time.perf_counter()
    for i, (moving, moving_end, target, target_end) in enumerate(prepared):
        result = fcl.ContinuousCollisionResult()
        fcl.continuousCollide(moving, moving_end, target, target_end, request, result)
        hits[i] = result.is_collide
    return len(prepared) / (time.perf_counter() - started), hits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=10**6, help="batch size for sweeplab")
    parser.add_argument("--fcl-n", type=int, default=10**5, help="pairs for the python-fcl loop")
    args = parser.parse_args()
    import fcl

    rng = np.random.default_rng(7)
    movers, spheres = random_spheres(rng, args.n), random_spheres(rng, args.n)
    triangles, directions = random_triangles(rng, args.n), rng.uniform(-20, 20, (args.n, 3))

    sphere_rate = best_rate(lambda: sweep(movers, spheres, directions), args.n)
    triangle_rate = best_rate(lambda: sweep(movers, triangles, directions), args.n)

    k = args.fcl_n
    sphere_pairs = [(fcl.Sphere(float(r)), c, d, fcl.Sphere(float(rt))) for r, c, d, rt in
                    zip(movers.radius[:k], movers.center[:k] - spheres.center[:k], directions[:k], spheres.radius[:k])]
    fcl_sphere_rate, fcl_hits = fcl_rate(sphere_pairs, fcl.CCDSolverType.CCDC_CONSERVATIVE_ADVANCEMENT)

    def one_triangle(vertices):
        model = fcl.BVHModel()
        model.beginModel(1, 3)
        model.addTriangle(*vertices)
        model.endModel()
        return model

    triangle_pairs = [(fcl.Sphere(float(r)), c, d, one_triangle(v)) for r, c, d, v in
                      zip(movers.radius[:k], movers.center[:k], directions[:k], triangles.vertices[:k])]
    fcl_triangle_rate, _ = fcl_rate(triangle_pairs, fcl.CCDSolverType.CCDC_NAIVE)

    ours = sweep(Sphere(movers.center[:k], movers.radius[:k]), Sphere(spheres.center[:k], spheres.radius[:k]),
                 directions[:k])
    agree = np.count_nonzero(ours.hit == fcl_hits)

    sphere, triangle = Sphere([1.0, 1, 5], 1.0), Triangle([0.0, 0, 0], [2.0, 0, 0], [1.0, 3, 0])
    latencies = []
    for _ in range(2000):
        start = time.perf_counter()
        sweep(sphere, triangle, [0.3, 0.1, -10])
        latencies.append(time.perf_counter() - start)

    print(f"sphere-sphere   sweeplab batched N={args.n:.0e}: {sphere_rate / 1e6:8.2f} M sweeps/s")
    print(f"sphere-sphere   python-fcl loop  N={k:.0e}: {fcl_sphere_rate / 1e6:8.4f} M sweeps/s"
          f"   ratio {sphere_rate / fcl_sphere_rate:7.1f}x   (hit flags agree on {agree}/{k})")
    print(f"sphere-triangle sweeplab batched N={args.n:.0e}: {triangle_rate / 1e6:8.2f} M sweeps/s")
    print(f"sphere-triangle python-fcl loop  N={k:.0e}: {fcl_triangle_rate / 1e6:8.4f} M sweeps/s"
          f"   ratio {triangle_rate / fcl_triangle_rate:7.1f}x   (fcl naive solver)")
    print(f"sweep(Sphere, Triangle, d) scalar latency: median {statistics.median(latencies) * 1e6:.1f} us")


if __name__ == "__main__":
    main()
