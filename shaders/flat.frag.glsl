#version 330 core
// One colour for every fragment (lines).
uniform vec4 color;
out vec4 fragment_color;

void main() {
    fragment_color = color;
}
