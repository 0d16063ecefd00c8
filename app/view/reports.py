"""Each target's answer for the editor: the sweep, the float32 lens, the second
opinion (the reference, a GJK cast, or the reference over a mesh's triangles) and
how they disagree; traces of mesh walks and separating axes.  No GL."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from sweeplab.scene.fixture import unfinished
from sweeplab.scene.model import Scene
from sweeplab.scene.query_log import EngineAnswer
from sweeplab.scene.shape_kinds import KINDS, build_shape, mesh_shape
from sweeplab.engines import EngineUnavailable, ask, engine
from sweeplab.engines.contact_offset import compare_at_offset
from sweeplab.engines.second_opinion import second_opinion
from sweeplab.view import meshes
from sweeplab.view.meshes import MeshReport
from sweeplab.physics import ConvexPolyhedron, Feature, Point, Sphere, SweepResult, TriangleMesh, sweep, tolerance
from sweeplab.physics.kernels import KernelsPending
from sweeplab.physics.shapes import Shape
from sweeplab.physics.sweep import sweep_each
from sweeplab.physics.sweep.polyhedron import SatTrace
from sweeplab.physics.sweep.turning import Motion, centroid
from sweeplab.physics.traversal import TraversalTrace


POLYTOPE_KINDS = ("point", "segment", "triangle", "polygon", "polyhedron")
"""Targets a moving polyhedron meets by the separating axis test (whose trace names
the feature pair)."""

# Colours (RGBA, linear 0-1), chosen to stay apart under any lighting.


@dataclass
class TargetReport:
    """One target's answer: ``status`` is hit, miss, overlap, unsupported, invalid,
    pending (its kernels are compiling: ``editor.compiling``) or unfinished (a turning
    sweep whose conservative advancement ran out of iterations: ``message`` says up to
    when it is certified contact-free; no hit or miss is claimed).

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
    engines: dict[str, EngineReport] = field(default_factory=dict)
    """Other engines' answers (View: also answer with), by engine name."""

    @property
    def time(self) -> float | None:
        """Time of the first contact: the sweep's, or a mesh narrowphase's."""
        if self.result is not None:
            return self.result.t if self.result.hit else None
        narrowphase = self.mesh.narrowphase if self.mesh is not None else None
        return narrowphase.t if narrowphase is not None and narrowphase.hit else None


@dataclass
class EngineReport:
    """Another engine's answer to one target: ``kind`` is ``engines.compare``'s
    ("agrees", "hit", "t", ...) or "cannot" (the engine cannot answer the pair, or
    is not installed: ``detail`` says why)."""

    answer: EngineAnswer | None
    kind: str
    detail: str


def engine_reports(names: tuple[str, ...], moving, target, direction, ours: SweepResult,
                   turn: dict | None = None) -> dict[str, EngineReport]:
    """Each named engine's answer to the pair, compared with sweeplab's; ``turn``: the
    scene's (``Scene.turn``), asked of the engines that turn so (``engines.ask``)."""
    found = {}
    for name in names:
        try:
            adapter = _adapter(name)
            answer = ask(adapter, moving, target, direction, turn or {})
        except (EngineUnavailable, TypeError, ValueError) as error:
            found[name] = EngineReport(None, "cannot", str(error))
            continue
        kind, _, detail = compare_at_offset(answer, ours, adapter.info.precision, shapes=(moving, target, direction),
                                            turn=turn or None)
        found[name] = EngineReport(answer, kind, detail)
    return found


@functools.lru_cache(maxsize=4)
def _adapter(name: str):
    return engine(name)


def sweep_targets(scene: Scene, float32: bool = False, reference: bool = False,
                  progress: Callable[[int, int], None] | None = None,
                  engines: tuple[str, ...] = (), pending_parts: list[str] | None = None) -> list[TargetReport]:
    """Sweep the moving object against every other object of the scene; with
    ``float32`` also in single precision (the lens), with ``reference`` also with
    the reference solver (and, between two meshes, the bisection narrowphase: both
    are asked for once the scene is still).  ``progress(done, total)`` is told of
    every ``PROGRESS_STEP`` targets reported, and of the last.  A sweep whose kernels
    are not compiled yet and too large to run as Python (``kernels.KernelsPending``,
    under the editor's ``defer`` policy) is reported "pending"; a lens or second
    opinion that is, is left out and named in ``pending_parts``.

    A turning scene (``Scene.turns``) is swept with its turn (``Scene.turn``: the
    float32 lens in float32), records no trace, and has no second opinion, no other
    engine's answer and no mesh-against-mesh narrowphase: those sweep without
    turning, and each report says so rather than compare a linear answer."""
    if scene.moving is None:
        return [TargetReport(o.name, o.kind, "miss", message="no moving shape") for o in scene.objects]
    moving_object = scene.moving_object()
    moving = build_shape(moving_object.kind, moving_object.params)
    moving_single, moving_unfit = float32_twin(moving_object) if float32 else (None, "")
    options = {"ignore_separating": scene.options["ignore_separating"], **scene.turn()}
    answers = _untraced_answers(moving_object, moving, scene, options)
    reports, pending, extras = [], [], []
    targets = scene.targets()
    for done, target_object in enumerate(targets):
        if progress is not None and done % PROGRESS_STEP == 0:
            progress(done, len(targets))
        mesh_pair = {moving_object.kind, target_object.kind} == {"mesh"}
        trace = None if scene.turns else _trace_for(moving_object.kind, target_object.kind)
        try:
            target = build_shape(target_object.kind, target_object.params)
            if mesh_pair and scene.turns:
                reports.append(TargetReport(target_object.name, target_object.kind, "unsupported",
                                            message=f"mesh against mesh: {LINEAR_ONLY}"))
                continue
            if mesh_pair:
                reports.append(_mesh_pair_report(target_object, moving, target, scene.direction, reference))
                continue
            if target_object.name in answers:
                result = answers[target_object.name]
            elif trace is None:
                result = sweep(moving, target, scene.direction, **options)
            else:
                result = sweep(moving, target, scene.direction, trace=trace, **options)
        except TypeError as error:
            reports.append(TargetReport(target_object.name, target_object.kind, "unsupported", message=str(error)))
            continue
        except ValueError as error:
            reports.append(TargetReport(target_object.name, target_object.kind, "invalid", message=str(error)))
            continue
        except KernelsPending:
            reports.append(TargetReport(target_object.name, target_object.kind, "pending", message=PENDING))
            continue
        why = unfinished(result)
        status = "unfinished" if why else "overlap" if result.initially_overlapping else "hit" if result.hit else "miss"
        report = TargetReport(target_object.name, target_object.kind, status, result, message=why)
        reports.append(report)
        extras.append((report, result, target_object, target, trace))
    # Every target's own answer first, then the lenses and second opinions: where the
    # kernels are still compiling, the budget for running them as Python goes to the
    # answers (``kernels.deferred``).
    for report, result, target_object, target, trace in extras:
        if float32:
            report.single, report.single_message = _float32_answer(moving_single, moving_unfit, target_object,
                                                                   scene.direction,
                                                                   options | scene.turn(np.float32))
            if report.single_message == PENDING:
                pending.append("float32")
        if isinstance(trace, SatTrace):
            report.separating_axes = trace
        if isinstance(trace, SatTrace) and result.hit:
            report.message = "feature pair: {} of the moving shape, {} of the target".format(*trace.feature_pair)
            report.moving_feature = trace.moving_feature
        if scene.turns and result.hit and result.moving_feature is not None \
                and result.moving_feature.kind in ("vertex", "edge", "face"):
            moving_feature, feature = result.moving_feature, result.feature
            report.message = "; ".join(filter(None, [report.message, f"feature pair: {moving_feature.kind} "
                                                     f"{moving_feature.index} of the moving shape, {feature.kind} "
                                                     f"{feature.index} of the target"]))
            if isinstance(moving, ConvexPolyhedron):
                report.moving_feature = turned_feature(moving, moving_feature, result.t, scene)
        if isinstance(trace, TraversalTrace):  # one mesh in the pair (``_trace_for``)
            report.mesh = MeshReport(trace=trace)
            if isinstance(target, TriangleMesh) and isinstance(moving, (Sphere, Point)):
                sphere = moving if isinstance(moving, Sphere) else Sphere(moving.p, 0.0)
                try:
                    report.mesh.contacts, report.mesh.classification = meshes.sphere_contacts(
                        sphere, target, scene.direction, result.t, scene_scale(scene))
                except KernelsPending:
                    pending.append("mesh contacts")
        if engines:
            report.engines = engine_reports(engines, moving, target, scene.direction, result, scene.turn())
        if reference and scene.turns:
            report.message = "; ".join(filter(None, [report.message, f"no second opinion: {LINEAR_ONLY}"]))
        elif reference:
            try:
                report.reference = second_opinion(moving, target, scene.direction)
            except KernelsPending:
                pending.append("second opinions")
            if report.reference is not None:
                report.disagreement = disagreement(result, report.reference, options["ignore_separating"])
    if progress is not None:
        progress(len(targets), len(targets))
    if pending_parts is not None:
        pending_parts.extend(dict.fromkeys(pending))
    return reports


LINEAR_ONLY = "it sweeps without turning, so it has no answer to a turning scene"
"""Why a turning scene has no second opinion or mesh-against-mesh narrowphase (each of
those sweeps by translation only)."""

PENDING = "compiling its kernels: too large to answer as Python meanwhile"
"""The message of an answer waiting for the background compile (``editor.compiling``)."""

PROGRESS_STEP = 10_000
"""Targets swept between two ``progress`` reports of ``sweep_targets``."""


def turned_feature(moving: ConvexPolyhedron, feature: Feature, t: float, scene: Scene) -> np.ndarray:
    """The corners (k, 3) of a turning polyhedron's ``feature`` (its ``moving_feature``
    at the contact: a vertex, an edge of ``moving.edges`` or a face of
    ``moving.faces``) where the scene's motion has them at the time of impact ``t``:

        pivot + t direction + R(t) (x - pivot)    (pivot: the scene's, else the centroid)"""
    kind, index = feature.kind, feature.index
    rows = [index] if kind == "vertex" else list(moving.edges[index]) if kind == "edge" else list(moving.faces[index])
    motion = Motion(scene.direction, scene.rotation, scene.pivot, scene.interpolation)
    return motion.point(np.asarray(moving.vertices, np.float64)[rows], t, centroid(moving))


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
    its own and reports each failure on its target; and when the scene turns
    (``sweep_each`` sweeps without turning)."""
    if scene.turns:
        return {}
    untraced = [target for target in scene.targets() if _trace_for(moving_object.kind, target.kind) is None
                and "mesh" not in (moving_object.kind, target.kind)]
    try:
        shapes = [build_shape(target.kind, target.params) for target in untraced]
        return dict(zip([target.name for target in untraced], sweep_each(moving, shapes, scene.direction, **options),
                        strict=True))
    except (TypeError, ValueError, KernelsPending):
        return {}


def float32_twin(scene_object) -> tuple[Shape | None, str]:
    """The object's physics shape in float32, or None and why not: a value beyond
    float32's range (a radius of 1e308) would round to infinity."""
    if scene_object.kind == "mesh":
        return _float32_mesh(mesh_shape(scene_object.params)), ""
    too_large = beyond_float32(scene_object.params)
    if too_large:
        return None, f"{scene_object.name}: {too_large} does not fit float32 (largest {FLOAT32_MAX:.8g})"
    try:
        return build_shape(scene_object.kind, scene_object.params, np.float32), ""
    except ValueError as error:
        return None, f"{scene_object.name} in float32: {error}"

FLOAT32_MAX = float(np.finfo(np.float32).max)


def beyond_float32(params: dict) -> str:
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
    except KernelsPending:
        return None, PENDING


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


def scene_scale(scene: Scene) -> float:
    """A length for arrows and markers: a tenth of the scene's extent."""
    points = [KINDS[o.kind].anchor_points(o.params) for o in scene.objects if not beyond_float32(o.params)]
    if not points:
        return 1.0
    every = np.concatenate(points)
    return max(float(np.linalg.norm(every.max(axis=0) - every.min(axis=0))) / 10, 1e-6)
