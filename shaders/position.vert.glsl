#version 330 core
// World-space positions through the camera; shared by meshes, lines and points.
uniform mat4 view_projection;
in vec3 in_position;
out vec3 world_position;

void main() {
    world_position = in_position;
    gl_Position = view_projection * vec4(in_position, 1.0);
}
