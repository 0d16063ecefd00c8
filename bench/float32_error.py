"""How far a float32 sweep lands from the exact answer to its own inputs: the basis of
the float32 tolerances of Copy as C++ / Rust test (``scene.foreign_tests``).

A textbook sphere-sphere sweep (t = c / (-b + sqrt(b^2 - a c)), the harness of
``tests/engines/test_foreign_tests.py``) computed in float32, against the same formula
in float64 on the same float32 inputs, over random pairs 1 to 1000 units from the
origin and 0.1 to 10 units in size.  Prints the errors in float32 ulps of the pair's
scale S (its largest coordinate or radius): t times |direction|, the point, and the
normal's largest component; for all hits, and split by the approach (the cosine
between the direction and the contact normal: below 0.1 is a graze), with how many
exceed ``FLOAT32_LENGTH_RTOL`` and ``FLOAT32_NORMAL_ATOL``.  Numpy only.  Not a test.
"""

from __future__ import annotations

import argparse

import numpy as np

from sweeplab.scene.foreign_tests import FLOAT32_LENGTH_RTOL, FLOAT32_NORMAL_ATOL

EPS = float(np.finfo(np.float32).eps)


def random_pairs(rng, count: int) -> dict[str, np.ndarray]:
    """Moving and still spheres and directions aimed near the still one, as float32."""
    scale = 10.0 ** rng.uniform(0, 3, (count, 1))
    size = 10.0 ** rng.uniform(-1, 1, (count, 1))
    offset = rng.uniform(-1, 1, (count, 3)) * scale
    moving = offset + rng.normal(size=(count, 3)) * size * 3
    still = offset + rng.normal(size=(count, 3)) * size
    aim = still + rng.normal(size=(count, 3)) * size * 0.5
    values = {"moving": moving, "still": still, "direction": (aim - moving) * rng.uniform(1, 2, (count, 1)),
              "moving_radius": rng.uniform(0.2, 1, (count, 1)) * size,
              "still_radius": rng.uniform(0.2, 1, (count, 1)) * size}
    return {name: value.astype(np.float32) for name, value in values.items()}


def sphere_sweep(pairs: dict[str, np.ndarray], dtype) -> tuple[np.ndarray, ...]:
    """hit, t, point, normal of each pair, every operation in ``dtype``:
    |o + t d| = r, a t^2 + 2 b t + c = 0, t = c / (-b + sqrt(b^2 - a c))."""
    moving, still, direction, moving_radius, still_radius = (pairs[name].astype(dtype) for name in (
        "moving", "still", "direction", "moving_radius", "still_radius"))
    o, r = moving - still, moving_radius + still_radius
    a = np.sum(direction * direction, 1, keepdims=True)
    b = np.sum(o * direction, 1, keepdims=True)
    c = np.sum(o * o, 1, keepdims=True) - r * r
    disc = b * b - a * c
    with np.errstate(all="ignore"):
        t = c / (-b + np.sqrt(disc))
        hit = (disc >= 0) & (b < 0) & (t <= 1) & (c > 0)
        at = o + t * direction
        normal = at / np.linalg.norm(at, axis=1, keepdims=True).astype(dtype)
    return hit[:, 0], t[:, 0].astype(float), (still + normal * still_radius).astype(float), normal.astype(float)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=200_000, help="pairs (default 200,000)")
    parser.add_argument("--seed", type=int, default=3)
    arguments = parser.parse_args()
    pairs = random_pairs(np.random.default_rng(arguments.seed), arguments.n)
    single_hit, single_t, single_point, single_normal = sphere_sweep(pairs, np.float32)
    hit, t, point, normal = sphere_sweep(pairs, np.float64)
    direction = pairs["direction"].astype(float)
    length = np.linalg.norm(direction, axis=1)
    scale = np.max(np.abs(np.concatenate([pairs[name] for name in pairs], axis=1)), axis=1).astype(float)
    approach = -np.sum(normal * direction, 1) / length
    both = hit & single_hit
    print(f"{arguments.n} pairs, {int(hit.sum())} hits, {int(np.sum(hit != single_hit))} hit flags differ")
    ulps = FLOAT32_LENGTH_RTOL / EPS
    for label, keep in (("all hits", both), ("approach cos > 0.1", both & (approach > 0.1)),
                        ("grazes, cos <= 0.1", both & (approach <= 0.1))):
        t_error = np.abs(single_t - t)[keep] * length[keep] / (EPS * scale[keep])
        point_error = np.max(np.abs(single_point - point), 1)[keep] / (EPS * scale[keep])
        normal_error = np.max(np.abs(single_normal - normal), 1)[keep]
        print(f"{label}: {int(keep.sum())}")
        for name, error, bound in (("t |d| / (eps S)", t_error, ulps), ("point / (eps S)", point_error, ulps),
                                   ("normal", normal_error, FLOAT32_NORMAL_ATOL)):
            if error.size:
                print(f"  {name}: median {np.median(error):.3g}, 99.9% {np.percentile(error, 99.9):.3g}, "
                      f"max {error.max():.3g}; {int(np.sum(error > bound))} beyond {bound:g}")


if __name__ == "__main__":
    main()
