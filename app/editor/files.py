"""The scene's files: open, save, new, autosave and recovery, fixtures, Copy as pytest."""

from __future__ import annotations

from pathlib import Path

from sweeplab.scene import autosave
from sweeplab.scene.atomic import remove_stale_temporaries
from sweeplab.scene.fixture import (FixtureError, is_fixture_file, load_fixture, make_fixture, pytest_source,
                                    save_fixture)
from sweeplab.scene.history import SceneHistory
from sweeplab.scene.model import Scene, SceneError, SceneObject, load, save
from sweeplab.scene.query_log import is_query_log
from sweeplab.scene.shape_kinds import KINDS

AUTOSAVE_SECONDS = 5.0


class Files:
    """The ``Editor``'s document: ``path``, what was saved (``saved_state``), the autosave,
    an open fixture."""

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
            self.message = str(error)
            return None
        self.message = f"saved fixture {path}"
        return path

    def copy_as_test(self, language: str, function: str) -> str | None:
        """The scene as tests in ``language`` ("C++" or "Rust", ``scene.foreign_tests``)
        calling ``function``; None, and a message, when it cannot be."""
        from sweeplab.scene.foreign_tests import cpp_source, rust_source

        if not function.isidentifier():
            self.message = f"the function name must be an identifier, got {function!r}"
            return None
        try:
            return (cpp_source if language == "C++" else rust_source)(self.scene, function)
        except FixtureError as error:
            self.message = f"cannot copy as a {language} test: {error}"
            return None

    def copy_as_pytest(self) -> str | None:
        """The scene as a pytest function (``fixture.pytest_source``); None, and a
        message, when it has none (no moving shape)."""
        try:
            return pytest_source(self.scene)
        except FixtureError as error:
            self.message = f"cannot copy as pytest: {error}"
            return None

    def save(self, path: Path | None = None) -> bool:
        path = Path(path) if path is not None else self.path
        if path is None:
            self.message = "choose a file name (File > Save as)"
            return False
        try:
            save(self.scene, path)
        except (OSError, SceneError) as error:
            self.message = f"could not save {path}: {_reason(error)}"
            return False
        autosave.remove(self.path, self.session)
        autosave.remove(path, self.session)
        self.path, self.saved_state = path, self.history.state_id
        self.restorable = None
        self.message = f"saved {path}"
        return True

    def open(self, path: Path, untitled: bool = False) -> bool:
        """Open a scene or fixture file; on any problem keep the current scene and say why.
        A fixture opens with its expected answers shown beside the actual ones (and no
        scene path, so that Save never writes a scene over the fixture); so does a scene
        opened ``untitled`` (a bundled example: Save never writes into the installed
        package).  An autosave of the file newer than it is offered back (``restorable``).
        A query log opens its queries (``editor.queries``).  Temporaries a killed save of
        the file left are removed (``atomic.remove_stale_temporaries``)."""
        if is_query_log(path):
            return self.open_query_log(Path(path))
        remove_stale_temporaries(path)
        try:
            fixture = load_fixture(path) if is_fixture_file(path) else None
            scene = fixture.scene if fixture is not None else load(path)
        except (SceneError, FixtureError) as error:
            self.message = str(error)
            return False
        titled = fixture is None and not untitled
        self._replace_scene(scene, Path(path) if titled else None)
        self.fixture, self.queries, self.query = fixture, None, None
        self.restorable = autosave.newer_than_file(path) if titled else None
        self.message = f"opened {path}"
        return True

    def new(self) -> None:
        """An untitled scene: one sphere, moving along x."""
        scene = Scene(objects=[SceneObject("ball", "sphere", dict(KINDS["sphere"].defaults))], moving="ball",
                      direction=[4.0, 0.0, 0.0])
        self._replace_scene(scene, None)
        self.fixture, self.restorable, self.queries, self.query = None, None, None, None
        self.message = "new scene"

    def _replace_scene(self, scene: Scene, path: Path | None) -> None:
        self.history = SceneHistory(scene)
        self.path = path
        self.saved_state = self._autosaved_state = self.history.state_id
        self.selected = scene.moving
        self._view_key = None
        self.frame_all()

    def restore_autosave(self) -> bool:
        """Take the offered autosave's scene as an edit of the open file (undo goes back
        to the file; Save writes it)."""
        if self.restorable is None:
            return False
        try:
            restored = load(self.restorable)
        except SceneError as error:
            self.message = str(error)
            return False
        self.history.commit(restored)
        self.message, self.restorable = f"restored {self.restorable}", None
        return True

    def dismiss_autosave(self) -> None:
        """Keep the file as it is; the autosave stays on disk until the next save."""
        self.restorable = None

    def recover(self, autosave_file: Path) -> bool:
        """Open an untitled session's autosave as an untitled scene (File > Recover)."""
        try:
            scene = load(autosave_file)
        except SceneError as error:
            self.message = str(error)
            return False
        self._replace_scene(scene, None)
        self.saved_state = -1  # recovered work is unsaved until saved somewhere
        self.fixture, self.restorable = None, None
        self.message = f"recovered {autosave_file}"
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
            self.message = f"autosave failed: {_reason(error)}"
            return None
        self._last_autosave, self._autosaved_state = now, self.history.state_id
        if self.path is not None and target != autosave.beside(self.path):
            self.message = f"{self.path.parent} is not writable: autosaved to {target}"
        return target


def _reason(error: OSError | SceneError) -> str:
    """Why a save failed, in a few words (an OSError's own text repeats the path)."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)
