"""The editor's document: what is open, its history and files (open, save, new,
autosave and recovery), fixtures, Copy as test."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from sweeplab.editor.opened import FixtureFile, OpenLesson, Opened, QueryLog, SceneFile
from sweeplab.scene import autosave
from sweeplab.scene.atomic import remove_stale_temporaries
from sweeplab.scene.fixture import (Fixture, FixtureError, is_fixture_file, load_fixture, make_fixture,
                                    pytest_source, save_fixture)
from sweeplab.scene.history import SceneHistory
from sweeplab.scene.model import Scene, SceneError, SceneObject, load, save
from sweeplab.scene.query_log import is_query_log
from sweeplab.scene.shape_kinds import KINDS
from sweeplab.editor.parts import EditorParts

AUTOSAVE_SECONDS = 5.0


class Files(EditorParts):
    """The ``Editor``'s document, owned here: ``history`` (the scene and its undo),
    ``opened`` (what is open: ``editor.opened``), ``saved_state`` (the history state
    last saved or opened), ``restorable`` (an autosave offered back) and the
    autosave's bookkeeping; ``path``, ``fixture``, ``queries``, ``query`` and
    ``lesson`` are read from ``opened``."""

    def _init_files(self, scene: Scene, path: Path | None, clock: Callable[[], float]) -> None:
        self._clock = clock
        self.session = f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
        """Names this editor's untitled autosave (``scene.autosave``)."""
        self.fixture_dialog_requested = False
        self._last_autosave = clock()
        self.history = SceneHistory(scene)
        self.opened: Opened = SceneFile(path)
        self.saved_state = self._autosaved_state = self.history.state_id
        self.restorable: Path | None = _offered_autosave(self.opened)
        """An autosave newer than the open file, offered back until restored or dismissed."""

    def open_document(self, scene: Scene, opened: Opened) -> None:
        """Show ``scene`` as ``opened``: the one place that says what is open.  A new
        history (nothing unsaved), a playground run dropped (its frames were of the
        scene being replaced), the selection on the moving shape, the camera framing
        the scene, and an autosave of a titled scene file newer than it offered back."""
        self.drop_playground()
        self.history = SceneHistory(scene)
        self.opened = opened
        self.saved_state = self._autosaved_state = self.history.state_id
        self.restorable = _offered_autosave(opened)
        self.selected = scene.moving
        self.forget_view()
        self.frame_all()

    @property
    def dirty(self) -> bool:
        """Unsaved changes: the scene differs from the one last saved or opened (undo
        back to it is clean again)."""
        return self.history.state_id != self.saved_state

    # --- what is open, read from ``opened`` ----------------------------------

    @property
    def path(self) -> Path | None:
        """Where Save writes: the open scene file's path (None when untitled, and for
        anything that is not a scene file)."""
        return self.opened.path if isinstance(self.opened, SceneFile) else None

    @property
    def fixture(self) -> Fixture | None:
        """The open fixture (its expected answers), if a fixture is open."""
        return self.opened.fixture if isinstance(self.opened, FixtureFile) else None

    @property
    def queries(self) -> tuple | None:
        """The open query log's verdicts in log order, if a query log is open."""
        return self.opened.verdicts if isinstance(self.opened, QueryLog) else None

    @property
    def query(self):
        """The query log's query shown as the scene, if a query log is open."""
        return self.opened.shown if isinstance(self.opened, QueryLog) else None

    @property
    def lesson(self):
        """The open lesson, if one is open."""
        return self.opened.lesson if isinstance(self.opened, OpenLesson) else None

    @property
    def lesson_step(self) -> int:
        """The open lesson's step shown (0 with no lesson open)."""
        return self.opened.step if isinstance(self.opened, OpenLesson) else 0

    def take_fixture_dialog_request(self) -> bool:
        """Whether Save as fixture was asked for since the last call (the panels open
        the dialog once)."""
        requested, self.fixture_dialog_requested = self.fixture_dialog_requested, False
        return requested

    def request_fixture_dialog(self) -> None:
        self.fixture_dialog_requested = True

    def save_fixture(self, directory, name: str, *, note: str = "", source: str = "current",
                     known_failing: str | None = None, typed: dict | None = None, precision: str = "float64",
                     overwrite: bool = False) -> Path | None:
        """Write the current configuration as ``directory/name.json``; None (and a
        message) when it cannot, e.g. the file exists and ``overwrite`` is False."""
        try:
            fixture = make_fixture(self.scene, source=source, note=note, known_failing=known_failing or None,
                                   typed=typed, precision=precision)
            path = save_fixture(fixture, directory, name, overwrite=overwrite)
        except (FileExistsError, ValueError, FixtureError, OSError) as error:
            self.say(str(error))
            return None
        self.say(f"saved fixture {path}")
        return path

    def copy_as_test(self, language: str, function: str, precision: str = "float64") -> str | None:
        """The scene as tests in ``language`` ("C++" or "Rust", ``scene.foreign_tests``)
        calling ``function``, in ``precision`` ("float64" or "float32"); None, and a
        message, when it cannot be."""
        from sweeplab.scene.foreign_tests import cpp_source, rust_source

        if not function.isidentifier():
            self.say(f"the function name must be an identifier, got {function!r}")
            return None
        try:
            return (cpp_source if language == "C++" else rust_source)(self.scene, function, precision)
        except FixtureError as error:
            self.say(f"cannot copy as a {language} test: {error}")
            return None

    def copy_as_pytest(self) -> str | None:
        """The scene as a pytest function (``fixture.pytest_source``); None, and a
        message, when it has none (no moving shape)."""
        try:
            return pytest_source(self.scene)
        except FixtureError as error:
            self.say(f"cannot copy as pytest: {error}")
            return None

    def save(self, path: Path | str | None = None) -> bool:
        path = Path(path) if path is not None else self.path
        if path is None:
            self.say("choose a file name (File > Save as)")
            return False
        try:
            save(self.scene, path)
        except (OSError, SceneError) as error:
            self.say(f"could not save {path}: {_reason(error)}")
            return False
        autosave.remove(self.path, self.session)
        autosave.remove(path, self.session)
        self.opened, self.saved_state = SceneFile(path), self.history.state_id
        self.restorable = None
        self.say(f"saved {path}")
        return True

    def open(self, path: Path | str, untitled: bool = False) -> bool:
        """Open a scene, fixture or query log file; on any problem keep what is open and
        say why.  A fixture opens with its expected answers shown beside the actual ones;
        a scene opened ``untitled`` (a bundled example) has no path, so Save never
        writes into the installed package; a query log opens its queries
        (``editor.queries``).  Temporaries a killed save of the file left are removed
        (``atomic.remove_stale_temporaries``)."""
        path = Path(path)
        if is_query_log(path):
            return self.open_query_log(path)
        remove_stale_temporaries(path)
        try:
            if is_fixture_file(path):
                fixture = load_fixture(path)
                self.open_document(fixture.scene, FixtureFile(path, fixture))
            else:
                self.open_document(load(path), SceneFile(None if untitled else path))
        except (SceneError, FixtureError) as error:
            self.say(str(error))
            return False
        self.say(f"opened {path}")
        return True

    def new(self) -> None:
        """An untitled scene: one sphere, moving along x."""
        scene = Scene(objects=[SceneObject("ball", "sphere", dict(KINDS["sphere"].defaults))], moving="ball",
                      direction=[4.0, 0.0, 0.0])
        self.open_document(scene, SceneFile(None))
        self.say("new scene")

    def restore_autosave(self) -> bool:
        """Take the offered autosave's scene as an edit of the open file (undo goes back
        to the file; Save writes it)."""
        if self.restorable is None:
            return False
        try:
            restored = load(self.restorable)
        except SceneError as error:
            self.say(str(error))
            return False
        self.history.commit(restored)
        self.say(f"restored {self.restorable}")
        self.restorable = None
        return True

    def dismiss_autosave(self) -> None:
        """Keep the file as it is; the autosave stays on disk until the next save."""
        self.restorable = None

    def recover(self, autosave_file: Path) -> bool:
        """Open an untitled session's autosave as an untitled scene (File > Recover)."""
        try:
            scene = load(autosave_file)
        except SceneError as error:
            self.say(str(error))
            return False
        self.open_document(scene, SceneFile(None))
        self.saved_state = -1  # recovered work is unsaved until saved somewhere
        self.say(f"recovered {autosave_file}")
        return True

    def discard_changes(self) -> None:
        """The user threw the unsaved changes away: forget this scene's autosaves (an
        edit after this autosaves again)."""
        autosave.remove(self.path, self.session)
        self._autosaved_state = -1

    def autosave(self, force: bool = False) -> Path | None:
        """Write the autosave when there are unsaved edits and it is due (``force``:
        now, as the window closes).  Beside the file, else in the user cache; a
        message says where when that is not beside the file, or that it failed."""
        now = self._clock()
        if not self.dirty or self._autosaved_state == self.history.state_id:
            return None
        if not force and now - self._last_autosave < AUTOSAVE_SECONDS:
            return None
        try:
            target = autosave.write(self.scene, self.path, self.session)
        except (OSError, SceneError) as error:
            self.say(f"autosave failed: {_reason(error)}")
            return None
        self._last_autosave, self._autosaved_state = now, self.history.state_id
        if self.path is not None and target != autosave.beside(self.path):
            self.say(f"{self.path.parent} is not writable: autosaved to {target}")
        return target


def _offered_autosave(opened: Opened) -> Path | None:
    """An autosave newer than a titled scene file, to offer back (nothing else has one)."""
    path = opened.path if isinstance(opened, SceneFile) else None
    return autosave.newer_than_file(path) if path is not None else None


def _reason(error: OSError | SceneError) -> str:
    """Why a save failed, in a few words (an OSError's own text repeats the path)."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)
