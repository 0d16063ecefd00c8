"""Render frames with no window: an EGL standalone context and an offscreen framebuffer."""

from __future__ import annotations

import numpy as np

from sweeplab.view.camera import OrbitCamera
from sweeplab.render.renderer import Renderer, grid_step_for
from sweeplab.view.model import ViewModel

MULTISAMPLES = 4


class GLUnavailable(RuntimeError):
    """No OpenGL 3.3 context could be created on this machine."""


def create_context():
    """A headless moderngl context: EGL first (no display needed), then GLX."""
    import moderngl

    errors = []
    for backend in ("egl", None):
        try:
            return moderngl.create_standalone_context(require=330, **({"backend": backend} if backend else {}))
        except Exception as error:  # noqa: BLE001 - every failure is reported below
            errors.append(f"{backend or 'default'}: {error}")
    raise GLUnavailable(f"no OpenGL 3.3 context (on Debian/Ubuntu: apt-get install {' '.join(GL_PACKAGES)}): "
                        + "; ".join(errors))


GL_PACKAGES = ("libegl1", "libegl-mesa0", "libgl1-mesa-dri", "libgbm1", "libgl1", "libglx-mesa0")
"""The Debian/Ubuntu packages of Mesa's headless OpenGL (EGL + llvmpipe) that
sweeplab's rendering needs; ``.ci/run`` installs the same list."""


class OffscreenRenderer:
    """Renders view models into an offscreen multisampled framebuffer and reads pixels.
    Its GL work runs inside ``with ctx:`` (current on entry, released on exit)."""

    def __init__(self, size: tuple[int, int], ctx=None):
        self.ctx = ctx or create_context()
        self.size = size
        with self.ctx:
            samples = min(MULTISAMPLES, self.ctx.max_samples)
            self._multisampled = self.ctx.framebuffer(
                self.ctx.renderbuffer(size, 4, samples=samples), self.ctx.depth_renderbuffer(size, samples=samples))
            self._resolved = self.ctx.framebuffer(self.ctx.renderbuffer(size, 4))
            self.renderer = Renderer(self.ctx)

    def render(self, view: ViewModel, camera: OrbitCamera, show_grid: bool = True) -> np.ndarray:
        """The frame as (height, width, 3) uint8, top row first.  Its context is made
        current for the GL work (a process may hold several: the CLI's, a window's)."""
        with self.ctx:
            self._multisampled.use()
            self.renderer.draw(view, camera, self.size, grid_step_for(camera) if show_grid else None)
            self.ctx.copy_framebuffer(self._resolved, self._multisampled)
            data = self._resolved.read(components=3, alignment=1)
        return np.frombuffer(data, np.uint8).reshape(self.size[1], self.size[0], 3)[::-1]
