#version 330 core
// Flat-shaded, two-sided surfaces: the face normal comes from screen-space
// derivatives, so meshes need no normals; both sides are lit alike.
uniform vec4 color;
uniform vec3 eye;
in vec3 world_position;
out vec4 fragment_color;

void main() {
    vec3 normal = normalize(cross(dFdx(world_position), dFdy(world_position)));
    vec3 to_eye = normalize(eye - world_position);
    vec3 light = normalize(to_eye + vec3(0.3, 0.2, 0.6));
    float lit = 0.35 + 0.65 * abs(dot(normal, light));
    fragment_color = vec4(color.rgb * lit, color.a);
}
