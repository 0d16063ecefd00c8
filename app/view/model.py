"""Per frame: the scene and its sweep answers, as plain things to draw.

``build_view_model`` is the only place the editor calls physics.  It sweeps the
moving shape against every target and turns the answers into drawables (filled
meshes with outlines), line batches (normals, separation arrows, the path) and
point batches (contacts, highlighted vertices) in world coordinates, plus a
report per target for the results panel.  The renderer only draws what this
returns; no GL here, so it is tested headless.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from collections.abc import Callable

import numpy as np

from sweeplab.view import meshes
from sweeplab.view import minkowski
from sweeplab.view import tessellate
from sweeplab.view.meshes import MeshDisplay, MeshOverlapReport, MeshReport
from sweeplab.view.path_hits import ContactInterval, contact_intervals
from sweeplab.scene.model import Scene
from sweeplab.scene.shape_kinds import KINDS, build_shape, drawn_mesh
from sweeplab.physics import Feature, Sphere, SweepResult, Triangle, TriangleMesh, sweep, tolerance
from sweeplab.physics.gjk import convex_cast
from sweeplab.physics.reference import reference_sweep
from sweeplab.physics.sweep import sweep_each
from sweeplab.physics.sweep.polyhedron import SatTrace
from sweeplab.physics.traversal import TraversalTrace

POLYTOPE_KINDS = ("point", "segment", "triangle", "polygon", "polyhedron")
"""Targets a moving polyhedron meets by the separating axis test (whose trace names
the feature pair)."""

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
class TargetReport:
    """One target's answer: ``status`` is hit, miss, overlap, unsupported or invalid.

    ``single`` is the same sweep in float32 (the precision lens; ``single_message``
    says why there is none, e.g. a value beyond float32's range), ``reference`` the
    answer of ``physics.reference`` when it was asked for (for a mesh target, the
    earliest reference answer over its triangles), and ``disagreement`` says how the
    analytic answer and the reference differ beyond tolerance ("" if not).
    """

    name: str
    kind: str
    status: str
    result: SweepResult | None = None
    message: str = ""
    single: SweepResult | None = None
    single_message: str = ""
    reference: SweepResult | None = None
    disagreement: str = ""
    mesh: MeshReport | None = None
    moving_feature: np.ndarray | None = None
    """The moving polyhedron's touching vertices at the time of impact (its half of
    the feature pair), when it has one."""
    separating_axes: SatTrace | None = None
    """A moving polyhedron's separating axis test over time, axis by axis."""

    @property
    def time(self) -> float | None:
        """Time of the first contact: the sweep's, or a mesh narrowphase's."""
        if self.result is not None:
            return self.result.t if self.result.hit else None
        narrowphase = self.mesh.narrowphase if self.mesh is not None else None
        return narrowphase.t if narrowphase is not None and narrowphase.hit else None


@dataclass
class ViewModel:
    drawables: list[Drawable] = field(default_factory=list)
    lines: list[LineBatch] = field(default_factory=list)
    points: list[PointBatch] = field(default_factory=list)
    reports: list[TargetReport] = field(default_factory=list)
    mesh_overlaps: list[MeshOverlapReport] = field(default_factory=list)
    earliest: str | None = None
    time_of_impact: float | None = None
    intervals: list[ContactInterval] | None = None
    """Every contact interval along the path, sorted by t (None: not computed yet)."""
    unlisted: list[str] = field(default_factory=list)
    """Targets whose intervals could not be listed, with why."""
    bounds: tuple[np.ndarray, np.ndarray] = (np.full(3, -1.0), np.full(3, 1.0))


def sweep_targets(scene: Scene, float32: bool = False, reference: bool = False,
                  progress: Callable[[int, int], None] | None = None) -> list[TargetReport]:
    """Sweep the moving object against every other object of the scene; with
    ``float32`` also in single precision (the lens), with ``reference`` also with
    the reference solver (and, between two meshes, the bisection narrowphase: both
    are asked for once the scene is still).  ``progress(done, total)`` is told of
    every ``PROGRESS_STEP`` targets reported, and of the last."""
    if scene.moving is None:
        return [TargetReport(o.name, o.kind, "miss", message="no moving shape") for o in scene.objects]
    moving_object = scene.object(scene.moving)
    moving = build_shape(moving_object.kind, moving_object.params)
    moving_single, moving_unfit = float32_twin(moving_object) if float32 else (None, "")
    options = {"ignore_separating": scene.options["ignore_separating"]}
    answers = _untraced_answers(moving_object, moving, scene, options)
    reports = []
    targets = scene.targets()
    for done, target_object in enumerate(targets):
        if progress is not None and done % PROGRESS_STEP == 0:
            progress(done, len(targets))
        mesh_pair = {moving_object.kind, target_object.kind} == {"mesh"}
        with_mesh = "mesh" in (moving_object.kind, target_object.kind)
        trace = _trace_for(moving_object.kind, target_object.kind)
        try:
            target = build_shape(target_object.kind, target_object.params)
            if mesh_pair:
                reports.append(_mesh_pair_report(target_object, moving, target, scene.direction, reference))
                continue
            result = answers[target_object.name] if target_object.name in answers else sweep(
                moving, target, scene.direction, **options, **({"trace": trace} if trace else {}))
        except TypeError as error:
            reports.append(TargetReport(target_object.name, target_object.kind, "unsupported", message=str(error)))
            continue
        except ValueError as error:
            reports.append(TargetReport(target_object.name, target_object.kind, "invalid", message=str(error)))
            continue
        status = "overlap" if result.initially_overlapping else "hit" if result.hit else "miss"
        report = TargetReport(target_object.name, target_object.kind, status, result)
        if float32:
            report.single, report.single_message = _float32_answer(moving_single, moving_unfit, target_object,
                                                                   scene.direction, options)
        if isinstance(trace, SatTrace):
            report.separating_axes = trace
        if isinstance(trace, SatTrace) and result.hit:
            report.message = "feature pair: {} of the moving shape, {} of the target".format(*trace.feature_pair)
            report.moving_feature = trace.moving_feature
        if with_mesh:
            report.mesh = MeshReport(trace=trace)
            if target_object.kind == "mesh" and moving_object.kind in ("sphere", "point"):
                sphere = moving if moving_object.kind == "sphere" else Sphere(moving.p, 0.0)
                report.mesh.contacts, report.mesh.classification = meshes.sphere_contacts(
                    sphere, target, scene.direction, result.t, _scene_scale(scene))
        if reference:
            report.reference = second_opinion(moving, target, scene.direction)
            if report.reference is not None:
                report.disagreement = disagreement(result, report.reference, options["ignore_separating"])
        reports.append(report)
    if progress is not None:
        progress(len(targets), len(targets))
    return reports


PROGRESS_STEP = 10_000
"""Targets swept between two ``progress`` reports of ``sweep_targets``."""


def _trace_for(moving_kind: str, target_kind: str) -> TraversalTrace | SatTrace | None:
    """What a sweep records for the editor: the BVH traversal of a single mesh query,
    the separating axes of a moving polyhedron against a polytope; else nothing."""
    if "mesh" in (moving_kind, target_kind) and moving_kind != target_kind:
        return TraversalTrace()
    if moving_kind == "polyhedron" and target_kind in POLYTOPE_KINDS:
        return SatTrace()
    return None


def _untraced_answers(moving_object, moving, scene: Scene, options: dict) -> dict[str, SweepResult]:
    """Sweeps of the targets that record no trace, by name, in as few kernel calls as
    ``sweep_each`` makes (one for a sphere or point against every core target).  Empty
    when one of them cannot be built or swept: the caller then sweeps each target on
    its own and reports each failure on its target."""
    untraced = [target for target in scene.targets() if _trace_for(moving_object.kind, target.kind) is None
                and "mesh" not in (moving_object.kind, target.kind)]
    try:
        shapes = [build_shape(target.kind, target.params) for target in untraced]
        return dict(zip([target.name for target in untraced], sweep_each(moving, shapes, scene.direction, **options),
                        strict=True))
    except (TypeError, ValueError):
        return {}


def float32_twin(scene_object) -> tuple[object | None, str]:
    """The object's physics shape in float32, or None and why not: a value beyond
    float32's range (a radius of 1e308) would round to infinity."""
    if scene_object.kind == "mesh":
        return _float32_mesh(build_shape("mesh", scene_object.params)), ""
    too_large = _beyond_float32(scene_object.params)
    if too_large:
        return None, f"{scene_object.name}: {too_large} does not fit float32 (largest {FLOAT32_MAX:.8g})"
    try:
        return build_shape(scene_object.kind, scene_object.params, np.float32), ""
    except ValueError as error:
        return None, f"{scene_object.name} in float32: {error}"


FLOAT32_MAX = float(np.finfo(np.float32).max)


def _beyond_float32(params: dict) -> str:
    """The first parameter holding a finite value that float32 cannot hold ("" if none)."""
    for name, value in params.items():
        if name == "source":
            continue
        values = np.abs(np.asarray(value, float))
        if values.size and values.max() > FLOAT32_MAX:
            return f"{name} {float(values.max())!r}"
    return ""


def _float32_mesh(mesh: TriangleMesh) -> TriangleMesh:
    """A mesh's float32 twin: its body rounded once (tree built once, kept with the
    mesh), posed by its pose rounded to float32."""
    body = mesh.cached("float32 body", lambda: TriangleMesh(mesh.vertices.astype(np.float32), mesh.faces))
    return body.moved(translation=mesh.translation.astype(np.float32), rotation=mesh.rotation.astype(np.float32))


def _float32_answer(moving_single, moving_unfit: str, target_object, direction, options) -> tuple[SweepResult | None,
                                                                                                   str]:
    """The float32 lens of one target: (answer, "") or (None, why there is none)."""
    if moving_single is None:
        return None, moving_unfit
    target_single, unfit = float32_twin(target_object)
    if target_single is None:
        return None, unfit
    try:
        return sweep(moving_single, target_single, np.asarray(direction, np.float32), **options), ""
    except (TypeError, ValueError) as error:
        return None, str(error)


def second_opinion(moving, target, direction) -> SweepResult | None:
    """An independent answer: ``physics.reference`` (bisection on the exact
    distance), else for pairs it does not know (polyhedra) the GJK cast of
    ``physics.gjk``; against a mesh, the earliest of those over its triangles
    (``mesh_second_opinion``); None when none answers (planes with polyhedra, or a
    cast that did not converge)."""
    if isinstance(target, TriangleMesh):
        return mesh_second_opinion(moving, target, direction)
    try:
        return reference_sweep(moving, target, direction)
    except TypeError:
        pass
    try:
        cast = convex_cast(moving, target, direction)
    except TypeError:
        return None
    if cast.status not in ("hit", "miss", "overlap at start"):
        return None
    return SweepResult(hit=cast.hit, t=cast.t, point=cast.point, normal=cast.normal, face_index=None,
                       penetration_depth=None, initially_overlapping=False, feature=Feature(None, None))


def mesh_second_opinion(moving, mesh: TriangleMesh, direction) -> SweepResult | None:
    """The earliest second opinion over the mesh's triangles, each a ``Triangle`` in
    world space — no sphere tree, no edge rules: what a query would find if it tested
    every triangle the swept box of the moving shape reaches.  ``face_index`` names
    the triangle.  None when no triangle has a second opinion."""
    corners = mesh.to_world(mesh.vertices[mesh.faces])
    low, high = _swept_box(moving, np.asarray(direction, float))
    near = np.flatnonzero(np.all(corners.min(axis=1) <= high, axis=1) & np.all(corners.max(axis=1) >= low, axis=1))
    best = None
    for face in near:
        answer = second_opinion(moving, Triangle(*corners[face]), direction)
        if answer is not None and answer.hit and (best is None or answer.t < best.t):
            best = dataclasses.replace(answer, face_index=int(face))
    if best is None:
        return SweepResult(hit=False, t=None, point=None, normal=None, face_index=None, penetration_depth=None,
                           initially_overlapping=False, feature=Feature(None, None))
    return best


def _swept_box(moving, direction: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An axis-aligned box holding the moving shape over the whole sweep, padded by
    a millionth of its size (a triangle touching it at a graze stays in)."""
    points = np.concatenate([np.asarray(getattr(moving, name), float).reshape(-1, 3)
                             for name in ("center", "p", "a", "b", "vertices") if hasattr(moving, name)])
    radius = float(np.asarray(getattr(moving, "radius", 0.0)))
    low, high = points.min(axis=0) - radius, points.max(axis=0) + radius
    low, high = np.minimum(low, low + direction), np.maximum(high, high + direction)
    pad = 1e-6 * float(np.max(high - low)) + 1e-300
    return low - pad, high + pad


def _mesh_pair_report(target_object, moving, target, direction, still: bool) -> TargetReport:
    """A moving mesh against a mesh: the bisection narrowphase, once the scene is still."""
    if not still:
        return TargetReport(target_object.name, target_object.kind, "pending",
                            message="mesh against mesh: the narrowphase runs once the scene is still")
    answer, trace = meshes.narrowphase(moving, target, direction)
    report = TargetReport(target_object.name, target_object.kind, "hit" if answer.hit else "miss",
                          message=f"bisection narrowphase, {len(trace.steps)} overlap tests")
    report.mesh = MeshReport(narrowphase=answer, narrowphase_trace=trace)
    return report


def disagreement(result: SweepResult, reference: SweepResult, ignore_separating: bool) -> str:
    """How an analytic answer and the reference differ beyond tolerance ("" if they agree).
    The reference knows nothing of ``ignore_separating``: a dropped t = 0 contact is no
    disagreement."""
    if ignore_separating and reference.hit and reference.t == 0 and not result.hit:
        return ""
    if result.hit != reference.hit:
        return f"reference says {'hit' if reference.hit else 'miss'}"
    if result.hit and abs(result.t - reference.t) > tolerance.REFERENCE_TIME_ATOL:
        return f"reference t = {reference.t!r} (differs by {abs(result.t - reference.t):.3g})"
    return ""


def build_view_model(scene: Scene, selected: str | None = None, float32: bool = False,
                     reference: bool = False, display: MeshDisplay | None = None,
                     pending: bool = False, progress: Callable[[int, int], None] | None = None,
                     intervals: bool = False) -> ViewModel:
    """Everything to draw, and a report per target (with the float32 lens and the
    reference answers when asked: the editor asks once the scene is still);
    ``display`` says what to draw of meshes (``view.meshes``).  ``pending``: the
    physics kernels are still compiling (``editor.compiling``): the shapes and the
    motion only, each target "pending", no physics called.  ``progress``: as
    ``sweep_targets`` takes it.  ``intervals``: also every contact interval along
    the path (when ``display.every_hit``; the editor asks once the scene is still)."""
    display = display or MeshDisplay()
    view = ViewModel(reports=[TargetReport(o.name, o.kind, "pending", message="compiling the physics kernels")
                              for o in scene.targets()] if pending
                     else sweep_targets(scene, float32, reference, progress))
    hits = [r for r in view.reports if r.time is not None]
    if hits:
        first = min(hits, key=lambda r: r.time)
        view.earliest, view.time_of_impact = first.name, first.time
    scale = _scene_scale(scene)
    by_name = {r.name: r for r in view.reports}
    contacts = []
    for scene_object in scene.objects:
        kind = KINDS[scene_object.kind]
        too_large = _beyond_float32(scene_object.params)
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
        fill = {"hit": HIT, "overlap": OVERLAP}.get(report.status, MISS)[:3] + (kind.opacity,)
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
            _add_mesh_details(view, scene_object, report.mesh, display, scale)
    _add_contacts(view, contacts, scale)
    if not pending:
        _add_mesh_overlaps(view, scene)
    if display.minkowski:
        _add_teaching_view(view, scene, selected)
    if display.every_hit and intervals and not pending:
        view.intervals, view.unlisted = contact_intervals(scene)
        _add_intervals(view, scene)
    if selected is not None and selected in scene.names():
        selected_object = scene.object(selected)
        outline = drawn_mesh(selected_object.kind, selected_object.params)
        view.lines.append(LineBatch(outline.outline, SELECTED, 3.0, on_top=True))
    view.bounds = _bounds(view)
    return view


INTERVAL = (1.0, 0.75, 0.2, 0.9)
"""Stretches of the path where the moving shape touches a target."""
GHOST_LIMIT = 24
"""Contact intervals whose entering pose is outlined (a mesh may have hundreds)."""


def _add_intervals(view: ViewModel, scene: Scene) -> None:
    """Each contact interval as a stretch of the pivot's path, and the moving shape's
    outline where it enters (the first ``GHOST_LIMIT``)."""
    if not view.intervals or _beyond_float32(scene.object(scene.moving).params):
        return
    moving_object = scene.object(scene.moving)
    pivot = KINDS[moving_object.kind].pivot(moving_object.params)
    direction = np.asarray(scene.direction, float)
    enters = np.array([interval.enter for interval in view.intervals])
    leaves = np.array([1.0 if interval.leave is None else interval.leave for interval in view.intervals])
    stretches = np.stack([pivot + enters[:, None] * direction, pivot + leaves[:, None] * direction], axis=1)
    view.lines.append(LineBatch(stretches, INTERVAL, 6.0, on_top=True))
    outline = drawn_mesh(moving_object.kind, moving_object.params).outline
    ghosts = [outline + enter * direction for enter in np.unique(enters)[:GHOST_LIMIT]]
    view.lines.append(LineBatch(np.concatenate(ghosts), INTERVAL[:3] + (0.45,), 1.0))


def _scene_scale(scene: Scene) -> float:
    """A length for arrows and markers: a tenth of the scene's extent."""
    points = [KINDS[o.kind].anchor_points(o.params) for o in scene.objects if not _beyond_float32(o.params)]
    if not points:
        return 1.0
    every = np.concatenate(points)
    return max(float(np.linalg.norm(every.max(axis=0) - every.min(axis=0))) / 10, 1e-6)


def _add_moving(view: ViewModel, scene: Scene, mesh: tessellate.Mesh, scale: float) -> None:
    moving_object = scene.object(scene.moving)
    kind = KINDS[moving_object.kind]
    direction = np.asarray(scene.direction, float)
    if moving_object.kind == "sphere":
        center = np.asarray(moving_object.params["center"], float)
        path = tessellate.capsule(center, center + direction, moving_object.params["radius"])
        view.drawables.append(Drawable(tessellate.Mesh(path.triangles, convex=path.convex), PATH, PATH, 0.0))
    anchors = kind.anchor_points(moving_object.params)
    view.lines.append(LineBatch(np.stack([anchors, anchors + direction], axis=1), START[:3] + (0.6,), 1.5))
    pivot = kind.pivot(moving_object.params)
    head = min(0.2, scale / max(np.linalg.norm(direction), 1e-12))
    view.lines.append(LineBatch(tessellate.arrows(pivot, direction, head),
                                START, 2.0))
    view.drawables.append(Drawable(mesh.translated(direction), END, END[:3] + (0.6,), 1.0))
    if view.time_of_impact is not None:
        view.drawables.append(Drawable(mesh.translated(view.time_of_impact * direction), TIME_OF_IMPACT))
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
    mesh = build_shape("mesh", scene_object.params)
    trace = mesh_report.trace if mesh_report is not None and display.traversal else None
    if display.bvh_depth is not None:
        for segments, color in meshes.node_spheres(mesh, display.bvh_depth, trace):
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
    posed = {o.name: build_shape("mesh", o.params) for o in mesh_objects}
    view.mesh_overlaps = meshes.overlaps({o.name: o.params for o in mesh_objects})
    for found in view.mesh_overlaps:
        for name, column in ((found.first, 0), (found.second, 1)):
            if len(found.overlap.pairs):
                corners = meshes.overlapping_triangles(posed[name], found.overlap.pairs[:, column])
                view.drawables.append(Drawable(tessellate.Mesh(corners), meshes.MESH_OVERLAP, OUTLINE, 2.0))
    for report in view.reports:
        answer = report.mesh.narrowphase if report.mesh is not None else None
        if answer is None or not answer.hit:
            continue
        moving_at = posed[scene.moving].moved(
            translation=posed[scene.moving].translation + answer.t * np.asarray(scene.direction, float))
        for mesh, column in ((moving_at, 0), (posed[report.name], 1)):
            corners = meshes.overlapping_triangles(mesh, answer.overlap.pairs[:, column])
            view.drawables.append(Drawable(tessellate.Mesh(corners), meshes.MESH_OVERLAP, OUTLINE, 2.0))


MINKOWSKI = (0.2, 0.85, 0.75, 0.5)
RAY = (1.0, 1.0, 1.0, 1.0)


def _add_teaching_view(view: ViewModel, scene: Scene, selected: str | None) -> None:
    """The Minkowski difference of the moving shape and one target (the selected
    target, else the earliest hit, else the first), and the ray its pivot travels."""
    if scene.moving is None or not scene.targets():
        return
    names = [o.name for o in scene.targets()]
    name = selected if selected in names else view.earliest if view.earliest in names else names[0]
    moving_object, target_object = scene.object(scene.moving), scene.object(name)
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
    boxes = [d.mesh.bounds() for d in view.drawables]
    boxes = [b for b in boxes if b is not None]
    if not boxes:
        return view.bounds
    return np.min([b[0] for b in boxes], axis=0), np.max([b[1] for b in boxes], axis=0)
