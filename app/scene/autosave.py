"""Where unsaved work is kept, and finding it again.

A scene with a file autosaves beside it (``.NAME.autosave``); when that folder
cannot be written (a read-only checkout), in the user cache instead
(``$XDG_CACHE_HOME/sweeplab/autosave/NAME-<hash of the path>.autosave.json``).
An untitled scene autosaves in the cache under its editor session's own name
(``untitled-<start time>-<pid>.autosave.json``), so two editors never overwrite
each other's work.  An autosave is offered back when it is newer than its file.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from sweeplab.scene.model import Scene, save

UNTITLED_PREFIX = "untitled-"
SUFFIX = ".autosave.json"


def cache_folder() -> Path:
    """The user cache's autosave folder (created on first use)."""
    folder = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "sweeplab" / "autosave"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def beside(scene_path: str | os.PathLike) -> Path:
    scene_path = Path(scene_path)
    return scene_path.with_name(f".{scene_path.name}.autosave")


def in_cache(scene_path: str | os.PathLike) -> Path:
    """The cache's autosave of a scene file: its name, and a hash of its absolute path
    (two ``scene.json`` in different folders stay apart)."""
    scene_path = Path(scene_path).absolute()
    digest = hashlib.sha1(str(scene_path).encode()).hexdigest()[:10]
    return cache_folder() / f"{scene_path.name}-{digest}{SUFFIX}"


def untitled(session: str) -> Path:
    return cache_folder() / f"{UNTITLED_PREFIX}{session}{SUFFIX}"


def write(scene: Scene, scene_path: str | os.PathLike | None, session: str) -> Path:
    """Autosave ``scene``: beside its file, else in the cache; returns where.
    ``OSError`` only when the cache cannot be written either; ``SceneError`` for a
    scene ``save`` refuses (NaN)."""
    if scene_path is None:
        target = untitled(session)
    else:
        try:
            save(scene, beside(scene_path))
            return beside(scene_path)
        except OSError:
            target = in_cache(scene_path)
    save(scene, target)
    return target


def newer_than_file(scene_path: str | os.PathLike) -> Path | None:
    """The newest autosave of ``scene_path`` written after the file was, if any."""
    try:
        saved = Path(scene_path).stat().st_mtime
    except OSError:
        return None
    candidates = [path for path in (beside(scene_path), in_cache(scene_path))
                  if path.exists() and path.stat().st_mtime > saved]
    return max(candidates, key=lambda path: path.stat().st_mtime, default=None)


def remove(scene_path: str | os.PathLike | None, session: str) -> None:
    """Forget the autosaves of a scene that was just saved (or discarded)."""
    paths = [untitled(session)] if scene_path is None else [beside(scene_path), in_cache(scene_path)]
    for path in paths:
        try:
            path.unlink(missing_ok=True)
        except OSError:
            pass  # a read-only folder holds no autosave of ours


def untitled_autosaves() -> list[Path]:
    """Autosaves of untitled sessions, newest first (File > Recover)."""
    found = cache_folder().glob(f"{UNTITLED_PREFIX}*{SUFFIX}")
    return sorted(found, key=lambda path: path.stat().st_mtime, reverse=True)
