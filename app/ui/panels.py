"""The editor's Dear ImGui panels: scene list, inspector, results, help, gizmo.

Every panel reads the ``Editor`` and calls its commands; none touches GL.
Numbers show their shortest round-trip text and typed text is parsed by
``float``, so a typed value is kept bit-exact.
"""

from __future__ import annotations

import numpy as np
from imgui_bundle import imgui, imguizmo

from sweeplab.scene import autosave
from sweeplab.ui.commands import COMMANDS, GESTURES, MENUS, copy_as_pytest, run_pending
from sweeplab.editor import Editor
from sweeplab.ui.layout import dock_panels
from sweeplab.ui.fields import committed_text, exact_number_field, remember_rect, vector_field
from sweeplab.editor.gizmo_motion import dragged_rotation, dragged_translation, float32_matrix
from sweeplab.scene.shape_kinds import KINDS, RigidMotion
from sweeplab.ui.meshes import add_mesh_menu, draw_axes_panel, draw_mesh_panel, source_field
from sweeplab.ui.tools import ToolState, cancel_and_message, draw_tools
from sweeplab.view import model as view_model
from sweeplab.view.model import TargetReport

gizmo = imguizmo.im_guizmo
DIFFERS = (1.0, 0.35, 0.3, 1.0)


class PanelState:
    """What the panels remember between frames (open dialogs, typed paths)."""

    def __init__(self):
        self.path_dialog: str | None = None  # "open", "save as" or "mesh file"
        self.path_text = ""
        self.show_help = False
        self.dragging = False
        self.drag_start: dict | None = None
        self.tools = ToolState()
        self.pending: str | None = None
        """"new", "open" or "close", waiting on the unsaved-changes question."""
        self.close_after_save = False
        self.quit = False
        """Set when the window should close (the user said so, nothing unsaved is lost)."""
        self.modal = False
        """A dialog is open: the window's shortcuts are off until it closes."""
        self.view_rect = (0.0, 0.0, 1.0, 1.0)
        """Where the 3D view is drawn: the dockspace's central node (x, y, width, height),
        window pixels, top-down (``layout.dock_panels``)."""
        self.reset_layout = False
        self.show_legend = True
        self.show_labels = True


def draw_ui(editor: Editor, state: PanelState, size: tuple[int, int]) -> None:
    _menu_bar(editor, state)
    state.view_rect = dock_panels(state.reset_layout)
    state.reset_layout = False
    _unsaved_dialog(editor, state)
    _restore_dialog(editor)
    draw_tools(editor, state.tools, size)
    _scene_panel(editor)
    _inspector(editor)
    _results(editor, size)
    _path_hits(editor)
    draw_mesh_panel(editor, size)
    draw_axes_panel(editor, size)
    if state.show_help:
        _help(state, size)
    _path_dialog(editor, state)
    _gizmo(editor, state, size)
    _status(editor, state)
    if state.show_legend:
        _legend(state)
    if state.show_labels:
        _labels(editor, state)
    _compiling(editor, size)
    state.modal = imgui.is_popup_open("", imgui.PopupFlags_.any_popup_id | imgui.PopupFlags_.any_popup_level)


def _compiling(editor: Editor, size: tuple[int, int]) -> None:
    """While kernels compile in the background (a cold cache): what compiles, how far."""
    compilation = editor.compilation
    if compilation is None or compilation.finished and compilation.error is None:
        return
    imgui.set_next_window_pos((size[0] / 2, 40), imgui.Cond_.always, (0.5, 0.0))
    imgui.set_next_window_bg_alpha(0.85)
    flags = imgui.WindowFlags_.no_decoration | imgui.WindowFlags_.always_auto_resize | imgui.WindowFlags_.no_inputs
    if imgui.begin("##compiling", None, flags)[0]:
        if compilation.error is not None:
            imgui.text_colored((1.0, 0.5, 0.4, 1.0), f"compiling failed: {compilation.error}")
        else:
            imgui.text("First run: compiling the physics kernels (cached afterwards; 'sweeplab warmup' does it "
                       "ahead)." if not compilation.scene_ready else "Compiling the other kernels in the background.")
            imgui.text_disabled(compilation.status()[:110])
            imgui.progress_bar(compilation.done / compilation.total, (480, 0),
                               f"step {min(compilation.done + 1, compilation.total)} of {compilation.total}")
    imgui.end()


def _menu_bar(editor: Editor, state: PanelState) -> None:
    """The menus, built from ``commands.COMMANDS`` (plus the Add menu and File > Recover)."""
    if not imgui.begin_main_menu_bar():
        return
    for menu in MENUS:
        if imgui.begin_menu(menu):
            for command in COMMANDS:
                if command.menu != menu:
                    continue
                checked = command.checked(editor, state) if command.checked is not None else False
                if imgui.menu_item(command.label, command.key_label(), checked, command.enabled(editor))[0]:
                    command.run(editor, state)
            if menu == "File":
                _recover_menu(editor)
            imgui.end_menu()
        if menu == "Edit":
            _add_menu(editor, state)
    imgui.end_main_menu_bar()


def _recover_menu(editor: Editor) -> None:
    """File > Recover: the autosaves of untitled sessions, newest first."""
    found = autosave.untitled_autosaves()
    if imgui.begin_menu("Recover untitled work", bool(found)):
        for path in found[:20]:
            if imgui.menu_item_simple(path.name):
                editor.recover(path)
        imgui.end_menu()


def _add_menu(editor: Editor, state: PanelState) -> None:
    if not imgui.begin_menu("Add"):
        return
    for kind in KINDS:
        if kind == "mesh":
            if imgui.begin_menu("Mesh"):
                if add_mesh_menu(editor):
                    state.path_dialog, state.path_text = "mesh file", ""
                imgui.end_menu()
        elif kind == "polyhedron":
            if imgui.begin_menu("Polyhedron"):
                for shape in ("box", "tetrahedron", "random hull"):
                    if imgui.menu_item_simple(shape):
                        editor.add_polyhedron(shape)
                imgui.end_menu()
        elif imgui.menu_item_simple(kind.title()):
            editor.add(kind)
    imgui.end_menu()


def _unsaved_dialog(editor: Editor, state: PanelState) -> None:
    """Save / Discard / Cancel before New, Open or closing loses unsaved changes."""
    if state.pending is None:
        return
    imgui.open_popup("Unsaved changes")
    if not imgui.begin_popup_modal("Unsaved changes", None, imgui.WindowFlags_.always_auto_resize)[0]:
        return
    name = editor.path.name if editor.path else "the untitled scene"
    imgui.text(f"Save the changes to {name}?")
    action, state.pending = state.pending, None
    if imgui.button("Save"):
        if editor.save():
            run_pending(editor, state, action)
        else:  # untitled: choose a file first
            state.path_dialog, state.path_text = "save as", "scene.json"
            state.close_after_save = action == "close"
        imgui.close_current_popup()
    elif _same_line_button("Discard"):
        editor.discard_changes()
        run_pending(editor, state, action)
        imgui.close_current_popup()
    elif _same_line_button("Cancel") or imgui.is_key_pressed(imgui.Key.escape):
        imgui.close_current_popup()
    else:
        state.pending = action
    imgui.end_popup()


def _same_line_button(label: str) -> bool:
    imgui.same_line()
    return imgui.button(label)


def _restore_dialog(editor: Editor) -> None:
    """An autosave newer than the opened file: restore it, or keep the file."""
    if editor.restorable is None:
        return
    imgui.open_popup("Restore autosave?")
    if not imgui.begin_popup_modal("Restore autosave?", None, imgui.WindowFlags_.always_auto_resize)[0]:
        return
    imgui.text(f"{editor.restorable} holds unsaved changes newer than the file.")
    if imgui.button("Restore them"):
        editor.restore_autosave()
        imgui.close_current_popup()
    elif _same_line_button("Keep the file") or imgui.is_key_pressed(imgui.Key.escape):
        editor.dismiss_autosave()
        imgui.close_current_popup()
    imgui.end_popup()


def _scene_panel(editor: Editor) -> None:
    imgui.set_next_window_pos((8, 28), imgui.Cond_.first_use_ever)
    imgui.set_next_window_size((280, 220), imgui.Cond_.first_use_ever)
    if imgui.begin("Scene"):
        scene = editor.scene
        imgui.text_disabled("moving  name")
        for scene_object in scene.objects:
            imgui.push_id(scene_object.name)
            if imgui.radio_button("##moving", scene.moving == scene_object.name):
                editor.set_moving(scene_object.name)
            imgui.same_line()
            label = f"{scene_object.name}  ({scene_object.kind})"
            if imgui.selectable(label, scene_object.name in editor.selection)[0]:
                if imgui.get_io().key_shift:
                    editor.toggle_in_selection(scene_object.name)
                else:
                    editor.select(scene_object.name)
            imgui.pop_id()
        imgui.separator()
        changed, ignore = imgui.checkbox("ignore separating contacts", scene.options["ignore_separating"])
        if changed:
            editor.set_option("ignore_separating", ignore)
    imgui.end()


def _inspector(editor: Editor) -> None:
    imgui.set_next_window_pos((8, 256), imgui.Cond_.first_use_ever)
    imgui.set_next_window_size((330, 220), imgui.Cond_.first_use_ever)
    if imgui.begin("Inspector"):
        scene = editor.scene
        if editor.selected in scene.names():
            scene_object = scene.object(editor.selected)
            name = committed_text("name", scene_object.name)
            if name is not None:
                editor.rename(scene_object.name, name)
            imgui.text_disabled(scene_object.kind)
            for parameter in KINDS[scene_object.kind].parameters:
                value = scene_object.params[parameter.name]
                if parameter.type in ("point", "direction"):
                    changed, new = vector_field(parameter.name, value)
                elif parameter.type in ("points", "body points", "frame"):
                    new, changed = [list(p) for p in value], False
                    for number, point in enumerate(value):
                        label = f"{'xyz'[number]} axis" if parameter.type == "frame" else f"{parameter.name}[{number}]"
                        edited, new[number] = vector_field(label, point)
                        changed |= edited
                elif parameter.type == "source":
                    changed, new = source_field(parameter.name, value)
                else:
                    changed, new = exact_number_field(parameter.name, value)
                    remember_rect(parameter.name)
                if changed:
                    editor.set_parameter(scene_object.name, parameter.name, new)
        else:
            imgui.text_disabled("select a shape")
        imgui.separator()
        changed, direction = vector_field("direction", scene.direction)
        if changed:
            editor.set_direction(direction)
    imgui.end()


def report_text(report: TargetReport) -> str:
    """Full-precision text of one target's answer (what "Copy" puts on the clipboard)."""
    result = report.result
    if result is None or not result.hit:
        return f"{report.name}: {report.status}{' (' + report.message + ')' if report.message else ''}"
    lines = [f"{report.name}: {report.status}", f"  t = {result.t!r}",
             f"  point = [{', '.join(repr(float(v)) for v in result.point)}]",
             f"  normal = [{', '.join(repr(float(v)) for v in result.normal)}]",
             f"  feature = {result.feature.kind} {result.feature.index}"]
    if result.face_index is not None:
        lines.append(f"  face_index = {result.face_index}")
    if report.message:
        lines.append(f"  {report.message}")
    if result.initially_overlapping:
        lines.append(f"  penetration_depth = {result.penetration_depth!r}")
    return "\n".join(lines)


RESULT_COLUMNS = ("target", "status", "t", "t in float32", "feature", "face", "normal", "point",
                  "penetration depth", "reference", "note")


def result_cells(report: TargetReport) -> list[tuple[str, bool]]:
    """The results table's row of one target: (text, differs) per ``RESULT_COLUMNS``,
    every number whole (``repr``: it round-trips), nothing cut."""
    result, single = report.result, report.single
    hit = result is not None and bool(result.hit)
    cells = [(report.name, False), (report.status, False), (repr(float(result.t)) if hit else "", False)]
    if single is not None:
        differs = result is not None and bool(single.hit) != bool(result.hit)
        cells.append((f"{float(single.t)!r}" if single.hit else "miss", differs))
        if differs:
            cells[-1] = (cells[-1][0] + "  (hit differs!)", True)
    else:
        cells.append((report.single_message, bool(report.single_message)))
    if hit:
        cells += [(f"{result.feature.kind} {result.feature.index}", False),
                  ("" if result.face_index is None else str(result.face_index), False),
                  (", ".join(repr(float(v)) for v in result.normal), False),
                  (", ".join(repr(float(v)) for v in result.point), False),
                  ("" if result.penetration_depth is None else repr(float(result.penetration_depth)), False)]
    else:
        cells += [("", False)] * 5
    if report.disagreement:
        cells.append((f"DISAGREES: {report.disagreement}", True))
    elif report.reference is not None:
        cells.append(("agrees", False))
    else:
        cells.append(("", False))
    cells.append((report.message, False))
    return cells


def _results(editor: Editor, size: tuple[int, int]) -> None:
    """Every answer whole: columns as wide as their numbers (scroll sideways), a click
    on a cell copies it, "copy" the whole target."""
    imgui.set_next_window_pos((size[0] - 648, size[1] - 236), imgui.Cond_.first_use_ever)
    imgui.set_next_window_size((640, 228), imgui.Cond_.first_use_ever)
    if imgui.begin("Results"):
        view = editor.view()
        if imgui.button("Copy all"):
            imgui.set_clipboard_text("\n".join(report_text(r) for r in view.reports))
        imgui.same_line()
        if imgui.button("Copy as pytest"):
            copy_as_pytest(editor, None)
        imgui.same_line()
        if imgui.button("Save as fixture..."):
            editor.request_fixture_dialog()
        imgui.same_line()
        editor.check_reference = imgui.checkbox("check reference", editor.check_reference)[1]
        first = f"first hit: {view.earliest} at t = {view.time_of_impact!r}" if view.earliest else "no hit"
        if imgui.selectable(first, False)[0]:
            imgui.set_clipboard_text(first)
        flags = (imgui.TableFlags_.borders | imgui.TableFlags_.row_bg | imgui.TableFlags_.resizable
                 | imgui.TableFlags_.sizing_fixed_fit | imgui.TableFlags_.scroll_x | imgui.TableFlags_.scroll_y)
        if imgui.begin_table("results", len(RESULT_COLUMNS) + 1, flags):
            imgui.table_setup_scroll_freeze(1, 1)
            for heading in RESULT_COLUMNS + ("",):
                imgui.table_setup_column(heading)
            imgui.table_headers_row()
            for report in view.reports:
                imgui.table_next_row()
                imgui.push_id(report.name)
                for column, (text, differs) in enumerate(result_cells(report)):
                    imgui.table_set_column_index(column)
                    if differs:
                        imgui.push_style_color(imgui.Col_.text, DIFFERS)
                    if imgui.selectable(f"{text}##{column}", False)[0] and text:
                        imgui.set_clipboard_text(text)
                        editor.message = f"copied {text}"
                    if differs:
                        imgui.pop_style_color()
                imgui.table_set_column_index(len(RESULT_COLUMNS))
                if imgui.small_button("copy"):
                    imgui.set_clipboard_text(report_text(report))
                imgui.pop_id()
            imgui.end_table()
    imgui.end()


def interval_text(interval) -> str:
    """One contact interval as the Hits panel copies it (full precision)."""
    face = "" if interval.face is None else f" face {interval.face}"
    leave = "still touching at t = 1" if interval.leave is None else f"leaves at t = {interval.leave!r}"
    return f"{interval.target}{face}: enters at t = {interval.enter!r}, {leave}"


def _path_hits(editor: Editor) -> None:
    """Every contact along the path, sorted by t: per target, and per triangle of a
    mesh (``view.path_hits``), drawn on the path in the view."""
    if imgui.begin("Hits along the path"):
        display = editor.mesh_display
        display.every_hit = imgui.checkbox("list and draw every contact", display.every_hit)[1]
        view = editor.view()
        if display.every_hit and view.intervals is None:
            imgui.text_disabled("computed once the scene is still")
        elif display.every_hit:
            if imgui.button("Copy all"):
                imgui.set_clipboard_text("\n".join(interval_text(i) for i in view.intervals))
            imgui.same_line()
            imgui.text(f"{len(view.intervals)} contact intervals")
            for reason in view.unlisted:
                imgui.text_disabled(reason)
            flags = (imgui.TableFlags_.borders | imgui.TableFlags_.row_bg | imgui.TableFlags_.sizing_fixed_fit
                     | imgui.TableFlags_.scroll_x | imgui.TableFlags_.scroll_y)
            if imgui.begin_table("intervals", 4, flags):
                imgui.table_setup_scroll_freeze(1, 1)
                for heading in ("target", "face", "enters at t", "leaves at t"):
                    imgui.table_setup_column(heading)
                imgui.table_headers_row()
                for number, interval in enumerate(view.intervals):
                    imgui.table_next_row()
                    cells = (interval.target, "" if interval.face is None else str(interval.face),
                             repr(interval.enter), "(still touching at 1)" if interval.leave is None
                             else repr(interval.leave))
                    for column, text in enumerate(cells):
                        imgui.table_set_column_index(column)
                        if imgui.selectable(f"{text}##{number}.{column}", False)[0]:
                            imgui.set_clipboard_text(interval_text(interval))
                imgui.end_table()
    imgui.end()


def _help(state: PanelState, size: tuple[int, int]) -> None:
    imgui.set_next_window_pos((size[0] / 2 - 235, 28), imgui.Cond_.first_use_ever)
    imgui.set_next_window_size((470, 420), imgui.Cond_.first_use_ever)
    opened, state.show_help = imgui.begin("Shortcuts", state.show_help)
    if opened:
        rows = [(command.key_label(), f"{command.menu}: {command.label}") for command in COMMANDS if command.keys]
        for keys, description in rows + list(GESTURES):
            imgui.text(keys)
            imgui.same_line(200)
            imgui.text_disabled(description)
    imgui.end()


def _path_dialog(editor: Editor, state: PanelState) -> None:
    if state.path_dialog is None:
        return
    title = f"{state.path_dialog.title()}###path"
    imgui.open_popup(title)
    if imgui.begin_popup_modal(title, None, imgui.WindowFlags_.always_auto_resize)[0]:
        imgui.set_next_item_width(420)
        entered, state.path_text = imgui.input_text("file", state.path_text, imgui.InputTextFlags_.enter_returns_true)
        if imgui.button("OK") or entered:
            if state.path_dialog == "mesh file":
                editor.add_mesh_file(state.path_text)
                done = not editor.message
            else:
                done = editor.open(state.path_text) if state.path_dialog == "open" else editor.save(state.path_text)
            if done:
                state.path_dialog = None
                state.quit = state.close_after_save
                imgui.close_current_popup()
        if cancel_and_message(editor):
            state.path_dialog, state.close_after_save = None, False


def _gizmo(editor: Editor, state: PanelState, size: tuple[int, int]) -> None:
    """ImGuizmo on the selected shape's pivot (or on the end pose)."""
    scene = editor.scene
    if editor.end_pose and scene.moving is not None:
        moving = scene.object(scene.moving)
        pivot = KINDS[moving.kind].pivot(moving.params) + np.asarray(scene.direction)
    elif editor.selected in scene.names():
        selected = scene.object(editor.selected)
        pivot = KINDS[selected.kind].pivot(selected.params)
    else:
        return
    x, y, width, height = state.view_rect
    gizmo.set_drawlist(imgui.get_background_draw_list())
    gizmo.set_rect(x, y, width, height)
    view = gizmo.Matrix16(np.asarray(editor.camera.view(), "f4").ravel().tolist())
    projection = gizmo.Matrix16(np.asarray(editor.camera.projection(width / height), "f4").ravel().tolist())
    selected = scene.object(editor.selected) if editor.selected in scene.names() else None
    resizing = (editor.gizmo_operation == "scale" and not editor.end_pose and selected is not None
                and ("radius" in selected.params or selected.kind == "polyhedron"))
    if resizing:
        _resize_gizmo(editor, state, view, projection, selected)
        return
    before = float32_matrix(pivot)
    matrix = gizmo.Matrix16(before.ravel().tolist())
    operation = gizmo.OPERATION.rotate if editor.gizmo_operation == "rotate" and not editor.end_pose \
        else gizmo.OPERATION.translate
    changed = gizmo.manipulate(view, projection, operation, gizmo.MODE.world, matrix)
    _track_drag(editor, state, None)
    if not changed:
        return
    if editor.end_pose:
        editor.shift_end_pose(dragged_translation(before, matrix.values))
    elif operation == gizmo.OPERATION.translate:
        editor.move_selected(RigidMotion.translate(dragged_translation(before, matrix.values)))
    else:
        editor.move_selected(RigidMotion(dragged_rotation(before, matrix.values), pivot, np.zeros(3)))


def _track_drag(editor: Editor, state: PanelState, params: dict | None) -> None:
    """Begin/end one undo step as the gizmo starts/stops being dragged; remember the
    parameters the drag started from."""
    using = gizmo.is_using()
    if using and not state.dragging:
        editor.begin_drag()
        state.drag_start = params
    if not using and state.dragging:
        editor.end_drag()
        state.drag_start = None
    state.dragging = using


def _resize_gizmo(editor: Editor, state: PanelState, view, projection, selected) -> None:
    """ImGuizmo's scale handles in the shape's own frame: the axis handle scales a
    capsule's length, the others its radius (a sphere: any handle, its radius; a
    polyhedron: each handle along its axis)."""
    kind = KINDS[selected.kind]
    start = state.drag_start if state.dragging and state.drag_start is not None else selected.params
    frame = np.eye(4)
    frame[:3, :3] = kind.axis_frame(start)
    frame[3, :3] = kind.pivot(start)
    matrix = gizmo.Matrix16(frame.astype("f4").ravel().tolist())
    changed = gizmo.manipulate(view, projection, gizmo.OPERATION.scale, gizmo.MODE.local, matrix)
    _track_drag(editor, state, dict(selected.params))
    if not changed or not state.dragging:
        return
    scales = np.linalg.norm(np.asarray(matrix.values, float).reshape(4, 4)[:3, :3], axis=1)
    if selected.kind == "polyhedron":  # every handle scales along its own axis
        editor.scale_selected(state.drag_start or selected.params, scales)
        return
    candidates = scales if selected.kind == "sphere" else scales[:2]  # the handle that moved most
    across = max(candidates, key=lambda factor: abs(factor - 1))
    editor.resize_selected(state.drag_start or selected.params, scales[2], across)


LEGEND = (
    (view_model.START, "start"),
    (view_model.TIME_OF_IMPACT, "time of impact"),
    (view_model.END, "end"),
    (view_model.PATH, "swept path"),
    (view_model.HIT, "target hit"),
    (view_model.EARLIEST, "first hit (outline)"),
    (view_model.MISS, "target missed"),
    (view_model.OVERLAP, "overlapping at start"),
    (view_model.CONTACT, "contact point"),
    (view_model.NORMAL, "contact normal"),
    (view_model.SEPARATION, "separation (depth)"),
    (view_model.FEATURE, "feature touched"),
    (view_model.SELECTED, "selected (outline)"),
    (view_model.INTERVAL, "touching (every hit)"),
)
"""The view's colours, as the legend explains them (View > Legend)."""


def _legend(state: PanelState) -> None:
    """The colours of the 3D view, in a corner of it."""
    x, y, width, height = state.view_rect
    imgui.set_next_window_pos((x + width - 6, y + height - 6), imgui.Cond_.always, (1.0, 1.0))
    imgui.set_next_window_bg_alpha(0.6)
    flags = (imgui.WindowFlags_.no_decoration | imgui.WindowFlags_.always_auto_resize | imgui.WindowFlags_.no_docking
             | imgui.WindowFlags_.no_focus_on_appearing | imgui.WindowFlags_.no_nav | imgui.WindowFlags_.no_inputs)
    if imgui.begin("##legend", None, flags)[0] and imgui.begin_table("##legend columns", 2):
        for color, meaning in LEGEND:
            imgui.table_next_column()
            imgui.color_button(f"##{meaning}", (*color[:3], 1.0), imgui.ColorEditFlags_.no_tooltip, (10, 10))
            imgui.same_line()
            imgui.text(meaning)
        imgui.end_table()
    imgui.end()


def _labels(editor: Editor, state: PanelState) -> None:
    """Each shape's name beside it in the 3D view (View > Target names)."""
    x, y, width, height = state.view_rect
    scene = editor.scene
    if not scene.objects:
        return
    anchors = np.array([KINDS[o.kind].pivot(o.params) for o in scene.objects], float)
    clip = np.c_[anchors, np.ones(len(anchors))] @ editor.camera.view_projection((width, height))
    draw_list = imgui.get_background_draw_list()
    for scene_object, (cx, cy, _, w) in zip(scene.objects, clip, strict=True):
        if w <= 0 or not np.isfinite(cx / w) or not np.isfinite(cy / w):
            continue  # behind the camera
        px, py = x + (cx / w + 1) / 2 * width, y + (1 - cy / w) / 2 * height
        if not (x <= px < x + width and y <= py < y + height):
            continue
        name = scene_object.name + (" (moving)" if scene_object.name == scene.moving else "")
        draw_list.add_text((px + 9, py - 17), imgui.get_color_u32((0, 0, 0, 0.8)), name)
        draw_list.add_text((px + 8, py - 18), imgui.get_color_u32((1, 1, 1, 0.95)), name)


def _status(editor: Editor, state: PanelState) -> None:
    """The file name (``*`` when unsaved) and the last message, along the top of the
    3D view."""
    x, y, _, _ = state.view_rect
    name = editor.path.name if editor.path else "untitled"
    text = f"{name}{' *' if editor.dirty else ''}   {editor.message}"
    imgui.get_background_draw_list().add_text((x + 8, y + 6), imgui.get_color_u32((1, 1, 1, 0.8)), text)
