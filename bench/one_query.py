"""One query at a time: the latency of a single ``sweep`` call against one call of
python-fcl and of rapier3d, measured in the same run, interleaved.

Each figure is the best of ``--rounds`` rounds of ``--calls`` back-to-back calls
(rounds alternate between the contestants, so a busy machine slows them alike):

* sweeplab ``sweep(Sphere, Triangle, d)`` with the shapes built once (target <= 3 us),
  and with ``Sphere(...)`` and ``Triangle(...)`` built in the call, as users write it
  (target <= 10 us); ``sweep(Capsule, Capsule, d)`` with prebuilt shapes;
* python-fcl ``continuousCollide`` of a sphere against a one-triangle ``BVHModel``
  (its naive solver: conservative advancement answers no hit there) and of two
  spheres (conservative advancement), objects prebuilt;
* rapier3d ``QueryPipeline.cast_shape`` of a ball against a triangle collider,
  pipeline prebuilt.

Needs the ``bench`` and ``rapier`` extras.  Not a test: numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from timing import machine_load

from sweeplab.physics import Capsule, Sphere, Triangle, sweep

CENTER, RADIUS = [1.0, 1.0, 5.0], 1.0
CORNERS = ([0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [1.0, 3.0, 0.0])
MOTION = [0.3, 0.1, -10.0]


def ours() -> dict:
    sphere, triangle, motion = Sphere(CENTER, RADIUS), Triangle(*CORNERS), np.array(MOTION)
    capsule, other = Capsule([0.0, 0, 0], [0.0, 1, 0], 0.3), Capsule([2.0, 0, 0], [2.0, 0, 1], 0.5)
    across = np.array([3.0, 0.2, 0.1])
    (a, b, c), center = CORNERS, CENTER
    return {
        "sweeplab sphere-triangle, shapes built once": lambda: sweep(sphere, triangle, motion),
        "sweeplab sphere-triangle, shapes built in the call": lambda: sweep(Sphere(center, 1.0), Triangle(a, b, c),
                                                                           [0.3, 0.1, -10.0]),
        "sweeplab capsule-capsule, shapes built once": lambda: sweep(capsule, other, across),
    }


def fcl_calls() -> dict:
    import fcl

    model = fcl.BVHModel()
    model.beginModel(1, 3)
    model.addTriangle(*[np.asarray(v, float) for v in CORNERS])
    model.endModel()
    naive = fcl.ContinuousCollisionRequest()
    naive.ccd_solver_type = fcl.CCDSolverType.CCDC_NAIVE
    naive.ccd_motion_type = fcl.CCDMotionType.CCDM_TRANS
    advancement = fcl.ContinuousCollisionRequest()
    advancement.ccd_motion_type = fcl.CCDMotionType.CCDM_TRANS
    start = np.array(CENTER)
    ball = fcl.CollisionObject(fcl.Sphere(RADIUS), fcl.Transform(start))
    end, still = fcl.Transform(start + np.array(MOTION)), fcl.Transform()
    triangle = fcl.CollisionObject(model, fcl.Transform())
    other = fcl.CollisionObject(fcl.Sphere(1.0), fcl.Transform(np.array([1.0, 1.0, -2.0])))
    at_other = fcl.Transform(np.array([1.0, 1.0, -2.0]))

    def sphere_triangle():
        result = fcl.ContinuousCollisionResult()
        fcl.continuousCollide(ball, end, triangle, still, naive, result)
        return result

    def sphere_sphere():
        result = fcl.ContinuousCollisionResult()
        fcl.continuousCollide(ball, end, other, at_other, advancement, result)
        return result

    return {"python-fcl sphere-triangle (naive solver)": sphere_triangle,
            "python-fcl sphere-sphere (conservative advancement)": sphere_sphere}


def rapier_calls() -> dict:
    import rapier3d as rapier

    bodies, colliders = rapier.RigidBodySet(), rapier.ColliderSet()
    colliders.insert(rapier.Collider.new(rapier.SharedShape.triangle(*[tuple(v) for v in CORNERS])))
    pipeline = rapier.QueryPipeline(rapier.BroadPhaseBvh(), rapier.NarrowPhase(), bodies, colliders)
    pipeline.update(bodies, colliders)
    ball, pose = rapier.SharedShape.ball(RADIUS), rapier.Isometry3.from_translation(*CENTER)
    velocity, options = tuple(MOTION), rapier.ShapeCastOptions(max_time_of_impact=1.0)
    return {"rapier3d sphere-triangle (cast_shape)": lambda: pipeline.cast_shape(pose, velocity, ball, options)}


def best_seconds(contestants: dict, calls: int, rounds: int) -> dict:
    """name -> seconds of one call, the best round's (rounds interleaved)."""
    best = {name: float("inf") for name in contestants}
    for run in contestants.values():  # warm up (compiles our kernels once)
        for _ in range(100):
            run()
    for _ in range(rounds):
        for name, run in contestants.items():
            start = time.perf_counter()
            for _ in range(calls):
                run()
            best[name] = min(best[name], (time.perf_counter() - start) / calls)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    contestants = {**ours(), **fcl_calls(), **rapier_calls()}
    print(f"one call, best of {args.rounds} interleaved rounds of {args.calls} ({machine_load()})")
    seconds = best_seconds(contestants, args.calls, args.rounds)
    peers = {name: value for name, value in seconds.items() if not name.startswith("sweeplab")}
    targets = {"sweeplab sphere-triangle, shapes built once": 3e-6,
               "sweeplab sphere-triangle, shapes built in the call": 10e-6}
    for name, value in seconds.items():
        line = f"  {name:55s} {value * 1e6:7.2f} us"
        if name in targets:
            line += f"   target <= {targets[name] * 1e6:.0f} us;"
        if name.startswith("sweeplab"):
            line += "  vs " + ", ".join(f"{peer.split(' (')[0]} {value / other:.2f}x" for peer, other in peers.items())
        print(line)


if __name__ == "__main__":
    main()
