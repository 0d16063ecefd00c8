#version 330 core
// Widens each line segment into a screen-space quad of `width` pixels, after
// clipping it to the part in front of the camera (clip-space w > near_w).
layout(lines) in;
layout(triangle_strip, max_vertices = 4) out;
uniform vec2 viewport;
uniform float width;
const float near_w = 1e-5;

void main() {
    vec4 start = gl_in[0].gl_Position;
    vec4 end = gl_in[1].gl_Position;
    if (start.w < near_w && end.w < near_w) return;
    // Clip coordinates are linear along the segment: cut it where w = near_w.
    if (start.w < near_w) start = mix(start, end, (near_w - start.w) / (end.w - start.w));
    if (end.w < near_w) end = mix(end, start, (near_w - end.w) / (start.w - end.w));
    vec2 along = (end.xy / end.w - start.xy / start.w) * viewport;
    float length_pixels = length(along);
    vec2 across = length_pixels > 0.0 ? vec2(-along.y, along.x) / length_pixels : vec2(0.0, 1.0);
    vec2 offset = across * width / viewport;
    gl_Position = vec4(start.xy + offset * start.w, start.zw); EmitVertex();
    gl_Position = vec4(start.xy - offset * start.w, start.zw); EmitVertex();
    gl_Position = vec4(end.xy + offset * end.w, end.zw); EmitVertex();
    gl_Position = vec4(end.xy - offset * end.w, end.zw); EmitVertex();
    EndPrimitive();
}
