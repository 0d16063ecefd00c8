#version 330 core
// Each instance is one line segment (in_start, in_end), widened into a screen-space
// quad of `width` pixels by its four vertices (a triangle strip, gl_VertexID 0-3),
// after clipping it to the part in front of the camera (clip-space w > near_w).
// Widening here rather than in a geometry shader: llvmpipe runs geometry shaders
// several times slower (an outline of 5,900 segments took 3.3 ms that way).
uniform mat4 view_projection;
uniform vec2 viewport;
uniform float width;  // in pixels, the whole width
in vec3 in_start;
in vec3 in_end;
const float near_w = 1e-5;

void main() {
    vec4 start = view_projection * vec4(in_start, 1.0);
    vec4 end = view_projection * vec4(in_end, 1.0);
    if (start.w < near_w && end.w < near_w) {  // wholly behind the camera: a point outside the view
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
        return;
    }
    // Clip coordinates are linear along the segment: cut it where w = near_w.
    if (start.w < near_w) start = mix(start, end, (near_w - start.w) / (end.w - start.w));
    if (end.w < near_w) end = mix(end, start, (near_w - end.w) / (start.w - end.w));
    vec2 along = (end.xy / end.w - start.xy / start.w) * viewport;
    float length_pixels = length(along);
    vec2 across = length_pixels > 0.0 ? vec2(-along.y, along.x) / length_pixels : vec2(0.0, 1.0);
    vec2 offset = across * width / viewport;
    vec4 point = gl_VertexID < 2 ? start : end;
    float side = gl_VertexID % 2 == 0 ? 1.0 : -1.0;
    gl_Position = vec4(point.xy + side * offset * point.w, point.zw);
}
