"""Copy as C++ / Rust test (#22, #34): the generated tests compile and pass against an
implementation of the sweep in that language (two spheres: the quadratic), every
float exact; in float32 (#34) the inputs are the nearest float32s, and a float32
implementation passes the float32 tests and fails the float64 ones."""

import copy
import math
import re
import shutil
import struct
import subprocess

import numpy as np
import pytest

from sweeplab.scene.fixture import DEFAULT_TOLERANCES, FixtureError
from sweeplab.scene.foreign_tests import FLOAT32_LENGTH_RTOL, FLOAT32_NORMAL_ATOL, cpp_source, rust_source
from sweeplab.scene.model import Scene, SceneObject
from sweeplab.scene.mesh_sources import default_source
from sweeplab.scene.shape_kinds import KINDS

SCENE = Scene([SceneObject("ball", "sphere", {"center": [0.1, -0.0, 5.000000000000001], "radius": 1.0}),
               SceneObject("rock", "sphere", {"center": [0.0, 0.0, 0.0], "radius": 0.7}),
               SceneObject("far", "sphere", {"center": [9.0, 0.0, 0.0], "radius": 1.0}),
               SceneObject("wall", "plane", {"normal": [0.0, 0.0, 1.0], "offset": -5.0})],
              "ball", [0.0, 0.0, -10.0])
PRECISION_SCENE = Scene([SceneObject("ball", "sphere", {"center": [1000.1, 1000.2, 5.000000000000001], "radius": 1.0}),
                         SceneObject("rock", "sphere", {"center": [1000.0, 1000.0, 0.0], "radius": 0.7}),
                         SceneObject("far", "sphere", {"center": [1009.0, 1000.0, 0.0], "radius": 1.0}),
                         SceneObject("inside", "sphere", {"center": [1000.3, 1000.1, 4.6], "radius": 0.5})],
                        "ball", [0.3, -0.1, -10.0])
"""A hit with no zero coordinate (rock: the issue's 8 checks), a miss and an overlap at
t = 0, 1000 units from the origin (a float32 ulp there is 6.1e-5)."""

CPP_PRELUDE = r"""
#include <cmath>
#include <cstdio>
#include <limits>
#define CHECK(condition) \
    do { ++checks; if (!(condition)) { ++failures; std::printf("FAILED %s\n", #condition); } } while (0)
#define JOIN2(a, b) a##b
#define JOIN(a, b) JOIN2(a, b)
#define TEST_CASE(name) static void JOIN(test_, __LINE__)(); \
    static const int JOIN(run_, __LINE__) = (JOIN(test_, __LINE__)(), 0); static void JOIN(test_, __LINE__)()
"""
CPP_TYPES = r"""
static int failures = 0, checks = 0;
struct Vec3 { Real x, y, z; };
struct Sphere { Vec3 center; Real radius; };
struct Answer { bool hit; Real t; Vec3 point, normal; Real depth; };
"""
CPP_HARNESS = CPP_TYPES + r"""
// Two spheres in the arithmetic E (double or float), on the fields as given:
// |o + t d| = r with o = m - s, r = m.radius + s.radius: a t^2 + 2 b t + c = 0,
// t = c / (-b + sqrt(b^2 - a c)); c <= 0 is an overlap at t = 0, depth r - |o|.
static Answer my_sweep(const Sphere& m, const Sphere& s, const Vec3& d) {
    using E = Arithmetic;
    const E ox = E(m.center.x) - E(s.center.x), oy = E(m.center.y) - E(s.center.y), oz = E(m.center.z) - E(s.center.z);
    const E dx = E(d.x), dy = E(d.y), dz = E(d.z), r = E(m.radius) + E(s.radius);
    const E a = dx*dx + dy*dy + dz*dz, b = ox*dx + oy*dy + oz*dz, c = ox*ox + oy*oy + oz*oz - r*r;
    const E disc = b*b - a*c;
    E t = 0, depth = 0;
    if (c <= 0) {
        depth = r - std::sqrt(ox*ox + oy*oy + oz*oz);
    } else {
        if (disc < 0 || b >= 0) return {false, 0, {}, {}, 0};
        t = c / (-b + std::sqrt(disc));
        if (t > 1) return {false, 0, {}, {}, 0};
    }
    const E x = ox + t*dx, y = oy + t*dy, z = oz + t*dz, length = std::sqrt(x*x + y*y + z*z);
    const E nx = x/length, ny = y/length, nz = z/length, sr = E(s.radius);
    return {true, Real(t), {Real(E(s.center.x) + nx*sr), Real(E(s.center.y) + ny*sr), Real(E(s.center.z) + nz*sr)},
            {Real(nx), Real(ny), Real(nz)}, Real(depth)};
}
"""

RUST_STRUCTS = r"""
#[derive(Clone, Copy)] pub struct Vec3 { pub x: Real, pub y: Real, pub z: Real }
pub struct Sphere { pub center: Vec3, pub radius: Real }
#[allow(dead_code)]  // depth: read by the tests of an overlap only
pub struct Answer { pub hit: bool, pub t: Real, pub point: Vec3, pub normal: Vec3, pub depth: Real }
"""
RUST_HARNESS = RUST_STRUCTS + r"""
// Two spheres in the arithmetic E (f64 or f32), as the C++ harness's my_sweep.
pub fn my_sweep(m: &Sphere, s: &Sphere, d: Vec3) -> Answer {
    type E = Arithmetic;
    let (ox, oy, oz) = (m.center.x as E - s.center.x as E, m.center.y as E - s.center.y as E,
                        m.center.z as E - s.center.z as E);
    let (dx, dy, dz, r) = (d.x as E, d.y as E, d.z as E, m.radius as E + s.radius as E);
    let (a, b, c) = (dx*dx + dy*dy + dz*dz, ox*dx + oy*dy + oz*dz, ox*ox + oy*oy + oz*oz - r*r);
    let disc = b*b - a*c;
    let zero = Vec3 { x: 0.0, y: 0.0, z: 0.0 };
    let miss = Answer { hit: false, t: 0.0, point: zero, normal: zero, depth: 0.0 };
    let (mut t, mut depth): (E, E) = (0.0, 0.0);
    if c <= 0.0 {
        depth = r - (ox*ox + oy*oy + oz*oz).sqrt();
    } else {
        if disc < 0.0 || b >= 0.0 { return miss; }
        t = c / (-b + disc.sqrt());
        if t > 1.0 { return miss; }
    }
    let (x, y, z) = (ox + t*dx, oy + t*dy, oz + t*dz);
    let length = (x*x + y*y + z*z).sqrt();
    let (nx, ny, nz, sr) = (x/length, y/length, z/length, s.radius as E);
    Answer { hit: true, t: t as Real,
             point: Vec3 { x: (s.center.x as E + nx*sr) as Real, y: (s.center.y as E + ny*sr) as Real,
                           z: (s.center.z as E + nz*sr) as Real },
             normal: Vec3 { x: nx as Real, y: ny as Real, z: nz as Real }, depth: depth as Real }
}
"""

CPP_TURNING_HARNESS = CPP_TYPES + r"""
enum class Interpolation { Slerp, Nlerp };
// A sphere turning about `p` against a resting sphere, in the arithmetic E, from the generated comment alone:
// its centre is at p + t d + R(t) (c0 - p), R(t) a turn about w / |w| by t |w| (slerp) or by
// 2 atan2(t sin(|w|/2), 1 - t + t cos(|w|/2)) (nlerp); conservative advancement: t grows by the gap over
// the bound on the centre's speed, |d| + |c0 - p| times |w| (slerp) or 4 tan(|w|/4) (nlerp).
static Answer my_sweep(const Sphere& m, const Sphere& s, const Vec3& d, const Vec3& w, const Vec3& p,
                       Interpolation how) {
    using E = Arithmetic;
    const E dx = E(d.x), dy = E(d.y), dz = E(d.z), wx = E(w.x), wy = E(w.y), wz = E(w.z);
    const E angle = std::sqrt(wx*wx + wy*wy + wz*wz), kx = wx/angle, ky = wy/angle, kz = wz/angle;
    const E vx = E(m.center.x) - E(p.x), vy = E(m.center.y) - E(p.y), vz = E(m.center.z) - E(p.z);
    const E spin = how == Interpolation::Slerp ? angle : 4 * std::tan(angle / 4);
    const E speed = std::sqrt(dx*dx + dy*dy + dz*dz) + spin * std::sqrt(vx*vx + vy*vy + vz*vz);
    const E r = E(m.radius) + E(s.radius), sx = E(s.center.x), sy = E(s.center.y), sz = E(s.center.z);
    const E close = 8 * std::numeric_limits<E>::epsilon() * (std::abs(sx) + std::abs(sy) + std::abs(sz) + r);
    E t = 0;
    for (int step = 0; step < 100000 && t <= 1; ++step) {
        const E turned = how == Interpolation::Slerp ? t * angle
            : 2 * std::atan2(t * std::sin(angle / 2), 1 - t + t * std::cos(angle / 2));
        const E c = std::cos(turned), n = std::sin(turned), along = (kx*vx + ky*vy + kz*vz) * (1 - c);
        const E x = E(p.x) + t*dx + vx*c + (ky*vz - kz*vy)*n + kx*along - sx;
        const E y = E(p.y) + t*dy + vy*c + (kz*vx - kx*vz)*n + ky*along - sy;
        const E z = E(p.z) + t*dz + vz*c + (kx*vy - ky*vx)*n + kz*along - sz;
        const E length = std::sqrt(x*x + y*y + z*z), gap = length - r;
        if (gap <= close) {
            const E nx = x/length, ny = y/length, nz = z/length, sr = E(s.radius);
            return {true, Real(t), {Real(sx + nx*sr), Real(sy + ny*sr), Real(sz + nz*sr)},
                    {Real(nx), Real(ny), Real(nz)}, Real(t == 0 && gap < 0 ? -gap : E(0))};
        }
        t += gap / speed;
    }
    return {false, 0, {}, {}, 0};
}
"""
RUST_TURNING_HARNESS = RUST_STRUCTS + r"""
#[allow(dead_code)]  // a module's tests name one of the two
pub enum Interpolation { Slerp, Nlerp }
// The C++ harness's turning my_sweep: conservative advancement of a turning sphere's centre.
pub fn my_sweep(m: &Sphere, s: &Sphere, d: Vec3, w: Vec3, p: Vec3, how: Interpolation) -> Answer {
    type E = Arithmetic;
    let (dx, dy, dz, wx, wy, wz) = (d.x as E, d.y as E, d.z as E, w.x as E, w.y as E, w.z as E);
    let angle = (wx*wx + wy*wy + wz*wz).sqrt();
    let (kx, ky, kz) = (wx/angle, wy/angle, wz/angle);
    let (vx, vy, vz) = (m.center.x as E - p.x as E, m.center.y as E - p.y as E, m.center.z as E - p.z as E);
    let slerp = matches!(how, Interpolation::Slerp);
    let spin = if slerp { angle } else { 4.0 * (angle / 4.0).tan() };
    let speed = (dx*dx + dy*dy + dz*dz).sqrt() + spin * (vx*vx + vy*vy + vz*vz).sqrt();
    let (r, sx, sy, sz) = (m.radius as E + s.radius as E, s.center.x as E, s.center.y as E, s.center.z as E);
    let close = 8.0 * E::EPSILON * (sx.abs() + sy.abs() + sz.abs() + r);
    let zero = Vec3 { x: 0.0, y: 0.0, z: 0.0 };
    let mut t: E = 0.0;
    for _ in 0..100000 {
        if t > 1.0 { break; }
        let turned = if slerp { t * angle }
                     else { 2.0 * (t * (angle / 2.0).sin()).atan2(1.0 - t + t * (angle / 2.0).cos()) };
        let (c, n) = (turned.cos(), turned.sin());
        let along = (kx*vx + ky*vy + kz*vz) * (1.0 - c);
        let x = p.x as E + t*dx + vx*c + (ky*vz - kz*vy)*n + kx*along - sx;
        let y = p.y as E + t*dy + vy*c + (kz*vx - kx*vz)*n + ky*along - sy;
        let z = p.z as E + t*dz + vz*c + (kx*vy - ky*vx)*n + kz*along - sz;
        let length = (x*x + y*y + z*z).sqrt();
        let gap = length - r;
        if gap <= close {
            let (nx, ny, nz, sr) = (x/length, y/length, z/length, s.radius as E);
            return Answer { hit: true, t: t as Real,
                            point: Vec3 { x: (sx + nx*sr) as Real, y: (sy + ny*sr) as Real, z: (sz + nz*sr) as Real },
                            normal: Vec3 { x: nx as Real, y: ny as Real, z: nz as Real },
                            depth: (if t == 0.0 && gap < 0.0 { -gap } else { 0.0 }) as Real };
        }
        t += gap / speed;
    }
    Answer { hit: false, t: 0.0, point: zero, normal: zero, depth: 0.0 }
}
"""

SUITES = {  # (the tests' precision, the implementation's arithmetic)
    "double_engine": ("float64", "double"),
    "float_engine_float64_tests": ("float64", "float"),
    "float_engine": ("float32", "float"),
    "double_engine_float32_tests": ("float32", "double"),
}
RUST_TYPES = {"double": "f64", "float": "f32", "float64": "f64", "float32": "f32"}


def compiler(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed")
    return found


def cpp_program(sources: dict[str, str], arithmetic: dict[str, str], precision: dict[str, str],
                harness: str = CPP_HARNESS) -> str:
    """One translation unit: a namespace per suite with its own counters, structs of
    its tests' precision and a sphere sweep in its arithmetic (``harness``: linear, or
    ``CPP_TURNING_HARNESS``); main prints each."""
    parts = [CPP_PRELUDE]
    for name, source in sources.items():
        real = "double" if precision[name] == "float64" else "float"
        parts += [f"namespace {name} {{ using Real = {real}; using Arithmetic = {arithmetic[name]};",
                  harness, source, "}"]
    parts.append("int main() {\n    int failed = 0;")
    parts += [f'    std::printf("{name}: %d checks, %d failed\\n", {name}::checks, {name}::failures); '
              f"failed += {name}::failures;" for name in sources]
    parts.append("    return failed != 0;\n}\n")
    return "\n".join(parts)


def run_cpp(tmp_path, program: str) -> str:
    (tmp_path / "test.cpp").write_text(program)
    built = subprocess.run([compiler("g++"), "-std=c++17", "-Wall", "-Wextra", "-Werror", "-o",
                            str(tmp_path / "test"), str(tmp_path / "test.cpp")], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-3000:]
    return subprocess.run([str(tmp_path / "test")], capture_output=True, text=True).stdout


def rust_program(sources: dict[str, str], arithmetic: dict[str, str], precision: dict[str, str],
                 harness: str = RUST_HARNESS) -> str:
    parts = []
    for name, source in sources.items():
        parts += [f"mod {name} {{ type Real = {RUST_TYPES[precision[name]]}; "
                  f"type Arithmetic = {RUST_TYPES[arithmetic[name]]};", harness, source, "}"]
    return "\n".join(parts)


def run_rust(tmp_path, program: str) -> str:
    (tmp_path / "lib.rs").write_text(program)
    built = subprocess.run([compiler("rustc"), "--edition", "2021", "--test", "-D", "warnings", "-o",
                            str(tmp_path / "tests"), str(tmp_path / "lib.rs")], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-3000:]
    ran = subprocess.run([str(tmp_path / "tests"), "--test-threads", "1"], capture_output=True, text=True)
    return ran.stdout


def suites(write, scene: Scene) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    sources = {name: write(scene, "my_sweep", precision) for name, (precision, _) in SUITES.items()}
    return (sources, {name: arithmetic for name, (_, arithmetic) in SUITES.items()},
            {name: precision for name, (precision, _) in SUITES.items()})


def test_the_cpp_tests_in_both_precisions_against_double_and_float_implementations(tmp_path):
    """#34: compiled against a float32 implementation, the float64 tests fail (rock: 6
    of its 8 checks, all but `hit` and normal.z = 0.988, which moves at second order);
    the float32 tests pass against it, and against a float64 implementation given the
    same float32 inputs.  The overlap checks t = 0 and the depth."""
    output = run_cpp(tmp_path, cpp_program(*suites(cpp_source, PRECISION_SCENE)))
    lines = dict(line.split(": ", 1) for line in output.splitlines() if ": " in line and " checks" in line)
    assert lines == {"double_engine": "18 checks, 0 failed", "float_engine_float64_tests": "18 checks, 13 failed",
                     "float_engine": "18 checks, 0 failed",
                     "double_engine_float32_tests": "18 checks, 0 failed"}, output
    failed = [re.search(r"answer\.([\w.]+) ", line).group(1) for line in output.splitlines()
              if line.startswith("FAILED")]
    rock = ["t", "point.x", "point.y", "point.z", "normal.x", "normal.y"]
    inside = ["point.x", "point.y", "point.z", "normal.x", "normal.y", "normal.z", "depth"]  # t = 0 exactly
    assert failed == rock + inside, output


def test_the_rust_tests_in_both_precisions_against_f64_and_f32_implementations(tmp_path):
    output = run_rust(tmp_path, rust_program(*suites(rust_source, PRECISION_SCENE)))
    results = dict(re.findall(r"^test (\w+::\w+) \.\.\. (\w+)$", output, flags=re.MULTILINE))
    assert len(results) == 12, output
    failed = sorted(name for name, result in results.items() if result == "FAILED")
    assert failed == ["float_engine_float64_tests::sweeplab_ball_against_inside",
                      "float_engine_float64_tests::sweeplab_ball_against_rock"], output


def turning_scene(interpolation: str) -> Scene:
    """PRECISION_SCENE's ball swinging as it falls: a turn of 0.98 rad about (0.9, 0, 0.4)
    about a pivot 2.25 above its centre (#35)."""
    scene = copy.deepcopy(PRECISION_SCENE)
    scene.rotation, scene.pivot, scene.interpolation = [0.9, 0.0, 0.4], [1000.1, 1000.2, 7.25], interpolation
    return scene


def turning_suites(write) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """``suites`` of the turning scene, slerp and nlerp, a namespace / module each."""
    found: tuple[dict[str, str], dict[str, str], dict[str, str]] = ({}, {}, {})
    for interpolation in ("slerp", "nlerp"):
        for part, more in zip(found, suites(write, turning_scene(interpolation)), strict=True):
            part.update({f"{interpolation}_{name}": value for name, value in more.items()})
    return found


def test_turning_cpp_tests_pass_against_a_turning_implementation_written_from_their_comment(tmp_path):
    """#35: a conservative advancement of the turning ball, written in C++ from the
    generated comment alone (pivot, rotation vector, slerp or nlerp), passes the
    turning tests in double and, on float32 inputs, in float; in float it fails the
    float64 tests."""
    output = run_cpp(tmp_path, cpp_program(*turning_suites(cpp_source), harness=CPP_TURNING_HARNESS))
    lines = dict(line.split(": ", 1) for line in output.splitlines() if ": " in line and " checks" in line)
    assert set(lines) == {f"{interpolation}_{name}" for interpolation in ("slerp", "nlerp") for name in SUITES}
    for name, line in lines.items():
        checks, failed = (int(number) for number in re.findall(r"\d+", line))
        assert checks == 18 and (failed > 0) == name.endswith("float_engine_float64_tests"), output


def test_turning_rust_tests_pass_against_a_turning_implementation(tmp_path):
    output = run_rust(tmp_path, rust_program(*turning_suites(rust_source), harness=RUST_TURNING_HARNESS))
    results = dict(re.findall(r"^test (\w+::\w+) \.\.\. (\w+)$", output, flags=re.MULTILINE))
    assert len(results) == 24, output
    failed = {name.split("::")[0] for name, result in results.items() if result == "FAILED"}
    assert failed == {"slerp_float_engine_float64_tests", "nlerp_float_engine_float64_tests"}, output


def test_a_turning_tests_header_and_arguments(tmp_path):
    """The comment says how the shape moves and what to provide; the pivot the scene
    leaves to the centroid is written out (the engine cannot guess it); float32 rounds
    the rotation and the pivot and says so; a linear scene's tests are as before."""
    scene = turning_scene("slerp")
    scene.pivot = None
    cpp, rust = cpp_source(scene, "f"), rust_source(scene, "f", "float32")
    assert "pivot + t direction + R(t) (x - pivot)" in cpp and "Interpolation::Slerp: R(t) = exp(t [rotation]x)" in cpp
    assert "Provide: enum Interpolation { Slerp, Nlerp } and\n// f(moving, target, direction, rotation, pivot, " \
           "interpolation) -> {hit, t, point, normal, depth}." in cpp
    assert f"const Vec3 pivot{{{', '.join(float(v).hex() for v in [1000.1, 1000.2, 5.000000000000001])}}};" in cpp
    assert "const Vec3 rotation{0x1.ccccccccccccdp-1, 0x0.0p+0, 0x1.999999999999ap-2};" in cpp
    assert cpp.count("f(moving, target, direction, rotation, pivot, Interpolation::Slerp);") == 3
    assert "let rotation = Vec3 { x: f32::from_bits(0x3f666666), y: f32::from_bits(0x00000000), " \
           "z: f32::from_bits(0x3ecccccd) };" in rust  # 0.9 and 0.4 rounded
    assert "let pivot = Vec3 { x: f32::from_bits(0x447a0666), y: f32::from_bits(0x447a0ccd), " \
           "z: f32::from_bits(0x40a00000) };" in rust  # the ball's centre as written: 1000.1 rounded, ...
    exact = Scene([SceneObject("ball", "sphere", {"center": [0.0, 0.0, 5.0], "radius": 1.0}),
                   SceneObject("rock", "sphere", {"center": [0.0, 0.0, 0.0], "radius": 0.5})], "ball",
                  [0.0, 0.0, -10.0], rotation=[0.9, 0.0, 0.5], pivot=[0.1, 0.0, 7.0])
    assert "// Rounded to the nearest float32: rotation.x 0.9 -> 0.8999999761581421; pivot.x 0.1 -> " \
           "0.10000000149011612." in rust_source(exact, "f", "float32")
    assert "let answer = f(&moving, &target, direction, rotation, pivot, Interpolation::Slerp);" in rust
    linear = cpp_source(PRECISION_SCENE, "f")
    assert "rotation" not in linear and "Interpolation" not in linear
    assert "Provide: f(moving, target, direction) -> {hit, t, point, normal, depth}." in linear


def test_float32_turning_t_tolerance_is_over_the_fastest_point_of_the_core():
    """Turning in place (no translation) a t tolerance over |direction| would be 1
    (unchecked): over the bound on the core's speed, |direction| + angle times the
    farthest core point from the pivot (a capsule of half-length 2: 2 * 1.5 = 3), it is
    FLOAT32_LENGTH_RTOL S / 3, S = 2 the largest coordinate."""
    bar = SceneObject("bar", "capsule", {"a": [-2.0, 0.0, 0.0], "b": [2.0, 0.0, 0.0], "radius": 0.05})
    ball = SceneObject("ball", "sphere", {"center": [0.0, 1.5, 0.0], "radius": 0.2})
    scene = Scene([bar, ball], "bar", [0.0, 0.0, 0.0], rotation=[0.0, 0.0, 1.5])
    bound = re.search(r"answer\.t - \S+\) <= (\S+)f\)", cpp_source(scene, "f", "float32")).group(1)
    assert np.float32(bound) == np.float32(FLOAT32_LENGTH_RTOL * 2.0 / 3.0)


def test_float32_literals_are_exact_and_inputs_rounded_to_nearest():
    """0.1 is no float32: written as its nearest, 0x1.99999ap-4f (13421773 / 2^27), and
    the comment says so; every literal reads back as a float32 exactly."""
    cpp, rust = cpp_source(SCENE, "f", "float32"), rust_source(SCENE, "f", "float32")
    assert "Sphere{{0x1.99999ap-4f, -0x0p+0f, 0x1.4p+2f}, 0x1p+0f}" in cpp
    assert "moving.center.x 0.1 -> 0.10000000149011612" in cpp
    assert "moving.center.z 5.000000000000001 -> 5.0" in cpp and "target.radius 0.7 -> 0.699999988079071" in cpp
    assert "x: f32::from_bits(0x3dcccccd)" in rust and "moving.center.x 0.1 -> 0.10000000149011612" in rust
    for literal in re.findall(r"-?0x[0-9a-f.]+p[-+]\d+f", cpp):
        value = float.fromhex(literal[:-1])
        assert float(np.float32(value)) == value, literal
    cpp_values = [float.fromhex(literal[:-1]) for literal in re.findall(r"-?0x[0-9a-f.]+p[-+]\d+f", cpp)]
    rust_values = [struct.unpack("<f", struct.pack("<I", int(bits, 16)))[0]
                   for bits in re.findall(r"f32::from_bits\(0x([0-9a-f]{8})\)", rust)]
    assert cpp_values == rust_values and len(cpp_values) > 20  # the same numbers in both languages
    assert float(np.float32(0.1)) == 13421773 / 2**27 == float.fromhex("0x1.99999ap-4")


def test_float32_expected_values_are_the_float64_answer_to_the_rounded_inputs():
    """Expected t of rock: the quadratic in float64 on the float32 inputs, then rounded."""
    ball, rock = np.float32([1000.1, 1000.2, 5.000000000000001]), np.float32([1000.0, 1000.0, 0.0])
    o, d, r = ball.astype(float) - rock, np.float32([0.3, -0.1, -10]).astype(float), 1.0 + float(np.float32(0.7))
    a, b, c = d @ d, o @ d, o @ o - r * r
    t = c / (-b + math.sqrt(b * b - a * c))
    written = re.search(r"answer\.t - (\S+)f\)", cpp_source(PRECISION_SCENE, "f", "float32")).group(1)
    assert float.fromhex(written) == float(np.float32(t))


def test_float32_tolerances_scale_with_the_scene_and_the_motion():
    """t: 128 float32 ulps of the scale (rock's test: ball.center.y, 1000.2) over
    |direction|; point and depth: of the scale; normal: 1e-3; at most 1 for t; float64
    keeps the fixture's."""
    cpp = cpp_source(PRECISION_SCENE, "f", "float32")
    rock = cpp[cpp.index("against rock"):cpp.index("against far")]
    bounds = dict(re.findall(r"answer\.(\w+)(?:\.x)? - \S+\) <= (\S+)f\)", rock))
    scale, motion = float(np.float32(1000.2)), math.hypot(*np.float32([0.3, -0.1, -10.0]).astype(float))
    assert np.float32(bounds["t"]) == np.float32(FLOAT32_LENGTH_RTOL * scale / motion)  # 1.5e-3
    assert np.float32(bounds["point"]) == np.float32(FLOAT32_LENGTH_RTOL * scale)  # 1.5e-2
    assert np.float32(bounds["normal"]) == np.float32(FLOAT32_NORMAL_ATOL) and FLOAT32_LENGTH_RTOL == 2.0**-16
    inside = cpp[cpp.index("against inside"):]  # its scale: inside.center.x, 1000.3
    depth = re.search(r"answer\.depth - \S+\) <= (\S+)f\)", inside).group(1)
    assert np.float32(depth) == np.float32(FLOAT32_LENGTH_RTOL * float(np.float32(1000.3)))

    def t_bound(z: float, direction: list[float]) -> str:  # ball z above a 0.7 rock at the origin
        scene = Scene([SceneObject("ball", "sphere", {"center": [0.0, 0.0, z], "radius": 1.0}),
                       SceneObject("rock", "sphere", {"center": [0.0, 0.0, 0.0], "radius": 0.7})], "ball", direction)
        return re.search(r"answer\.t - \S+\) <= (\S+)f\)", cpp_source(scene, "f", "float32")).group(1)

    assert np.float32(t_bound(1.7001, [0.0, 0.0, -2e-4])) == np.float32(FLOAT32_LENGTH_RTOL * np.float32(1.7001) / 2e-4)
    assert t_bound(1.7000001, [0.0, 0.0, -2e-7]) == "1.0"  # 130: a motion of a few ulps fixes no t
    for ratio in (0.99, 1.01):  # the bound just inside and just beyond 1 (t at 0.5)
        motion = FLOAT32_LENGTH_RTOL * 1.7 / ratio
        z = float(np.float32(1.7 + 0.5 * motion))
        written = np.float32(t_bound(z, [0.0, 0.0, -motion]))
        assert written == (np.float32(FLOAT32_LENGTH_RTOL * z / float(np.float32(motion))) if ratio < 1 else 1.0)
        assert (written < 1.0) == (ratio < 1)
    assert t_bound(1.5, [0.0, 0.0, 0.0]) == "1.0"  # no motion: an overlap at t = 0, t unchecked
    float64 = dict(re.findall(r"answer\.(\w+)(?:\.x)? - \S+\) <= (\S+)\)", cpp_source(PRECISION_SCENE, "f")))
    assert {name: float(value) for name, value in float64.items()} == {
        "t": DEFAULT_TOLERANCES["t"], "point": DEFAULT_TOLERANCES["point"], "normal": DEFAULT_TOLERANCES["normal"],
        "depth": DEFAULT_TOLERANCES["penetration_depth"]}


def test_bad_precision_and_beyond_float32_are_refused_by_name():
    with pytest.raises(ValueError, match="precision must be one of .*'float16'"):
        cpp_source(SCENE, "f", "float16")
    with pytest.raises(ValueError, match="precision"):
        rust_source(SCENE, "f", "double")
    huge = Scene([SCENE.objects[0], SceneObject("sun", "sphere", {"center": [0.0, 0.0, 0.0], "radius": 1e39})],
                 "ball", SCENE.direction)
    with pytest.raises(FixtureError, match="object 'sun': target.radius = 1e\\+39 is beyond float32's range"):
        cpp_source(huge, "f", "float32")
    assert "TEST_CASE" in cpp_source(huge, "f")
    corner, u, w = np.full(3, 1e7), np.array([0.6, 0.8, 0.0]) * 3.3, np.array([0.48, -0.36, 0.8]) * 3.3
    tilted = {"vertices": [corner.tolist(), (corner + u).tolist(), (corner + u + w).tolist(), (corner + w).tolist()]}
    warped = Scene([SceneObject("ball", "sphere", {"center": (corner + [1.0, 0.5, 4.0]).tolist(), "radius": 0.5}),
                    SceneObject("tilted", "polygon", tilted)], "ball", [0.0, 0.0, -6.0])
    assert "TEST_CASE" in cpp_source(warped, "f")  # planar in float64; float32's ulp there is 1
    with pytest.raises(FixtureError, match="object 'tilted' in float32: vertices must be planar"):
        cpp_source(warped, "f", "float32")


ALL_KINDS_CPP = r"""
#define CHECK(condition) static_cast<void>(condition)
#define TEST_CASE(name) [[maybe_unused]] static void JOIN(test_, __LINE__)()
#define JOIN2(a, b) a##b
#define JOIN(a, b) JOIN2(a, b)
struct Vec3 { Real x, y, z; };
struct Sphere { Vec3 center; Real radius; };  struct Capsule { Vec3 a, b; Real radius; };
struct Point { Vec3 p; };  struct Segment { Vec3 a, b; };  struct Plane { Vec3 normal; Real offset; };
struct Triangle { Vec3 a, b, c; };  struct Polygon { std::vector<Vec3> vertices; };
struct ConvexHull { std::vector<Vec3> vertices; };
struct TriangleMesh { std::vector<Vec3> vertices; std::vector<std::vector<int>> triangles; };
struct Answer { bool hit; Real t; Vec3 point, normal; Real depth; };
template <class Moving, class Target> Answer sweep_test(const Moving&, const Target&, const Vec3&);
"""
ALL_KINDS_RUST = r"""
#[derive(Clone, Copy)] struct Vec3 { x: Real, y: Real, z: Real }
struct Sphere { center: Vec3, radius: Real }  struct Capsule { a: Vec3, b: Vec3, radius: Real }
struct Point { p: Vec3 }  struct Segment { a: Vec3, b: Vec3 }  struct Plane { normal: Vec3, offset: Real }
struct Triangle { a: Vec3, b: Vec3, c: Vec3 }  struct Polygon { vertices: Vec<Vec3> }
struct ConvexHull { vertices: Vec<Vec3> }  struct TriangleMesh { vertices: Vec<Vec3>, triangles: Vec<[u32; 3]> }
struct Answer { hit: bool, t: Real, point: Vec3, normal: Vec3, depth: Real }
// Type-checked only (--emit=metadata), never run: any moving shape against any target.
fn sweep_test<M, T>(moving: &M, target: &T, direction: Vec3) -> Answer {
    Answer { hit: false, t: 0.0, point: direction, normal: direction, depth: 0.0 }
}
"""


ALL_KINDS_CPP_TURNING = ALL_KINDS_CPP.replace(
    "template <class Moving, class Target> Answer sweep_test(const Moving&, const Target&, const Vec3&);",
    "enum class Interpolation { Slerp, Nlerp };\n"
    "template <class Moving, class Target> Answer sweep_test(const Moving&, const Target&, const Vec3& direction,\n"
    "                                                        const Vec3& rotation, const Vec3& pivot, Interpolation);")
ALL_KINDS_RUST_TURNING = ALL_KINDS_RUST.replace(
    "fn sweep_test<M, T>(moving: &M, target: &T, direction: Vec3) -> Answer {",
    "enum Interpolation { Slerp, Nlerp }\n"
    "fn sweep_test<M, T>(moving: &M, target: &T, direction: Vec3, rotation: Vec3, pivot: Vec3,\n"
    "                    interpolation: Interpolation) -> Answer {")


def every_kind_scene() -> Scene:
    """A sphere moving towards each kind, every kind once (the mesh a box)."""
    objects = [SceneObject(f"t_{kind}", kind, copy.deepcopy(shape_kind.defaults)) for kind, shape_kind in KINDS.items()]
    mesh = next(scene_object for scene_object in objects if scene_object.kind == "mesh")
    mesh.params["source"] = default_source("box")  # the default icosphere imports trimesh: 5 s on a loaded CI
    ball = SceneObject("ball", "sphere", {"center": [0.1, 0.2, 3.3], "radius": 0.45})
    return Scene([ball, *objects], "ball", [0.01, -0.03, -6.0])


@pytest.mark.parametrize("turning", [False, True], ids=["linear", "turning"])
def test_every_kind_type_checks_in_both_precisions(tmp_path, turning):
    """Each kind as a target of a moving sphere, float64 fields as double / f64 and
    float32 as float / f32 (a namespace / module each): g++
    -fsyntax-only -Wall -Wextra -Werror and rustc --emit=metadata -D warnings accept
    every test; turning (about a pivot off the sphere's centre, nlerp), each calls the
    function with the rotation, the pivot and the interpolation too (#35)."""
    cpp_parts, rust_parts = ["#include <cmath>\n#include <vector>"], ["#![allow(dead_code, unused_variables)]"]
    scene = every_kind_scene()
    cpp_harness, rust_harness = ALL_KINDS_CPP, ALL_KINDS_RUST
    if turning:
        scene.rotation, scene.pivot, scene.interpolation = [0.3, -0.2, 1.1], [0.1, 0.7, 3.0], "nlerp"
        cpp_harness, rust_harness = ALL_KINDS_CPP_TURNING, ALL_KINDS_RUST_TURNING
    for precision, (cpp_real, rust_real) in (("float64", ("double", "f64")), ("float32", ("float", "f32"))):
        cpp_test, rust_test = cpp_source(scene, "sweep_test", precision), rust_source(scene, "sweep_test", precision)
        assert cpp_test.count("TEST_CASE(") == len(KINDS) == rust_test.count("#[test]"), precision
        calls = [line for line in cpp_test.splitlines() + rust_test.splitlines() if "answer = sweep_test(" in line]
        assert len(calls) == 2 * len(KINDS)
        assert all(line.endswith("direction, rotation, pivot, Interpolation::Nlerp);") == turning for line in calls)
        cpp_parts += [f"namespace {precision} {{ using Real = {cpp_real};", cpp_harness, cpp_test, "}"]
        rust_parts += [f"mod {precision} {{ type Real = {rust_real};", rust_harness, rust_test, "}"]
    (tmp_path / "kinds.cpp").write_text("\n".join(cpp_parts))
    built = subprocess.run([compiler("g++"), "-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Werror",
                            str(tmp_path / "kinds.cpp")], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-3000:]
    (tmp_path / "kinds.rs").write_text("\n".join(rust_parts))
    built = subprocess.run([compiler("rustc"), "--edition", "2021", "--test", "--emit=metadata", "-D", "warnings",
                            "-o", str(tmp_path / "kinds.rmeta"), str(tmp_path / "kinds.rs")],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-3000:]


def test_every_kind_is_written_and_unsupported_pairs_are_left_out():
    source = cpp_source(SCENE, "my_sweep")
    assert "Plane{{0x0.0p+0, 0x0.0p+0, 0x1.0000000000000p+0}, -0x1.4000000000000p+2}" in source
    assert "Plane{{0x0p+0f, 0x0p+0f, 0x1p+0f}, -0x1.4p+2f}" in cpp_source(SCENE, "my_sweep", "float32")
    rust = rust_source(SCENE, "my_sweep")
    assert "fn sweeplab_ball_against_wall()" in rust and rust.count("#[test]") == 3


def test_regression_names_are_escaped_and_rust_tests_unique():
    """Review find: a quote in a name broke the C++ string, and targets "Box-1" and
    "box 1" gave two Rust functions of one name."""
    ball = SceneObject("ball", "sphere", {"center": [0.0, 0.0, 5.0], "radius": 1.0})
    scene = Scene([ball, SceneObject('wall "A"', "sphere", {"center": [0.0, 0.0, 0.0], "radius": 1.0}),
                   SceneObject("Box-1", "sphere", {"center": [3.0, 0.0, 0.0], "radius": 1.0}),
                   SceneObject("box 1", "sphere", {"center": [-3.0, 0.0, 0.0], "radius": 1.0})], "ball",
                  [0.0, 0.0, -10.0])
    assert 'TEST_CASE("sweeplab: ball against wall \\"A\\"")' in cpp_source(scene, "f")
    names = [line for line in rust_source(scene, "f").splitlines() if line.startswith("fn ")]
    assert len(names) == len(set(names)) == 3


def test_regression_rust_compiles_whatever_the_names(tmp_path):
    """Review finds: "floor m²" gave `fn sweeplab_ball_against_floor_m²()` (Python's \\W keeps
    ², which Rust refuses), and a function named `f` was hidden by the `let f =
    f64::from_bits` alias."""
    ball, target = SCENE.objects[:2]
    scene = Scene([ball, SceneObject("floor m²", target.kind, target.params)], "ball", SCENE.direction)
    program = rust_program({"f": rust_source(scene, "f")}, {"f": "double"}, {"f": "float64"})
    output = run_rust(tmp_path, program.replace("pub fn my_sweep(", "pub fn f("))
    assert "test f::sweeplab_ball_against_floor_m ... ok" in output and "1 passed" in output, output
