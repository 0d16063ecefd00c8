"""``sweeplab.physics`` must import with no display, GL, UI or mesh-file module loaded
(nor any module of the editor: ``sweeplab`` itself is only its version)."""

import subprocess
import sys


def test_physics_loads_no_gui_or_gl_module():
    code = ("import sys, sweeplab.physics, sweeplab.physics.sweep, sweeplab.physics.contacts, "
            "sweeplab.physics.overlap, sweeplab.physics.broadphase; "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
            "{'pyglet', 'moderngl', 'imgui_bundle', 'pyrr', 'OpenGL', 'glcontext', 'trimesh'} "
            "or (m.startswith('sweeplab.') and not m.startswith('sweeplab.physics'))); "
            "print(','.join(bad))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "", f"physics imported {loaded}"
