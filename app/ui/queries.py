"""The Queries panel: a query log's queries judged against sweeplab, sortable and
filterable; a click shows one (its engine's answer drawn as a second ghost)."""

from __future__ import annotations

from imgui_bundle import imgui

from sweeplab.editor import Editor
from sweeplab.ui.state import PanelState

COLUMNS = ("line", "id", "pair", "kind", "engine says", "sweeplab says", "detail")
DIFFERS = (1.0, 0.35, 0.3, 1.0)


def _said(verdict) -> tuple[str, str]:
    answer, ours = verdict.query.answer, verdict.ours
    engine = "-" if answer is None else (f"hit, t = {answer.t!r}" if answer.hit else "miss")
    sweeplab = "-" if ours is None else (f"hit, t = {float(ours.t)!r}" if ours.hit else "miss")
    return engine, sweeplab


def _sort_key(column: int):
    def key(verdict):
        engine, sweeplab = _said(verdict)
        scene = verdict.query.scene
        return (verdict.number, verdict.query.id, scene.object("moving").kind + scene.object("target").kind,
                (-verdict.severity, -verdict.size), engine, sweeplab, verdict.detail)[column]
    return key


def queries_panel(editor: Editor, state: PanelState) -> None:
    if editor.queries is None:
        return
    if imgui.begin("Queries"):
        verdicts = editor.queries
        shown = [v for v in verdicts if v.disagrees] if state.disagreements_only else list(verdicts)
        state.disagreements_only = imgui.checkbox("disagreements only", state.disagreements_only)[1]
        imgui.same_line()
        imgui.text(f"{len(shown)} of {len(verdicts)} queries ({verdicts[0].query.engine.name})")
        flags = (imgui.TableFlags_.borders | imgui.TableFlags_.row_bg | imgui.TableFlags_.resizable
                 | imgui.TableFlags_.sortable | imgui.TableFlags_.sizing_fixed_fit | imgui.TableFlags_.scroll_x
                 | imgui.TableFlags_.scroll_y)
        if imgui.begin_table("queries", len(COLUMNS), flags):
            imgui.table_setup_scroll_freeze(1, 1)
            for heading in COLUMNS:
                imgui.table_setup_column(heading)
            imgui.table_headers_row()
            specs = imgui.table_get_sort_specs()
            if specs is not None and specs.specs_count > 0:
                spec = specs.get_specs(0)
                shown.sort(key=_sort_key(spec.column_index),
                           reverse=spec.sort_direction == imgui.SortDirection.descending)
            for verdict in shown:
                imgui.table_next_row()
                engine, sweeplab = _said(verdict)
                scene = verdict.query.scene
                cells = (str(verdict.number), verdict.query.id,
                         f"{scene.object('moving').kind}-{scene.object('target').kind}", verdict.kind, engine, sweeplab,
                         verdict.detail)
                selected = editor.query is verdict
                for column, text in enumerate(cells):
                    imgui.table_set_column_index(column)
                    if verdict.real and column == 3:
                        imgui.push_style_color(imgui.Col_.text, DIFFERS)
                    clicked = imgui.selectable(f"{text}##{verdict.number}.{column}", selected,
                                               imgui.SelectableFlags_.span_all_columns if column == 0 else 0)[0]
                    if verdict.real and column == 3:
                        imgui.pop_style_color()
                    if clicked:
                        editor.show_query(verdict)
            imgui.end_table()
    imgui.end()
