"""Draws a ``ViewModel`` with moderngl: no physics, no UI, no window.

Order per frame: clear, grid and axes, opaque meshes (with outlines) and particle
sprites (sphere impostors: ``shaders/sprite.*``), translucent
meshes (depth-tested, not written), depth-tested lines and points, then the
"on top" lines and points (contacts, normals, highlights) without depth test so a
contact inside a solid is still seen.  Line and point batches of one style (and
stage) are drawn by one call, in the order each style first appears; those of a
see-through shape are drawn right after its surface instead, as blending needs.
The GPU buffers of a view model are built once and reused for as long as the same
view model is drawn (frames where the scene did not change cost only the draw
calls).
"""

from __future__ import annotations

from dataclasses import dataclass

import moderngl
import numpy as np

from sweeplab.view.camera import OrbitCamera
from sweeplab.render.programs import build_program
from sweeplab.view.model import ViewModel

BACKGROUND = (0.16, 0.17, 0.2, 1.0)
GRID = (0.3, 0.32, 0.36, 1.0)
AXES = ((0.9, 0.3, 0.3, 1.0), (0.3, 0.85, 0.35, 1.0), (0.35, 0.5, 1.0, 1.0))
GRID_HALF_CELLS = 20


@dataclass
class DrawCall:
    program: str       # "mesh", "line", "point" or "sprite"
    buffer: moderngl.Buffer
    vertex_array: moderngl.VertexArray
    mode: int
    color: tuple
    size: float = 1.0  # line width or point size in pixels; a sprite's radius in world units
    stage: str = "opaque"  # opaque, translucent, lines, on_top
    cull: bool = False  # a convex solid: back faces are not drawn
    instances: int = 0  # lines: one instance (a 4-vertex strip) per segment; 0: not instanced
    shader: str = ""  # the GL program that draws it ("" = ``program``; one-pixel lines: "thin_line")

    def render(self) -> None:
        if self.instances:
            self.vertex_array.render(self.mode, vertices=4, instances=self.instances)
        else:
            self.vertex_array.render(self.mode)

    def release(self) -> None:
        self.vertex_array.release()
        self.buffer.release()


class Renderer:
    """Owns the GL programs of the 3D view in one moderngl context."""

    STAGES = ("opaque", "translucent", "lines", "on_top")

    def __init__(self, ctx):
        self.ctx = ctx
        self.programs = {name: build_program(ctx, name) for name in ("mesh", "line", "thin_line", "point", "sprite")}
        self._projection = np.eye(4)
        self._view: ViewModel | None = None
        self._calls: list[DrawCall] = []
        self._grid_step: float | None = None
        self._grid_calls: list[DrawCall] = []

    def draw(self, view: ViewModel, camera: OrbitCamera, size: tuple[int, int],
             grid_step: float | None = 1.0, origin: tuple[int, int] = (0, 0)) -> None:
        """Draw into the rectangle of ``size`` pixels at ``origin`` (bottom-left, GL's
        pixels) of the currently bound framebuffer, nothing outside it (no grid or
        axes when ``grid_step`` is None)."""
        ctx = self.ctx
        ctx.viewport = ctx.scissor = (*origin, *size)
        ctx.clear(*BACKGROUND, depth=1.0, viewport=(*origin, *size))
        view_projection = camera.view_projection(size).astype("f4").tobytes()
        self._projection = camera.projection(size[0] / size[1])
        for program in self.programs.values():
            program["view_projection"].write(view_projection)
        self.programs["mesh"]["eye"].value = tuple(camera.eye())
        for name in ("line", "point"):
            self.programs[name]["viewport"].value = size
        if view is not self._view:
            self._replace(self._calls, self._build(view))
            self._view = view
        if grid_step != self._grid_step:
            self._replace(self._grid_calls, self._build_grid(grid_step) if grid_step is not None else [])
            self._grid_step = grid_step
        ctx.enable(ctx.DEPTH_TEST)
        ctx.blend_func = ctx.SRC_ALPHA, ctx.ONE_MINUS_SRC_ALPHA
        self._writes(depth=False)  # the grid never hides the axes or shapes drawn on it
        self._run(self._grid_calls[:1])
        self._writes()
        self._run(self._grid_calls[1:])
        for stage in self.STAGES:
            self._writes(depth=stage != "translucent")
            if stage == "on_top":
                ctx.disable(ctx.DEPTH_TEST)
            self._run([call for call in self._calls if call.stage == stage])
        self._writes()
        ctx.enable(ctx.DEPTH_TEST)

    @staticmethod
    def _replace(calls: list[DrawCall], new: list[DrawCall]) -> None:
        for call in calls:
            call.release()
        calls[:] = new

    def _run(self, calls: list[DrawCall]) -> None:
        for call in calls:
            program = self.programs[call.shader or call.program]
            program["color"].value = tuple(call.color)
            if program is self.programs["line"]:
                program["width"].value = call.size
            elif call.program == "point":
                program["size"].value = call.size
            elif call.program == "sprite":  # the radius through the projection: x' = r·P₀₀, y' = r·P₁₁
                program["clip_radius"].value = (call.size * self._projection[0, 0], call.size * self._projection[1, 1])
            if call.program == "mesh":  # outlines win the depth test against their own faces, and
                # opaque surfaces against see-through ones that coincide with them (the swept path)
                self.ctx.polygon_offset = (4.0, 4.0) if call.stage == "translucent" else (1.0, 1.0)
            if call.color[3] < 1:  # blending reads back every covered pixel: only where it shows
                self.ctx.enable(self.ctx.BLEND)
            if call.cull:  # llvmpipe's cost here is per triangle: culling halves it
                self.ctx.enable(self.ctx.CULL_FACE)
            if call.program == "mesh" and call.stage == "translucent" and not call.cull:
                self._nearest_layer_only(call)
            else:
                call.render()
            self.ctx.disable(self.ctx.CULL_FACE | self.ctx.BLEND)
            self.ctx.polygon_offset = 0.0, 0.0

    def _nearest_layer_only(self, call: DrawCall) -> None:
        """Blend only the surface nearest the eye (a depth pre-pass), so a see-through
        surface does not stripe where its layers overlap (a culled convex solid has
        one layer already)."""
        self._writes(color=False)
        call.render()
        self._writes(depth=False)
        self.ctx.depth_func = "<="
        call.render()
        self.ctx.depth_func = "<"

    def _writes(self, color: bool = True, depth: bool = True) -> None:
        """Which buffers draws write.  moderngl keeps these masks on the framebuffer
        (``Context`` has no depth mask: setting ``ctx.depth_mask`` silently does
        nothing) and applies them only when it binds the framebuffer, which also
        resets the viewport and scissor: kept here."""
        framebuffer, viewport, scissor = self.ctx.fbo, self.ctx.viewport, self.ctx.scissor
        if framebuffer.color_mask == (color,) * 4 and framebuffer.depth_mask == depth:
            return
        framebuffer.color_mask, framebuffer.depth_mask = (color,) * 4, depth
        framebuffer.use()
        self.ctx.viewport, self.ctx.scissor = viewport, scissor

    def _call(self, program: str, positions, color, size=1.0, stage="opaque", cull=False) -> list[DrawCall]:
        positions = np.ascontiguousarray(np.asarray(positions).reshape(-1, 3), dtype="f4")
        if len(positions) == 0:
            return []
        buffer = self.ctx.buffer(positions.tobytes())
        if program == "line" and size <= 1:  # GL's own one-pixel lines: half the cost of quads in llvmpipe
            vertex_array = self.ctx.vertex_array(self.programs["thin_line"], [(buffer, "3f", "in_position")])
            return [DrawCall(program, buffer, vertex_array, self.ctx.LINES, color, size, stage, cull,
                             shader="thin_line")]
        if program == "line":  # wider: segments (pairs of positions) as instances of a 4-vertex strip
            vertex_array = self.ctx.vertex_array(self.programs[program], [(buffer, "3f 3f/i", "in_start", "in_end")])
            return [DrawCall(program, buffer, vertex_array, self.ctx.TRIANGLE_STRIP, color, size, stage, cull,
                             instances=len(positions) // 2)]
        vertex_array = self.ctx.vertex_array(self.programs[program], [(buffer, "3f", "in_position")])
        mode = {"mesh": self.ctx.TRIANGLES, "point": self.ctx.POINTS, "sprite": self.ctx.POINTS}[program]
        return [DrawCall(program, buffer, vertex_array, mode, color, size, stage, cull)]

    def _build(self, view: ViewModel) -> list[DrawCall]:
        calls, lines, points = [], [], []
        for drawable in view.drawables:
            mesh, stage = drawable.mesh, "opaque" if drawable.fill[3] >= 1 else "translucent"
            calls += self._call("mesh", mesh.triangles, drawable.fill, stage=stage, cull=mesh.convex)
            outline = [((drawable.outline, drawable.outline_width, stage), mesh.outline)] \
                if drawable.outline_width > 0 else []
            dots = [((drawable.fill, drawable.point_size, stage), mesh.points)]
            if stage == "translucent":  # blended: drawn in order, right after their own surface
                calls += self._styled_calls("line", outline) + self._styled_calls("point", dots)
            else:
                lines += outline
                points += dots
        lines += [((b.color, b.width, "on_top" if b.on_top else "lines"), b.segments) for b in view.lines]
        points += [((b.color, b.size, "on_top" if b.on_top else "lines"), b.positions) for b in view.points]
        sprites = [call for batch in view.sprites
                   for call in self._call("sprite", batch.positions, batch.color, batch.radius)]
        return calls + sprites + self._styled_calls("line", lines) + self._styled_calls("point", points)

    def _styled_calls(self, program: str, batches) -> list[DrawCall]:
        """One call per style of ((colour, size, stage), positions) batches."""
        return [call for (color, size, stage), positions in _by_style(batches)
                for call in self._call(program, positions, color, size, stage)]

    def _build_grid(self, step: float) -> list[DrawCall]:
        """Grid lines on the z = 0 plane (first call), then the three axes."""
        extent = GRID_HALF_CELLS * step
        ticks = np.arange(-GRID_HALF_CELLS, GRID_HALF_CELLS + 1) * step
        along_x = np.stack([np.c_[np.full_like(ticks, -extent), ticks, 0 * ticks],
                            np.c_[np.full_like(ticks, extent), ticks, 0 * ticks]], axis=1)
        calls = self._call("line", np.concatenate([along_x, along_x[:, :, [1, 0, 2]]]), GRID, 1.0)
        for axis, color in enumerate(AXES):
            end = np.zeros(3)
            end[axis] = extent
            calls += self._call("line", np.stack([np.zeros(3), end]), color, 2.0)
        return calls


def _by_style(batches) -> list[tuple[tuple, np.ndarray]]:
    """((colour, size, stage), positions) batches of one style concatenated, in the
    order each style first appears: one draw call per style however many shapes and
    targets contribute (a call costs llvmpipe ~0.05 ms)."""
    groups: dict[tuple, list[np.ndarray]] = {}
    for (color, size, stage), positions in batches:
        groups.setdefault((tuple(color), size, stage), []).append(np.asarray(positions).reshape(-1, 3))
    return [(style, np.concatenate(parts)) for style, parts in groups.items()]


def grid_step_for(camera: OrbitCamera) -> float:
    """A power of ten that keeps about 10-100 grid cells in view."""
    return float(10 ** np.floor(np.log10(max(camera.distance, 1e-9) / 2)))
