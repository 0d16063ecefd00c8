"""The editor's Dear ImGui frame: ``draw_ui`` lays out every panel in order; the
scene list and the inspector live here.

Every panel reads the ``Editor`` and calls its commands; none touches GL.
Numbers show their shortest round-trip text and typed text is read exactly
(a decimal or a hex float), so a typed value is kept bit-exact (``ui.fields``).
"""

from __future__ import annotations

from imgui_bundle import imgui

from sweeplab.ui.advancement import advancement_panel
from sweeplab.editor import Editor
from sweeplab.scene.shape_kinds import KINDS
from sweeplab.ui.drawn import remember
from sweeplab.ui.dialogs import copy_test_dialog, path_dialog, restore_dialog, unsaved_dialog
from sweeplab.ui.fields import committed_text, exact_number_field, take_refusal, vector_field
from sweeplab.ui.gizmo import gizmo_handles
from sweeplab.ui.layout import dock_panels
from sweeplab.ui.menus import menu_bar
from sweeplab.ui.meshes import draw_axes_panel, draw_mesh_panel, source_field
from sweeplab.ui.lessons import lesson_panel
from sweeplab.ui.playground import playground_panel
from sweeplab.ui.queries import queries_panel
from sweeplab.ui.legend import legend
from sweeplab.ui.overlays import compiling_overlay, labels, shortcuts_panel, status_line
from sweeplab.ui.results import path_hits_panel, results_panel
from sweeplab.ui.state import PanelState
from sweeplab.ui.tools import draw_tools
from sweeplab.ui.turn import turn_fields


def draw_ui(editor: Editor, state: PanelState, size: tuple[int, int]) -> None:
    menu_bar(editor, state)
    state.view_rect = dock_panels(state.reset_layout)
    state.reset_layout = False
    if state.focus is not None:  # View > Show: bring a docked panel's tab forward
        imgui.set_window_focus(state.focus)
        state.focus = None
    unsaved_dialog(editor, state)
    restore_dialog(editor)
    draw_tools(editor, state.tools, size)
    scene_panel(editor)
    inspector(editor)
    results_panel(editor, size)
    path_hits_panel(editor)
    advancement_panel(editor)
    queries_panel(editor, state)
    playground_panel(editor, state.playground)
    draw_mesh_panel(editor, size)
    draw_axes_panel(editor, size)
    lesson_panel(editor)  # after the panels its scene brings: an opened lesson's tab stays in front
    if state.show_help:
        shortcuts_panel(state, size)
    path_dialog(editor, state)
    copy_test_dialog(editor, state)
    gizmo_handles(editor, state, size)
    refusal = take_refusal()
    if refusal is not None:
        editor.say(refusal)  # a typed number not applied: say why
    status_line(editor, state)
    if state.show_legend:
        legend(editor, state)
    if state.show_labels:
        labels(editor, state)
    compiling_overlay(editor, size)
    state.modal = imgui.is_popup_open("", imgui.PopupFlags_.any_popup_id | imgui.PopupFlags_.any_popup_level)


def scene_panel(editor: Editor) -> None:
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
            clicked = imgui.selectable(label, scene_object.name in editor.selection)[0]
            remember(f"scene: {scene_object.name}")
            if clicked:
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


def inspector(editor: Editor) -> None:
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
                new: object
                if parameter.type in ("point", "direction"):
                    changed, new = vector_field(parameter.name, value)
                elif parameter.type in ("points", "body points", "frame"):
                    points: list[list[float]] = [list(p) for p in value]
                    changed = False
                    for number, point in enumerate(value):
                        label = f"{'xyz'[number]} axis" if parameter.type == "frame" else f"{parameter.name}[{number}]"
                        edited, points[number] = vector_field(label, point)
                        changed |= edited
                    new = points
                elif parameter.type == "source":
                    changed, new = source_field(parameter.name, value)
                else:
                    changed, new = exact_number_field(parameter.name, value)
                    remember(parameter.name)
                if changed:
                    editor.set_parameter(scene_object.name, parameter.name, new)
        else:
            imgui.text_disabled("select a shape")
        imgui.separator()
        changed, direction = vector_field("direction", scene.direction)
        remember("inspector direction label")
        if changed:
            editor.set_direction(direction)
        turn_fields(editor)
    imgui.end()
