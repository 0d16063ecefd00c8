"""The package's rooms import one way: down ``LAYERS``, so no cycle between rooms.

A *room* is a folder of the ``sweeplab`` package (``physics``, ``scene``, ``view``,
``render``, ``editor``, ``ui``, ``engines``, ``playground``) or one of its top-level
modules (``editor_window``, ``window``, ``cli``, ``pytest_plugin``, ``__main__``; ``sweeplab`` itself is
its ``__init__``), and ``shaders``.  The graph is read from the source with ``ast``: every ``import``
and ``from ... import`` anywhere in a module, inside functions and ``TYPE_CHECKING``
blocks too (a lazy import is still a dependency), relative imports resolved.  The
order is ``docs/architecture.md``'s ("Rooms import one way").
"""

from __future__ import annotations

import ast
import textwrap
from collections import defaultdict
from pathlib import Path

import sweeplab
import sweeplab.physics
import sweeplab.shaders

LAYERS = (("sweeplab", "physics", "shaders"), ("scene",), ("engines",), ("view",), ("render", "playground"),
          ("editor",), ("ui",), ("editor_window",), ("window",), ("cli", "pytest_plugin"), ("__main__",))
"""The rooms, bottom first: a room imports only rooms of lower layers (``sweeplab`` is
the package's ``__init__``: its version)."""

Edges = dict[tuple[str, str], list[str]]
"""(room, room it imports): the import sites, ``module:line``."""


def package_sources(package: str, folder: Path) -> dict[str, Path]:
    """Every module under ``folder`` by its dotted name, ``folder`` being ``package``."""
    modules = {}
    for path in sorted(folder.rglob("*.py")):
        parts = [package, *path.relative_to(folder).with_suffix("").parts]
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def imported_names(module: str, path: Path) -> list[tuple[str, int]]:
    """Every module name ``module`` imports (a ``from`` import also names each imported
    name as a possible submodule), with its line."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([node.module] if node.module else []))
            found.append((base, node.lineno))
            found += [(f"{base}.{alias.name}", node.lineno) for alias in node.names]
    return found


def room_of(module: str, root: str) -> str | None:
    """The room of a dotted name under ``root`` (None outside the package)."""
    parts = module.split(".")
    if parts[0] != root:
        return None
    return parts[1] if len(parts) > 1 else root


def room_edges(modules: dict[str, Path], root: str) -> Edges:
    """Imports between different rooms of the modules (by dotted name: source file)."""
    edges: Edges = defaultdict(list)
    for module, path in modules.items():
        source = room_of(module, root)
        for name, line in imported_names(module, path):
            imported = name if name in modules else name.rpartition(".")[0]  # ``from m import f``: f is no module
            target = room_of(imported, root) if imported in modules else None
            site = f"{module}:{line}"
            if target is not None and target != source and site not in edges[source, target]:
                edges[source, target].append(site)
    return {edge: sites for edge, sites in edges.items() if sites}


def room_cycles(edges: Edges) -> list[list[str]]:
    """The groups of rooms that import one another (strongly connected components of
    more than one room, Tarjan), each sorted."""
    graph: dict[str, set[str]] = defaultdict(set)
    for source, target in edges:
        graph[source].add(target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups = []

    def visit(room: str) -> None:
        index[room] = low[room] = len(index)
        stack.append(room)
        for nxt in sorted(graph[room]):
            if nxt not in index:
                visit(nxt)
                low[room] = min(low[room], low[nxt])
            elif nxt in stack:
                low[room] = min(low[room], index[nxt])
        if low[room] == index[room]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == room:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for room in sorted(graph):
        if room not in index:
            visit(room)
    return groups


def describe(edges: Edges, group: list[str]) -> str:
    return "; ".join(f"{a} -> {b} ({', '.join(sites[:3])}{', ...' if len(sites) > 3 else ''})"
                     for (a, b), sites in sorted(edges.items()) if a in group and b in group)


def sweeplab_edges() -> Edges:
    modules = package_sources("sweeplab", Path(sweeplab.__file__).parent)
    modules.update(package_sources("sweeplab.physics", Path(sweeplab.physics.__file__).parent))
    modules.update(package_sources("sweeplab.shaders", Path(sweeplab.shaders.__file__).parent))
    return room_edges(modules, "sweeplab")


def test_no_cycle_between_rooms():
    edges = sweeplab_edges()
    cycles = room_cycles(edges)
    assert not cycles, "rooms import each other: " + " | ".join(describe(edges, group) for group in cycles)


def upward_edges(edges: Edges, layers: tuple[tuple[str, ...], ...]) -> list[str]:
    """The imports that do not go down ``layers`` (into the same layer or above, or
    from or to a room in no layer), one line each."""
    level = {room: number for number, layer in enumerate(layers) for room in layer}
    return [f"{a} -> {b} ({', '.join(sites)})" for (a, b), sites in sorted(edges.items())
            if a not in level or b not in level or level[b] >= level[a]]


def test_every_import_goes_down_the_layers():
    wrong = upward_edges(sweeplab_edges(), LAYERS)
    assert not wrong, "imports against docs/architecture.md's order of rooms: " + "; ".join(wrong)


def test_an_import_up_or_sideways_or_from_an_unknown_room_is_named():
    edges = {("scene", "physics"): ["s:1"], ("physics", "scene"): ["p:2"], ("render", "playground"): ["r:3"],
             ("lab", "scene"): ["l:4"]}
    assert upward_edges(edges, LAYERS) == ["lab -> scene (l:4)", "physics -> scene (p:2)",
                                           "render -> playground (r:3)"]


def test_the_graph_sees_the_known_edges():
    """The reader finds the package's real imports (a broken reader finds no cycle)."""
    edges = sweeplab_edges()
    for edge in [("scene", "physics"), ("view", "scene"), ("view", "engines"), ("ui", "editor"),
                 ("editor_window", "ui"), ("window", "editor_window"), ("cli", "window"), ("editor", "playground"),
                 ("render", "view"), ("__main__", "cli")]:
        assert edge in edges, edge
    assert not any(source == "physics" for source, _ in edges), "physics imports the app"


def test_a_cycle_through_a_lazy_relative_import_is_found(tmp_path):
    """a -> b at the top, b -> a inside a function through a relative import; c only
    imports a.  One group, a and b, naming both import sites."""
    files = {"__init__.py": "",
             "a/__init__.py": "",
             "a/one.py": "from pkg.b import two\n",
             "b/__init__.py": "",
             "b/two.py": "def later():\n    from ..a import one\n    return one\n",
             "c.py": "import pkg.a.one\n"}
    for name, text in files.items():
        (tmp_path / "pkg" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "pkg" / name).write_text(textwrap.dedent(text))
    edges = room_edges(package_sources("pkg", tmp_path / "pkg"), "pkg")
    assert edges == {("a", "b"): ["pkg.a.one:1"], ("b", "a"): ["pkg.b.two:2"], ("c", "a"): ["pkg.c:1"]}
    assert room_cycles(edges) == [["a", "b"]]
    assert describe(edges, ["a", "b"]) == "a -> b (pkg.a.one:1); b -> a (pkg.b.two:2)"


def test_a_chain_is_no_cycle():
    assert room_cycles({("a", "b"): ["x"], ("b", "c"): ["y"], ("a", "c"): ["z"]}) == []
    assert room_cycles({("a", "b"): ["x"], ("b", "c"): ["y"], ("c", "a"): ["z"]}) == [["a", "b", "c"]]
