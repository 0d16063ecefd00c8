"""The checks of lessons 1–8's exercises (``view.exercises``): each measures the live
scene with the physics the lesson teaches — never a stored answer — and compares
what it measured with the exercise's threshold: a tolerance (lessons 1, 2, 3, 8), a
count (5), or which of two things happened (the feature hit, 4; which samplings
found the contact, 6; which precisions hit, 7).  The verdict's message gives what
was measured; the measurements behind a tolerance are functions of their own
(``root_gap``, ``subject_mismatch``, ``node_tests``, ``left_after``) so that the
tests can put a tolerance exactly at the measured value.
"""

from __future__ import annotations

import numpy as np

from sweeplab.physics import SweepResult, sweep
from sweeplab.physics.broadphase import NARROWPHASE_SAMPLES, MeshContact, first_mesh_contact
from sweeplab.physics.traversal import TraversalTrace
from sweeplab.scene.model import Scene, SceneObject
from sweeplab.scene.shape_kinds import build_shape, mesh_shape
from sweeplab.view.exercises import Missing, Verdict, check, moving_of, target_of
from sweeplab.view.lessons import SlideStep, collide_and_slide, feature_candidates, quadratic

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
        state = "the ball touches the point at t = 0" if found.c <= 0 else "the sweep misses: the ball passes by"
        return Verdict(False, f"Now {state}.")
    roots = ", ".join(repr(root) for root in found.roots)
    if gap <= args["tolerance"]:
        return Verdict(True, f"A graze: t = {found.t!r}, roots {roots}, (t2 - t1) / 2 = {gap:.3g} "
                             f"<= {args['tolerance']:g}.")
    return Verdict(False, f"t = {found.t!r}, but the roots are {roots}: (t2 - t1) / 2 = {gap:.3g} > "
                          f"{args['tolerance']:g}, two distinct roots, not a graze.")


def answer(scene: Scene, moving: SceneObject, target: SceneObject, direction=None,
           dtype=np.float64) -> SweepResult:
    """``moving`` swept against ``target`` along ``direction`` (the scene's if None),
    every coordinate in ``dtype``."""
    motion = np.asarray(scene.direction if direction is None else direction, dtype)
    return sweep(build_shape(moving.kind, moving.params, dtype), build_shape(target.kind, target.params, dtype),
                 motion)


def said(result: SweepResult) -> str:
    """A sweep's answer in a verdict: its t, or a miss."""
    return f"t = {float(result.t)!r}" if result.hit else "a miss"


# --- lesson 2: inflate and deflate --------------------------------------------------------


@check("deflated", t=0.25, tolerance=1e-3)
def deflated(scene: Scene, args: dict) -> Verdict:
    """The target sphere deflated to a point (radius exactly 0) and the ball inflated
    so that it touches that point at ``t``: |t_sweep - t| <= ``tolerance``."""
    ball, rock = moving_of(scene, "sphere"), target_of(scene, "sphere")
    radius = float(rock.params["radius"])
    found = answer(scene, ball, rock)
    now = f"The ball's radius is {float(ball.params['radius']):.9g}, {rock.name}'s {radius:.9g}; {said(found)}."
    if radius != 0:
        return Verdict(False, f"{now} {rock.name} is not yet a point.")
    if not found.hit:
        return Verdict(False, now)
    off = abs(float(found.t) - args["t"])
    if off <= args["tolerance"]:
        return Verdict(True, f"{now} |t - {args['t']:g}| = {off:.3g} <= {args['tolerance']:g}.")
    return Verdict(False, f"{now} |t - {args['t']:g}| = {off:.3g} > {args['tolerance']:g}.")


# --- lesson 3: change the subject ---------------------------------------------------------


def subject_mismatch(scene: Scene, original) -> tuple[str, float | None]:
    """Lesson 3: how far the scene's question (the capsule moving against the sphere)
    is from the sphere moving by ``original`` against the capsule: what both answered,
    and max(|t - t'|, |n + n'|) (0: the same t, the normal flipped; None unless both
    hit)."""
    post, ball = moving_of(scene, "capsule"), target_of(scene, "sphere")
    asked, first = answer(scene, post, ball), answer(scene, ball, post, original)
    now = f"{post.name} moving by {list(scene.direction)}: {said(asked)}; {ball.name} moving by " \
          f"{[float(v) for v in original]}: {said(first)}"
    if not (asked.hit and first.hit):
        return now, None
    return now, max(abs(float(asked.t) - float(first.t)),
                    float(np.linalg.norm(np.asarray(asked.normal) + np.asarray(first.normal))))


@check("swapped", dx=8.0, dy=0.0, dz=0.0, tolerance=1e-9)
def subject_changed(scene: Scene, args: dict) -> Verdict:
    """The question asked the other way round: the capsule moves against the sphere,
    with the t of the sphere moving by (dx, dy, dz) against the capsule and the normal
    flipped, both within ``tolerance`` (``subject_mismatch``)."""
    if scene.moving is not None and scene.moving in scene.names() and scene.moving_object().kind == "sphere":
        return Verdict(False, f"The ball {scene.moving} still moves: the capsule is not the moving shape yet.")
    now, mismatch = subject_mismatch(scene, [args["dx"], args["dy"], args["dz"]])
    if mismatch is None:
        return Verdict(False, f"{now}. Both must hit.")
    if mismatch <= args["tolerance"]:
        return Verdict(True, f"{now}. max(|t - t'|, |n + n'|) = {mismatch:.3g}: the same question, the normal "
                             "flipped.")
    return Verdict(False, f"{now}. max(|t - t'|, |n + n'|) = {mismatch:.3g} > {args['tolerance']:g}: not the "
                          "same question.")


# --- lesson 4: split by features ----------------------------------------------------------


@check("edge first")
def edge_first(scene: Scene, args: dict) -> Verdict:
    """The sweep's first contact with the triangle is on one of its edges (not the
    face, not a vertex): the feature ``sweep`` reports."""
    ball, triangle = moving_of(scene, "sphere"), target_of(scene, "triangle")
    candidates, found = feature_candidates(scene, triangle.name)
    listed = "; ".join(f"{c.feature}: {'miss' if c.t is None else f'{c.t:.6g}'}" for c in candidates)
    if not found.hit:
        return Verdict(False, f"{ball.name} misses {triangle.name} ({listed}).")
    hit = f"{found.feature.kind} {found.feature.index} at t = {float(found.t)!r} ({listed})"
    return Verdict(found.feature.kind == "edge", f"The first contact is {hit}.")


# --- lesson 5: the tree walk --------------------------------------------------------------


def node_tests(scene: Scene) -> tuple[SweepResult, dict[str, int]]:
    """Lesson 5: the sweep of the ball against the mesh, and its walk's node tests
    counted by status (``TraversalTrace.counts``)."""
    ball, hills = moving_of(scene, "sphere"), target_of(scene, "mesh")
    trace = TraversalTrace()
    found = sweep(build_shape(ball.kind, ball.params), build_shape(hills.kind, hills.params), scene.direction,
                  trace=trace)
    return found, trace.counts()


@check("costly miss", least=200)
def costly_miss(scene: Scene, args: dict) -> Verdict:
    """The ball misses the mesh and yet the walk takes at least ``least`` node tests
    (every node sphere and leaf triangle tested): a path that skims the mesh opens
    every node it passes near, while a hit stops the descent below nodes entered after
    it."""
    found, counts = node_tests(scene)
    total = sum(counts.values())
    now = f"{said(found).capitalize()}; the walk took {total} node tests " \
          f"({', '.join(f'{count} {name}' for name, count in counts.items())})"
    if found.hit:
        return Verdict(False, f"{now}: the ball must miss the mesh.")
    if total >= args["least"]:
        return Verdict(True, f"{now} >= {args['least']}.")
    return Verdict(False, f"{now} < {args['least']}.")


# --- lesson 6: the sampled narrowphase ----------------------------------------------------


def mesh_contacts(scene: Scene, samples: int, finer: int) -> tuple[MeshContact, MeshContact]:
    """Lesson 6: the moving mesh's first contact with the target mesh found by the
    narrowphase with ``samples`` overlap samples, and with ``finer`` samples."""
    rock, boulder = moving_of(scene, "mesh"), target_of(scene, "mesh")
    moving, target = mesh_shape(rock.params), mesh_shape(boulder.params)
    direction = np.asarray(scene.direction, float)
    return (first_mesh_contact(moving, direction, target, np.zeros(3), samples=samples),
            first_mesh_contact(moving, direction, target, np.zeros(3), samples=finer))


@check("tunnels", samples=NARROWPHASE_SAMPLES, finer=32 * NARROWPHASE_SAMPLES)
def tunnels(scene: Scene, args: dict) -> Verdict:
    """The meshes touch between two of the narrowphase's ``samples`` samples: the
    sampled stage finds no overlap, while the same stage with ``finer`` samples does."""
    coarse, fine = mesh_contacts(scene, args["samples"], args["finer"])
    now = (f"{args['samples']} samples: {'contact at t = ' + repr(coarse.t) if coarse.hit else 'no overlap found'}; "
           f"{args['finer']} samples: {'contact at t = ' + repr(fine.t) if fine.hit else 'no overlap found'}")
    if fine.hit and not coarse.hit:
        return Verdict(True, f"{now}: the {args['samples']} samples stepped over the contact.")
    return Verdict(False, f"{now}.")


# --- lesson 7: precision ------------------------------------------------------------------


@check("precision split")
def precision_split(scene: Scene, args: dict) -> Verdict:
    """float64 and float32 disagree on hit or miss: the scene swept as it is, and
    with every coordinate rounded to float32 (the Results panel's float32 column)."""
    ball = moving_of(scene, "sphere")
    target = target_of(scene, "triangle")
    double, single = answer(scene, ball, target), answer(scene, ball, target, dtype=np.float32)
    now = f"float64: {said(double)}; float32: {said(single)}"
    if double.hit != single.hit:
        return Verdict(True, f"{now}: they disagree.")
    return Verdict(False, f"{now}: they agree.")


# --- lesson 8: collide and slide ----------------------------------------------------------


def left_after(steps: list[SlideStep]) -> list[float]:
    """Lesson 8: the length of the motion left after each sweep of a collide-and-slide
    move (the next sweep's motion; 0 after the last: the move ended, or ran out of
    sweeps)."""
    return [float(np.linalg.norm(following.motion)) for following in steps[1:]] + [0.0] * bool(steps)


@check("slide ends on", target="crate", tolerance=1e-9)
def slide_ends_on(scene: Scene, args: dict) -> Verdict:
    """The collide-and-slide move ends against ``target``: the first sweep after which
    the motion left is at most ``tolerance`` times the whole motion's length stopped
    at that shape (a remainder of rounding, a slide along the contact by 1e-16 of the
    motion, does not count as moving on)."""
    if scene.moving is None or scene.moving not in scene.names():
        raise Missing("The scene has no moving shape: the exercise needs the character.")
    if args["target"] not in scene.names():
        raise Missing(f"The scene has no {args['target']} (was it deleted?): the exercise needs it.")
    steps = collide_and_slide(scene)
    whole = float(np.linalg.norm(scene.direction))
    route = ", ".join(step.target or "moved all the way" for step in steps) or "no motion"
    for step, left in zip(steps, left_after(steps), strict=True):
        if left <= args["tolerance"] * whole:
            ended = step.target or "nothing (it moved all the way)"
            return Verdict(step.target == args["target"],
                           f"The move's sweeps: {route}; it ends against {ended}, {left:.3g} of motion left.")
    return Verdict(False, f"The move's sweeps: {route}; more than {args['tolerance']:g} of the motion is left.")
