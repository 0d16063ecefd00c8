"""Sweeps against triangle meshes through the sphere tree, against Embree and python-fcl.

Meshes are icospheres (radius 1) of 20 * 4^s triangles.  It prints, with the machine's
load before each part:

* **growth** -- per mesh size (s = 3..9: 1,280 to 5.2M triangles), the median latency
  of one sphere sweep (r = 0.05, from 3 units out towards the mesh) and of one Embree
  ray through trimesh + embreex on the same mesh, and their ratio; the ratio's growth
  from the smallest mesh to the largest is the figure (target: constant, +-20 %);
* **latency** on the 1.3M-triangle mesh (s = 8): one sphere sweep, one capsule sweep
  (built in the call, as users write them), python-fcl's ``continuousCollide`` of a
  sphere against a ``BVHModel`` (its naive solver: conservative advancement reports no
  hit or crashes on a sphere against a BVHModel) and whether it agrees;
* **batch** -- 10^5 sphere sweeps (r = 0.01) and rays (r = 0) on that mesh at 1, 2 and
  all threads, with the serial share (time outside the parallel walk as a fraction of
  one thread's, ``timing.serial_share``), against Embree's batched rays on one thread;
* **tree build** of that mesh at 1, 2 and all threads, with its serial share.

Needs the ``bench`` extra (``pip install -e '.[bench]'``).  Not a test: numbers depend
on the machine.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import trimesh
from timing import best_rate, describe, machine_load, serial_share, thread_rates

from sweeplab.physics import Capsule, Sphere, TriangleMesh
from sweeplab.physics.bvh import build_sphere_tree
from sweeplab.physics.sweep.mesh import sweep_capsule_mesh, sweep_sphere_mesh

LATENCY_RADIUS = 0.05
BATCH_RADIUS = 0.01


def icosphere(subdivisions: int) -> tuple[trimesh.Trimesh, TriangleMesh]:
    """The trimesh icosphere and our mesh of it, its tree and edge data built."""
    shape = trimesh.creation.icosphere(subdivisions=subdivisions)
    mesh = TriangleMesh(np.asarray(shape.vertices, float), np.asarray(shape.faces, np.int64))
    sweep_sphere_mesh(Sphere([0.0, 0, 3], LATENCY_RADIUS), mesh, [0.0, 0, -3])  # tree, edges, walk arrays
    return shape, mesh


def queries(rng, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Starts 3 units out and motions of length 3 towards (near) the center."""
    directions = rng.normal(size=(count, 3))
    directions /= np.linalg.norm(directions, axis=1)[:, None]
    starts = -3 * directions + rng.normal(scale=0.2, size=(count, 3))
    return starts, 3 * directions


def median_seconds(run, count: int = 1000, rounds: int = 3) -> float:
    """The least of ``rounds`` medians of ``run(i)`` over i < count (the least disturbed
    by a shared machine)."""
    medians = []
    for _ in range(rounds):
        times = []
        for i in range(count):
            start = time.perf_counter()
            run(i)
            times.append(time.perf_counter() - start)
        medians.append(statistics.median(times))
    return min(medians)


def embree(shape: trimesh.Trimesh):
    """trimesh + embreex's intersector of ``shape``, its scene built."""
    from trimesh.ray.ray_pyembree import RayMeshIntersector

    intersector = RayMeshIntersector(shape)
    intersector.intersects_first(np.zeros((1, 3)), np.ones((1, 3)))
    return intersector


def one_sphere_seconds(mesh: TriangleMesh, starts, motions) -> float:
    return median_seconds(lambda i: sweep_sphere_mesh(Sphere(starts[i], LATENCY_RADIUS), mesh, motions[i]),
                          len(starts))


def one_ray_seconds(intersector, starts, motions) -> float:
    return median_seconds(lambda i: intersector.intersects_first(starts[i:i + 1], motions[i:i + 1]), len(starts))


def growth(subdivisions: list[int], count: int) -> None:
    print(f"growth with mesh size, one query ({machine_load()})")
    print("  triangles   sphere sweep   embree ray   ratio")
    ratios, sizes = [], []
    for level in subdivisions:
        shape, mesh = icosphere(level)
        starts, motions = queries(np.random.default_rng(level), count)
        ours, theirs = one_sphere_seconds(mesh, starts, motions), one_ray_seconds(embree(shape), starts, motions / 3)
        ratios.append(ours / theirs)
        sizes.append(len(mesh.faces))
        print(f"  {len(mesh.faces):>9,}   {ours * 1e6:9.1f} us   {theirs * 1e6:7.1f} us   {ratios[-1]:5.1f}x")
    print(f"  the gap grows {ratios[-1] / ratios[0]:.2f}x from {sizes[0]:,} to {sizes[-1]:,} triangles "
          f"(target 0.8-1.2x)")


def latency(shape, mesh: TriangleMesh, fcl_count: int) -> None:
    starts, motions = queries(np.random.default_rng(1), 1000)
    sphere = one_sphere_seconds(mesh, starts, motions)
    capsule = median_seconds(lambda i: sweep_capsule_mesh(
        Capsule(starts[i], starts[i] + [0.1, 0.0, 0.0], LATENCY_RADIUS), mesh, motions[i]), len(starts))
    ray = one_ray_seconds(embree(shape), starts, motions / 3)
    fcl, fcl_hits, fcl_times = fcl_sweeps(mesh.vertices, mesh.faces, starts[:fcl_count], motions[:fcl_count])
    ours = sweep_sphere_mesh(Sphere(starts[:fcl_count], LATENCY_RADIUS), mesh, motions[:fcl_count])
    both = ours.hit & fcl_hits
    error = np.abs(ours.t[both] - fcl_times[both])
    print(f"one query, {len(mesh.faces):,} triangles ({machine_load()})")
    print(f"  one sphere sweep  (r={LATENCY_RADIUS})            median {sphere * 1e6:7.1f} us  (target <= 60 us); "
          f"{sphere / ray:.1f}x one embree ray through trimesh ({ray * 1e6:.1f} us)")
    print(f"  one capsule sweep (r={LATENCY_RADIUS}, 0.1 long)   median {capsule * 1e6:7.1f} us  (target <= 120 us)")
    print(f"  python-fcl naive CCD, one sphere       median {fcl * 1e6:7.1f} us ({fcl / sphere:.1f}x ours); hit flags "
          f"agree on {np.count_nonzero(ours.hit == fcl_hits)}/{fcl_count}, its t off by up to "
          f"{error.max() if len(error) else 0:.3f} (10 samples of t)")


def fcl_sweeps(vertices, faces, starts, motions):
    """(median seconds, hit flags, times of contact) of python-fcl's naive CCD."""
    import fcl

    model = fcl.BVHModel()
    model.beginModel(len(vertices), len(faces))
    model.addSubModel(vertices, faces)
    model.endModel()
    target = fcl.CollisionObject(model, fcl.Transform())
    request = fcl.ContinuousCollisionRequest()
    request.ccd_solver_type = fcl.CCDSolverType.CCDC_NAIVE
    request.ccd_motion_type = fcl.CCDMotionType.CCDM_TRANS
    hits, times, latencies = [], [], []
    for start, motion in zip(starts, motions, strict=True):
        moving = fcl.CollisionObject(fcl.Sphere(LATENCY_RADIUS), fcl.Transform(start))
        result = fcl.ContinuousCollisionResult()
        began = time.perf_counter()
        fcl.continuousCollide(moving, fcl.Transform(start + motion), target, fcl.Transform(), request, result)
        latencies.append(time.perf_counter() - began)
        hits.append(result.is_collide)
        times.append(result.time_of_contact)
    return statistics.median(latencies), np.array(hits), np.array(times)


def batch(shape, mesh: TriangleMesh, count: int) -> None:
    starts, motions = queries(np.random.default_rng(2), count)
    print(f"batched, {len(mesh.faces):,} triangles ({machine_load()})")
    rates = {}
    for name, radius in ((f"sphere sweeps (r={BATCH_RADIUS})", BATCH_RADIUS), ("rays (r=0)", 0.0)):
        def run(radius=radius):
            return sweep_sphere_mesh(Sphere(starts, radius), mesh, motions)
        rates[radius] = thread_rates(run, count, 2)
        print(f"  {count:.0e} {name:21s} {describe(rates[radius], 1e3, 'k/s', serial_share(run, 2))}")
    intersector = embree(shape)
    rays = best_rate(lambda: intersector.intersects_first(starts, motions / 3), count)
    print(f"  embree rays (trimesh + embreex), one thread {rays / 1e3:8.1f} k/s: our sphere sweeps on one thread "
          f"= 1/{rays / rates[BATCH_RADIUS][1]:.1f} of its rate (target >= 1/8)")


def tree_build(mesh: TriangleMesh) -> None:
    def run():
        return build_sphere_tree(mesh.vertices, mesh.faces)
    print(f"tree build, {len(mesh.faces):,} triangles ({machine_load()})")
    rates = thread_rates(run, 1, 1)
    print(f"  {1 / rates[1]:.2f} s one thread; builds/s: {describe(rates, 1, '/s', serial_share(run, 1))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--batch", type=int, default=10**5, help="batched sweeps")
    parser.add_argument("--fcl", type=int, default=1000, help="python-fcl sweeps")
    parser.add_argument("--growth", type=int, nargs="*", default=[3, 4, 5, 6, 7, 8, 9],
                        help="icosphere subdivisions of the growth table (3: 1,280 triangles, 9: 5.2M)")
    parser.add_argument("--subdivisions", type=int, default=8, help="the mesh of the other parts (8: 1.3M)")
    parser.add_argument("--parts", nargs="*", default=["growth", "latency", "batch", "build"],
                        choices=["growth", "latency", "batch", "build"])
    args = parser.parse_args()
    if "growth" in args.parts:
        growth(args.growth, 1000)
    shape, mesh = icosphere(args.subdivisions)
    if "latency" in args.parts:
        latency(shape, mesh, args.fcl)
    if "batch" in args.parts:
        batch(shape, mesh, args.batch)
    if "build" in args.parts:
        tree_build(mesh)


if __name__ == "__main__":
    main()
