#version 330 core
// Dear ImGui fragments: vertex colour times the bound texture (the font atlas).
uniform sampler2D atlas;
in vec2 uv;
in vec4 vertex_color;
out vec4 fragment_color;

void main() {
    fragment_color = vertex_color * texture(atlas, uv);
}
