"""A lesson step that runs the playground: the ``"playground"`` field of a step.

::

    "playground": {"dynamic": ["crate"], "ccd": false, "restitution": 0.5, "friction": 0.0,
                   "steps": 2, "dt": 0.016666666666666666, "show_step": true,
                   "water": {"level": 0.0, "density": 2.0, "linear_drag": 1.0, "angular_drag": 1.0}}

When the step is shown the editor starts the playground on the lesson's scene as the
step left it (``editor.playground.start_playground``: the moving shape a body starting
at its direction per second, ``dynamic`` the other shapes that are bodies) and runs it
``steps`` steps of ``dt`` seconds; ``steps`` 0 leaves it started, for the student to
press Play.  ``show_step``: after them the view shows the moving body's last step as a
sweep (``PlaygroundRun.step_scene``: where the step began, the chord it moved along),
so the sweep the discrete step did not make is drawn with its hit.  ``water``: the
world's still water plane (``playground.buoyancy.Water``'s fields, each optional: its
level along up, its density in kg/m³, the drags in 1/s; the playground's bodies have
density 1).  Every field but ``steps`` may be left out (the defaults below, the
Playground panel's; no water).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from sweeplab.scene.json_files import brief, is_integer
from sweeplab.scene.model import Scene

FIELDS = ("dynamic", "ccd", "restitution", "friction", "steps", "dt", "show_step", "water")
WATER_FIELDS = ("level", "density", "linear_drag", "angular_drag")
MAX_STEPS = 600
"""Steps a lesson step may run when shown (10 s at 1/60 s): showing a step must not
stall the editor."""


@dataclass(frozen=True)
class PlaygroundSetup:
    """A run of the step's scene: which shapes besides the moving one are ``dynamic``
    bodies, CCD on or off, the world's ``restitution`` e in [0, 1] and Coulomb
    ``friction`` μ >= 0, ``steps`` run of ``dt`` seconds each, whether the last step is
    shown as a sweep (``show_step``), and the ``water`` (``Water``'s fields; None: no
    water)."""

    steps: int
    dynamic: tuple[str, ...] = ()
    ccd: bool = True
    restitution: float = 0.5
    friction: float = 0.5
    dt: float = 1 / 60
    show_step: bool = False
    water: dict | None = None


def playground_setup(data, scene: Scene, label: str) -> PlaygroundSetup:
    """A step's ``"playground"`` validated against ``scene``; ``ValueError`` beginning
    with ``label`` and naming the field."""
    if not isinstance(data, dict):
        raise ValueError(f"{label} playground must be an object of {', '.join(FIELDS)}, got {brief(data)}")
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise ValueError(f"{label} playground has unknown field {brief(unknown[0])} (fields: {', '.join(FIELDS)})")
    dynamic = data.get("dynamic", [])
    if not isinstance(dynamic, list) or not all(isinstance(name, str) for name in dynamic):
        raise ValueError(f"{label} playground dynamic must be a list of shape names, got {brief(dynamic)}")
    missing = [name for name in dynamic if name not in scene.names()]
    if missing:
        raise ValueError(f"{label} playground dynamic names {brief(missing[0])}, which is not in the scene")
    steps = data.get("steps")
    if not (is_integer(steps) and 0 <= steps <= MAX_STEPS):
        raise ValueError(f"{label} playground steps must be a whole number in [0, {MAX_STEPS}], got {brief(steps)}")
    for name in ("ccd", "show_step"):
        if not isinstance(data.get(name, False), bool):
            raise ValueError(f"{label} playground {name} must be true or false, got {brief(data[name])}")
    numbers = {name: data.get(name, getattr(PlaygroundSetup, name)) for name in ("restitution", "friction", "dt")}
    for name, low, high in (("restitution", 0.0, 1.0), ("friction", 0.0, math.inf), ("dt", 0.0, 1.0)):
        value = numbers[name]
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
                or not low <= value <= high or (name == "dt" and value == 0):
            bounds = "(0, 1] s" if name == "dt" else f"[{low:g}, {high:g}]"
            raise ValueError(f"{label} playground {name} must be a finite number in {bounds}, got {brief(value)}")
    if data.get("show_step", False) and scene.moving is None:
        raise ValueError(f"{label} playground show_step needs a moving shape in the scene")
    water = None if data.get("water") is None else _water(data["water"], label)
    return PlaygroundSetup(int(steps), tuple(dynamic), data.get("ccd", True), float(numbers["restitution"]),
                           float(numbers["friction"]), float(numbers["dt"]), data.get("show_step", False), water)


def _water(data, label: str) -> dict:
    """A step's ``"water"``: ``Water``'s fields, finite numbers, the density > 0 and the
    drags >= 0 (as ``Water`` itself checks them); ``ValueError`` beginning with ``label``."""
    if not isinstance(data, dict):
        raise ValueError(f"{label} playground water must be an object of {', '.join(WATER_FIELDS)}, got {brief(data)}")
    unknown = sorted(set(data) - set(WATER_FIELDS))
    if unknown:
        raise ValueError(f"{label} playground water has unknown field {brief(unknown[0])} "
                         f"(fields: {', '.join(WATER_FIELDS)})")
    for name, value in data.items():
        least = {"density": "> 0", "linear_drag": ">= 0", "angular_drag": ">= 0"}.get(name, "")
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
                or (least == "> 0" and value <= 0) or (least == ">= 0" and value < 0):
            raise ValueError(f"{label} playground water {name} must be a finite number{' ' + least if least else ''}"
                             f", got {brief(value)}")
    return {name: float(value) for name, value in data.items()}
