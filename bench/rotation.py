"""Turning sweeps (#35): sweeplab's rotating sweep of two primitives against
python-fcl's conservative advancement with rotation, in the same run.

Three pairs, the moving shape turning about its centre (its centroid: fcl's sphere,
capsule and box turn about their own origin) while it moves:

* sphere-box: a box turning into a sphere,
* capsule-capsule: a capsule turning into a capsule,
* box-box: a box turning into a box.

fcl is asked as ``engines.fcl_engine`` asks it: ``continuousCollide`` with
``CCDM_SCREW`` (``ScrewMotion``; its ``InterpMotion`` reads uninitialized memory,
``fcl_engine``'s docstring) and conservative advancement, its own primitives
(``fcl.Box``, ``fcl.Capsule``, ``fcl.Sphere``), objects prebuilt, one call per pair.
A screw is sweeplab's ``"slerp"`` path when the shape spins about its direction of
travel, so every configuration does (a bullet, a drill).

* One query: the best of ``--rounds`` interleaved rounds of ``--calls`` calls, µs a
  call (target <= 20 µs for sweeplab), and the ratio to fcl's call.
* A batch of ``--n`` (10^4) random configurations (half extents 0.2-1, random
  orientations, starts in [-4, 4]^3 moving by up to 8 on each axis, spinning about
  that motion by an angle under 3 rad) against one target: sweeplab's batched
  ``sweep(..., rotation=...)`` on one thread against fcl's loop, CPU time of the
  calling thread, the best of ``--rounds``; the ratio (target >= 10x), and how often
  the hit flags agree with |dt| where both hit.

Needs the ``fcl`` and ``bench`` extras.  Not a test: numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np
from one_query import best_seconds
from scaling import random_rotations
from timing import machine_load

from sweeplab.physics import Capsule, ConvexPolyhedron, Sphere, sweep
from sweeplab.physics.sweep.turning import Motion

ONE_QUERY_TARGET = 20e-6
RATIO_TARGET = 10.0
MAX_TURN = 3.0
PAIRS = ("sphere-box", "capsule-capsule", "box-box")


def end_rotations(rotations: np.ndarray) -> np.ndarray:
    """exp([r]×) of each rotation vector (N, 3) -> (N, 3, 3): sweeplab's end turn."""
    return np.stack([Motion(np.zeros(3), rotation).matrix(1.0) for rotation in rotations])


def axis_frames(axes: np.ndarray) -> np.ndarray:
    """Rotations (N, 3, 3) whose third column is each unit axis: an fcl capsule's pose."""
    from sweeplab.engines.fcl_engine import capsule_geometry

    return np.stack([capsule_geometry(np.zeros(3), axis, 0.0)[1] for axis in axes])


def configurations(pair: str, rng: np.random.Generator, n: int) -> dict:
    """Random turning configurations of ``pair`` (module docstring): the moving
    shapes' parameters, their motions and turns, and the target's."""
    motions, angle = rng.uniform(-8, 8, (n, 3)), rng.uniform(0, MAX_TURN, n)
    found = {"centers": rng.uniform(-4, 4, (n, 3)), "motions": motions,
             "rotations": motions / np.linalg.norm(motions, axis=1)[:, None] * angle[:, None]}
    if pair == "capsule-capsule":
        directions = rng.normal(size=(n, 3))
        found.update(axes=directions / np.linalg.norm(directions, axis=1)[:, None], lengths=rng.uniform(0.4, 2, n),
                     radii=rng.uniform(0.2, 1, n))
    else:
        found.update(halves=rng.uniform(0.2, 1, (n, 3)), frames=random_rotations(rng, n))
    return found


TARGETS = {"sphere-box": Sphere([0.0, 0.0, 0.0], 0.8),
           "capsule-capsule": Capsule([0.0, -0.7, 0.0], [0.0, 0.7, 0.0], 0.5),
           "box-box": ConvexPolyhedron.box([0.6, 0.4, 0.8])}


def ours(pair: str, found: dict):
    """(the batch of moving shapes, the function sweeping them all) of sweeplab."""
    if pair == "capsule-capsule":
        half = found["axes"] * (found["lengths"] / 2)[:, None]
        moving = Capsule(found["centers"] - half, found["centers"] + half, found["radii"])
    else:
        moving = ConvexPolyhedron.box(found["halves"], found["centers"], found["frames"])
    target, motions, rotations = TARGETS[pair], found["motions"], found["rotations"]
    return moving, lambda: sweep(moving, target, motions, rotation=rotations)


def fcl_target(pair: str):
    import fcl

    if pair == "sphere-box":
        return fcl.CollisionObject(fcl.Sphere(0.8), fcl.Transform())
    if pair == "capsule-capsule":
        pose = axis_frames(np.array([[0.0, 1.0, 0.0]]))[0]
        return fcl.CollisionObject(fcl.Capsule(0.5, 1.4), fcl.Transform(pose, np.zeros(3)))
    return fcl.CollisionObject(fcl.Box(1.2, 0.8, 1.6), fcl.Transform())


def fcl_queries(pair: str, found: dict, count: int) -> list:
    """One function per configuration (the first ``count``) that asks fcl's
    continuousCollide (``CCDM_SCREW``, conservative advancement) of it, objects built
    beforehand, and returns fcl's result."""
    import fcl

    request = fcl.ContinuousCollisionRequest()
    request.ccd_motion_type = fcl.CCDMotionType.CCDM_SCREW
    request.ccd_solver_type = fcl.CCDSolverType.CCDC_CONSERVATIVE_ADVANCEMENT
    target = fcl_target(pair)
    still = target.getTransform()
    turns = end_rotations(found["rotations"][:count])
    if pair == "capsule-capsule":
        frames = axis_frames(found["axes"][:count])
        shapes = [fcl.Capsule(radius, length) for radius, length in zip(found["radii"][:count],
                                                                         found["lengths"][:count], strict=True)]
    else:
        frames = found["frames"][:count]
        shapes = [fcl.Box(*(2 * half)) for half in found["halves"][:count]]

    def query(moving, end):
        def ask():
            result = fcl.ContinuousCollisionResult()
            fcl.continuousCollide(moving, end, target, still, request, result)
            return result
        return ask

    return [query(fcl.CollisionObject(shape, fcl.Transform(frame, center)), fcl.Transform(turn @ frame, center + move))
            for shape, frame, turn, center, move in zip(shapes, frames, turns, found["centers"][:count],
                                                        found["motions"][:count], strict=True)]


def fcl_pass(queries: list):
    """A function asking fcl every query in a loop; it returns (hit flags, times of contact)."""
    def run():
        hits, times = np.zeros(len(queries), bool), np.full(len(queries), np.nan)
        for i, ask in enumerate(queries):
            result = ask()
            if result.is_collide:
                hits[i], times[i] = True, result.time_of_contact
        return hits, times

    return run


def agreement(answer, hits: np.ndarray, times: np.ndarray) -> str:
    """How often sweeplab's and fcl's hit flags agree, and |dt| where both hit."""
    ours_hit = np.asarray(answer.hit, bool)
    both = ours_hit & hits
    gaps = np.abs(np.asarray(answer.t, float)[both] - times[both])
    spread = f"median {np.median(gaps):.2e}, largest {gaps.max():.2e}" if len(gaps) else "none"
    return (f"hit flags agree on {int(np.sum(ours_hit == hits))}/{len(hits)} (sweeplab {int(ours_hit.sum())} hits, "
            f"fcl {int(hits.sum())}); |dt| where both hit: {spread}")


def cpu_seconds(run) -> float:
    start = time.thread_time()
    run()
    return time.thread_time() - start


def one_query(pair: str, found: dict, calls: int, rounds: int) -> tuple[float, float]:
    """(sweeplab's, fcl's) seconds for one query of the first configuration."""
    moving, _ = ours(pair, found)
    single, target = moving[0], TARGETS[pair]
    motion, rotation = found["motions"][0].copy(), found["rotations"][0].copy()
    (fcl_one,) = fcl_queries(pair, found, 1)
    seconds = best_seconds({"sweeplab": lambda: sweep(single, target, motion, rotation=rotation),
                            "fcl": fcl_one}, calls, rounds)
    return seconds["sweeplab"], seconds["fcl"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=10**4)
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pairs", nargs="+", choices=PAIRS, default=list(PAIRS))
    args = parser.parse_args()
    print(f"turning sweeps against python-fcl (CCDM_SCREW, conservative advancement) ({machine_load()})")
    available = numba.config.NUMBA_NUM_THREADS
    try:
        numba.set_num_threads(1)
        for pair in args.pairs:
            found = configurations(pair, np.random.default_rng(35), args.n)
            mine, theirs = one_query(pair, found, args.calls, args.rounds)
            print(f"{pair:16s} one query: sweeplab {mine * 1e6:7.2f} us (target <= {ONE_QUERY_TARGET * 1e6:.0f} us), "
                  f"python-fcl {theirs * 1e6:7.2f} us, ratio {theirs / mine:.3g}x")
            _, batch = ours(pair, found)
            peer = fcl_pass(fcl_queries(pair, found, args.n))
            batch()  # compiles (or loads) the batch loop
            best = {"sweeplab": np.inf, "fcl": np.inf}
            for _ in range(args.rounds):
                best["sweeplab"] = min(best["sweeplab"], cpu_seconds(batch))
                best["fcl"] = min(best["fcl"], cpu_seconds(peer))
            rates = {name: args.n / seconds / 1e3 for name, seconds in best.items()}
            print(f"{pair:16s} batch N={args.n:.0e}: sweeplab {rates['sweeplab']:8.1f} k/s, python-fcl "
                  f"{rates['fcl']:8.1f} k/s (one thread, CPU)   ratio {best['fcl'] / best['sweeplab']:6.1f}x   "
                  f"target >= {RATIO_TARGET:.0f}x")
            print(f"{'':16s} {agreement(batch(), *peer())}")
    finally:
        numba.set_num_threads(available)
    print(f"({machine_load()} after)")


if __name__ == "__main__":
    main()
