"""``sweeplab.physics`` must import with no display, GL, UI or mesh-file module loaded
(nor any module of the editor: ``sweeplab`` itself is only its version)."""

import ast
import subprocess
import sys
from pathlib import Path


def test_physics_loads_no_gui_or_gl_module():
    code = ("import sys, sweeplab.physics, sweeplab.physics.sweep, sweeplab.physics.contacts, "
            "sweeplab.physics.overlap, sweeplab.physics.broadphase; "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
            "{'pyglet', 'moderngl', 'imgui_bundle', 'pyrr', 'OpenGL', 'glcontext', 'trimesh'} "
            "or (m.startswith('sweeplab.') and not m.startswith('sweeplab.physics'))); "
            "print(','.join(bad))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "", f"physics imported {loaded}"


PHYSICS = Path(__file__).resolve().parents[1] / "physics"


def private_imports(root: Path) -> list[str]:
    """Every place a module under ``root`` (installed as ``sweeplab.physics``) takes a
    private name (``_x``, not ``__x__``) of another of our modules: ``from m import _x``,
    or ``m._x`` of a module ``m`` it imported."""
    def is_private(name: str) -> bool:
        return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))

    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        where = path.relative_to(root.parent)
        modules = set()  # names bound to our modules in this file
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sweeplab"):
                for alias in node.names:
                    if is_private(alias.name):
                        found.append(f"{where}:{node.lineno} from {node.module} import {alias.name}")
                    modules.add(alias.asname or alias.name)
            elif isinstance(node, ast.Import):
                modules.update(alias.asname or alias.name for alias in node.names if alias.name.startswith("sweeplab"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules \
                    and is_private(node.attr):
                found.append(f"{where}:{node.lineno} {node.value.id}.{node.attr}")
    return found


def test_no_physics_module_takes_another_module_s_private_names():
    """Issue #33: three modules took ``_answers``, ``_store``, ``_lanes``, ``_contact``
    from ``sweep/ball.py``.  A name another module needs is public, in the module that
    owns its concept."""
    assert private_imports(PHYSICS) == []


def test_a_private_import_is_seen(tmp_path):
    """The check above can fail: both ways of taking a private name are found."""
    (tmp_path / "physics").mkdir()
    (tmp_path / "physics" / "user.py").write_text("from sweeplab.physics.sweep.ball import _store, ball_core\n"
                                                  "from sweeplab.physics.sweep import scalar\n"
                                                  "from __future__ import annotations\n"
                                                  "scalar._direction(None), scalar.answer, ball_core.__doc__\n")
    assert private_imports(tmp_path / "physics") == [
        "physics/user.py:1 from sweeplab.physics.sweep.ball import _store",
        "physics/user.py:4 scalar._direction"]
