"""Perturbation scans: one parameter swept over +-epsilon in K steps, all answers in
one batched query (1,000 steps take milliseconds, so the UI never freezes).

Grazing bugs hide at discontinuities of t as a parameter moves: a plot of t and
hit/miss against the offset shows them.  The varied parameter is a coordinate
of a shape (``component`` numbers the flattened values: vertex * 3 + axis for a
polygon), a radius or offset, a component of the direction, or the direction's
angle (rotated about an axis perpendicular to it).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sweeplab.scene.model import Scene
from sweeplab.scene.shape_kinds import KINDS
from sweeplab.physics import sweep

DIRECTION = "direction"
"""``ScanSpec.varied`` value that varies the sweep direction instead of a shape."""


@dataclass(frozen=True)
class ScanSpec:
    target: str            # whose answer is plotted
    varied: str            # an object's name, or DIRECTION
    parameter: str         # a parameter name; for DIRECTION: "x", "y", "z" or "angle"
    component: int = 0     # which value of a vector parameter
    epsilon: float = 1e-9
    steps: int = 1000


@dataclass
class ScanResult:
    offsets: np.ndarray    # (K,) parameter offsets (radians for the angle)
    t: np.ndarray          # (K,) NaN where no hit
    hit: np.ndarray        # (K,)
    message: str = ""


def parameter_choices(scene: Scene, varied: str) -> list[tuple[str, int, str]]:
    """(parameter, component, label) a scan may vary on ``varied`` (none on a mesh:
    a ``TriangleMesh`` is one mesh, not a batch)."""
    if varied == DIRECTION:
        return [(axis, 0, f"direction {axis}") for axis in ("x", "y", "z", "angle")]
    scene_object = scene.object(varied)
    choices: list[tuple[str, int, str]] = []
    if scene_object.kind == "mesh":  # one mesh, not a batch: vary the other shape
        return choices
    for parameter in KINDS[scene_object.kind].parameters:
        value = np.asarray(scene_object.params[parameter.name], float)
        for component in range(value.size):
            label = parameter.name if value.size == 1 else f"{parameter.name}[{component}]"
            choices.append((parameter.name, component, label))
    return choices


def _rotated(direction: np.ndarray, angles: np.ndarray) -> np.ndarray:
    """``direction`` turned by each angle about an axis perpendicular to it."""
    helper = np.eye(3)[np.argmin(np.abs(direction))]
    axis = np.cross(direction, helper)
    axis /= np.linalg.norm(axis)
    return (np.cos(angles)[:, None] * direction + np.sin(angles)[:, None] * np.cross(axis, direction))


def run_scan(scene: Scene, spec: ScanSpec) -> ScanResult:
    offsets = np.linspace(-spec.epsilon, spec.epsilon, max(spec.steps, 2))
    count = len(offsets)
    direction = np.asarray(scene.direction, float)
    if spec.varied == DIRECTION:
        if spec.parameter == "angle":
            directions = _rotated(direction, offsets)
        else:
            directions = np.repeat(direction[None], count, axis=0)
            directions[:, "xyz".index(spec.parameter)] += offsets
    else:
        directions = direction
    shapes = {}
    moving = scene.moving_object().name
    for name in (moving, spec.target):
        scene_object = scene.object(name)
        params = dict(scene_object.params)
        if name == spec.varied:
            value = np.asarray(params[spec.parameter], float)
            batch = np.repeat(value[None], count, axis=0)
            batch.reshape(count, -1)[:, spec.component] += offsets
            params[spec.parameter] = batch
        try:
            shapes[name] = KINDS[scene_object.kind].build(params)
        except ValueError as error:
            nothing = np.full(count, np.nan)
            return ScanResult(offsets, nothing, np.zeros(count, bool), f"{name}: {error}")
    result = sweep(shapes[moving], shapes[spec.target], directions,
                   ignore_separating=scene.options["ignore_separating"])
    hit = np.broadcast_to(result.hit, (count,))
    t = np.broadcast_to(result.t, (count,))
    return ScanResult(offsets, np.array(t, float), np.array(hit))
