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

from sweeplab.scene.query_log import EngineAnswer, QueryLogError, read_log


class Queries:
    """The ``Editor``'s open query log (``queries``: verdicts in log order) and the
    query shown (``query``, with the history state it was loaded as)."""

    def open_query_log(self, path: Path) -> bool:
        from sweeplab.engines.triage import triage

        try:
            queries = read_log(path)
        except QueryLogError as error:
            self.message = str(error)
            return False
        verdicts = triage(queries, reference=False)
        self.queries = sorted(verdicts, key=lambda verdict: verdict.number)
        self.show_query(verdicts[0])  # the worst
        disagreeing = sum(verdict.disagrees for verdict in verdicts)
        self.message = f"opened {path}: {len(verdicts)} queries, {disagreeing} disagree"
        return True

    def show_query(self, verdict) -> None:
        """Load one judged query as the scene (untitled)."""
        self._replace_scene(verdict.query.scene.copy(), None)
        self.fixture, self.restorable = None, None
        self.query, self._query_state = verdict, self.history.state_id

    @property
    def engine_answer(self) -> tuple[str, EngineAnswer] | None:
        """(engine name, its answer) to draw, while the scene is the query as logged."""
        if self.query is None or self.query.query.answer is None or self.history.state_id != self._query_state:
            return None
        return self.query.query.engine.name, self.query.query.answer
