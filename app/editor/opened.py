"""What the editor has open: one value, set in one place (``Files.open_document``).

The editor shows one document at a time, and what else it shows depends on which:
a fixture's expected answers, a query log's verdicts and the engine's answer, a
lesson's steps.  Each kind is one variant here, so "which is open" can never be
two things at once (a lesson left stepping a scene that File > Open replaced, a
fixture's expectations checked against a query).  ``Files.open_document`` is the
only place that sets it: it also replaces the history, stops a playground run and
works out whether an autosave is offered back.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sweeplab.scene.fixture import Fixture
from sweeplab.view.exercises import Verdict as ExerciseVerdict
from sweeplab.view.lessons import Lesson

if TYPE_CHECKING:  # engines are imported only when a query log is opened
    from sweeplab.engines.triage import Verdict


@dataclass(frozen=True)
class SceneFile:
    """A scene; ``path`` None when untitled (File > New, a recovered autosave, a bundled
    example: Save then asks for a name and never writes into the installed package)."""

    path: Path | None


@dataclass(frozen=True)
class FixtureFile:
    """A fixture: its scene with the expected answers shown beside the actual ones.  It
    has no scene path, so Save never writes a scene over the fixture."""

    path: Path
    fixture: Fixture


@dataclass(frozen=True)
class QueryLog:
    """A query log: every query judged (``verdicts``, in log order) and the one shown
    as the scene (``shown``)."""

    path: Path
    verdicts: tuple[Verdict, ...]
    shown: Verdict


@dataclass
class OpenLesson:
    """A lesson: its scene, untitled, the step shown, and the last verdict of its
    exercise with the history revision it was judged at (the parts that change while
    it stays open)."""

    lesson: Lesson
    step: int = 0
    verdict: tuple[int, ExerciseVerdict] | None = None


Opened = SceneFile | FixtureFile | QueryLog | OpenLesson
