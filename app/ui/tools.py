"""Panels of the precision tools: fixtures (save dialog, expected vs actual),
nudging by ulps, and perturbation scans plotted with ImPlot."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from imgui_bundle import imgui, implot

from sweeplab.editor import Editor
from sweeplab.ui.drawn import remember
from sweeplab.ui.fit import WHOLE_COLUMNS, button_room, fill_row, label_room
from sweeplab.ui.fields import exact_number_field
from sweeplab.scene.fixture import PRECISIONS, SOURCES, Fixture, FixtureReport
from sweeplab.scene.number_text import parse_number
from sweeplab.view.scan import DIRECTION, ScanJob, ScanResult, ScanSpec, parameter_choices

RED = (1.0, 0.35, 0.3, 1.0)
GREEN = (0.4, 0.9, 0.45, 1.0)
DEFAULT_FIXTURE_DIRECTORY = "tests/fixtures"


class ToolState:
    """What the tool panels remember between frames."""

    def __init__(self):
        self.fixture_open = False
        self.fixture_name, self.fixture_note = "", ""
        self.fixture_directory = DEFAULT_FIXTURE_DIRECTORY
        self.source, self.precision = 0, 0
        self.known_failing, self.failing_reason, self.overwrite = False, "", False
        self.typed_hit: dict[str, bool] = {}
        self.typed_t: dict[str, str] = {}
        self.scan_target, self.scan_varied, self.scan_parameter = 0, 0, 0
        self.scan_epsilon, self.scan_steps = 1e-9, 1000
        self.scan: ScanResult | None = None
        self.scan_job: ScanJob | None = None  # a scan running (the window draws its progress)
        self.scan_history: object = None  # the editor history the scan was made in


def draw_tools(editor: Editor, state: ToolState, size: tuple[int, int]) -> None:
    if editor.take_fixture_dialog_request():
        editor.say("")
        state.fixture_open = True
        state.typed_hit = {r.name: bool(r.result is not None and r.result.hit) for r in editor.view().reports}
    _fixture_dialog(editor, state)
    if editor.fixture is not None:
        _fixture_panel(editor, editor.fixture, size)
    _nudge_panel(editor, size)
    _scan_panel(editor, state, size)


def _fixture_dialog(editor: Editor, state: ToolState) -> None:
    if not state.fixture_open:
        return
    imgui.open_popup("Save as fixture")
    if not imgui.begin_popup_modal("Save as fixture", None, imgui.WindowFlags_.always_auto_resize)[0]:
        return
    imgui.set_next_item_width(360)
    state.fixture_directory = imgui.input_text("folder", state.fixture_directory)[1]
    imgui.set_next_item_width(360)
    state.fixture_name = imgui.input_text("name", state.fixture_name)[1]
    imgui.set_next_item_width(360)
    state.fixture_note = imgui.input_text("note (what goes wrong)", state.fixture_note)[1]
    imgui.text("expected values from:")
    for number, source in enumerate(SOURCES):
        imgui.same_line()
        if imgui.radio_button(source, state.source == number):
            state.source = number
    if SOURCES[state.source] == "typed":
        for report in editor.view().reports:
            imgui.push_id(report.name)
            state.typed_hit[report.name] = imgui.checkbox("must hit", state.typed_hit.get(report.name, False))[1]
            imgui.same_line()
            imgui.set_next_item_width(160)
            state.typed_t[report.name] = imgui.input_text("t (optional)", state.typed_t.get(report.name, ""))[1]
            imgui.same_line()
            imgui.text(report.name)
            imgui.pop_id()
    imgui.text("precision:")
    for number, precision in enumerate(PRECISIONS):
        imgui.same_line()
        if imgui.radio_button(precision, state.precision == number):
            state.precision = number
    state.known_failing = imgui.checkbox("known failing (runs as a strict expected failure)", state.known_failing)[1]
    if state.known_failing:
        imgui.set_next_item_width(360)
        state.failing_reason = imgui.input_text("reason", state.failing_reason)[1]
    exists = bool(state.fixture_name) and (Path(state.fixture_directory) / f"{state.fixture_name}.json").exists()
    if exists:
        imgui.text_colored(RED, "a fixture of that name exists")
        state.overwrite = imgui.checkbox("overwrite it", state.overwrite)[1]
    if imgui.button("Save") and (not exists or state.overwrite):
        _save_fixture(editor, state)
    if cancel_and_message(editor):
        state.fixture_open = False


def _save_fixture(editor: Editor, state: ToolState) -> None:
    """Save as the dialog says, and close it; a typed t that is no number is said, and
    nothing is saved."""
    try:
        typed = _typed(state) if SOURCES[state.source] == "typed" else None
    except ValueError as error:
        editor.say(f"not saved: {error}")
        return
    saved = editor.save_fixture(state.fixture_directory, state.fixture_name, note=state.fixture_note,
                                source=SOURCES[state.source], typed=typed,
                                known_failing=state.failing_reason if state.known_failing else None,
                                precision=list(PRECISIONS)[state.precision], overwrite=state.overwrite)
    if saved is not None:
        state.fixture_open = state.overwrite = False
        imgui.close_current_popup()


def cancel_and_message(editor: Editor) -> bool:
    """The end of a modal dialog: a Cancel button, also Escape (True when pressed,
    the popup closed) and the editor's last message; ends the popup."""
    imgui.same_line()
    cancelled = imgui.button("Cancel") or imgui.is_key_pressed(imgui.Key.escape)
    if cancelled:
        imgui.close_current_popup()
    if editor.message:
        imgui.text_wrapped(editor.message)
    imgui.end_popup()
    return cancelled


def _typed(state: ToolState) -> dict:
    """The typed expected answers by target: hit, and t where one is typed for a hit
    (read by ``parse_number``); ``ValueError`` naming the target for a t that is no
    finite number (a fixture must not check less than was typed)."""
    typed: dict[str, dict[str, bool | float]] = {}
    for name, hit in state.typed_hit.items():
        typed[name] = {"hit": hit}
        text = state.typed_t.get(name, "")
        if hit and text.strip():
            typed[name]["t"] = parse_number(text, f"expected t of {name}")
    return typed


def _fixture_panel(editor: Editor, fixture: Fixture, size: tuple[int, int]) -> None:
    imgui.set_next_window_pos((8, size[1] - 208), imgui.Cond_.first_use_ever)
    imgui.set_next_window_size((616, 176), imgui.Cond_.first_use_ever)
    if imgui.begin("Fixture: expected vs actual"):
        report = editor.fixture_report()
        imgui.text_wrapped(fixture.note or "(no note)")
        if fixture.known_failing:
            imgui.text_colored(RED, f"known failing: {fixture.known_failing}")
        if report is None:  # its kernels are compiling and it is too large to check as Python meanwhile
            imgui.text_disabled("checked once its kernels are compiled")
        else:
            _fixture_checks(editor, report)
    imgui.end()


def _fixture_checks(editor: Editor, report: FixtureReport) -> None:
    """The fixture's verdict and each check, expected against actual (a click copies a cell)."""
    imgui.text_colored(GREEN if report.passed else RED, "passes" if report.passed else "FAILS")
    if imgui.begin_table("checks", 5, WHOLE_COLUMNS):
        imgui.table_setup_scroll_freeze(2, 1)
        for heading in ("target", "field", "expected", "actual", "tolerance"):
            imgui.table_setup_column(heading)
        imgui.table_headers_row()
        for number, check in enumerate(report.checks):
            imgui.table_next_row()
            cells = (check.target, check.field, _whole(check.expected), _whole(check.actual),
                     "" if check.tolerance is None else repr(check.tolerance))
            for column, cell in enumerate(cells):
                imgui.table_set_column_index(column)
                if not check.passed:
                    imgui.push_style_color(imgui.Col_.text, RED)
                if imgui.selectable(f"{cell}##{number}.{column}", False)[0] and cell:
                    imgui.set_clipboard_text(cell)
                    editor.say(f"copied {cell}")
                if not check.passed:
                    imgui.pop_style_color()
        imgui.end_table()
    for error in report.errors:
        imgui.text_colored(RED, error)


def _whole(value) -> str:
    """A checked value in full: each float's shortest round-trip text."""
    if value is None or isinstance(value, bool):
        return str(value)
    if np.ndim(value):
        return ", ".join(repr(float(v)) for v in np.ravel(value))
    return repr(float(value)) if isinstance(value, float) else str(value)


def _nudge_panel(editor: Editor, size: tuple[int, int]) -> None:
    imgui.set_next_window_pos((8, 484), imgui.Cond_.first_use_ever)
    imgui.set_next_window_size((330, 100), imgui.Cond_.first_use_ever)
    if imgui.begin("Nudge"):
        for axis, name in enumerate("xyz"):
            if imgui.radio_button(name, editor.nudge_axis == axis):
                editor.set_nudge_axis(axis)
            imgui.same_line()
        if imgui.button(" - "):
            editor.nudge(-1)
        imgui.same_line()
        if imgui.button(" + "):
            editor.nudge(+1)
        editor.nudge_direction = imgui.checkbox("nudge the direction (N)", editor.nudge_direction)[1]
        editor.nudge_by_ulp = imgui.checkbox("by one ulp (U)", editor.nudge_by_ulp)[1]
        if not editor.nudge_by_ulp:
            imgui.same_line()
            imgui.set_next_item_width(120)
            changed, epsilon = exact_number_field("epsilon", editor.nudge_epsilon)
            if changed:
                editor.nudge_epsilon = abs(epsilon)
    imgui.end()


def _scan_panel(editor: Editor, state: ToolState, size: tuple[int, int]) -> None:
    imgui.set_next_window_pos((size[0] - 478, 28), imgui.Cond_.first_use_ever)
    imgui.set_next_window_size((470, 300), imgui.Cond_.first_use_ever)
    imgui.set_next_window_collapsed(True, imgui.Cond_.first_use_ever)  # a tool opened when needed: keep the view clear
    if state.scan_job is not None and state.scan_job.result is not None:  # (taken even while the panel is hidden)
        state.scan, state.scan_job = state.scan_job.result, None
    if imgui.begin("Perturbation scan"):
        scene = editor.scene
        targets = [o.name for o in scene.targets()]
        if state.scan is not None and state.scan_history is not editor.history:
            state.scan = None  # another scene was opened (or New): its plot would mislead
        if scene.moving is None or not targets:
            imgui.text_disabled("needs a moving shape and a target")
            imgui.end()
            return
        state.scan_target = min(state.scan_target, len(targets) - 1)
        state.scan_target = imgui.combo("answer of", state.scan_target, targets)[1]
        varied_names = [scene.moving, targets[state.scan_target], DIRECTION]
        state.scan_varied = imgui.combo("vary", min(state.scan_varied, 2), varied_names)[1]
        choices = parameter_choices(scene, varied_names[state.scan_varied])
        if not choices:
            imgui.text_disabled("a mesh is one shape, not a batch: vary the other one")
            imgui.end()
            return
        state.scan_parameter = min(state.scan_parameter, len(choices) - 1)
        state.scan_parameter = imgui.combo("parameter", state.scan_parameter, [c[2] for c in choices])[1]
        fill_row(label_room("+- epsilon"))
        changed, epsilon = exact_number_field("+- epsilon", state.scan_epsilon)
        remember("scan epsilon")
        if changed:
            state.scan_epsilon = abs(epsilon)
        fill_row(label_room("steps") + button_room("Scan"))
        state.scan_steps = max(2, min(imgui.input_int("steps", state.scan_steps)[1], 100_000))
        remember("scan steps")
        imgui.same_line()
        imgui.begin_disabled(state.scan_job is not None)
        scan = imgui.button("Scan")
        imgui.end_disabled()
        remember("scan button")
        if scan:
            parameter, component, _ = choices[state.scan_parameter]
            spec = ScanSpec(targets[state.scan_target], varied_names[state.scan_varied], parameter, component,
                            state.scan_epsilon, state.scan_steps)
            state.scan_job, state.scan_history = ScanJob(scene, spec), editor.history
        if state.scan_job is not None:
            _scan_progress(state.scan_job)
        if state.scan is not None:
            _scan_plot(state.scan)
    imgui.end()


def _scan_progress(job: ScanJob) -> None:
    """A running scan's lanes done so far."""
    imgui.same_line()
    imgui.progress_bar(job.done / job.total, (-1, 0), f"{job.done} of {job.total} lanes, {job.seconds:.0f} s")
    if job.done == 0:
        imgui.text_disabled("a session's first scan compiles its batch kernel (cached afterwards): "
                            "about a minute on a cold cache")


def _scan_plot(scan: ScanResult) -> None:
    """t of the hits, its axis fitted to them (a graze's curve is never flattened by
    a miss marker), above a row of hit / miss markers on the same offset axis, which
    starts at the whole scan (each new scan is a new plot, so it refits; zoom freely)."""
    if scan.message:
        imgui.text_colored(RED, scan.message)
        return
    hits = int(scan.hit.sum())
    imgui.text(f"{hits} hits, {len(scan.hit) - hits} misses")
    offsets = scan.offsets.astype(np.float64)
    low, high = float(offsets.min()), float(offsets.max())
    flags = implot.SubplotFlags_.link_all_x
    if not implot.begin_subplots(f"##scan{id(scan)}", 2, 1, (-1, -1), flags,
                                 implot.SubplotsRowColRatios([3.0, 1.0], [1.0])):
        return
    if implot.begin_plot("t against the offset"):
        implot.setup_axes("", "t", 0, implot.AxisFlags_.auto_fit)
        implot.setup_axis_limits(implot.ImAxis_.x1, low, high, implot.Cond_.once)
        if hits:
            implot.plot_scatter("hit: t", offsets[scan.hit], scan.t[scan.hit].astype(np.float64))
        implot.end_plot()
    if implot.begin_plot("hit or miss"):
        implot.setup_axes("offset", "")
        implot.setup_axis_limits(implot.ImAxis_.x1, low, high, implot.Cond_.once)
        implot.setup_axis_limits(implot.ImAxis_.y1, -0.5, 1.5, implot.Cond_.always)
        implot.setup_axis_ticks(implot.ImAxis_.y1, [0.0, 1.0], ["miss", "hit"])
        if hits:
            implot.plot_scatter("hit", offsets[scan.hit], np.ones(hits))
        if hits < len(scan.hit):
            implot.plot_scatter("miss", offsets[~scan.hit], np.zeros(len(scan.hit) - hits))
        implot.end_plot()
    implot.end_subplots()
