"""The "Conservative advancement" panel: a turning sweep's iterations against the
selected target (else the earliest hit, else the first) — a table of t, distance,
speed bound and advance, a plot of distance (log scale) and t against iteration,
and a slider that draws the moving shape at an iteration's t (``Editor.advancement``,
``view.advancement``).  A scene that does not turn is said to have no iterations."""

from __future__ import annotations

import numpy as np
from imgui_bundle import imgui, implot

from sweeplab.editor import Editor
from sweeplab.ui.drawn import remember
from sweeplab.ui.fit import WHOLE_COLUMNS
from sweeplab.view.advancement import AdvancementReport

COLUMNS = ("iteration", "t", "distance", "bound", "advance")

SLIDER = "iteration"

TABLE_HEIGHT = 150.0
"""Pixels of the iteration table (scrolled past that), leaving the plot its room."""


def advancement_panel(editor: Editor) -> None:
    if imgui.begin("Conservative advancement"):
        advancement_contents(editor)
    imgui.end()


def advancement_contents(editor: Editor) -> None:
    """The panel's contents (also lesson 10's picture): the iterations, or why there
    are none."""
    report = editor.advancement()
    if isinstance(report, str):
        imgui.text_wrapped(report)
        remember("advancement says")
    else:
        _iterations(editor, report)


def _iterations(editor: Editor, report: AdvancementReport) -> None:
    steps = report.steps
    imgui.text(f"against {report.target}")
    imgui.text_wrapped(report.explanation)
    remember("advancement says")
    if not steps:
        return
    shown = editor.advancement_step
    imgui.set_next_item_width(imgui.get_content_region_avail().x - imgui.calc_text_size(SLIDER).x
                              - imgui.get_style().item_inner_spacing.x)
    changed, index = imgui.slider_int(SLIDER, -1 if shown is None else min(shown, len(steps) - 1),
                                      -1, len(steps) - 1, "no pose" if shown is None else "pose at %d")
    remember("advancement slider")
    if changed:
        editor.show_advancement_step(None if index < 0 else index)
    if imgui.begin_table("iterations", len(COLUMNS), WHOLE_COLUMNS, (0.0, TABLE_HEIGHT)):
        imgui.table_setup_scroll_freeze(0, 1)
        for heading in COLUMNS:
            imgui.table_setup_column(heading)
        imgui.table_headers_row()
        for number, step in enumerate(steps):
            imgui.table_next_row()
            for column, text in enumerate((str(number), *(repr(float(value)) for value in step[:4]))):
                imgui.table_set_column_index(column)
                imgui.text(text)
        imgui.end_table()
    iterations = np.arange(len(steps), dtype=float)
    distances = np.array([step.distance for step in steps], float)
    if implot.begin_plot("##advancement", (-1, -1)):
        implot.setup_axes("iteration", "distance")
        implot.setup_axis_scale(implot.ImAxis_.y1, implot.Scale_.log10)
        implot.setup_axis(implot.ImAxis_.y2, "t", implot.AxisFlags_.aux_default)
        implot.setup_axis_limits(implot.ImAxis_.y2, 0.0, 1.0)
        positive = distances > 0  # a log axis shows no zero (the last, touching iteration)
        if positive.any():
            implot.plot_line("distance", iterations[positive], distances[positive])
        implot.set_axes(implot.ImAxis_.x1, implot.ImAxis_.y2)
        implot.plot_line("t", iterations, np.array([step.t for step in steps], float))
        implot.end_plot()
