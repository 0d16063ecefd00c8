#version 330 core
// A sphere impostor: the disc of the square is the sphere seen from the camera, its
// normal in view space n = (x, y, sqrt(1 - x^2 - y^2)); lit by a light over the
// viewer's left shoulder (Lambert, with an ambient floor and a small highlight), the
// corners outside the disc discarded.
uniform vec4 color;
in vec2 local;
out vec4 fragment_color;

const vec3 LIGHT = normalize(vec3(-0.4, 0.6, 0.7));

void main() {
    float squared = dot(local, local);
    if (squared > 1.0) discard;
    vec3 normal = vec3(local, sqrt(1.0 - squared));
    float diffuse = max(dot(normal, LIGHT), 0.0);
    float highlight = pow(max(dot(reflect(-LIGHT, normal), vec3(0.0, 0.0, 1.0)), 0.0), 24.0);
    fragment_color = vec4(color.rgb * (0.3 + 0.7 * diffuse) + vec3(0.35 * highlight), color.a);
}
