"""``physics`` must import with no display, GL, UI or mesh-file module loaded."""

import subprocess
import sys


def test_physics_loads_no_gui_or_gl_module():
    code = ("import sys, physics, physics.sweep, physics.contacts, physics.overlap, physics.broadphase; "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
            "{'pyglet', 'moderngl', 'imgui_bundle', 'pyrr', 'app', 'OpenGL', 'glcontext', 'trimesh'}); "
            "print(','.join(bad))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "", f"physics imported {loaded}"
