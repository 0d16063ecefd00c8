"""Perturbation scans: one parameter swept over +-epsilon in K steps, the answers in
``SCAN_CHUNKS`` batched queries (1,000 steps take milliseconds once the kernels are
compiled).  A window runs a scan as a ``ScanJob``, on a thread of its own: the first
scan of a session may wait for its batch kernel to compile (about a minute on a
cold cache), or run as Python meanwhile, and the window keeps drawing its progress.

Grazing bugs hide at discontinuities of t as a parameter moves: a plot of t and
hit/miss against the offset shows them.  The varied parameter is a coordinate
of a shape (``component`` numbers the flattened values: vertex * 3 + axis for a
polygon), a radius or offset, a component of the direction, or the direction's
angle (rotated about an axis perpendicular to it).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from sweeplab.scene.model import Scene
from sweeplab.scene.shape_kinds import KINDS
from sweeplab.physics import sweep

DIRECTION = "direction"
"""``ScanSpec.varied`` value that varies the sweep direction instead of a shape."""
SCAN_CHUNKS = 10
"""A scan's lanes are swept in this many batches (progress is told after each): each
batch is a tenth of the scan, so a large scan's batches stay large enough for the
batch loop's threads."""


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


def run_scan(scene: Scene, spec: ScanSpec, progress: Callable[[int, int], None] | None = None) -> ScanResult:
    """The scan's answers, lane by lane as one batch would give them, in ``SCAN_CHUNKS``
    batches; ``progress(done, total)`` after each.  A shape the offsets make invalid
    (a negative radius), or a pair with no sweep, leaves every lane unanswered and
    says why in ``message``."""
    offsets = np.linspace(-spec.epsilon, spec.epsilon, max(spec.steps, 2))
    count = len(offsets)
    t, hit = np.full(count, np.nan), np.zeros(count, bool)
    size = -(-count // SCAN_CHUNKS)
    for start in range(0, count, size):
        lanes = slice(start, min(start + size, count))
        try:
            t[lanes], hit[lanes] = _sweep_lanes(scene, spec, offsets[lanes])
        except (TypeError, ValueError) as error:
            return ScanResult(offsets, np.full(count, np.nan), np.zeros(count, bool), str(error))
        if progress is not None:
            progress(lanes.stop, count)
    return ScanResult(offsets, t, hit)


def _sweep_lanes(scene: Scene, spec: ScanSpec, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(t, hit) of the lanes at ``offsets``: one batched sweep, turning as the scene
    turns (each lane about its own centroid when the scene names no pivot)."""
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
            raise ValueError(f"{name}: {error}") from None
    result = sweep(shapes[moving], shapes[spec.target], directions,
                   ignore_separating=scene.options["ignore_separating"], **scene.turn())
    return np.broadcast_to(result.t, (count,)), np.broadcast_to(result.hit, (count,))


class ScanJob:
    """``run_scan`` on a thread of its own, so that a window keeps drawing while it
    runs: ``done`` of ``total`` lanes so far, ``seconds`` since it started, and
    ``result`` once it has finished (None until then)."""

    def __init__(self, scene: Scene, spec: ScanSpec):
        self.total, self.done = max(spec.steps, 2), 0
        self.result: ScanResult | None = None
        self._started = time.perf_counter()
        self._thread = threading.Thread(target=self._run, args=(scene, spec), name="sweeplab scan", daemon=True)
        self._thread.start()

    def _run(self, scene: Scene, spec: ScanSpec) -> None:
        try:
            self.result = run_scan(scene, spec, self._progress)
        except Exception as error:  # a bug, not bad input: said in the panel, not lost with the thread
            nothing = np.zeros(0)
            self.result = ScanResult(nothing, nothing, nothing.astype(bool), f"the scan failed: {error!r}")

    def _progress(self, done: int, total: int) -> None:
        self.done = done

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self._started
