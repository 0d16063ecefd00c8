"""Draws Dear ImGui's draw data with moderngl (no PyOpenGL).

ImGui >= 1.92 texture protocol: the renderer creates and updates textures that
ImGui asks for (``BackendFlags_.renderer_has_textures``).  Vertices are
``pos 2f, uv 2f, color 4 x u8`` (``imgui.VERTEX_SIZE`` bytes); indices are
``imgui.INDEX_SIZE`` bytes each.  Textures are sampled NEAREST: ImGui draws its
glyphs at the size they were rasterised (no scaling), and under llvmpipe bilinear
sampling nearly doubles the cost of the panels (6.1 -> 3.7 ms a frame measured).
"""

from __future__ import annotations

import ctypes

import moderngl
import numpy as np
from imgui_bundle import imgui

from sweeplab.render.programs import build_program


class ImGuiRenderer:
    """Renders ImGui frames into the currently bound framebuffer of a moderngl context."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.program = build_program(ctx, "imgui")
        self.vertex_buffer = ctx.buffer(reserve=1 << 16, dynamic=True)
        self.index_buffer = ctx.buffer(reserve=1 << 16, dynamic=True)
        index_type = {2: "u2", 4: "u4"}[imgui.INDEX_SIZE]
        self.vertex_array = ctx.vertex_array(
            self.program, [(self.vertex_buffer, "2f 2f 4f1", "in_position", "in_uv", "in_color")],
            index_buffer=self.index_buffer, index_element_size=int(index_type[1]))
        self.textures: dict[int, moderngl.Texture] = {}
        self._next_texture_id = 1
        io = imgui.get_io()
        io.backend_flags |= imgui.BackendFlags_.renderer_has_textures
        platform = imgui.get_platform_io()
        platform.renderer_texture_max_width = platform.renderer_texture_max_height = ctx.info["GL_MAX_TEXTURE_SIZE"]

    def _update_textures(self) -> None:
        for texture in imgui.get_platform_io().textures:
            status = texture.status
            if status == imgui.ImTextureStatus.want_create or status == imgui.ImTextureStatus.want_updates:
                pixels = np.asarray(texture.get_pixels_array(), dtype=np.uint8)
                size = (texture.width, texture.height)
                if status == imgui.ImTextureStatus.want_create:
                    gl_texture = self.ctx.texture(size, 4, pixels.tobytes())
                    gl_texture.filter = (self.ctx.NEAREST, self.ctx.NEAREST)
                    texture_id = self._next_texture_id
                    self._next_texture_id += 1
                    self.textures[texture_id] = gl_texture
                    texture.set_tex_id(texture_id)
                else:
                    self.textures[texture.tex_id].write(pixels.tobytes())
                texture.status = imgui.ImTextureStatus.ok
            elif status == imgui.ImTextureStatus.want_destroy:
                self.textures.pop(texture.tex_id).release()
                texture.set_tex_id(0)
                texture.status = imgui.ImTextureStatus.destroyed

    def render(self, draw_data) -> None:
        self._update_textures()
        width, height = draw_data.display_size
        scale_x, scale_y = draw_data.framebuffer_scale
        frame_width, frame_height = int(width * scale_x), int(height * scale_y)
        if frame_width <= 0 or frame_height <= 0:
            return
        ctx = self.ctx
        ctx.viewport = (0, 0, frame_width, frame_height)
        ctx.enable_only(ctx.BLEND)
        ctx.blend_func = ctx.SRC_ALPHA, ctx.ONE_MINUS_SRC_ALPHA
        left, top = draw_data.display_pos
        projection = np.array([[2 / width, 0, 0, 0], [0, -2 / height, 0, 0], [0, 0, -1, 0],
                               [-(2 * left + width) / width, (2 * top + height) / height, 0, 1]], "f4")
        self.program["projection"].write(projection.tobytes())
        for commands in draw_data.cmd_lists:
            vertices = ctypes.string_at(commands.vtx_buffer.data_address(),
                                        commands.vtx_buffer.size() * imgui.VERTEX_SIZE)
            indices = ctypes.string_at(commands.idx_buffer.data_address(),
                                       commands.idx_buffer.size() * imgui.INDEX_SIZE)
            if len(vertices) > self.vertex_buffer.size:
                self.vertex_buffer.orphan(len(vertices) * 2)
            if len(indices) > self.index_buffer.size:
                self.index_buffer.orphan(len(indices) * 2)
            self.vertex_buffer.write(vertices)
            self.index_buffer.write(indices)
            for command in commands.cmd_buffer:
                texture = self.textures.get(command.tex_ref.get_tex_id())
                if texture is not None:
                    texture.use(0)
                x0, y0, x1, y1 = command.clip_rect
                x0, y0 = (x0 - left) * scale_x, (y0 - top) * scale_y
                x1, y1 = (x1 - left) * scale_x, (y1 - top) * scale_y
                if x1 <= x0 or y1 <= y0:
                    continue
                ctx.scissor = (int(x0), int(frame_height - y1), int(x1 - x0), int(y1 - y0))
                self.vertex_array.render(vertices=command.elem_count, first=command.idx_offset)
        ctx.scissor = (0, 0, frame_width, frame_height)  # not None: that is the size the window was created with
        ctx.enable(ctx.DEPTH_TEST)
