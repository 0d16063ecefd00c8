#version 330 core
// A filled disc with a dark rim.
uniform vec4 color;
in vec2 local;
out vec4 fragment_color;

void main() {
    float radius = length(local);
    if (radius > 1.0) discard;
    fragment_color = radius > 0.7 ? vec4(0.05, 0.05, 0.05, color.a) : color;
}
