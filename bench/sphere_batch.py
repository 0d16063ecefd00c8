"""Sphere sweeps: batched throughput and single-query latency, against python-fcl.

Prints sweeps/second of sweeplab's batched API (N = 10^6 by default) for
sphere-sphere and sphere-triangle at one, two and all threads with the serial share
(``timing.serial_share``), python-fcl's ``continuousCollide`` called in a Python loop
over 10^5 pairs in the same run, and the ratios.  (One query's latency:
``bench/one_query.py``.)  Needs the ``bench`` extra
(``pip install -e '.[bench]'``).  Not a test: numbers depend on the machine.

fcl settings: sphere-sphere uses its default solver (conservative advancement,
exact for two spheres); conservative advancement reports no hit for a sphere
against a one-triangle BVHModel, so sphere-triangle uses the naive solver (10
samples of t), which is what fcl can answer there.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from timing import describe, machine_load, serial_share, thread_rates

from sweeplab.physics import Sphere, Triangle, sweep


def random_spheres(rng, count):
    return Sphere(rng.uniform(-10, 10, (count, 3)), rng.uniform(0.1, 2, count))


def random_triangles(rng, count):
    centers = rng.uniform(-10, 10, (count, 1, 3))
    return Triangle(*np.moveaxis(centers + rng.uniform(-3, 3, (count, 3, 3)), 1, 0))


def one_triangle(vertices):
    """A python-fcl BVHModel of one triangle."""
    import fcl

    model = fcl.BVHModel()
    model.beginModel(1, 3)
    model.addTriangle(*[np.asarray(v, float) for v in vertices])
    model.endModel()
    return model


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

    print(f"({machine_load()})")
    sphere_rates = thread_rates(lambda: sweep(movers, spheres, directions), args.n)
    triangle_rates = thread_rates(lambda: sweep(movers, triangles, directions), args.n)
    sphere_share = serial_share(lambda: sweep(movers, spheres, directions))
    triangle_share = serial_share(lambda: sweep(movers, triangles, directions))
    sphere_rate, triangle_rate = sphere_rates[1], triangle_rates[1]

    k = args.fcl_n
    sphere_pairs = [(fcl.Sphere(float(r)), c, d, fcl.Sphere(float(rt))) for r, c, d, rt in
                    zip(movers.radius[:k], movers.center[:k] - spheres.center[:k], directions[:k], spheres.radius[:k],
                        strict=True)]
    fcl_sphere_rate, fcl_hits = fcl_rate(sphere_pairs, fcl.CCDSolverType.CCDC_CONSERVATIVE_ADVANCEMENT)

    triangle_pairs = [(fcl.Sphere(float(r)), c, d, one_triangle(v)) for r, c, d, v in
                      zip(movers.radius[:k], movers.center[:k], directions[:k], triangles.vertices[:k], strict=True)]
    fcl_triangle_rate, _ = fcl_rate(triangle_pairs, fcl.CCDSolverType.CCDC_NAIVE)

    ours = sweep(Sphere(movers.center[:k], movers.radius[:k]), Sphere(spheres.center[:k], spheres.radius[:k]),
                 directions[:k])
    agree = np.count_nonzero(ours.hit == fcl_hits)

    print(f"sphere-sphere   sweeplab batched N={args.n:.0e}: {describe(sphere_rates, share=sphere_share)}")
    print(f"sphere-sphere   python-fcl loop  N={k:.0e}: {fcl_sphere_rate / 1e6:8.4f} M/s"
          f"   ratio (one thread) {sphere_rate / fcl_sphere_rate:7.1f}x   target >= 50x, two threads >= 1.7x one"
          f"   (hit flags agree on {agree}/{k})")
    print(f"sphere-triangle sweeplab batched N={args.n:.0e}: {describe(triangle_rates, share=triangle_share)}"
          "   target >= 6 M/s one thread")
    print(f"sphere-triangle python-fcl loop  N={k:.0e}: {fcl_triangle_rate / 1e6:8.4f} M/s"
          f"   ratio (one thread) {triangle_rate / fcl_triangle_rate:7.1f}x   (fcl naive solver)")

if __name__ == "__main__":
    main()
