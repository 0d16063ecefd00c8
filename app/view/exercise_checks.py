"""The checks of lessons 1–8's exercises (``view.exercises``): each measures the live
scene with the physics the lesson teaches and passes within a stated tolerance.

Every check is a measurement (a function of the scene returning a number, tested on
its own) and a comparison with its tolerance; the verdict's message gives the number.
"""

from __future__ import annotations

from sweeplab.scene.model import Scene
from sweeplab.view.exercises import Verdict, check, moving_of, target_of
from sweeplab.view.lessons import quadratic

# --- lesson 1: the double root ----------------------------------------------------------


def root_gap(scene: Scene) -> float | None:
    """Lesson 1: half the distance between the quadratic's two roots (0 at a graze:
    the double root), for a sweep that hits the point ahead; None when the sweep
    misses or the ball already touches the point at t = 0 (no graze ahead)."""
    found = quadratic(scene)
    if found.t is None or found.c <= 0 or not found.roots:
        return None
    return (found.roots[-1] - found.roots[0]) / 2


@check("graze", tolerance=1e-3)
def graze(scene: Scene, args: dict) -> Verdict:
    """The sweep hits the point and its t is the double root: the two roots of
    a·t² + 2·b·t + c' lie within ``tolerance`` (in t) of their middle,
    (t₂ - t₁) / 2 <= tolerance."""
    moving_of(scene, "sphere")
    target_of(scene, "point")
    found = quadratic(scene)
    gap = root_gap(scene)
    if gap is None:
        said = "the ball touches the point at t = 0" if found.c <= 0 else "the sweep misses: the ball passes by"
        return Verdict(False, f"Now {said}.")
    roots = ", ".join(repr(root) for root in found.roots)
    if gap <= args["tolerance"]:
        return Verdict(True, f"A graze: t = {found.t!r}, roots {roots}, (t2 - t1) / 2 = {gap:.3g} "
                             f"<= {args['tolerance']:g}.")
    return Verdict(False, f"t = {found.t!r}, but the roots are {roots}: (t2 - t1) / 2 = {gap:.3g} > "
                          f"{args['tolerance']:g}, two distinct roots, not a graze.")
