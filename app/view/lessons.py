"""Lessons: the technique of sweep tests, taught one step at a time on live scenes.

A lesson is a bundled file (``sweeplab/lessons/*.json``): a scene, a title, and
steps, each a short text with what the view should show (camera, selection,
display toggles).  A lesson may name a *picture*, computed here from the live
scene so that dragging a shape updates it:

* ``quadratic`` — a sphere from s along d against a point p: |s + t·d - p|² - r² =
  a·t² + 2·b·t + c over t (Ericson's letters: c is the constant term, never the
  centre), its roots, and the cancellation-free root t = c / (-b + sqrt(b² - a·c))
  with the numbers;
* ``inflate`` — two spheres: the answer is the same with the radius moved from
  one to the other (``inflate``), down to a point against the summed sphere;
* ``swap`` — the same question with the subject changed: the target moves by -d
  against the moving shape, same t, normal flipped;
* ``features`` — a sphere against a triangle split by features: the face slab,
  three edge cylinders, three vertex balls, each candidate's t, the earliest
  chosen, as ``sweep`` answers it;
* ``walk`` — a sphere-tree walk a node test at a time (the mesh panel's colours);
* ``slide`` — collide and slide: sweep, stop at t, take the normal component out
  of the rest of the motion, sweep again (``collide_and_slide``), every sweep drawn;
* ``tunnel``, ``impulse``, ``buoyancy`` — lessons whose steps run the playground
  (``view.lesson_playground``), drawn by ``ui.lesson_play`` from the run.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np

from sweeplab.scene.json_files import brief, is_integer, read_json
from sweeplab.scene.model import Scene, SceneObject
from sweeplab.scene.shape_kinds import KINDS, RigidMotion, build_shape
from sweeplab.physics import Plane, Point, Segment, SweepResult, sweep
from sweeplab.view.camera import OrbitCamera
from sweeplab.view.exercises import Exercise, exercise_from_json
from sweeplab.view.lesson_playground import PlaygroundSetup, playground_setup

FORMAT = "sweeplab-lesson"
PICTURES = ("quadratic", "inflate", "swap", "features", "slide", "walk", "capsule", "advancement", "tunnel",
            "impulse", "buoyancy", "")


class LessonError(ValueError):
    """A lesson file that cannot be used."""


@dataclass(frozen=True)
class Step:
    """One step of a lesson: its text and what it shows.  A step whose ``set`` edits
    the scene as the previous step left it, or whose ``display`` differs from the
    previous step's, says its picture changes, and the change must be seen from its
    camera; one whose ``camera`` or ``playground`` run differs shows another picture
    (a run may teach that nothing moves); a step with none of these shows the previous
    step's picture (``tests/app/test_lessons.py`` renders every step of every bundled
    lesson)."""

    text: str
    camera: str = ""
    """``yaw,pitch,distance[,x,y,z]`` as ``sweeplab render --camera`` takes it ("": frame all)."""
    select: str | None = None
    display: dict = field(default_factory=dict)
    """``MeshDisplay`` fields to set (``minkowski``, ``bvh_depth``, ...)."""
    set: dict = field(default_factory=dict)
    """Shape parameters the step sets when it is shown, ``{shape: {parameter: value}}``:
    what the step's picture is of (lesson 1 step 3: the point at the graze).  A step
    without it shows the scene as the reader left it."""
    playground: PlaygroundSetup | None = None
    """A playground run the step starts when shown (``view.lesson_playground``)."""
    iteration: int | None = None
    """The conservative advancement iteration whose pose the step draws (lesson 10;
    None: none)."""


@dataclass(frozen=True)
class Lesson:
    number: int
    title: str
    scene: Scene
    steps: tuple[Step, ...]
    picture: str = ""
    exercise: Exercise | None = None
    """The task the lesson ends with (``view.exercises``), if it has one."""


def lesson_folder() -> Path:
    return Path(str(resources.files("sweeplab") / "lessons"))


DISPLAY_FIELDS = {"minkowski": "true or false", "traversal": "true or false", "contacts": "true or false",
                  "every_hit": "true or false", "bvh_depth": "a whole number >= 0 or null",
                  "walk_steps": "a whole number >= 0 or null", "slide_sweeps": "a whole number >= 0 or null"}
"""The ``MeshDisplay`` fields a step may set, and what each must be."""


def lesson_from_json(data, where: str) -> Lesson:
    """Validate a parsed lesson file; ``LessonError`` naming ``where`` and the field."""
    def fail(message: str):
        raise LessonError(f"{where}: {message}")

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        fail(f"not a sweeplab lesson (expected \"format\": \"{FORMAT}\")")
    number, title = data.get("number", 0), data.get("title", "")
    if not is_integer(number):
        fail(f"\"number\" must be a whole number, got {brief(number)}")
    if not isinstance(title, str):
        fail(f"\"title\" must be a string, got {brief(title)}")
    try:
        scene = Scene.from_json(data.get("scene"))
    except ValueError as error:
        fail(f"scene: {error}")
    picture = data.get("picture", "")
    if picture not in PICTURES:
        fail(f"picture must be one of {', '.join(p for p in PICTURES if p)}, got {brief(picture)}")
    steps = data.get("steps")
    if not isinstance(steps, list) or not steps:
        fail("\"steps\" must be a list of steps")
    try:
        parsed = tuple(_step(step, scene, f"step {position}") for position, step in enumerate(steps, 1))
    except ValueError as error:
        fail(str(error))
    try:
        exercise = None if data.get("exercise") is None else exercise_from_json(data["exercise"])
    except ValueError as error:
        fail(str(error))
    return Lesson(number, title, scene, parsed, picture, exercise)


def _step(step, scene: Scene, label: str) -> Step:
    """One step of a lesson; ``ValueError`` beginning with ``label``."""
    if not isinstance(step, dict) or not isinstance(step.get("text"), str):
        raise ValueError(f"{label} needs a \"text\"")
    select, camera, display = step.get("select"), step.get("camera", ""), step.get("display", {})
    if select is not None and select not in scene.names():
        raise ValueError(f"{label} selects {brief(select)}, which is not in the scene")
    if not isinstance(camera, str):
        raise ValueError(f"{label} camera must be a string, got {brief(camera)}")
    if camera:
        try:
            OrbitCamera.parse(camera)
        except ValueError as error:
            raise ValueError(f"{label} {error}") from None
    if not isinstance(display, dict):
        raise ValueError(f"{label} display must be an object of {', '.join(DISPLAY_FIELDS)}")
    for name, value in display.items():
        if name not in DISPLAY_FIELDS:
            raise ValueError(f"{label} display has unknown field {brief(name)} (fields: {', '.join(DISPLAY_FIELDS)})")
        flag = DISPLAY_FIELDS[name] == "true or false"
        if not (isinstance(value, bool) if flag else value is None or (is_integer(value) and value >= 0)):
            raise ValueError(f"{label} display {name!r} must be {DISPLAY_FIELDS[name]}, got {brief(value)}")
    changes = step.get("set", {})
    _check_set(changes, scene, label)
    run = None if step.get("playground") is None else playground_setup(step["playground"], scene, label)
    iteration = step.get("iteration")
    if iteration is not None and not (is_integer(iteration) and iteration >= 0):
        raise ValueError(f"{label} iteration must be a whole number >= 0 or null, got {brief(iteration)}")
    return Step(step["text"], camera, select, dict(display), copy.deepcopy(changes), run, iteration)


def _check_set(changes, scene: Scene, label: str) -> None:
    """A step's ``set``: shapes of the scene, parameters they have, values that make
    valid shapes; ``ValueError`` beginning with ``label``."""
    if not isinstance(changes, dict) or not all(isinstance(params, dict) for params in changes.values()):
        raise ValueError(f"{label} set must be an object {{shape: {{parameter: value}}}}, got {brief(changes)}")
    for name, params in changes.items():
        if name not in scene.names():
            raise ValueError(f"{label} sets {brief(name)}, which is not in the scene")
        unknown = sorted(set(params) - set(scene.object(name).params))
        if unknown:
            raise ValueError(f"{label} sets {brief(unknown[0])} of {name}, which has no such parameter")
        edited = {**scene.object(name).params, **params}
        try:
            build_shape(scene.object(name).kind, edited)
        except (ValueError, TypeError) as error:
            raise ValueError(f"{label} sets {name}: {error}") from None


def show_set(scene: Scene, step: Step) -> None:
    """Set the shape parameters ``step`` names (``Step.set``) in ``scene``; a shape the
    reader deleted or renamed is passed over."""
    for name, params in step.set.items():
        if name in scene.names():
            scene.object(name).params.update(copy.deepcopy(params))


def step_changes(scene: Scene, step: Step) -> bool:
    """Whether showing ``step`` changes ``scene`` (a step that sets what is already
    there is no edit: a lesson just opened has no unsaved changes)."""
    shown = scene.copy()
    show_set(shown, step)
    return shown.to_json() != scene.to_json()


def bundled_lessons() -> tuple[list[Lesson], list[str]]:
    """The lessons that come with sweeplab, in order, and one line for each bundled
    file that is not a lesson (left out: a damaged installation must not take the
    editor down)."""
    lessons, problems = [], []
    for path in sorted(lesson_folder().glob("*.json")):
        try:
            lessons.append(lesson_from_json(read_json(path), path.name))
        except ValueError as error:  # LessonError, JsonFileError
            problems.append(str(error))
    return sorted(lessons, key=lambda lesson: lesson.number), problems


# --- pictures -------------------------------------------------------------------------

@dataclass(frozen=True)
class Quadratic:
    """|m + t·d|² - r² = a·t² + 2·b·t + c, with m = s - p (s: the ball's centre at
    t = 0, p: the point) and r the radius."""

    a: float
    b: float
    c: float
    roots: tuple[float, ...]
    t: float | None
    """The first contact in [0, 1] (None: a miss)."""

    def value(self, t: np.ndarray) -> np.ndarray:
        return self.a * t * t + 2 * self.b * t + self.c

    def formula(self) -> str:
        """The root with the numbers, as the kernels compute it (no cancellation)."""
        discriminant = self.b * self.b - self.a * self.c
        if self.c < 0:
            return f"c = {self.c!r} < 0: the ball holds the point at the start: t = 0, initially overlapping"
        if self.c == 0:
            return "c = 0: the ball touches the point at the start, t = 0"
        if discriminant < 0:
            return f"b² - a·c = {discriminant!r} < 0: no real root, the sphere passes by"
        if self.b >= 0:
            return f"b = {self.b!r} >= 0: moving away, no contact ahead"
        return (f"t = c / (-b + sqrt(b² - a·c)) = {self.c!r} / ({-self.b!r} + sqrt {discriminant!r})"
                f" = {self.c / (-self.b + math.sqrt(discriminant))!r}")


def quadratic(scene: Scene) -> Quadratic:
    """The lesson-1 quadratic of the scene's moving sphere and its point target (its
    numbers as the scene gives them) and its roots, found at unit size: with m and r
    scaled by 2^-f and d by 2^-k (powers of two, exact), the roots scale by 2^(f-k)
    (unscaled, b² overflowed at 1e154 and a underflowed below 1e-162)."""
    sphere = scene.moving_object()
    point = next(o for o in scene.targets() if o.kind == "point")
    offset = np.asarray(sphere.params["center"], float) - np.asarray(point.params["p"], float)
    direction = np.asarray(scene.direction, float)
    radius = float(sphere.params["radius"])
    with np.errstate(over="ignore", under="ignore"):
        a, b = float(direction @ direction), float(offset @ direction)
        c = float(offset @ offset) - radius ** 2
    return Quadratic(a, b, c, _unit_roots(offset, direction, radius),
                     _first_contact(sphere.params, point.params, direction))


def _unit_roots(offset: np.ndarray, direction: np.ndarray, radius: float) -> tuple[float, ...]:
    """The real roots of |m + t·d|² = r², sorted."""
    f = math.frexp(max(float(np.max(np.abs(offset))), radius))[1]
    k = math.frexp(float(np.max(np.abs(direction))))[1]
    if not np.any(direction):
        return ()
    m, d, r = np.ldexp(offset, -f), np.ldexp(direction, -k), math.ldexp(radius, -f)
    a, b, c = float(d @ d), float(m @ d), float(m @ m) - r * r
    discriminant = b * b - a * c
    if discriminant < 0:
        return ()
    # q = -(b + sign(b)·sqrt(b² - a·c)) adds no opposite signs; the roots are q/a and c/q
    # (q = 0 only for b = c = 0: the double root 0).
    q = -(b + math.copysign(math.sqrt(discriminant), b))
    roots = {q / a, c / q} if q != 0 else {0.0}
    return tuple(sorted(math.ldexp(root, f - k) + 0.0 for root in roots))  # + 0.0: no "-0.0"


def _first_contact(sphere_params: dict, point_params: dict, direction) -> float | None:
    answer = sweep(build_shape("sphere", sphere_params), build_shape("point", point_params), direction)
    return float(answer.t) if answer.hit else None


def inflated(scene: Scene, share: float) -> Scene:
    """Lesson 2: the two spheres with ``share`` of the target's radius moved onto the
    moving sphere (1: a sphere of the summed radius against the target's centre)."""
    moving = scene.moving_object()
    target = next(o for o in scene.targets() if o.kind == "sphere")
    total = float(moving.params["radius"]) + float(target.params["radius"])
    target_radius = float(target.params["radius"]) * (1 - share) if share < 1 else 0.0
    changed = scene.copy()
    changed.object(moving.name).params["radius"] = total - target_radius
    changed.object(target.name).params["radius"] = target_radius
    return changed


def swapped(scene: Scene, target_name: str):
    """Lesson 3: (the answer, the answer with the subject changed): the target
    sweeping by -d against the moving shape.  Same t; the normals opposite."""
    moving, target = scene.moving_object(), scene.object(target_name)
    direction = np.asarray(scene.direction, float)
    moving_shape, target_shape = build_shape(moving.kind, moving.params), build_shape(target.kind, target.params)
    return sweep(moving_shape, target_shape, direction), sweep(target_shape, moving_shape, -direction)


@dataclass(frozen=True)
class Candidate:
    feature: str
    t: float | None


def feature_candidates(scene: Scene, target_name: str) -> tuple[list[Candidate], SweepResult]:
    """Lesson 4: the moving sphere against each feature of a triangle on its own —
    the face's plane (counted only where the contact lies inside the face), each
    edge as a segment (counted only where the contact is on its side, not an end),
    each vertex as a point — and ``sweep``'s answer."""
    sphere = build_shape("sphere", scene.moving_object().params)
    target = scene.object(target_name)
    corners = [np.asarray(target.params[name], float) for name in ("a", "b", "c")]
    direction = np.asarray(scene.direction, float)
    found = []
    normal = np.cross(corners[1] - corners[0], corners[2] - corners[0])
    face = sweep(sphere, Plane(normal, float(normal @ corners[0]) / float(np.linalg.norm(normal))), direction)
    inside = face.hit and _inside(face.point, corners, normal)
    found.append(Candidate("face", float(face.t) if inside else None))
    for number, (start, end) in enumerate(((0, 1), (1, 2), (2, 0))):
        edge = sweep(sphere, Segment(corners[start], corners[end]), direction)
        on_side = edge.hit and edge.feature.kind == "edge"  # a contact at an end is that vertex's
        found.append(Candidate(f"edge {number} ({'abc'[start]}{'abc'[end]})", float(edge.t) if on_side else None))
    for number, corner in enumerate(corners):
        vertex = sweep(sphere, Point(corner), direction)
        found.append(Candidate(f"vertex {number} ({'abc'[number]})", float(vertex.t) if vertex.hit else None))
    return found, sweep(sphere, build_shape("triangle", target.params), direction)


def _inside(point, corners, normal) -> bool:
    """Whether ``point`` (on the face's plane) lies in the triangle, edges included."""
    return all(float(np.cross(corners[(k + 1) % 3] - corners[k], np.asarray(point) - corners[k]) @ normal) >= 0
               for k in range(3))


def object_named(scene: Scene, kind: str) -> SceneObject:
    """The scene's first target of ``kind``."""
    return next(o for o in scene.targets() if o.kind == kind)


SLIDE_ITERATIONS = 6
"""Sweeps a collide-and-slide move takes at most (lesson 8)."""


@dataclass(frozen=True)
class SlideStep:
    """One sweep of a collide-and-slide move: where the moving shape's pivot starts
    and stops, the motion swept, and the contact (None: it moved all the way)."""

    start: np.ndarray
    stop: np.ndarray
    motion: np.ndarray
    t: float | None
    normal: np.ndarray | None
    target: str | None


def collide_and_slide(scene: Scene, iterations: int = SLIDE_ITERATIONS) -> list[SlideStep]:
    """Lesson 8: move the moving shape along the scene's direction as a character
    controller does: sweep against every target (ignoring contacts it is already
    leaving, so a touch does not stop the next sweep), stop at the first contact,
    take the normal component out of the rest of the motion, and sweep what is left,
    up to ``iterations`` times."""
    moving = scene.moving_object()
    kind = KINDS[moving.kind]
    params = moving.params
    remaining = np.asarray(scene.direction, float)
    targets = [(o.name, build_shape(o.kind, o.params)) for o in scene.targets()]
    steps = []
    for _ in range(iterations):
        if not np.any(remaining):
            break
        shape = build_shape(moving.kind, params)
        first = None
        for name, target in targets:
            try:
                answer = sweep(shape, target, remaining, ignore_separating=True)
            except TypeError:
                continue
            if answer.hit and (first is None or answer.t < first[1].t):
                first = (name, answer)
        start = kind.pivot(params)
        travel = remaining if first is None else float(first[1].t) * remaining
        params = kind.moved(params, RigidMotion.translate(travel))
        if first is None:
            steps.append(SlideStep(start, start + travel, remaining, None, None, None))
            break
        name, answer = first
        normal = np.asarray(answer.normal, float)
        steps.append(SlideStep(start, start + travel, remaining, float(answer.t), normal, name))
        left = (1 - float(answer.t)) * remaining
        remaining = left - min(float(left @ normal), 0.0) * normal  # only the part into the surface goes
    return steps
