"""Draws a ``ViewModel`` with moderngl: no physics, no UI, no window.

Order per frame: clear, grid and axes, opaque meshes (with outlines), translucent
meshes (depth-tested, not written), depth-tested lines and points, then the
"on top" lines and points (contacts, normals, highlights) without depth test so a
contact inside a solid is still seen.
"""

from __future__ import annotations

import numpy as np

from app.camera import OrbitCamera
from app.shaders import build_program
from app.view_model import LineBatch, ViewModel

BACKGROUND = (0.16, 0.17, 0.2, 1.0)
GRID = (0.3, 0.32, 0.36, 1.0)
AXES = ((0.9, 0.3, 0.3, 1.0), (0.3, 0.85, 0.35, 1.0), (0.35, 0.5, 1.0, 1.0))
GRID_HALF_CELLS = 20


class Renderer:
    """Owns the GL programs of the 3D view in one moderngl context."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.programs = {name: build_program(ctx, name) for name in ("mesh", "line", "point")}

    def draw(self, view: ViewModel, camera: OrbitCamera, size: tuple[int, int], grid_step: float | None = 1.0) -> None:
        """Draw into the currently bound framebuffer of ``size`` pixels (no grid or
        axes when ``grid_step`` is None)."""
        ctx = self.ctx
        ctx.viewport = (0, 0, *size)
        ctx.clear(*BACKGROUND, depth=1.0)
        view_projection = camera.view_projection(size).astype("f4").tobytes()
        for program in self.programs.values():
            program["view_projection"].write(view_projection)
        self.programs["mesh"]["eye"].value = tuple(camera.eye())
        for name in ("line", "point"):
            self.programs[name]["viewport"].value = size
        ctx.enable(ctx.DEPTH_TEST | ctx.BLEND)
        ctx.blend_func = ctx.SRC_ALPHA, ctx.ONE_MINUS_SRC_ALPHA
        if grid_step is not None:
            self._grid_and_axes(grid_step)
        opaque = [d for d in view.drawables if d.fill[3] >= 1]
        translucent = [d for d in view.drawables if d.fill[3] < 1]
        for drawable in opaque:
            self._drawable(drawable)
        ctx.depth_mask = False
        for drawable in translucent:
            self._drawable(drawable)
        ctx.depth_mask = True
        for on_top in (False, True):
            if on_top:
                ctx.disable(ctx.DEPTH_TEST)
            for batch in view.lines:
                if batch.on_top == on_top:
                    self._lines(batch.segments, batch.color, batch.width)
            for batch in view.points:
                if batch.on_top == on_top:
                    self._points(batch.positions, batch.color, batch.size)
        ctx.enable(ctx.DEPTH_TEST)

    def _grid_and_axes(self, grid_step: float) -> None:
        self.ctx.depth_mask = False  # the grid never hides the axes or shapes drawn on it
        self._lines(_grid(grid_step), GRID, 1.0)
        self.ctx.depth_mask = True
        for axis, color in enumerate(AXES):
            end = np.zeros(3)
            end[axis] = GRID_HALF_CELLS * grid_step
            self._lines(np.stack([np.zeros(3), end])[None], color, 2.0)

    def _drawable(self, drawable) -> None:
        mesh = drawable.mesh
        if len(mesh.triangles):
            ctx = self.ctx
            ctx.polygon_offset = 1.0, 1.0  # outlines win the depth test against their own faces
            self._draw(self.programs["mesh"], mesh.triangles.reshape(-1, 3), drawable.fill, self.ctx.TRIANGLES)
            ctx.polygon_offset = 0.0, 0.0
        if len(mesh.outline) and drawable.outline_width > 0:
            self._lines(mesh.outline, drawable.outline, drawable.outline_width)
        if len(mesh.points):
            self._points(mesh.points, drawable.fill, drawable.point_size)

    def _lines(self, segments: np.ndarray, color, width: float) -> None:
        self.programs["line"]["width"].value = width / 2
        self._draw(self.programs["line"], np.asarray(segments).reshape(-1, 3), color, self.ctx.LINES)

    def _points(self, positions: np.ndarray, color, size: float) -> None:
        self.programs["point"]["size"].value = size
        self._draw(self.programs["point"], positions, color, self.ctx.POINTS)

    def _draw(self, program, positions: np.ndarray, color, mode) -> None:
        if len(positions) == 0:
            return
        program["color"].value = tuple(color)
        buffer = self.ctx.buffer(np.ascontiguousarray(positions, dtype="f4").tobytes())
        vertex_array = self.ctx.vertex_array(program, [(buffer, "3f", "in_position")])
        vertex_array.render(mode)
        vertex_array.release()
        buffer.release()


def _grid(step: float) -> np.ndarray:
    """Grid lines on the z = 0 plane."""
    extent = GRID_HALF_CELLS * step
    ticks = np.arange(-GRID_HALF_CELLS, GRID_HALF_CELLS + 1) * step
    along_x = np.stack([np.c_[np.full_like(ticks, -extent), ticks, 0 * ticks],
                        np.c_[np.full_like(ticks, extent), ticks, 0 * ticks]], axis=1)
    along_y = along_x[:, :, [1, 0, 2]]
    return np.concatenate([along_x, along_y])


def grid_step_for(camera: OrbitCamera) -> float:
    """A power of ten that keeps about 10-100 grid cells in view."""
    return float(10 ** np.floor(np.log10(max(camera.distance, 1e-9) / 2)))


__all__ = ["Renderer", "LineBatch", "grid_step_for"]
