#version 330 core
// Dear ImGui vertices: pixel position, texture coordinate, packed RGBA colour.
uniform mat4 projection;
in vec2 in_position;
in vec2 in_uv;
in vec4 in_color;
out vec2 uv;
out vec4 vertex_color;

void main() {
    uv = in_uv;
    vertex_color = in_color;
    gl_Position = projection * vec4(in_position, 0.0, 1.0);
}
