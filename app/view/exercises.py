"""Exercises: the task a lesson ends with, done by the student in the live scene and
checked by the real physics, with a clear pass or a hint.

A lesson file may hold a top-level ``"exercise"``::

    {"task": "what to do", "check": "a registered check's name",
     "args": {"tolerance": 1e-9}, "hint": "what to try when it fails"}

A *check* is a function of the live scene and its arguments that answers a
``Verdict``; it is registered under its name with ``@check(name, **defaults)``, the
defaults naming every argument it takes (a lesson may set any of them, of the same
type, and no other).  A check reads the scene as the student left it — it never edits
it — and may run the physics, or the playground on a copy, itself.  A check that needs
a shape the student deleted raises ``Missing`` saying what it needs, and ``judge``
turns that into a failed verdict: a broken scene is never a crash.

The checks live beside their lessons' pictures, in the modules of ``CHECK_MODULES``,
imported the first time a check is looked up (``checks``): this module does not
import them, so they may import the lessons' helpers.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sweeplab.scene.json_files import brief, is_integer
from sweeplab.scene.model import Scene, SceneObject

if TYPE_CHECKING:
    from sweeplab.view.lessons import Lesson

CHECK_MODULES = ("sweeplab.view.exercise_checks", "sweeplab.view.lesson_capsule", "sweeplab.view.lesson_advancement",
                 "sweeplab.playground.lesson_checks")
"""The modules whose ``@check`` functions are the registered checks."""


@dataclass(frozen=True)
class Exercise:
    task: str
    check: str
    """The name of a registered check (``CHECKS``)."""
    args: dict
    """The check's arguments: its defaults with the lesson's values over them."""
    hint: str


@dataclass(frozen=True)
class Verdict:
    passed: bool
    message: str
    """What was measured in the scene now; on a fail it ends with the hint."""


class Missing(ValueError):
    """The scene lacks what a check or a lesson's picture needs (the student deleted
    or replaced a shape); the message says what.  A ``ValueError``: the Lesson panel
    shows it in place of a picture."""


@dataclass(frozen=True)
class Check:
    """A registered check: ``function(scene, args)`` and the arguments it takes, with
    their defaults."""

    function: Callable[[Scene, dict], Verdict]
    defaults: dict

    def __call__(self, scene: Scene, args: dict) -> Verdict:
        return self.function(scene, {**self.defaults, **args})


CHECKS: dict[str, Check] = {}


def check(name: str, **defaults) -> Callable[[Callable[[Scene, dict], Verdict]], Callable[[Scene, dict], Verdict]]:
    """Register the decorated ``function(scene, args) -> Verdict`` as the check
    ``name``, taking the arguments ``defaults`` names (strings, whole numbers >= 1 or numbers: a lesson's value must
    be of the same type)."""
    def register(function: Callable[[Scene, dict], Verdict]) -> Callable[[Scene, dict], Verdict]:
        if name in CHECKS:
            raise ValueError(f"check {name!r} is registered twice")
        CHECKS[name] = Check(function, dict(defaults))
        return function
    return register


def checks() -> dict[str, Check]:
    """Every registered check (``CHECK_MODULES`` imported first)."""
    for module in CHECK_MODULES:
        importlib.import_module(module)
    return CHECKS


def exercise_from_json(data) -> Exercise:
    """Validate a lesson's ``"exercise"``; ``ValueError`` naming the field."""
    if not isinstance(data, dict):
        raise ValueError(f"exercise must be an object with task, check, args and hint, got {brief(data)}")
    unknown = sorted(set(data) - {"task", "check", "args", "hint"})
    if unknown:
        raise ValueError(f"exercise has unknown field {brief(unknown[0])} (fields: task, check, args, hint)")
    for text in ("task", "hint"):
        if not isinstance(data.get(text), str) or not data[text].strip():
            raise ValueError(f"exercise needs a \"{text}\" (a non-empty string), got {brief(data.get(text))}")
    registered = checks()
    name = data.get("check")
    if name not in registered:
        raise ValueError(f"exercise check must be one of {', '.join(sorted(registered))}, got {brief(name)}")
    args = data.get("args", {})
    if not isinstance(args, dict):
        raise ValueError(f"exercise args must be an object, got {brief(args)}")
    defaults = registered[name].defaults
    for key, value in args.items():
        if key not in defaults:
            taken = ", ".join(defaults) or "no arguments"
            raise ValueError(f"exercise args has {brief(key)}, which check {name!r} does not take ({taken})")
        if not _same_type(value, defaults[key]):
            raise ValueError(f"exercise args {key!r} must be {_type_name(defaults[key])}, got {brief(value)}")
    return Exercise(data["task"], name, {**defaults, **args}, data["hint"])


def _same_type(value, default) -> bool:
    """A string for a string; a whole number >= 1 for a whole number (a count); a
    finite number for a number."""
    if isinstance(default, str):
        return isinstance(value, str)
    if isinstance(default, int):
        return is_integer(value) and value >= 1
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _type_name(default) -> str:
    if isinstance(default, str):
        return "a string"
    return "a whole number >= 1" if isinstance(default, int) else "a finite number"


def judge(lesson: Lesson, scene: Scene) -> Verdict:
    """The verdict of ``lesson``'s exercise on ``scene`` as it is now: the check's, or
    a fail saying what the scene lacks (``Missing``) followed by the hint."""
    exercise = lesson.exercise
    if exercise is None:
        raise ValueError(f"lesson {lesson.number} has no exercise")
    try:
        verdict = checks()[exercise.check](scene, exercise.args)
    except Missing as missing:
        return Verdict(False, f"{missing} {exercise.hint}")
    return verdict if verdict.passed else Verdict(False, f"{verdict.message} {exercise.hint}")


def moving_of(scene: Scene, kind: str) -> SceneObject:
    """The scene's moving shape, which must be a ``kind``; ``Missing`` otherwise."""
    if scene.moving is None or scene.moving not in scene.names():
        raise Missing(f"The scene has no moving shape: the exercise needs a moving {kind}.")
    moving = scene.moving_object()
    if moving.kind != kind:
        raise Missing(f"The moving shape {moving.name} is a {moving.kind}: the exercise needs a moving {kind}.")
    return moving


def target_of(scene: Scene, kind: str) -> SceneObject:
    """The scene's first target of ``kind``; ``Missing`` when it has none."""
    for target in scene.targets():
        if target.kind == kind:
            return target
    raise Missing(f"The scene has no {kind} target (was it deleted?): the exercise needs one.")
