"""Sweeps against triangle meshes through the sphere tree, against python-fcl and embree.

Meshes: icospheres of 81,920 and 1,310,720 triangles (radius 1).  Per mesh it
prints: the sphere-tree build time; the median latency of one sphere sweep and one
capsule sweep (from 3 units out, towards the mesh, random directions); the batched
throughput of 10^5 sphere sweeps and of 10^5 rays (radius 0); and in the same run
python-fcl's ``continuousCollide`` of a sphere against a ``BVHModel`` of the same
mesh (its naive solver: conservative advancement reports no hit or crashes on a
sphere against a BVHModel), and trimesh + embreex ray casts (rays/s) on the same
mesh, with the ratio of our batched sphere sweeps to embree's rays.  Needs the
``bench`` extra (``pip install -e '.[bench]'``).  Not a test: numbers depend on
the machine.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import trimesh
from timing import best_rate, describe, thread_rates

from sweeplab.physics import Capsule, Sphere, TriangleMesh
from sweeplab.physics.sweep.mesh import sweep_capsule_mesh, sweep_sphere_mesh

LATENCY_RADIUS = 0.05
BATCH_RADIUS = 0.01


def queries(rng, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Starts 3 units out and motions of length 3 towards (near) the center."""
    directions = rng.normal(size=(count, 3))
    directions /= np.linalg.norm(directions, axis=1)[:, None]
    starts = -3 * directions + rng.normal(scale=0.2, size=(count, 3))
    return starts, 3 * directions


def median_ms(run, count: int = 60) -> float:
    times = []
    for i in range(count):
        start = time.perf_counter()
        run(i)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def fcl_sweeps(vertices, faces, starts, motions, radius):
    """(median ms, hit flags, times of contact) of python-fcl's naive CCD."""
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
    for start, motion in zip(starts, motions):
        moving = fcl.CollisionObject(fcl.Sphere(radius), fcl.Transform(start))
        result = fcl.ContinuousCollisionResult()
        began = time.perf_counter()
        fcl.continuousCollide(moving, fcl.Transform(start + motion), target, fcl.Transform(), request, result)
        latencies.append(time.perf_counter() - began)
        hits.append(result.is_collide)
        times.append(result.time_of_contact)
    return statistics.median(latencies) * 1e3, np.array(hits), np.array(times)


def embree_figures(mesh, starts, motions) -> tuple[float, float, float]:
    """(scene build seconds, median seconds of one ray, rays/s batched) of embree
    through trimesh + embreex."""
    from trimesh.ray.ray_pyembree import RayMeshIntersector

    began = time.perf_counter()
    intersector = RayMeshIntersector(mesh)
    intersector.intersects_first(starts[:1], motions[:1])  # builds the scene
    build = time.perf_counter() - began
    one = median_ms(lambda i: intersector.intersects_first(starts[i:i + 1], motions[i:i + 1]), 1000) / 1e3
    return build, one, best_rate(lambda: intersector.intersects_first(starts, motions), len(starts))


def bench_mesh(subdivisions: int, batch: int, fcl_count: int) -> None:
    shape = trimesh.creation.icosphere(subdivisions=subdivisions)
    vertices, faces = np.asarray(shape.vertices, float), np.asarray(shape.faces, np.int64)
    TriangleMesh(vertices, faces[:8]).tree  # compile (or load) the tree build before timing it
    mesh = TriangleMesh(vertices, faces)
    began = time.perf_counter()
    tree = mesh.tree
    build = time.perf_counter() - began
    rng = np.random.default_rng(subdivisions)
    starts, motions = queries(rng, batch)
    sweep_sphere_mesh(Sphere(starts[0], LATENCY_RADIUS), mesh, motions[0])  # the edge analysis, once per mesh
    sphere_ms = median_ms(lambda i: sweep_sphere_mesh(Sphere(starts[i], LATENCY_RADIUS), mesh, motions[i]), 1000)
    capsule_ms = median_ms(lambda i: sweep_capsule_mesh(
        Capsule(starts[i], starts[i] + [0.1, 0.0, 0.0], LATENCY_RADIUS), mesh, motions[i]), 1000)
    sphere_rates = thread_rates(lambda: sweep_sphere_mesh(Sphere(starts, BATCH_RADIUS), mesh, motions), batch, 2)
    ray_rates = thread_rates(lambda: sweep_sphere_mesh(Sphere(starts, 0.0), mesh, motions), batch, 2)
    sphere_rate = max(sphere_rates.values())
    embree_build, embree_one, embree = embree_figures(shape, starts, motions / 3)
    fcl_ms, fcl_hits, fcl_times = fcl_sweeps(vertices, faces, starts[:fcl_count], motions[:fcl_count], LATENCY_RADIUS)
    ours = sweep_sphere_mesh(Sphere(starts[:fcl_count], LATENCY_RADIUS), mesh, motions[:fcl_count])
    both = ours.hit & fcl_hits
    error = np.abs(ours.t[both] - fcl_times[both])
    print(f"icosphere, {len(faces):,} triangles ({tree.node_count:,} nodes, {tree.height} levels)")
    print(f"  sphere-tree build                    {build:8.2f} s    embree scene build {embree_build:.2f} s   "
          f"(target <= 1.5 s at 1.3M)")
    print(f"  one sphere sweep  (r={LATENCY_RADIUS})          median {sphere_ms * 1e3:7.1f} us  "
          f"(target <= 100 us at 1.3M); one embree ray through trimesh {embree_one * 1e6:.1f} us")
    print(f"  one capsule sweep (r={LATENCY_RADIUS}, 0.1 long) median {capsule_ms * 1e3:7.1f} us  (target <= 200 us)")
    print(f"  python-fcl naive CCD, one sphere     median {fcl_ms * 1e3:7.1f} us; hit flags agree on "
          f"{np.count_nonzero(ours.hit == fcl_hits)}/{fcl_count}, its t off by up to {error.max():.3f} "
          f"(10 samples of t)")
    print(f"  batched {batch:.0e} sphere sweeps (r={BATCH_RADIUS})  {describe(sphere_rates, 1e3, 'k/s')}")
    print(f"  batched {batch:.0e} rays (r=0)                {describe(ray_rates, 1e3, 'k/s')}")
    print(f"  embree rays (trimesh + embreex)        {embree / 1e3:8.1f} k/s   best sphere sweeps / embree rays = "
          f"1/{embree / sphere_rate:.1f} (target >= 1/10 with two threads)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--batch", type=int, default=10**5, help="batched sweeps per mesh")
    parser.add_argument("--fcl", type=int, default=1000, help="python-fcl sweeps per mesh")
    parser.add_argument("--subdivisions", type=int, nargs="*", default=[6, 8],
                        help="icosphere subdivisions (6: 81,920 triangles, 8: 1,310,720)")
    args = parser.parse_args()
    for subdivisions in args.subdivisions:
        bench_mesh(subdivisions, args.batch, args.fcl)


if __name__ == "__main__":
    main()
