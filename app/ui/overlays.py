"""What is drawn over the 3D view: the legend, shape names, the status line, the
compiling progress; and the Shortcuts panel."""

from __future__ import annotations

import numpy as np
from imgui_bundle import imgui

from sweeplab.editor import Editor
from sweeplab.scene.shape_kinds import KINDS
from sweeplab.ui.commands import COMMANDS, GESTURES
from sweeplab.ui.drawn import remember, remember_rect
from sweeplab.ui.state import PanelState
from sweeplab.view import model as view_model


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
    imgui.set_next_window_pos((size[0] / 2 - 235, 28), imgui.Cond_.first_use_ever)
    imgui.set_next_window_size((470, 420), imgui.Cond_.first_use_ever)
    opened, state.show_help = imgui.begin("Shortcuts", state.show_help)
    if opened:
        rows = [(command.key_label(), f"{command.menu}: {command.label}") for command in COMMANDS if command.keys]
        for keys, description in rows + list(GESTURES):
            imgui.text(keys)
            remember(f"shortcut {description} keys")
            imgui.same_line(200)
            imgui.text_disabled(description)
            remember(f"shortcut {description}")
    imgui.end()

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
    (view_model.ENGINE, "another engine's answer"),
    (view_model.SLIDE, "collide and slide (lesson 8)"),
)


def legend(state: PanelState) -> None:
    """The colours of the 3D view, in a corner of it."""
    x, y, width, height = state.view_rect
    imgui.set_next_window_pos((x + width - 6, y + height - 6), imgui.Cond_.always, (1.0, 1.0))
    imgui.set_next_window_bg_alpha(0.6)
    flags = (imgui.WindowFlags_.no_decoration | imgui.WindowFlags_.always_auto_resize | imgui.WindowFlags_.no_docking
             | imgui.WindowFlags_.no_focus_on_appearing | imgui.WindowFlags_.no_nav | imgui.WindowFlags_.no_inputs)
    if imgui.begin("##legend", None, flags)[0] and imgui.begin_table("##legend columns", 2):
        low, size = imgui.get_window_pos(), imgui.get_window_size()
        remember_rect("legend", (low.x, low.y, low.x + size.x, low.y + size.y), (x, y, x + width, y + height))
        for color, meaning in LEGEND:
            imgui.table_next_column()
            imgui.color_button(f"##{meaning}", (*color[:3], 1.0), imgui.ColorEditFlags_.no_tooltip, (10, 10))
            imgui.same_line()
            imgui.text(meaning)
        imgui.end_table()
    imgui.end()


def labels(editor: Editor, state: PanelState) -> None:
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


def status_line(editor: Editor, state: PanelState) -> None:
    """The file name (``*`` when unsaved) and the last message, along the top of the
    3D view."""
    x, y, _, _ = state.view_rect
    name = editor.path.name if editor.path else "untitled"
    text = f"{name}{' *' if editor.dirty else ''}   {editor.message}"
    imgui.get_background_draw_list().add_text((x + 8, y + 6), imgui.get_color_u32((1, 1, 1, 0.8)), text)
