"""numba's disk cache of the compiled kernels, kept in step with their sources.

numba keys a cached kernel by its own source file only: a kernel that calls one in
another module would keep the old callee's machine code after that module changed.
So when ``physics`` is imported it hashes its sources, and where the hash differs
from the one stamped beside the cache it drops its modules' cache files — in the
package's ``__pycache__`` folders, or in numba's user-wide cache folder, where numba
keeps them when the package folder is read-only (an installed wheel).  Kernels then
compile anew, once (``sweeplab warmup`` does it up front).
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
STAMP = "sweeplab-kernels.sha256"
WARM = "sweeplab-kernels.warm"


@functools.cache
def source_digest() -> str:
    """A hash of every source file of the package (path and content), computed once
    a process (import, then the editor's and warmup's warm-mark checks)."""
    digest = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*.py")):
        digest.update(str(path.relative_to(PACKAGE)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _cache_folders(source: Path) -> list[Path]:
    """Where numba may keep the cache files of the kernels in ``source``: the folder
    ``NUMBA_CACHE_DIR`` names if set (numba then uses no other), else the package's
    ``__pycache__`` and numba's user-wide folder."""
    from numba.core import config
    from numba.core.caching import UserProvidedCacheLocator, UserWideCacheLocator

    def placeholder():
        pass

    if config.CACHE_DIR:  # type: ignore[attr-defined]  # numba sets its config at import
        return [Path(UserProvidedCacheLocator(placeholder, str(source)).get_cache_path())]
    folders = [source.parent / "__pycache__"]
    try:
        folders.append(Path(UserWideCacheLocator(placeholder, str(source)).get_cache_path()))
    except Exception:  # no user cache folder on this system: the in-tree one is all there is
        pass
    return folders


def keep_cache_in_step() -> None:
    """Drop the package's cached kernels if its sources changed since they were cached."""
    digest = source_digest()
    sources = sorted(PACKAGE.rglob("*.py"))
    stamps = [folder / STAMP for folder in _cache_folders(PACKAGE / "__init__.py")]
    if any(_read(stamp) == digest for stamp in stamps):
        return
    for source in sources:
        for folder in _cache_folders(source):
            for stale in list(folder.glob(f"{source.stem}.*.nbi")) + list(folder.glob(f"{source.stem}.*.nbc")):
                stale.unlink(missing_ok=True)
    for stamp in stamps:
        try:
            stamp.parent.mkdir(parents=True, exist_ok=True)
            stamp.write_text(digest)
            return
        except OSError:  # a read-only package folder: stamp the user-wide one
            continue


def _warm_text() -> str:
    """What ``mark_warm`` writes: the sources' digest and whether parallel variants
    were compiled too (they are only with more than one numba thread)."""
    import numba

    return f"{source_digest()} parallel={numba.get_num_threads() > 1}"


def is_warm() -> bool:
    """Whether ``mark_warm`` was called for these sources (every kernel compiled)."""
    text = _warm_text()
    return any(_read(folder / WARM) == text for folder in _cache_folders(PACKAGE / "__init__.py"))


def mark_warm() -> None:
    """Note beside the cache that every kernel is in it (``physics.warmup`` ran)."""
    text = _warm_text()
    for folder in _cache_folders(PACKAGE / "__init__.py"):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / WARM).write_text(text)
            return
        except OSError:  # a read-only package folder: note it in the user-wide one
            continue


def _read(path: Path) -> str | None:
    try:
        return path.read_text()
    except OSError:
        return None
