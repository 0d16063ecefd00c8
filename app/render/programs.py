"""GLSL programs of the editor, read from ``shaders/*.glsl`` (the package data of
``sweeplab.shaders``) at run time, through ``importlib.resources``: the same from a
source tree, an editable install or a wheel."""

from __future__ import annotations

from importlib import resources

SHADER_DIRECTORY = resources.files("sweeplab.shaders")

PROGRAMS = {
    "mesh": {"vertex_shader": "position.vert", "fragment_shader": "mesh.frag"},
    "line": {"vertex_shader": "line.vert", "fragment_shader": "flat.frag"},
    "thin_line": {"vertex_shader": "position.vert", "fragment_shader": "flat.frag"},
    "point": {"vertex_shader": "position.vert", "geometry_shader": "point.geom", "fragment_shader": "point.frag"},
    "sprite": {"vertex_shader": "position.vert", "geometry_shader": "sprite.geom", "fragment_shader": "sprite.frag"},
    "imgui": {"vertex_shader": "imgui.vert", "fragment_shader": "imgui.frag"},
}
"""Program name -> moderngl stage keyword -> shader file stem (``.glsl`` added)."""


def source(stem: str) -> str:
    return (SHADER_DIRECTORY / f"{stem}.glsl").read_text(encoding="utf-8")


def build_program(ctx, name: str):
    """Compile and link one of ``PROGRAMS`` in the moderngl context ``ctx``."""
    return ctx.program(**{stage: source(stem) for stage, stem in PROGRAMS[name].items()})
