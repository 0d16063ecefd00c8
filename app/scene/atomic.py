"""Safe file writes: a crash leaves the old file or the new one, never half of one.

A file is written to a temporary beside it (``.NAME.XXXXXXXX.tmp``: in its own
folder, so on its own file system, where a rename is atomic), fsynced, and renamed
over it.  Through a symbolic link the link's target is written (the link stays a
link).  A file with other hard links is overwritten in place, since a rename would
leave the other names with the old content: the old content is first copied beside
it (``.NAME.XXXXXXXX.bak``, fsynced) and put back if the overwrite fails; a crash
in the middle leaves that copy, which nothing removes.  The temporaries a killed
save left are removed by the next save or open of the file
(``remove_stale_temporaries``).
"""

from __future__ import annotations

import glob
import os
import re
import tempfile
import time
from pathlib import Path

TEMPORARY_SUFFIX, BACKUP_SUFFIX = ".tmp", ".bak"
STALE_SECONDS = 3600.0
"""A temporary of ours this old is left from a killed save (a save in progress, in
this process or another, takes seconds)."""


def _new_file_mode(path: Path) -> int:
    """The mode ``open`` would give ``path``: the old file's when it exists, else
    0666 less the umask (``mkstemp`` makes 0600 files)."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_text_atomically(path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` as the module says; the file gets the
    permissions a plain write would give it."""
    path = Path(os.path.realpath(path))
    remove_stale_temporaries(path)
    data = text.encode("utf-8")
    if path.exists() and path.stat().st_nlink > 1:
        _overwrite_in_place(path, data)
        return
    temporary = _write_beside(path, data, TEMPORARY_SUFFIX)
    try:
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _write_beside(path: Path, data: bytes, suffix: str) -> Path:
    """A new file beside ``path`` (``.NAME.XXXXXXXX`` + ``suffix``) holding ``data``,
    fsynced, with ``path``'s mode."""
    handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=suffix, dir=path.parent)
    try:
        os.fchmod(handle, _new_file_mode(path))
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise
    return Path(name)


def _overwrite_in_place(path: Path, data: bytes) -> None:
    old = path.read_bytes()
    backup = _write_beside(path, old, BACKUP_SUFFIX)
    try:
        _overwrite(path, data)
    except BaseException:
        _overwrite(path, old)  # should this fail as well, the copy beside keeps the old content
        backup.unlink()
        raise
    backup.unlink()


def _overwrite(path: Path, data: bytes) -> None:
    with open(path, "r+b") as stream:
        stream.write(data)
        stream.truncate()
        stream.flush()
        os.fsync(stream.fileno())


def remove_stale_temporaries(path) -> None:
    """Remove the temporaries of ``path`` a killed save left: ours by their name
    (``mkstemp``'s eight characters of ``[a-z0-9_]``) and older than
    ``STALE_SECONDS``.  Copies of a hard-linked file's old content (``.bak``) stay:
    one may hold the only whole copy."""
    path = Path(os.path.realpath(path))
    ours = re.compile(rf"\.{re.escape(path.name)}\.[a-z0-9_]{{8}}{re.escape(TEMPORARY_SUFFIX)}")
    stale_before = time.time() - STALE_SECONDS
    for candidate in path.parent.glob(glob.escape(f".{path.name}.") + "*" + TEMPORARY_SUFFIX):
        try:
            if ours.fullmatch(candidate.name) and candidate.stat().st_mtime < stale_before:
                candidate.unlink()
        except OSError:
            pass  # gone already, or not ours to remove
