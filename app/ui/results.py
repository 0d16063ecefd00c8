"""The answers, whole: the Results table and the Hits along the path panel."""

from __future__ import annotations

from imgui_bundle import imgui

from sweeplab.editor import Editor
from sweeplab.engines import ADAPTERS
from sweeplab.engines.compare import REAL
from sweeplab.ui.commands import copy_as_pytest
from sweeplab.ui.drawn import remember
from sweeplab.ui.fit import WHOLE_COLUMNS
from sweeplab.view.reports import TargetReport


DIFFERS = (1.0, 0.35, 0.3, 1.0)


def report_text(report: TargetReport) -> str:
    """Full-precision text of one target's answer (what "Copy" puts on the clipboard)."""
    result = report.result
    others = [f"  {name} says: {engine_cell(found)[0]}" for name, found in report.engines.items()]
    if result is None or not result.hit:
        return "\n".join([f"{report.name}: {report.status}{' (' + report.message + ')' if report.message else ''}",
                          *others])
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
    return "\n".join(lines + others)


RESULT_COLUMNS = ("target", "status", "t", "t in float32", "feature", "face", "normal", "point",
                  "penetration depth", "reference", "note")


def engine_cell(found) -> tuple[str, bool]:
    """Another engine's answer as a results cell, flagged when it disagrees for real
    (``compare.REAL``); a tolerance effect (a graze, a normal convention) is said, not flagged."""
    if found.answer is None:
        return f"cannot: {found.detail}", False
    said = f"hit, t = {found.answer.t!r}" if found.answer.hit else "miss"
    if found.kind in REAL:
        return f"{said}  DISAGREES ({found.kind}): {found.detail}", True
    return (said if found.kind == "agrees" else f"{said}  ({found.kind}, a tolerance effect: {found.detail})"), False


def result_cells(report: TargetReport, engines: tuple[str, ...] = ()) -> list[tuple[str, bool]]:
    """The results table's row of one target: (text, differs) per ``RESULT_COLUMNS``,
    every number whole (``repr``: it round-trips), nothing cut."""
    result, single = report.result, report.single
    hit = result is not None and bool(result.hit)
    cells = [(report.name, False), (report.status, False),
             (repr(float(report.time)) if report.time is not None else "", False)]  # a mesh pair's: the narrowphase's
    if single is not None:
        differs = result is not None and bool(single.hit) != bool(result.hit)
        cells.append((f"{float(single.t)!r}" if single.hit else "miss", differs))
        if differs:
            cells[-1] = (cells[-1][0] + "  (hit differs!)", True)
    else:
        cells.append((report.single_message, bool(report.single_message)))
    if result is not None and hit:
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
    cells += [engine_cell(report.engines[name]) if name in report.engines else ("", False) for name in engines]
    return cells


def headline(view, compilation) -> str:
    """The Results header: the first hit, or "no hit" -- but while any target's answer
    waits for its kernels (``editor.compiling``) it says so instead (a miss is not
    known yet), and names what else is pending and what is compiling."""
    waiting = [report.name for report in view.reports if report.status == "pending"]
    first = f"first hit: {view.earliest} at t = {view.time_of_impact!r}" if view.earliest else "no hit"
    if waiting:
        first = (f"pending: {len(waiting)} of {len(view.reports)} answers wait for their kernels"
                 + (f" (first hit so far: {view.earliest} at t = {view.time_of_impact!r})" if view.earliest else ""))
    elif view.pending:
        first += f"; pending: {', '.join(view.pending)}"
    if (waiting or view.pending) and compilation is not None and not compilation.finished:
        first += f" -- compiling step {min(compilation.done + 1, compilation.total)} of {compilation.total}: " \
                 f"{compilation.step}"
    return first


def results_panel(editor: Editor, size: tuple[int, int]) -> None:
    """Every answer whole: columns as wide as their numbers, always (``fit.WHOLE_COLUMNS``;
    scroll sideways), a click on a cell copies it, "copy" the whole target."""
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
        _engine_toggles(editor)
        first = headline(view, editor.compilation)
        if imgui.selectable(first, False)[0]:
            imgui.set_clipboard_text(first)
        if editor.compilation is not None and not editor.compilation.finished or \
                editor.compilation is not None and editor.compilation.error is not None:
            imgui.text_disabled(editor.compilation.status()[:160])
        engines = editor.mesh_display.engines
        columns = RESULT_COLUMNS + tuple(f"{name} says" for name in engines)
        if imgui.begin_table("results", len(columns) + 1, WHOLE_COLUMNS):
            imgui.table_setup_scroll_freeze(1, 1)
            for heading in columns + ("",):
                imgui.table_setup_column(heading)
            imgui.table_headers_row()
            for report in view.reports:
                imgui.table_next_row()
                imgui.push_id(report.name)
                for column, (text, differs) in enumerate(result_cells(report, engines)):
                    imgui.table_set_column_index(column)
                    if differs:
                        imgui.push_style_color(imgui.Col_.text, DIFFERS)
                    copied = imgui.selectable(f"{text}##{column}", False)[0]
                    remember(f"results {report.name} {columns[column]}", text)
                    if copied and text:
                        imgui.set_clipboard_text(text)
                        editor.say(f"copied {text}")
                    if differs:
                        imgui.pop_style_color()
                imgui.table_set_column_index(len(columns))
                if imgui.small_button("copy"):
                    imgui.set_clipboard_text(report_text(report))
                imgui.pop_id()
            imgui.end_table()
    imgui.end()


def _engine_toggles(editor: Editor) -> None:
    """"Also answer with": each engine adapter, its answers shown as a column (an
    engine whose extra is not installed says so in its cells), on a line of their own
    (beside the buttons, the third engine's fell off a 1280-wide window)."""
    display = editor.mesh_display
    imgui.text_disabled("also answer with:")
    for name in ADAPTERS:
        imgui.same_line()
        changed, on = imgui.checkbox(name, name in display.engines)
        if imgui.is_item_hovered():
            imgui.set_tooltip(f"{name}'s own answer for every target, beside sweeplab's (pip install "
                              f"'sweeplab[{ADAPTERS[name][1]}]')")
        if changed:
            display.engines = tuple(n for n in ADAPTERS if (n == name and on) or (n != name and n in display.engines))


def interval_text(interval) -> str:
    """One contact interval as the Hits panel copies it (full precision)."""
    face = "" if interval.face is None else f" face {interval.face}"
    leave = "still touching at t = 1" if interval.leave is None else f"leaves at t = {interval.leave!r}"
    return f"{interval.target}{face}: enters at t = {interval.enter!r}, {leave}"


def path_hits_panel(editor: Editor) -> None:
    """Every contact along the path, sorted by t: per target, and per triangle of a
    mesh (``view.path_hits``), drawn on the path in the view."""
    if imgui.begin("Hits along the path"):
        display = editor.mesh_display
        display.every_hit = imgui.checkbox("list and draw every contact", display.every_hit)[1]
        view = editor.view()
        intervals = view.intervals
        if display.every_hit and intervals is None:
            imgui.text_disabled("computed once the scene is still")
        elif display.every_hit and intervals is not None:
            if imgui.button("Copy all"):
                imgui.set_clipboard_text("\n".join(interval_text(i) for i in intervals))
            imgui.same_line()
            imgui.text(f"{len(intervals)} contact intervals")
            for reason in view.unlisted:
                imgui.text_disabled(reason)
            if imgui.begin_table("intervals", 4, WHOLE_COLUMNS):
                imgui.table_setup_scroll_freeze(1, 1)
                for heading in ("target", "face", "enters at t", "leaves at t"):
                    imgui.table_setup_column(heading)
                imgui.table_headers_row()
                for number, interval in enumerate(intervals):
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
