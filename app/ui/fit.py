"""Sizes that fit what they show: a row's last widgets end at the panel's edge, and a
table's columns are as wide as their widest cell.

The panels dock in columns a few hundred pixels wide (``ui.layout``), which keep
their width when the window grows, so a row laid out in fixed pixels ran past the
edge (a panel has no sideways scrollbar) and a label or button was cut off.
"""

from __future__ import annotations

from imgui_bundle import imgui

WHOLE_COLUMNS = (imgui.TableFlags_.borders | imgui.TableFlags_.row_bg | imgui.TableFlags_.sizing_fixed_fit
                 | imgui.TableFlags_.scroll_x | imgui.TableFlags_.scroll_y)
"""A table whose columns are always as wide as their widest cell, scrolled sideways
when wider than the panel.  ImGui refits a fixed-fit column every frame only when it
is not resizable: a resizable one kept the width it took for the first scene's
numbers and cut the longer ones that came later ("0." for t)."""


def label_room(label: str) -> float:
    """The width a widget's label takes beside it: the text before any ``##`` and the
    spacing between widget and label."""
    text = label.split("##")[0]
    return imgui.calc_text_size(text).x + imgui.get_style().item_inner_spacing.x if text else 0.0


def button_room(label: str) -> float:
    """The width a button takes on the same row after another widget: its frame and
    the spacing before it."""
    style = imgui.get_style()
    return imgui.calc_text_size(label.split("##")[0]).x + 2 * style.frame_padding.x + style.item_spacing.x


def fill_row(room: float) -> None:
    """Make the next widget as wide as the row leaves once ``room`` pixels are kept for
    what follows it (its label, buttons after it).  (ImGui reads a negative width as
    "up to this far from the right edge"; -FLT_MIN is the whole row.)"""
    imgui.set_next_item_width(-room if room > 0 else -imgui.FLT_MIN)
