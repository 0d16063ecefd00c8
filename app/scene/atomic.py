"""Atomic file writes: a crash leaves the old file or the new one, never half of one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


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
    """Write ``text`` to a temporary file beside ``path``, fsync it, rename it over
    ``path``; the file gets the permissions a plain write would give it."""
    path = Path(path)
    mode = _new_file_mode(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(handle, mode)
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
