#version 330 core
// Turns each particle centre into a square facing the camera, as wide as the
// particle's sphere: `clip_radius` is its radius through the projection (the
// projection's x and y scale times the radius), an offset in clip coordinates
// before the perspective divide, so the square shrinks with distance as the sphere.
// Local coordinates in [-1, 1] for the impostor drawn by sprite.frag.glsl.
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
uniform vec2 clip_radius;
out vec2 local;

void main() {
    vec4 center = gl_in[0].gl_Position;
    if (center.w <= 0.0) return;
    for (int corner = 0; corner < 4; ++corner) {
        local = vec2(corner % 2 == 0 ? -1.0 : 1.0, corner < 2 ? -1.0 : 1.0);
        gl_Position = vec4(center.xy + local * clip_radius, center.zw);
        EmitVertex();
    }
    EndPrimitive();
}
