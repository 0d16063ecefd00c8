"""A query log in the editor: the queries judged, one shown at a time, with the
engine's answer drawn beside sweeplab's.

File > Open of a log (``scene.query_log``) judges every query against sweeplab
(``engines.triage``, without the second opinion: a log may hold thousands) and
shows the worst; the Queries panel picks another.  A query is shown as an untitled
two-shape scene; the engine's answer is drawn (its time-of-impact pose, point and
normal) while the scene is still the query as logged — an edit makes it a new
question, which the engine never answered.
"""

from __future__ import annotations

from pathlib import Path

from sweeplab.editor.opened import QueryLog
from sweeplab.scene.query_log import EngineAnswer, QueryLogError, read_good_lines
from sweeplab.editor.parts import EditorParts


class Queries(EditorParts):
    """Opening a query log and showing one of its queries; the log and the query
    shown are part of what is open (``opened.QueryLog``), owned by ``Files``."""

    def open_query_log(self, path: Path) -> bool:
        from sweeplab.engines.triage import triage

        try:
            reading = read_good_lines(path)
        except QueryLogError as error:
            self.say(str(error))
            return False
        verdicts = triage(reading.queries, reference=False, numbers=reading.lines)
        in_log_order = tuple(sorted(verdicts, key=lambda verdict: verdict.number))
        self._show(QueryLog(Path(path), in_log_order, verdicts[0]))  # the worst
        real = sum(verdict.real for verdict in verdicts)
        effects = sum(verdict.disagrees and not verdict.real for verdict in verdicts)
        self.say(f"opened {path}: {len(verdicts)} queries, {real} disagree, {effects} tolerance effects (grazes, "
                 "conventions)"
                 + _counted("skipped ", reading.bad_lines, "bad line") + _counted("", reading.warnings, "warning"))
        return True

    def show_query(self, verdict) -> None:
        """Show another query of the open log as the scene (untitled)."""
        if isinstance(self.opened, QueryLog):
            self._show(QueryLog(self.opened.path, self.opened.verdicts, verdict))

    def _show(self, log: QueryLog) -> None:
        self.open_document(log.shown.query.scene.copy(), log)

    @property
    def engine_answer(self) -> tuple[str, EngineAnswer] | None:
        """(engine name, its answer) to draw, while the scene is the query as logged
        (no edit since it was shown: the history's first state)."""
        if not isinstance(self.opened, QueryLog) or self.history.state_id != self.saved_state:
            return None
        query = self.opened.shown.query
        return None if query.answer is None else (query.engine.name, query.answer)


def _counted(verb: str, messages: list[str], noun: str) -> str:
    """``"; skipped 2 bad lines (first: …)"``: how many, and the first message; ``""``
    for none."""
    if not messages:
        return ""
    return f"; {verb}{len(messages)} {noun}{'s' if len(messages) > 1 else ''} (first: {messages[0]})"
