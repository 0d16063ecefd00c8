"""Other engines' answers to sweeplab's queries: adapters, triage and the fuzzer.

An adapter (``fcl_engine``, ``rapier_engine``, ``box3d_engine``, ``jolt_engine``) answers a sweeplab
configuration (physics shapes and a direction) with its engine's own answer, in
sweeplab's conventions (t a fraction of the direction, the normal from the target
towards the moving shape; an engine that stops short of contact or inside it says
how far, ``contact_offset``).  Each needs an optional extra (``pip install 'sweeplab[fcl]'``)
and is imported only when asked for, by ``engine(name)``.  ``second_opinion`` is
sweeplab's own slow answer (the reference or a GJK cast); ``triage`` compares
logged or live answers with sweeplab's; ``fuzz`` draws configurations, finds the
disagreements and shrinks them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # (the command line builds its parsers from this module: no physics, no compiler)
    from sweeplab.scene.query_log import Engine, EngineAnswer

ADAPTERS = {"fcl": ("sweeplab.engines.fcl_engine", "fcl", "python-fcl"),
            "rapier": ("sweeplab.engines.rapier_engine", "rapier", "rapier3d"),
            "box3d": ("sweeplab.engines.box3d_engine", "box3d", "robox3d"),
            "jolt": ("sweeplab.engines.jolt_engine", "jolt", "culverin (Python 3.12 or newer)")}
"""Engine name: (adapter module, pip extra, the package the extra installs)."""

PAIRS = ("sphere-sphere", "sphere-capsule", "capsule-sphere", "capsule-capsule", "sphere-box", "box-sphere",
         "capsule-box", "box-capsule", "box-box", "sphere-triangle", "capsule-triangle", "sphere-mesh",
         "capsule-mesh")
"""Moving-target pairs the fuzzer draws (``box`` is a polyhedron)."""
DRAWS = ("random", "grazing", "degenerate")
"""The fuzzer's kinds of configuration (``physics.engines.fuzz``)."""


def package_version(distribution: str) -> str:
    """The installed version of ``distribution`` (an engine's binding), "unknown" when
    its metadata is missing (a build from source not installed by pip)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return "unknown"


class EngineUnavailable(RuntimeError):
    """The engine's package is not installed (the message says which extra to install)."""


class Adapter(Protocol):
    info: Engine
    interpolations: tuple[str, ...]
    """How the engine can turn the moving shape during a sweep (``"slerp"``,
    ``"nlerp"``: ``sweep``'s ``interpolation``); empty: it sweeps without turning."""

    def answer(self, moving, target, direction, **turn) -> EngineAnswer:
        """The engine's answer for physics shapes ``moving`` and ``target`` and the
        sweep ``direction``, turning as ``turn`` says (``sweep``'s ``rotation``,
        ``pivot``, ``interpolation``; given only to an engine with that
        interpolation: ``ask``); ``TypeError`` for a pair the engine cannot answer,
        ``ValueError`` for one query it cannot (a shape or turn it cannot build)."""


def ask(adapter: Adapter, moving, target, direction, turn: dict) -> EngineAnswer:
    """The adapter's answer to a query that turns as ``turn`` says
    (``scene.query_log.turn_of``; empty: the linear sweep, asked as before);
    ``TypeError`` when the engine cannot turn the moving shape so (nor any query of
    the pair, then)."""
    if not turn:
        return adapter.answer(moving, target, direction)
    interpolation = turn.get("interpolation", "slerp")
    if interpolation not in adapter.interpolations:
        can = f"only by {', '.join(adapter.interpolations)}" if adapter.interpolations else "not at all"
        raise TypeError(f"{adapter.info.name} turns the moving shape {can}, not by {interpolation}")
    return adapter.answer(moving, target, direction, **turn)


def engine(name: str, **options) -> Adapter:
    """The adapter of engine ``name``, imported now; ``ValueError`` for an unknown
    name, ``EngineUnavailable`` when its extra is not installed."""
    if name not in ADAPTERS:
        raise ValueError(f"engine must be one of {', '.join(ADAPTERS)}, got {name!r}")
    module_name, extra, package = ADAPTERS[name]
    try:
        module = importlib.import_module(module_name)
        return module.make_adapter(**options)
    except ImportError as error:
        raise EngineUnavailable(f"the {name} engine needs {package}: pip install 'sweeplab[{extra}]' "
                                f"({error})") from None
