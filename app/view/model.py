"""Per frame: the scene and its sweep answers, as plain things to draw.

``build_view_model`` is the only place the editor calls physics: it takes each
target's answer (``view.reports``) and turns the answers into drawables (filled
meshes with outlines), line batches (normals, separation arrows, the path) and
point batches (contacts, highlighted vertices) in world coordinates, beside the
report per target for the results panel.  The renderer only draws what this
returns; no GL here, so it is tested headless.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from sweeplab.scene.model import Scene
from sweeplab.scene.shape_kinds import KINDS, build_shape, drawn_mesh, mesh_shape
from sweeplab.scene import tessellate
from sweeplab.view import meshes, minkowski
from sweeplab.view.meshes import MeshDisplay, MeshOverlapReport, MeshReport
from sweeplab.view.lessons import collide_and_slide
from sweeplab.view.path_hits import ContactInterval, contact_intervals
from sweeplab.view.turn import motion_of, posed_mesh, turn_drawing
from sweeplab.view.reports import FLOAT32_MAX, TargetReport, beyond_float32, scene_scale, sweep_targets
from sweeplab.scene.query_log import EngineAnswer
from sweeplab.physics import SweepResult
from sweeplab.physics.kernels import KernelsPending


# Colours (RGBA, linear 0-1), chosen to stay apart under any lighting.
START = (0.25, 0.55, 1.0, 1.0)

END = (0.55, 0.6, 0.75, 0.58)

TIME_OF_IMPACT = (1.0, 0.6, 0.1, 1.0)

PATH = (0.4, 0.65, 1.0, 0.22)

MISS = (0.55, 0.57, 0.6, 1.0)

HIT = (0.85, 0.3, 0.3, 1.0)

OVERLAP = (0.8, 0.25, 0.85, 1.0)

EARLIEST = (1.0, 0.1, 0.05, 1.0)

CONTACT = (1.0, 0.95, 0.15, 1.0)

NORMAL = (0.2, 0.95, 0.4, 1.0)

SEPARATION = (1.0, 0.45, 1.0, 1.0)

FEATURE = (0.1, 0.9, 0.95, 1.0)

SELECTED = (1.0, 1.0, 1.0, 1.0)

OUTLINE = (0.08, 0.08, 0.1, 1.0)

WALKED = (0.3, 0.31, 0.34, 1.0)
"""A mesh while its node spheres are coloured by the walk (lesson 5): toned down, dark
and grey, so the walk's blue, grey, red and orange read against it (its hit red drowned
the leaf-hit red)."""


@dataclass
class Drawable:
    mesh: tessellate.Mesh
    fill: tuple
    outline: tuple = OUTLINE
    outline_width: float = 1.5
    point_size: float = 9.0


@dataclass
class LineBatch:
    segments: np.ndarray  # (n, 2, 3)
    color: tuple
    width: float = 2.0
    on_top: bool = False


@dataclass
class PointBatch:
    positions: np.ndarray  # (n, 3)
    color: tuple
    size: float = 10.0
    on_top: bool = True


@dataclass
class SpriteBatch:
    """Spheres of one ``radius`` (world units) at ``positions`` (n, 3), drawn as shaded
    sprites facing the camera (a particle fluid)."""

    positions: np.ndarray
    radius: float
    color: tuple


@dataclass
class ViewModel:
    drawables: list[Drawable] = field(default_factory=list)
    lines: list[LineBatch] = field(default_factory=list)
    points: list[PointBatch] = field(default_factory=list)
    sprites: list[SpriteBatch] = field(default_factory=list)
    reports: list[TargetReport] = field(default_factory=list)
    mesh_overlaps: list[MeshOverlapReport] = field(default_factory=list)
    earliest: str | None = None
    time_of_impact: float | None = None
    intervals: list[ContactInterval] | None = None
    """Every contact interval along the path, sorted by t (None: not computed yet)."""
    unlisted: list[str] = field(default_factory=list)
    """Targets whose intervals could not be listed, with why."""
    bounds: tuple[np.ndarray, np.ndarray] = (np.full(3, -1.0), np.full(3, 1.0))
    pending: list[str] = field(default_factory=list)
    """What waits for kernels compiling in the background (``editor.compiling``): the
    parts of the view left out meanwhile, e.g. "float32", "mesh details"."""
    not_shown: list[str] = field(default_factory=list)
    """Parts of the view asked for that have no meaning for this scene, each with why
    ("teaching view: ..."): e.g. the Minkowski picture of a linear sweep, for a scene
    that turns."""


def build_view_model(scene: Scene, selected: str | None = None, float32: bool = False,
                     reference: bool = False, display: MeshDisplay | None = None,
                     pending: bool = False, progress: Callable[[int, int], None] | None = None,
                     intervals: bool = False, engine_answer: tuple[str, EngineAnswer] | None = None,
                     slide: bool = False) -> ViewModel:
    """Everything to draw, and a report per target (with the float32 lens and the
    reference answers when asked: the editor asks once the scene is still);
    ``display`` says what to draw of meshes (``view.meshes``).  ``pending``: no
    physics called (framing the view): the shapes and the motion only, each target
    "pending".  Parts whose kernels are compiling in the background and too large to
    run as Python meanwhile are left out and named in ``ViewModel.pending``.  ``progress``: as
    ``sweep_targets`` takes it.  ``intervals``: also every contact interval along
    the path (when ``display.every_hit``; the editor asks once the scene is still).
    ``engine_answer``: another engine's (name, answer) to the scene's one target,
    drawn as a second ghost (a query from a log).  ``slide``: the moving shape's
    collide-and-slide move drawn, its first ``display.slide_sweeps`` sweeps (lesson 8)."""
    display = display or MeshDisplay()
    parts: list[str] = []
    view = ViewModel(reports=[TargetReport(o.name, o.kind, "pending", message="not swept") for o in scene.targets()]
                     if pending else sweep_targets(scene, float32, reference, progress, display.engines, parts))
    view.pending = parts
    hits = [(r.time, r.name) for r in view.reports if r.time is not None]
    if hits:
        view.time_of_impact, view.earliest = min(hits, key=lambda hit: hit[0])
    scale = scene_scale(scene)
    by_name = {r.name: r for r in view.reports}
    contacts = []
    for scene_object in scene.objects:
        kind = KINDS[scene_object.kind]
        too_large = beyond_float32(scene_object.params)
        if too_large:  # the GPU draws in float32: say so rather than draw infinities
            for report in view.reports if scene_object.name == scene.moving else [by_name[scene_object.name]]:
                report.message = "; ".join(filter(None, [report.message, f"{scene_object.name} not drawn: "
                                                         f"{too_large} does not fit float32"]))
            continue
        mesh = drawn_mesh(scene_object.kind, scene_object.params)
        if scene_object.name == scene.moving:
            _add_moving(view, scene, mesh, scale)
            continue
        report = by_name[scene_object.name]
        walked = scene_object.kind == "mesh" and display.bvh_depth is not None and display.traversal
        fill = (WALKED if walked else {"hit": HIT, "overlap": OVERLAP}.get(report.status, MISS))[:3] + (kind.opacity,)
        emphasised = scene_object.name == view.earliest
        if scene_object.kind == "mesh":  # every triangle edge is outline: emphasis would paint it all
            view.drawables.append(Drawable(mesh, fill, OUTLINE, 1.0))
        else:
            view.drawables.append(Drawable(mesh, fill, EARLIEST if emphasised else OUTLINE,
                                           3.5 if emphasised else 1.5))
        if report.result is not None and report.result.hit:
            _add_feature(view, kind, scene_object.params, report.result)
            contacts.append(report.result)
        if report.moving_feature is not None and len(report.moving_feature):
            _add_moving_feature(view, report.moving_feature)
        if scene_object.kind == "mesh" and not pending:
            _unless_pending(view, "mesh details", _add_mesh_details, view, scene_object, report.mesh, display, scale)
    _add_contacts(view, contacts, scale)
    if not pending:
        _unless_pending(view, "mesh overlaps", _add_mesh_overlaps, view, scene)
    if display.minkowski and scene.turns:
        view.not_shown.append(f"teaching view: {NO_MINKOWSKI_PICTURE}")
    elif display.minkowski:
        _unless_pending(view, "teaching view", _add_teaching_view, view, scene, selected)
    if slide and scene.turns:
        view.not_shown.append(f"collide and slide: {NO_TURNING_SLIDE}")
    elif slide and scene.moving is not None and not pending:
        _unless_pending(view, "collide and slide", _add_slide, view, scene, display.slide_sweeps)
    if engine_answer is not None and scene.moving is not None:
        _add_engine_answer(view, scene, engine_answer[1], scale)
    if display.every_hit and intervals and not pending:
        _unless_pending(view, "every hit along the path", _add_every_hit, view, scene)
    if selected is not None and selected in scene.names():
        selected_object = scene.object(selected)
        outline = drawn_mesh(selected_object.kind, selected_object.params)
        view.lines.append(LineBatch(outline.outline, SELECTED, 3.0, on_top=True))
    view.bounds = _bounds(view)
    return view

def _unless_pending(view: ViewModel, part: str, add: Callable, *arguments) -> None:
    """``add(*arguments)``; where its kernels are still compiling and too large to run as
    Python meanwhile (``kernels.KernelsPending``), ``part`` is noted as pending instead."""
    try:
        add(*arguments)
    except KernelsPending:
        view.pending.append(part)


def _add_every_hit(view: ViewModel, scene: Scene) -> None:
    view.intervals, view.unlisted = contact_intervals(scene)
    _add_intervals(view, scene)


NO_MINKOWSKI_PICTURE = ("the Minkowski difference pictures a linear sweep as a ray cast; a turning shape's "
                        "obstacle changes with t")
NO_TURNING_SLIDE = "collide and slide moves the shape by translation only; the scene turns"

SLIDE = (0.95, 0.95, 0.3, 1.0)
"""A collide-and-slide move: the pivot's path sweep by sweep, the shape where each stops."""


def _add_slide(view: ViewModel, scene: Scene, sweeps: int | None) -> None:
    """The move's first ``sweeps`` sweeps (None: all)."""
    moving = scene.moving_object()
    if beyond_float32(moving.params):
        return
    steps = collide_and_slide(scene)[:sweeps]
    if not steps:
        return
    view.lines.append(LineBatch(np.array([[step.start, step.stop] for step in steps]), SLIDE, 4.0, on_top=True))
    outline = drawn_mesh(moving.kind, moving.params).outline
    start = steps[0].start
    view.lines.append(LineBatch(np.concatenate([outline + (step.stop - start) for step in steps]),
                                SLIDE[:3] + (0.6,), 1.5))


ENGINE = (0.72, 0.45, 1.0, 1.0)
"""Another engine's answer: its time-of-impact pose, point and normal."""


def _add_engine_answer(view: ViewModel, scene: Scene, answer: EngineAnswer, scale: float) -> None:
    """The engine's ghost: the moving shape's outline at the engine's t, its contact
    point and its normal (as far as the engine gave them)."""
    moving = scene.moving_object()
    if not answer.hit or answer.t is None or beyond_float32(moving.params):
        return
    outline = drawn_mesh(moving.kind, moving.params).outline
    view.lines.append(LineBatch(outline + answer.t * np.asarray(scene.direction, float), ENGINE, 2.5, on_top=True))
    if answer.point is not None:
        view.points.append(PointBatch(np.asarray([answer.point], float), ENGINE, 14.0))
        if answer.normal is not None:
            view.lines.append(LineBatch(tessellate.arrows(np.asarray(answer.point, float),
                                                          np.asarray(answer.normal, float) * scale * 1.5),
                                        ENGINE, 3.0, on_top=True))


INTERVAL = (1.0, 0.75, 0.2, 0.9)
"""Stretches of the path where the moving shape touches a target."""

GHOST_LIMIT = 24
"""Contact intervals whose entering pose is outlined (a mesh may have hundreds)."""


def _add_intervals(view: ViewModel, scene: Scene) -> None:
    """Each contact interval as a stretch of the pivot's path, and the moving shape's
    outline where it enters (the first ``GHOST_LIMIT``)."""
    if not view.intervals or beyond_float32(scene.moving_object().params):
        return
    moving_object = scene.moving_object()
    pivot = KINDS[moving_object.kind].pivot(moving_object.params)
    direction = np.asarray(scene.direction, float)
    enters = np.array([interval.enter for interval in view.intervals])
    leaves = np.array([1.0 if interval.leave is None else interval.leave for interval in view.intervals])
    stretches = np.stack([pivot + enters[:, None] * direction, pivot + leaves[:, None] * direction], axis=1)
    view.lines.append(LineBatch(stretches, INTERVAL, 6.0, on_top=True))
    outline = drawn_mesh(moving_object.kind, moving_object.params).outline
    ghosts = [outline + enter * direction for enter in np.unique(enters)[:GHOST_LIMIT]]
    view.lines.append(LineBatch(np.concatenate(ghosts), INTERVAL[:3] + (0.45,), 1.0))


def _add_moving(view: ViewModel, scene: Scene, mesh: tessellate.Mesh, scale: float) -> None:
    if scene.turns:
        _add_turning(view, scene, mesh)
        return
    moving_object = scene.moving_object()
    kind = KINDS[moving_object.kind]
    direction = np.asarray(scene.direction, float)
    if moving_object.kind == "sphere":
        center = np.asarray(moving_object.params["center"], float)
        path = tessellate.capsule(center, center + direction, moving_object.params["radius"])
        view.drawables.append(Drawable(tessellate.Mesh(path.triangles, convex=path.convex), PATH, PATH, 0.0))
    anchors = kind.anchor_points(moving_object.params)
    view.lines.append(LineBatch(np.stack([anchors, anchors + direction], axis=1), START[:3] + (0.6,), 1.5))
    pivot = kind.pivot(moving_object.params)
    head = min(0.2, scale / max(float(np.linalg.norm(direction)), 1e-12))
    view.lines.append(LineBatch(tessellate.arrows(pivot, direction, head),
                                START, 2.0))
    view.drawables.append(Drawable(mesh.translated(direction), END, END[:3] + (0.6,), 1.0))
    if view.time_of_impact is not None:
        view.drawables.append(Drawable(mesh.translated(view.time_of_impact * direction), TIME_OF_IMPACT))
    view.drawables.append(Drawable(mesh, START))


GHOST = (0.6, 0.72, 0.95, 0.45)
"""A turning sweep's ghost poses between start and end (``view.turn``)."""

ARC = (0.85, 0.8, 1.0, 0.9)
"""The arc swept by the moving shape's point farthest from the pivot."""

PIVOT = (0.9, 0.9, 0.9, 1.0)
"""The pivot the moving shape turns about, and its path."""

ADVANCE = (1.0, 0.45, 0.6, 1.0)
"""The moving shape at the conservative advancement's iteration picked in its panel."""


def _add_turning(view: ViewModel, scene: Scene, mesh: tessellate.Mesh) -> None:
    """A turning sweep (``view.turn``): faint ghost poses, the pivot and its path, the
    arc of the farthest point; the end and time-of-impact poses turned.  A motion the
    physics refuses (an nlerp turn of π or more, read from a file) is said in every
    report and only the start pose is drawn."""
    try:
        motion, drawing = motion_of(scene), turn_drawing(scene, mesh)
    except ValueError as error:
        for report in view.reports:
            report.message = "; ".join(filter(None, [report.message, f"the motion is refused: {error}"]))
        view.drawables.append(Drawable(mesh, START))
        return
    view.lines.append(LineBatch(drawing.ghosts, GHOST, 1.0))
    view.lines.append(LineBatch(drawing.arc, ARC, 2.0))
    view.lines.append(LineBatch(drawing.pivot_path, PIVOT, 1.5))
    view.points.append(PointBatch(drawing.pivot[None], PIVOT, 12.0))
    view.drawables.append(Drawable(posed_mesh(mesh, motion, 1.0), END, END[:3] + (0.6,), 1.0))
    if view.time_of_impact is not None:
        view.drawables.append(Drawable(posed_mesh(mesh, motion, view.time_of_impact), TIME_OF_IMPACT))
    view.drawables.append(Drawable(mesh, START))


def _add_feature(view: ViewModel, kind, params: dict, result: SweepResult) -> None:
    """The target's feature hit (face, edge or vertex), highlighted."""
    segments, points = kind.feature_geometry(params, result.feature.kind, result.feature.index, result.face_index)
    if len(segments):
        view.lines.append(LineBatch(segments, FEATURE, 4.0, on_top=True))
    if len(points):
        view.points.append(PointBatch(points, FEATURE, 16.0))


def _add_contacts(view: ViewModel, results: list[SweepResult], scale: float) -> None:
    """Every target's contact point and normal arrow, and the separation arrow of
    each initial overlap, one batch each (one draw call however many targets)."""
    results = [r for r in results if np.all(np.abs(r.point) <= FLOAT32_MAX)
               and (r.penetration_depth is None or abs(r.penetration_depth) <= FLOAT32_MAX)]  # drawable
    if not results:
        return
    points, normals = (np.array([getattr(r, name) for r in results], float) for name in ("point", "normal"))
    overlapping = np.array([r.initially_overlapping for r in results])
    if overlapping.any():
        depths = np.array([r.penetration_depth for r in results])[overlapping, None]
        view.lines.append(LineBatch(tessellate.arrows(points[overlapping], normals[overlapping] * depths), SEPARATION,
                                    3.0, on_top=True))
    view.lines.append(LineBatch(tessellate.arrows(points, normals * scale * 1.5), NORMAL, 3.0, on_top=True))
    view.points.append(PointBatch(points, CONTACT, 12.0))


def _add_moving_feature(view: ViewModel, corners: np.ndarray) -> None:
    """The moving shape's half of the feature pair at the time of impact: its
    touching vertex, edge or face outline."""
    view.points.append(PointBatch(corners, FEATURE, 14.0))
    if len(corners) >= 2:
        center = corners.mean(axis=0)
        offsets = corners - center
        u = offsets[np.argmax(np.linalg.norm(offsets, axis=1))]
        normal = np.cross(u, offsets[np.argmax(np.abs(offsets @ np.cross(u, [0.3, 0.5, 0.8])))]) \
            if len(corners) > 2 else u
        v = np.cross(normal, u)
        loop = corners[np.argsort(np.arctan2(offsets @ v, offsets @ u))] if len(corners) > 2 else corners
        segments = np.stack([loop, np.roll(loop, -1, axis=0)], axis=1)
        view.lines.append(LineBatch(segments[:1] if len(corners) == 2 else segments, FEATURE, 4.0, on_top=True))


def _add_mesh_details(view: ViewModel, scene_object, mesh_report: MeshReport | None, display: MeshDisplay,
                      scale: float) -> None:
    mesh = mesh_shape(scene_object.params)
    trace = mesh_report.trace if mesh_report is not None and display.traversal else None
    if display.bvh_depth is not None:
        for segments, color in meshes.node_spheres(mesh, display.bvh_depth, trace, display.walk_steps):
            view.lines.append(LineBatch(segments, color, 1.5 if color is not meshes.NODE else 1.0))
    found = mesh_report.contacts if mesh_report is not None and display.contacts else None
    if found is not None and len(found.face):
        view.points.append(PointBatch(found.point, meshes.MESH_CONTACT, 8.0))
        view.lines.append(LineBatch(tessellate.arrows(found.point, found.normal * scale), meshes.MESH_CONTACT, 1.5,
                                    on_top=True))


def _add_mesh_overlaps(view: ViewModel, scene: Scene) -> None:
    """Overlapping triangles of every two meshes at rest, and of a moving mesh at the
    narrowphase's first contact."""
    mesh_objects = [o for o in scene.objects if o.kind == "mesh"]
    posed = {o.name: mesh_shape(o.params) for o in mesh_objects}
    view.mesh_overlaps = meshes.overlaps({o.name: o.params for o in mesh_objects})
    for found in view.mesh_overlaps:
        for name, column in ((found.first, 0), (found.second, 1)):
            if len(found.overlap.pairs):
                _add_overlapping(view, meshes.overlapping_triangles(posed[name], found.overlap.pairs[:, column]))
    for report in view.reports:
        answer = report.mesh.narrowphase if report.mesh is not None else None
        if answer is None or not answer.hit or answer.t is None or answer.overlap is None:
            continue
        moving_mesh = posed[scene.moving_object().name]
        moving_at = moving_mesh.moved(
            translation=moving_mesh.translation + answer.t * np.asarray(scene.direction, float))
        for mesh, column in ((moving_at, 0), (posed[report.name], 1)):
            _add_overlapping(view, meshes.overlapping_triangles(mesh, answer.overlap.pairs[:, column]))


def _add_overlapping(view: ViewModel, corners: np.ndarray) -> None:
    """Overlapping triangles (k, 3, 3): filled, and their edges drawn on top (each lies
    partly inside the other mesh, which hides its fill: lesson 6 showed no magenta)."""
    view.drawables.append(Drawable(tessellate.Mesh(corners), meshes.MESH_OVERLAP, OUTLINE, 2.0))
    edges = np.stack([corners, np.roll(corners, -1, axis=1)], axis=2).reshape(-1, 2, 3)
    view.lines.append(LineBatch(edges, meshes.MESH_OVERLAP, 2.0, on_top=True))

MINKOWSKI = (0.2, 0.85, 0.75, 0.5)

RAY = (1.0, 1.0, 1.0, 1.0)


def _add_teaching_view(view: ViewModel, scene: Scene, selected: str | None) -> None:
    """The Minkowski difference of the moving shape and one target (the selected
    target, else the earliest hit, else the first), and the ray its pivot travels."""
    if scene.moving is None or not scene.targets():
        return
    names = [o.name for o in scene.targets()]
    name = selected if selected in names else view.earliest if view.earliest in names else names[0]
    moving_object, target_object = scene.moving_object(), scene.object(name)
    pivot = KINDS[moving_object.kind].pivot(moving_object.params)
    try:
        surface = minkowski.obstacle(build_shape(moving_object.kind, moving_object.params),
                                     build_shape(target_object.kind, target_object.params), pivot)
    except TypeError:  # a plane or a mesh: not a bounded convex shape
        return
    view.drawables.append(Drawable(surface, MINKOWSKI, OUTLINE, 0.0))
    direction = np.asarray(scene.direction, float)
    view.lines.append(LineBatch(np.stack([pivot, pivot + direction])[None], RAY, 2.0, on_top=True))
    report = next(r for r in view.reports if r.name == name)
    if report.time is not None:
        view.points.append(PointBatch((pivot + report.time * direction)[None], RAY, 12.0))


def _bounds(view: ViewModel) -> tuple[np.ndarray, np.ndarray]:
    boxes = [b for b in (d.mesh.bounds() for d in view.drawables) if b is not None]
    if not boxes:
        return view.bounds
    return np.min([b[0] for b in boxes], axis=0), np.max([b[1] for b in boxes], axis=0)
