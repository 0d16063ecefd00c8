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
from timing import describe, thread_rates

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


def fcl_call_seconds(moving, start, direction, target, calls: int = 10**4) -> float:
    """Median seconds of one continuousCollide call (prebuilt objects, the naive
    solver, which answers a sphere against a triangle model)."""
    import fcl

    request = fcl.ContinuousCollisionRequest()
    request.ccd_solver_type = fcl.CCDSolverType.CCDC_NAIVE
    request.ccd_motion_type = fcl.CCDMotionType.CCDM_TRANS
    moving_object, end = fcl.CollisionObject(moving, fcl.Transform(start)), fcl.Transform(start + direction)
    target_object = fcl.CollisionObject(target, fcl.Transform())
    latencies = []
    for _ in range(calls):
        begin = time.perf_counter()
        result = fcl.ContinuousCollisionResult()
        fcl.continuousCollide(moving_object, end, target_object, fcl.Transform(), request, result)
        latencies.append(time.perf_counter() - begin)
    return statistics.median(latencies)


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

    sphere_rates = thread_rates(lambda: sweep(movers, spheres, directions), args.n)
    triangle_rates = thread_rates(lambda: sweep(movers, triangles, directions), args.n)
    sphere_rate, triangle_rate = sphere_rates[1], triangle_rates[1]

    k = args.fcl_n
    sphere_pairs = [(fcl.Sphere(float(r)), c, d, fcl.Sphere(float(rt))) for r, c, d, rt in
                    zip(movers.radius[:k], movers.center[:k] - spheres.center[:k], directions[:k], spheres.radius[:k])]
    fcl_sphere_rate, fcl_hits = fcl_rate(sphere_pairs, fcl.CCDSolverType.CCDC_CONSERVATIVE_ADVANCEMENT)

    triangle_pairs = [(fcl.Sphere(float(r)), c, d, one_triangle(v)) for r, c, d, v in
                      zip(movers.radius[:k], movers.center[:k], directions[:k], triangles.vertices[:k])]
    fcl_triangle_rate, _ = fcl_rate(triangle_pairs, fcl.CCDSolverType.CCDC_NAIVE)

    ours = sweep(Sphere(movers.center[:k], movers.radius[:k]), Sphere(spheres.center[:k], spheres.radius[:k]),
                 directions[:k])
    agree = np.count_nonzero(ours.hit == fcl_hits)

    sphere, triangle = Sphere([1.0, 1, 5], 1.0), Triangle([0.0, 0, 0], [2.0, 0, 0], [1.0, 3, 0])
    motion = np.array([0.3, 0.1, -10])
    sweep(sphere, triangle, motion)
    latencies = []
    for _ in range(10**4):
        start = time.perf_counter()
        sweep(sphere, triangle, motion)
        latencies.append(time.perf_counter() - start)
    fcl_latency = fcl_call_seconds(fcl.Sphere(1.0), np.array([1.0, 1, 5]), motion,
                                   one_triangle(triangle.vertices.tolist()))

    print(f"sphere-sphere   sweeplab batched N={args.n:.0e}: {describe(sphere_rates)}")
    print(f"sphere-sphere   python-fcl loop  N={k:.0e}: {fcl_sphere_rate / 1e6:8.4f} M/s"
          f"   ratio (one thread) {sphere_rate / fcl_sphere_rate:7.1f}x   target >= 50x, two threads >= 1.7x one"
          f"   (hit flags agree on {agree}/{k})")
    print(f"sphere-triangle sweeplab batched N={args.n:.0e}: {describe(triangle_rates)}   target >= 6 M/s one thread")
    print(f"sphere-triangle python-fcl loop  N={k:.0e}: {fcl_triangle_rate / 1e6:8.4f} M/s"
          f"   ratio (one thread) {triangle_rate / fcl_triangle_rate:7.1f}x   (fcl naive solver)")
    ours_latency = statistics.median(latencies)
    print(f"one sweep(Sphere, Triangle, d), prebuilt shapes: median of 10^4 {ours_latency * 1e6:.2f} us; one "
          f"python-fcl continuousCollide call {fcl_latency * 1e6:.2f} us: ratio {ours_latency / fcl_latency:.2f}x"
          f"   target <= 5x (stretch <= 2x)")


if __name__ == "__main__":
    main()
