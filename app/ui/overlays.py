"""What is drawn over the 3D view: shape names, the status line, the compiling
progress; and the Shortcuts panel.  (The legend: ``ui.legend``.)"""

from __future__ import annotations

import numpy as np
from imgui_bundle import imgui

from sweeplab.editor import Editor
from sweeplab.scene.shape_kinds import KINDS
from sweeplab.ui.commands import COMMANDS, GESTURES
from sweeplab.ui.drawn import remember
from sweeplab.ui.state import PanelState


def compiling_overlay(editor: Editor, size: tuple[int, int]) -> None:
    """While the scene's kernels compile in the background (a cold cache) and some of
    its answers wait for them: what compiles, how far.  (Once every answer is in, the
    Results header alone says the rest still compiles.)"""
    compilation = editor.compilation
    if compilation is None or compilation.finished and compilation.error is None:
        return
    if compilation.error is None and not editor.answers_pending:
        return
    imgui.set_next_window_pos((size[0] / 2, 40), imgui.Cond_.always, (0.5, 0.0))
    imgui.set_next_window_bg_alpha(0.85)
    flags = imgui.WindowFlags_.no_decoration | imgui.WindowFlags_.always_auto_resize | imgui.WindowFlags_.no_inputs
    if imgui.begin("##compiling", None, flags)[0]:
        if compilation.error is not None:
            imgui.text_colored((1.0, 0.5, 0.4, 1.0), f"compiling failed: {compilation.error}")
        else:
            imgui.text("First run: compiling the physics kernels in the background (cached afterwards; "
                       "'sweeplab warmup' does it ahead).  Quick answers run as Python meanwhile.")
            imgui.text_disabled(compilation.status()[:110])
            imgui.progress_bar(compilation.done / compilation.total, (480, 0),
                               f"step {min(compilation.done + 1, compilation.total)} of {compilation.total}")
    imgui.end()


def shortcuts_panel(state: PanelState, size: tuple[int, int]) -> None:
    """Every key chord and mouse gesture (F1): a window as large as its two columns, so
    no description is cut (it was 470 pixels wide, its longest row 780)."""
    imgui.set_next_window_pos((size[0] / 2, 28), imgui.Cond_.first_use_ever, (0.5, 0.0))
    opened, show_help = imgui.begin("Shortcuts", state.show_help, imgui.WindowFlags_.always_auto_resize)
    state.show_help = bool(show_help)
    if opened and imgui.begin_table("shortcuts", 2, imgui.TableFlags_.sizing_fixed_fit):
        rows = [(command.key_label(), f"{command.menu}: {command.label}") for command in COMMANDS if command.keys]
        for keys, description in rows + list(GESTURES):
            imgui.table_next_column()
            imgui.text(keys)
            remember(f"shortcut {description} keys")
            imgui.table_next_column()
            imgui.text_disabled(description)
            remember(f"shortcut {description}")
        imgui.end_table()
    imgui.end()

def labels(editor: Editor, state: PanelState) -> None:
    """Each shape's name beside it in the 3D view (View > Target names)."""
    x, y, width, height = state.view_rect
    scene = editor.scene
    if not scene.objects:
        return
    anchors = np.array([KINDS[o.kind].pivot(o.params) for o in scene.objects], float)
    pixels = editor.camera.project(anchors, (width, height), ahead_only=True) + (x, y)
    draw_list = imgui.get_background_draw_list()
    for scene_object, (px, py) in zip(scene.objects, pixels, strict=True):
        if not (x <= px < x + width and y <= py < y + height):
            continue  # outside the view, or behind the camera (NaN)
        name = scene_object.name + (" (moving)" if scene_object.name == scene.moving else "")
        draw_list.add_text((px + 9, py - 17), imgui.get_color_u32((0, 0, 0, 0.8)), name)
        draw_list.add_text((px + 8, py - 18), imgui.get_color_u32((1, 1, 1, 0.95)), name)


def status_line(editor: Editor, state: PanelState) -> None:
    """The file name (``*`` when unsaved) and the last message, along the top of the
    3D view."""
    x, y, _, _ = state.view_rect
    name = editor.path.name if editor.path else "untitled"
    text = f"{name}{' *' if editor.dirty else ''}   {editor.message}"
    imgui.get_background_draw_list().add_text((x + 8, y + 6), imgui.get_color_u32((1, 1, 1, 0.8)), text)
