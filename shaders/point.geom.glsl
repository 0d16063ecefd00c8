#version 330 core
// Turns each point into a screen-space square of `size` pixels with local
// coordinates in [-1, 1] for the disc drawn by point.frag.glsl.
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
uniform vec2 viewport;
uniform float size;
out vec2 local;

void main() {
    vec4 center = gl_in[0].gl_Position;
    if (center.w <= 0.0) return;
    vec2 half_size = vec2(size) / viewport * center.w;
    for (int corner = 0; corner < 4; ++corner) {
        local = vec2(corner % 2 == 0 ? -1.0 : 1.0, corner < 2 ? -1.0 : 1.0);
        gl_Position = vec4(center.xy + local * half_size, center.zw);
        EmitVertex();
    }
    EndPrimitive();
}
