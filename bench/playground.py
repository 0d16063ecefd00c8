"""The playground's cost per step, and how much of it the sweeps of turning bodies take.

Worlds stepped at 1/60 s with CCD on, compiled kernels (run ``sweeplab warmup``
first, or the first rounds include the compile):

- ``playground``: the bundled playground scene (the ball fired at the thin wall, the
  crate and the log falling and tumbling), the editor's run of it;
- ``tumbling box``: a box dropped tilted on an edge, spinning, until it rests;
- ``stack``: four boxes resting on the floor (no body turns: the linear sweeps).

Prints the median CPU milliseconds per step over the rounds (the process's CPU time:
the playground runs on one thread, and on a shared machine wall time counts the
other processes), and the ratio of each world to the ``stack`` world measured in the
same run (the peer).  Not a test.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np


def playground_world():
    from sweeplab.cli import example_scenes
    from sweeplab.playground.run import PlaygroundRun
    from sweeplab.scene.model import load

    return PlaygroundRun(load(example_scenes()["playground"]), {"crate", "log"}, restitution=0.3).world


def tumbling_box_world():
    from sweeplab.physics import Plane
    from sweeplab.playground.world import World, box_body

    tilt = np.radians(30.0)
    turn = np.array([[1.0, 0.0, 0.0], [0.0, np.cos(tilt), -np.sin(tilt)], [0.0, np.sin(tilt), np.cos(tilt)]])
    box = box_body("box", [0.5, 0.3, 0.2], [0.0, 0.0, 1.5], rotation=turn)
    box.angular_velocity = np.array([4.0, 1.0, 0.0])
    return World([box], {"floor": Plane([0.0, 0.0, 1.0], 0.0)}, restitution=0.5, friction=0.5)


def stack_world():
    from sweeplab.physics import Plane
    from sweeplab.playground.world import World, box_body

    boxes = [box_body(f"box {i}", [0.5, 0.5, 0.5], [0.0, 0.0, 0.5 + i]) for i in range(4)]
    return World(boxes, {"floor": Plane([0.0, 0.0, 1.0], 0.0)}, restitution=0.0, friction=0.5)


WORLDS = {"playground": playground_world, "tumbling box": tumbling_box_world, "stack": stack_world}


def step_times(make, steps: int, rounds: int) -> float:
    """Median over ``rounds`` fresh worlds of the mean CPU seconds per step over ``steps`` steps."""
    times = []
    for _ in range(rounds):
        world = make()
        start = time.process_time()
        for _ in range(steps):
            world.step(1 / 60)
        times.append((time.process_time() - start) / steps)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=120)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for make in WORLDS.values():  # compile (or load) every kernel the worlds use before timing
        step_times(make, 2, 1)
    measured = {name: step_times(make, args.steps, args.rounds) for name, make in WORLDS.items()}
    for name, seconds in measured.items():
        print(f"{name:>14}: {seconds * 1e3:8.3f} CPU ms/step  ({seconds / measured['stack']:.2f}x the stack)")


if __name__ == "__main__":
    main()
