"""How the physics kernels run: compiled by numba, or as the Python they are.

Every kernel is plain scalar Python (the equation above the code) with one of two
decorators:

* ``kernel`` -- called only by other kernels.  numba compiles it to LLVM IR that is
  linked into its callers: no machine code, no Python wrapper and no cache file of
  its own.  (Each of those cost a small function as much again as its typing, and
  every level of a call graph was turned into machine code anew: a leaf ten calls
  deep was compiled to machine code ten times.)
* ``entry`` -- also called from Python (one lane of a query, a batch loop, a tree
  build): numba compiles it, with everything it calls, into one piece of machine
  code kept in its disk cache (``physics.kernel_cache``).

**Tiers.**  A call from Python runs machine code where there is some for the
argument types: compiled in this process, or found in the disk cache.  Otherwise
the *policy* decides (``SWEEPLAB_KERNELS``, ``set_policy``, or a ``with`` block:
``interpreted()``, ``compiled()``, ``deferred()``):

* ``auto`` (the default) runs the same source as Python -- the *interpreted* tier,
  about a millisecond a sphere query -- while that is cheap, and compiles once the
  entry has spent ``INTERPRET_BUDGET_SECONDS`` interpreted for those argument types,
  or at once for a call whose work (a batch's lanes, a tree's triangles) would take
  longer than that.  A ski-rental rule: whatever the use turns out to be, it waits
  at most about twice what the better choice in hindsight would have cost.
* ``compile`` compiles on the first call (benchmarks; every answer machine code).
* ``interpret`` never compiles.
* ``defer`` never compiles either, and raises ``KernelsPending`` for a call that
  would take its ``deferred()`` block past ``DEFER_BUDGET_SECONDS`` interpreted: for
  a window that must not freeze while another process compiles (the editor).

The tiers answer alike, bit for bit: kernels compute with + - * /, comparisons and
sqrt, each correctly rounded in both, on values of the lane's own dtype, and numba
compiles without fast-math (no fused or reordered arithmetic).  The golden corpus is
replayed in both (``tests/physics/test_golden.py``).  With ``NUMBA_DISABLE_JIT=1``
the decorators return the plain functions and nothing is compiled at all.

**Signatures.**  A kernel is compiled once per argument types, so callers keep them
few: arrays C-contiguous and writable, as scratch arrays are (``lane_input``),
indices int64, and no literal specialisation (a constant argument is typed as its plain type: ``row(v, 0)``
and ``row(v, i)`` share one compile).

**The disk cache never fails a query.**  With no writable folder for it anywhere,
kernels compile in memory (one warning line, naming ``NUMBA_CACHE_DIR``); a cache
file that cannot be read (written by a killed process, damaged) or written (a full
disk) is passed over with one warning line, and the kernel compiles anew.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from typing import NamedTuple

import numpy as np
from numba.core import config

JIT_DISABLED: bool = bool(config.DISABLE_JIT)  # type: ignore[attr-defined]  # numba sets its config at import
"""``NUMBA_DISABLE_JIT=1``: the decorators return the functions as written."""

POLICIES = ("auto", "compile", "interpret", "defer")

INTERPRET_BUDGET_SECONDS = 0.5
"""How long ``auto`` lets an entry run interpreted (per argument types, per process)
before compiling it: about what compiling one entry costs once the kernels it calls
are compiled (0.3-3 s here), so a one-off query (a millisecond) never waits for the
compiler, and a loop of them pays at most about twice the compile."""

FIRST_GUESS_SECONDS_PER_WORK = 1e-3
"""Interpreted seconds one unit of an entry's work (a lane, a triangle) is taken to
cost until a call has been measured: a sphere-triangle lane takes 0.7 ms, a
capsule-triangle lane 1 ms (a batch of 2,000 lanes is compiled at once)."""

DEFER_BUDGET_SECONDS = 1.0
"""How long a ``deferred()`` block may spend running kernels as Python, in all: a
second (the trees of a few thousand-triangle meshes, built once and kept with them,
and a scene's sweeps) keeps a window usable while it waits for the compiled kernels;
a call that would take the block past it is reported pending instead."""


class KernelsPending(RuntimeError):
    """Raised under the ``defer`` policy for a call too large to interpret: its
    kernels must be compiled first (by another process, or ``compiled()``)."""


class KernelCacheWarning(UserWarning):
    """numba's disk cache could not be used (the kernels still run)."""


def _policy_from_environment() -> str:
    value = os.environ.get("SWEEPLAB_KERNELS", "auto").strip().lower() or "auto"
    if value not in POLICIES:
        warnings.warn_explicit(f"SWEEPLAB_KERNELS={value!r} is not one of {', '.join(POLICIES)}: using 'auto'",
                               KernelCacheWarning, "sweeplab", 0)
        return "auto"
    return value


class _State(threading.local):
    """Per thread: the policy of a ``with`` block, and whether Python code of a kernel
    is running (its calls to other kernels then stay interpreted)."""

    def __init__(self) -> None:
        self.policy: str | None = None
        self.interpreting = 0
        self.work: float | None = None
        self.deferred_seconds = 0.0  # interpreted so far in the innermost ``deferred()`` block


_state = _State()
_default_policy = _policy_from_environment()


def policy() -> str:
    """The policy in force on this thread."""
    return _state.policy or _default_policy


def set_policy(name: str) -> None:
    """The process-wide policy (``with`` blocks on a thread override it)."""
    global _default_policy
    if name not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(POLICIES)}, got {name!r}")
    _default_policy = name


@contextlib.contextmanager
def using(name: str) -> Iterator[None]:
    """Run the block under policy ``name`` (this thread only)."""
    if name not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(POLICIES)}, got {name!r}")
    before, spent = _state.policy, _state.deferred_seconds
    _state.policy, _state.deferred_seconds = name, 0.0
    try:
        yield
    finally:
        _state.policy, _state.deferred_seconds = before, spent


def interpreted():
    """``with interpreted():`` -- every kernel called in the block runs as Python
    (compiled machine code already loaded is still used)."""
    return using("interpret")


def compiled():
    """``with compiled():`` -- every kernel called in the block runs as machine code,
    compiled first where needed."""
    return using("compile")


def deferred():
    """``with deferred():`` -- interpret while the block has spent less than
    ``DEFER_BUDGET_SECONDS`` doing so, raise ``KernelsPending`` for the rest; never
    compile."""
    return using("defer")


@contextlib.contextmanager
def work(amount: float) -> Iterator[None]:
    """The work (lanes) of the entry call made in the block, for the tier choice of an
    entry that cannot tell it from its arguments (``physics.lanes``)."""
    before, _state.work = _state.work, amount
    try:
        yield
    finally:
        _state.work = before


@contextlib.contextmanager
def _interpreting() -> Iterator[None]:
    _state.interpreting += 1
    try:
        yield
    finally:
        _state.interpreting -= 1


_warned: set[str] = set()


def _warn_once(key: str, message: str) -> None:
    """One line on stderr (a ``KernelCacheWarning``), once per ``key`` a process."""
    if key in _warned:
        return
    _warned.add(key)
    warnings.warn_explicit(message, KernelCacheWarning, "sweeplab", 0)


class TierStats(NamedTuple):
    """What an entry did for one signature in this process (``tier_report``)."""

    interpreted_calls: int
    interpreted_seconds: float
    seconds_per_work: float


if not JIT_DISABLED:
    from numba import _dynfunc  # type: ignore[attr-defined]  # numba's C helper, no stubs
    from numba.core import types
    from numba.core.codegen import JITCodeLibrary
    from numba.core.compiler import CompilerBase, DefaultPassBuilder
    from numba.core.compiler_lock import global_compiler_lock, require_global_compiler_lock
    from numba.core.compiler_machinery import register_pass
    from numba.core.registry import CPUDispatcher
    from numba.core.typed_passes import NativeLowering

    class LinkOnlyLibrary(JITCodeLibrary):
        """The code library of a ``kernel``: its LLVM module, optimised function by
        function as numba adds it, with its callees' linked in -- and no more.  The
        whole-module optimisation and the machine code are left to the entry that
        links it (numba's own library would run both here too)."""

        def finalize(self) -> None:
            require_global_compiler_lock()
            self._raise_if_finalized()
            seen = set()
            for library in self._linking_libraries:
                if library not in seen:
                    seen.add(library)
                    self._reload_init.update(library._reload_init)
                    self._final_module.link_in(library._get_module_for_linking(), preserve=True)
            self._finalized = True

    @register_pass(mutates_CFG=True, analysis_only=False)
    class LinkOnlyLowering(NativeLowering):
        """numba's lowering, then the function registered for its callers without
        being turned into machine code (``LinkOnlyLibrary``)."""

        _name = "sweeplab_link_only_lowering"

        def run_pass(self, state) -> bool:
            flags = state.flags
            compiles, flags.no_compile = flags.no_compile, True
            try:
                super().run_pass(state)
            finally:
                flags.no_compile = compiles
            lowered, library, context = state["cr"], state.library, state.targetctx
            library.__class__ = LinkOnlyLibrary
            fndesc = lowered.fndesc
            # what numba makes for a function without a Python wrapper (a null entry), so
            # that callers find it; never called from Python (``Kernel.__call__``).  Its
            # environment is not set: kernels raise nothing and hold no Python objects.
            function = _dynfunc.make_function(fndesc.lookup_module(), fndesc.qualname.split(".")[-1],
                                              f"link-only kernel {fndesc.qualname!r}", 0, lowered.env, (library,))
            context.insert_user_function(function, fndesc, [library])
            state.reload_init.extend(library._reload_init)
            state["cr"] = lowered._replace(cfunc=function)
            return True

    class LinkOnlyCompiler(CompilerBase):
        """numba's nopython pipeline with ``LinkOnlyLowering`` for its lowering."""

        def define_pipelines(self):
            manager = DefaultPassBuilder.define_nopython_pipeline(self.state)
            manager.passes = [(LinkOnlyLowering if step is NativeLowering else step, description)
                              for step, description in manager.passes]
            manager.finalize()
            return [manager]

    class _Compiled(CPUDispatcher):
        """numba's dispatcher, typing a call from another kernel without literal
        specialisation."""

        def get_call_template(self, args, kws):
            return super().get_call_template(tuple(types.unliteral(a) for a in args),
                                             {name: types.unliteral(a) for name, a in kws.items()})

    class _SafeCache:
        """numba's disk cache of one entry, where trouble never fails a query: a file
        that cannot be read is a miss, one that cannot be written is skipped (each
        said once, in one line)."""

        def __init__(self, cache):
            self._cache = cache

        def load_overload(self, signature, target_context):
            try:
                return self._cache.load_overload(signature, target_context)
            except Exception as error:  # damaged, truncated, unreadable: compile anew
                _warn_once("load", f"sweeplab: a kernel cache file in {self._cache.cache_path} cannot be read "
                                   f"({type(error).__name__}: {error}); compiling anew (set NUMBA_CACHE_DIR to "
                                   "use another folder)")
                return None

        def save_overload(self, signature, data) -> None:
            try:
                self._cache.save_overload(signature, data)
            except Exception as error:  # a full disk, a folder gone read-only
                _warn_once("save", f"sweeplab: cannot write the kernel cache in {self._cache.cache_path} "
                                   f"({type(error).__name__}: {error}); kernels are compiled in memory (set "
                                   "NUMBA_CACHE_DIR to a writable folder to keep them)")

        def may_hold_some(self) -> bool:
            """Whether this entry's index file exists: without one there is nothing to
            load, and looking (numba's target set up, its registries imported: a quarter
            of a second) can wait for a compile."""
            try:
                return os.path.exists(self._cache._cache_file._index_path)
            except AttributeError:  # another numba's layout: look
                return True

        def __getattr__(self, name):
            return getattr(self._cache, name)

    class Entry(_Compiled):
        """An ``entry`` kernel: compiled with its callees into machine code (cached on
        disk), or run as Python, as the policy says (module docstring)."""

        work_of: Callable[..., float] | None = None

        def _tier_setup(self, work_of, seconds_per_work: float | None) -> None:
            self.work_of = work_of
            self.first_guess = seconds_per_work or FIRST_GUESS_SECONDS_PER_WORK
            self._looked_up: set = set()
            self._stats: dict = {}
            self._cache_problem: str | None = None

        def __call__(self, *args, **kws):
            """Straight to the tier choice while nothing is compiled: numba's own dispatch
            types every argument first (on a first call that imports numpy.ma, 40 ms)."""
            if not self.overloads:
                return self._compile_for_args(*args, **kws)(*args, **kws)
            return super().__call__(*args, **kws)

        def _compile_for_args(self, *args, **kws):
            """numba calls this where no machine code matches the arguments: load it from
            the disk cache, compile it, or return the Python function to run instead."""
            if _state.interpreting:  # called from a kernel running as Python
                return self._interpreted(None, 0.0)
            kinds = argument_kinds(args)
            if kinds not in self._looked_up:
                self._looked_up.add(kinds)
                loaded = self._load_cached(args)
                if loaded is not None:
                    return loaded
            amount = self._work(args)
            chosen = self._choose(kinds, amount)
            if chosen == "compile":
                if self._cache_problem is not None:
                    _warn_once("locator", self._cache_problem)
                return super()._compile_for_args(*args, **kws)
            if chosen == "pending":
                raise KernelsPending(f"{self.py_func.__module__}.{self.py_func.__qualname__}: not compiled yet for "
                                     f"these arguments, and too much work ({amount:g}) to run as Python now")
            return self._interpreted(kinds, amount)

        def refresh(self) -> None:
            """Look in the disk cache again at the next call that finds no machine code
            (another process may have compiled it meanwhile)."""
            self._looked_up.clear()

        def _work(self, args) -> float:
            if _state.work is not None:
                return float(_state.work)
            return float(self.work_of(*args)) if self.work_of is not None else 1.0

        def _load_cached(self, args):
            if not isinstance(self._cache, _SafeCache) or not self._cache.may_hold_some():
                return None  # no disk cache (no folder for it), or nothing in it for this entry
            signature = tuple(self.typeof_pyval(a) for a in args)
            with global_compiler_lock:
                existing = self.overloads.get(signature)
                if existing is not None:
                    return existing.entry_point
                found = self._cache.load_overload(signature, self.targetctx)
                if found is None:
                    return None
                self.targetctx.insert_user_function(found.entry_point, found.fndesc, [found.library])
                self.add_overload(found)
                return found.entry_point

        def _choose(self, kinds, amount: float) -> str:
            chosen = policy()
            if chosen in ("compile", "interpret"):
                return chosen
            spent, rate = 0.0, self.first_guess
            stats = self._stats.get(kinds)
            if stats is not None:
                spent, rate = stats.interpreted_seconds, stats.seconds_per_work
            expected = amount * rate
            if chosen == "defer":
                return "interpret" if _state.deferred_seconds + expected <= DEFER_BUDGET_SECONDS else "pending"
            return "compile" if spent + expected > INTERPRET_BUDGET_SECONDS else "interpret"

        def _interpreted(self, kinds, amount: float):
            """The Python function, run with its callees interpreted too, under numpy's
            errstate of the compiled code (no warnings); timed for the tier choice
            (per ``argument_kinds``)."""
            def run(*args, **kws):
                start = time.perf_counter()
                with _interpreting(), np.errstate(all="ignore"):
                    answer = self.py_func(*args, **kws)
                if kinds is not None:
                    seconds = time.perf_counter() - start
                    calls, spent, _ = self._stats.get(kinds, TierStats(0, 0.0, 0.0))
                    self._stats[kinds] = TierStats(calls + 1, spent + seconds, seconds / max(amount, 1.0))
                    _state.deferred_seconds += seconds
                return answer
            return run

    class Kernel(_Compiled):
        """A ``kernel``: compiled link-only for its callers.  Called from Python it runs
        as Python inside an interpreted kernel, else through ``python_entry`` (an
        ``Entry`` twin made on first such call: tests call helpers directly)."""

        def __call__(self, *args, **kws):
            if _state.interpreting:
                return self.py_func(*args, **kws)
            return self.python_entry()(*args, **kws)

        def python_entry(self) -> Entry:
            twin = _TWINS.get(self.py_func)
            if twin is None:
                twin = _TWINS[self.py_func] = _make_entry(self.py_func, None, None, {})
                PYTHON_TWINS.append(twin)
            return twin

    _TWINS: dict = {}
    """A ``Kernel``'s function -> its ``python_entry``."""

    PYTHON_TWINS: list = []
    """Entries made for kernels called from Python (``Kernel.python_entry``): a test
    checks that queries make none (each would be compiled twice)."""

    ENTRIES: list = []
    """Every ``Entry`` made (``refresh``, ``tier_report``)."""

    _TARGET_OPTIONS = {"nopython": True, "error_model": "numpy", "boundscheck": False}

    def _make_entry(function, work_of, seconds_per_work: float | None, options: dict) -> Entry:
        dispatcher = Entry(function, locals={}, targetoptions={**_TARGET_OPTIONS, **options})
        dispatcher._tier_setup(work_of, seconds_per_work)
        try:
            dispatcher.enable_caching()
            dispatcher._cache = _SafeCache(dispatcher._cache)  # type: ignore[attr-defined]  # numba's, set above
        except RuntimeError as error:  # numba: "cannot cache function ...: no locator available"
            dispatcher._cache_problem = (
                f"sweeplab: no folder to keep compiled kernels in ({error}); compiling in memory, each process "
                "anew: set NUMBA_CACHE_DIR to a writable folder")
        ENTRIES.append(dispatcher)
        return dispatcher

    def _make_kernel(function, options: dict) -> Kernel:
        return Kernel(function, locals={}, targetoptions={**_TARGET_OPTIONS, "no_cpython_wrapper": True,
                                                          "no_cfunc_wrapper": True, **options},
                      pipeline_class=LinkOnlyCompiler)


def kernel(function=None, *, inline: bool = False):
    """Decorator: a kernel called only from other kernels (compiled link-only).
    ``inline``: LLVM inlines it into every caller (``alwaysinline``), for a kernel that
    takes a large tuple: passing one costs more than the kernel's work.  (numba's own
    inlining, of its typed code, costs seconds of compile time a call site.)"""
    def decorate(function):
        if JIT_DISABLED:
            return function
        return _make_kernel(function, {"forceinline": True} if inline else {})
    return decorate if function is None else decorate(function)


def entry(function=None, *, work: Callable[..., float] | None = None, seconds_per_work: float | None = None,
          parallel: bool = False):
    """Decorator: a kernel also called from Python (compiled to cached machine code,
    or interpreted: module docstring).  ``work(*args)`` tells how much a call does (a
    batch's lanes, a mesh's triangles; default 1) and ``seconds_per_work`` how long a
    unit of it takes as Python until a call is timed (default
    ``FIRST_GUESS_SECONDS_PER_WORK``), for the tier choice; ``parallel``
    compiles ``prange`` loops to run on numba's threads (``physics.lanes``)."""
    def decorate(function):
        if JIT_DISABLED:
            return function
        return _make_entry(function, work, seconds_per_work, {"parallel": True} if parallel else {})
    return decorate if function is None else decorate(function)


def argument_kinds(args) -> tuple:
    """What tells apart the signatures numba would compile for ``args``, cheaply (no
    numba typing, which imports and sets up more than an interpreted call needs):
    arrays by dtype, dimensions and layout flags, tuples item by item, the rest by
    type."""
    kinds: list = []
    for value in args:
        if isinstance(value, np.ndarray):
            kinds.append((value.dtype.str, value.ndim, value.flags.c_contiguous, value.flags.writeable))
        elif isinstance(value, tuple):
            kinds.append(argument_kinds(value))
        else:
            kinds.append(type(value))
    return tuple(kinds)


def length_of_first(first, *rest) -> int:
    """A ``work`` for ``entry``: the length of the first argument (rows, lanes)."""
    return len(first)


def has_machine_code(dispatcher, arguments: tuple) -> bool:
    """Whether ``dispatcher`` (an ``entry``) has machine code for ``arguments``'
    types in this process (False with ``NUMBA_DISABLE_JIT``)."""
    return entry_point(dispatcher, arguments) is not None


def entry_point(dispatcher, arguments: tuple) -> Callable | None:
    """The machine code of ``dispatcher`` (an ``entry``) for ``arguments``' types as a
    Python callable that skips numba's dispatch (typing every argument, picking the
    overload): for a caller that always passes arguments of exactly those types
    (``physics.sweep.scalar``).  None where there is no machine code for them (yet)."""
    if JIT_DISABLED:
        return None
    overload = dispatcher.overloads.get(tuple(dispatcher.typeof_pyval(argument) for argument in arguments))
    return None if overload is None else overload.entry_point


def refresh() -> None:
    """Every entry looks in the disk cache again at its next call that finds no machine
    code: after another process (``sweeplab warmup``) compiled into it."""
    if JIT_DISABLED:
        return
    for dispatcher in ENTRIES + PYTHON_TWINS:
        dispatcher.refresh()


def compiled_signatures() -> dict[str, list[str]]:
    """Qualified name -> the signatures compiled (or loaded) in this process, for every
    kernel: what ``bench/startup.py`` counts."""
    if JIT_DISABLED:
        return {}
    import gc

    found: dict[str, list[str]] = {}
    for dispatcher in gc.get_objects():
        if isinstance(dispatcher, _Compiled) and dispatcher.overloads:
            name = f"{dispatcher.py_func.__module__}.{dispatcher.py_func.__qualname__}"
            found.setdefault(name, []).extend(str(signature) for signature in dispatcher.overloads)
    return found


def tier_report() -> dict[str, dict[str, TierStats]]:
    """Entry -> signature -> what ran interpreted in this process."""
    if JIT_DISABLED:
        return {}
    return {f"{d.py_func.__module__}.{d.py_func.__qualname__}": {str(s): stats for s, stats in d._stats.items()}
            for d in ENTRIES + PYTHON_TWINS if d._stats}


def lane_input(array, dtype) -> np.ndarray:
    """``array`` as a kernel input: C-contiguous, of ``dtype`` and writable, as a
    kernel's own scratch arrays are, so that every call of a kernel has one signature
    whatever the layout, strides or flags of the caller's arrays.  No copy where it
    already is, or where it is a read-only view of all of a writable array (a shape's
    field: ``shapes.frozen``): that array is passed (kernels only read their inputs).
    A copy otherwise."""
    array = np.asarray(array)
    if array.dtype != dtype or not array.flags.c_contiguous:
        return np.array(array, dtype=dtype, order="C", copy=True)
    if array.flags.writeable:
        return array
    root = array
    while isinstance(root.base, np.ndarray):
        root = root.base
    if (root.flags.writeable and root.flags.c_contiguous and root.dtype == array.dtype and root.size == array.size
            and root.__array_interface__["data"][0] == array.__array_interface__["data"][0]):
        return root.reshape(array.shape)
    return array.copy()
