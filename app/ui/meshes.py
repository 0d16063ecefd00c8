"""The mesh and polytope panels: sphere-tree display, the walk of the current sweep,
contacts, mesh-mesh overlaps, the broadphase/bisection timeline, and a moving
polyhedron's separating-axis intervals (ImPlot)."""

from __future__ import annotations

import json

import numpy as np
from imgui_bundle import imgui, implot

from sweeplab.editor import Editor
from sweeplab.ui.fields import committed_text
from sweeplab.scene.json_files import JsonFileError, parse_json
from sweeplab.scene.mesh_sources import GENERATORS
from sweeplab.scene.shape_kinds import mesh_shape
from sweeplab.view.reports import TargetReport
from sweeplab.physics.broadphase import MeshContact, NarrowphaseTrace
from sweeplab.physics.sweep.polyhedron import AXIS_KINDS
from sweeplab.physics.traversal import STATUS_NAMES

RED = (1.0, 0.35, 0.3, 1.0)
MUTED = (0.6, 0.6, 0.65, 1.0)


def add_mesh_menu(editor: Editor) -> str | None:
    """Items of Add > Mesh; returns "mesh file" when the user asks for a file."""
    for generator in GENERATORS:
        if imgui.menu_item_simple(generator.replace("_", " ")):
            editor.add_generated_mesh(generator)
    imgui.separator()
    return "mesh file" if imgui.menu_item_simple("From file (OBJ, STL, PLY, glTF)...") else None


def source_field(label: str, source: dict) -> tuple[bool, dict]:
    """A mesh source as editable JSON text (applied when the field is left, if it parses)."""
    text = committed_text(label, json.dumps(source))
    if text is None:
        return False, source
    try:
        value = parse_json(text, label)
    except JsonFileError:
        return False, source
    return (True, value) if isinstance(value, dict) else (False, source)


def draw_mesh_panel(editor: Editor, size: tuple[int, int]) -> None:
    scene = editor.scene
    mesh_objects = [o for o in scene.objects if o.kind == "mesh"]
    if not mesh_objects:
        return
    imgui.set_next_window_pos((size[0] - 478, 336), imgui.Cond_.first_use_ever)
    imgui.set_next_window_size((470, 380), imgui.Cond_.first_use_ever)
    if imgui.begin("Meshes"):
        display = editor.mesh_display
        height = max(mesh_shape(o.params).tree.height for o in mesh_objects)
        shown, show = imgui.checkbox("node spheres at depth", display.bvh_depth is not None)
        if shown:
            display.bvh_depth = min(3, height - 1) if show else None
        if display.bvh_depth is not None:
            imgui.same_line()
            imgui.set_next_item_width(160)
            display.bvh_depth = imgui.slider_int("##depth", display.bvh_depth, 0, height - 1)[1]
        display.traversal = imgui.checkbox("colour nodes by the walk of the sweep", display.traversal)[1]
        display.contacts = imgui.checkbox("contacts of the moving sphere", display.contacts)[1]
        imgui.text_colored((0.3, 0.6, 1.0, 1.0), "visited")
        imgui.same_line()
        imgui.text_colored((0.5, 0.5, 0.55, 1.0), "culled")
        imgui.same_line()
        imgui.text_colored((1.0, 0.25, 0.2, 1.0), "leaf hit")
        imgui.same_line()
        imgui.text_colored((1.0, 0.65, 0.1, 1.0), "leaf missed")
        imgui.separator()
        view = editor.view()
        for scene_object in mesh_objects:
            tree = mesh_shape(scene_object.params).tree
            imgui.text(f"{scene_object.name}: {tree.node_count} nodes over {(tree.face >= 0).sum()} triangles, "
                       f"{tree.height} levels")
            report = next((r for r in view.reports if r.name == scene_object.name), None)
            if report is not None:
                _target_details(report)
        for found in view.mesh_overlaps:
            count = len(found.overlap.pairs)
            what = "touch" if found.touching_only else "overlap"
            imgui.text(f"{found.first} / {found.second}: {count} triangle pairs {what if count else 'apart'}")
    imgui.end()


def _target_details(report: TargetReport) -> None:
    mesh = report.mesh
    if mesh is None:
        imgui.text_disabled(f"  {report.status}: {report.message}")
        return
    if mesh.trace is not None:
        counts = mesh.trace.counts()
        imgui.text("  walk: " + ", ".join(f"{counts[name]} {name}" for name in STATUS_NAMES))
    if mesh.contacts is not None:
        imgui.text(f"  moving sphere at rest: {mesh.classification}; {len(mesh.contacts.face)} contacts at "
                   f"{'t' if report.result is not None and report.result.hit else 'rest'}")
    if mesh.narrowphase_trace is not None:
        _narrowphase_timeline(report.name, mesh.narrowphase_trace, mesh.narrowphase)


def _narrowphase_timeline(name: str, trace: NarrowphaseTrace, answer: MeshContact | None) -> None:
    if answer is None:
        return
    if trace.interval is None:
        imgui.text_disabled("  bounding spheres never meet: no narrowphase")
        return
    low, high = trace.interval
    imgui.text(f"  broadphase [{low:.6g}, {high:.6g}]; " + (f"first overlap t = {answer.t!r}" if answer.hit
                                                             else "no overlap found"))
    if implot.begin_plot(f"narrowphase##{name}", (-1, 160)):
        implot.setup_axes("t", "step")
        implot.setup_axes_limits(0.0, 1.0, -1.0, max(len(trace.steps), 1) + 1.0)
        implot.plot_shaded("broadphase", np.array([low, high]), np.array([-1.0, -1.0]),
                           np.array([len(trace.steps) + 1.0] * 2))
        times = np.array([step.t for step in trace.steps])
        order = np.arange(len(trace.steps)).astype(float)
        overlap = np.array([step.overlap for step in trace.steps])
        for label, mask in (("overlap", overlap), ("clear", ~overlap)):
            if np.any(mask):
                implot.plot_scatter(label, times[mask], order[mask])
        implot.end_plot()


def draw_axes_panel(editor: Editor, size: tuple[int, int]) -> None:
    """The separating axis test over time of a moving polyhedron against the selected
    target (else the earliest hit): every axis's interval of overlap in t, the last
    to begin marked — the first contact is where all intervals overlap."""
    view = editor.view()
    traced = [r for r in view.reports if r.separating_axes is not None]
    if not traced:
        return
    report = next((r for r in traced if r.name == editor.selected), None) or \
        next((r for r in traced if r.name == view.earliest), traced[0])
    trace = report.separating_axes
    if trace is None:
        return
    imgui.set_next_window_pos((8, size[1] - 330), imgui.Cond_.first_use_ever)
    imgui.set_next_window_size((470, 300), imgui.Cond_.first_use_ever)
    if imgui.begin("Separating axes"):
        imgui.text(f"{report.name}: {len(trace.axes)} axes; "
                   + (f"the last to begin overlapping is #{trace.chosen} ({AXIS_KINDS[trace.kinds[trace.chosen]]})"
                      if report.result is not None and report.result.hit else "no t where all overlap: a miss"))
        imgui.text_disabled("one line per axis: the t for which the projections overlap")
        if implot.begin_plot(f"overlap intervals##{report.name}", (-1, -1), implot.Flags_.no_legend):
            implot.setup_axes("t", "axis")
            implot.setup_axes_limits(-0.1, 1.1, -1.0, len(trace.axes) + 0.0)
            for index, (enter, leave) in enumerate(zip(trace.enter, trace.exit, strict=True)):
                low, high = max(float(enter), -0.1), min(float(leave), 1.1)
                if low <= high:
                    label = "last to begin" if index == trace.chosen else AXIS_KINDS[trace.kinds[index]]
                    implot.plot_line(f"{label}##{index}", np.array([low, high]), np.array([index, index], float))
            implot.end_plot()
    imgui.end()
