"""``sweeplab`` command line.

Until the editor lands, ``sweeplab`` prints what the physics package can sweep
and runs the demo configuration through it, so a fresh install shows it works.
"""

from __future__ import annotations

import argparse

from physics import Plane, Point, Polygon, Segment, Sphere, Triangle, sweep
from physics.sweep.dispatch import PAIR_TESTS


def demo_targets() -> dict[str, object]:
    """The demo scene's targets: some hit, one grazes, one misses."""
    return {
        "point": Point([4.0, 0.0, 0.0]),
        "sphere (graze)": Sphere([6.0, 2.0, 0.0], 1.0),
        "segment": Segment([8.0, -1.0, -1.0], [8.0, 1.0, 1.0]),
        "plane patch": Plane([1.0, 0.0, 0.0], 12.0),
        "triangle": Triangle([10.0, -1.0, -1.0], [10.0, 1.0, -1.0], [10.0, 0.0, 1.0]),
        "polygon (miss)": Polygon([[7.0, 3.0, -1.0], [9.0, 3.0, -1.0], [9.0, 3.0, 1.0], [7.0, 3.0, 1.0]]),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="sweeplab", description=__doc__)
    parser.parse_args(argv)
    pairs = ", ".join(f"{moving.__name__}-{target.__name__}" for moving, target in PAIR_TESTS)
    print(f"sweeplab physics: sweep pairs {pairs} (either order; a moving Point is a zero-radius sphere).")
    moving, direction = Sphere([0.0, 0.0, 0.0], 1.0), [14.0, 0.0, 0.0]
    print(f"demo: sphere r=1 at the origin swept by {direction}")
    for name, target in demo_targets().items():
        result = sweep(moving, target, direction)
        answer = (f"t={result.t:.17g} {result.feature.kind} {result.feature.index} normal={result.normal.tolist()}"
                  if result.hit else "miss")
        print(f"  {name:16s} {answer}")
    print("The interactive editor arrives with the editor issue; run the tests with the README's second command.")
    return 0
