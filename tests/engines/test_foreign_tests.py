"""Copy as C++ / Rust test (#22): the generated tests compile and pass against an
implementation of the sweep in that language (two spheres: the quadratic), every
float exact."""

import shutil
import subprocess

import pytest

from sweeplab.scene.foreign_tests import cpp_source, rust_source
from sweeplab.scene.model import Scene, SceneObject

SCENE = Scene([SceneObject("ball", "sphere", {"center": [0.1, -0.0, 5.000000000000001], "radius": 1.0}),
               SceneObject("rock", "sphere", {"center": [0.0, 0.0, 0.0], "radius": 0.7}),
               SceneObject("far", "sphere", {"center": [9.0, 0.0, 0.0], "radius": 1.0}),
               SceneObject("wall", "plane", {"normal": [0.0, 0.0, 1.0], "offset": -5.0})],
              "ball", [0.0, 0.0, -10.0])

CPP_HARNESS = r"""
#include <cmath>
#include <cstdio>
#include <vector>
#include <array>
static int failures = 0, checks = 0;
#define CHECK(condition) \
    do { ++checks; if (!(condition)) { ++failures; std::printf("FAILED %s\n", #condition); } } while (0)
#define JOIN2(a, b) a##b
#define JOIN(a, b) JOIN2(a, b)
#define TEST_CASE(name) static void JOIN(test_, __LINE__)(); \
    static const int JOIN(run_, __LINE__) = (JOIN(test_, __LINE__)(), 0); static void JOIN(test_, __LINE__)()
struct Vec3 { double x, y, z; };
struct Sphere { Vec3 center; double radius; };
struct Plane { Vec3 normal; double offset; };
struct Answer { bool hit; double t; Vec3 point, normal; };
static Answer sweep_spheres(const Sphere& m, const Sphere& s, const Vec3& d) {
    Vec3 o{m.center.x - s.center.x, m.center.y - s.center.y, m.center.z - s.center.z};
    double r = m.radius + s.radius, a = d.x*d.x + d.y*d.y + d.z*d.z, b = o.x*d.x + o.y*d.y + o.z*d.z;
    double c = o.x*o.x + o.y*o.y + o.z*o.z - r*r, disc = b*b - a*c;
    if (disc < 0 || b >= 0) return {false, 0, {}, {}};
    double t = c / (-b + std::sqrt(disc));
    if (t > 1) return {false, 0, {}, {}};
    Vec3 at{o.x + t*d.x, o.y + t*d.y, o.z + t*d.z}; double len = std::sqrt(at.x*at.x + at.y*at.y + at.z*at.z);
    Vec3 n{at.x/len, at.y/len, at.z/len};
    return {true, t, {s.center.x + n.x*s.radius, s.center.y + n.y*s.radius, s.center.z + n.z*s.radius}, n};
}
static Answer my_sweep(const Sphere& m, const Sphere& s, const Vec3& d) { return sweep_spheres(m, s, d); }
"""
CPP_MAIN = r"""
int main() { std::printf("%d checks, %d failed\n", checks, failures); return failures != 0; }
"""

RUST_HARNESS = r"""
#[derive(Clone, Copy)] struct Vec3 { x: f64, y: f64, z: f64 }
struct Sphere { center: Vec3, radius: f64 }
struct Answer { hit: bool, t: f64, point: Vec3, normal: Vec3 }
fn my_sweep(m: &Sphere, s: &Sphere, d: Vec3) -> Answer {
    let o = Vec3 { x: m.center.x - s.center.x, y: m.center.y - s.center.y, z: m.center.z - s.center.z };
    let r = m.radius + s.radius;
    let a = d.x*d.x + d.y*d.y + d.z*d.z; let b = o.x*d.x + o.y*d.y + o.z*d.z;
    let c = o.x*o.x + o.y*o.y + o.z*o.z - r*r; let disc = b*b - a*c;
    let zero = Vec3 { x: 0.0, y: 0.0, z: 0.0 };
    if disc < 0.0 || b >= 0.0 { return Answer { hit: false, t: 0.0, point: zero, normal: zero }; }
    let t = c / (-b + disc.sqrt());
    if t > 1.0 { return Answer { hit: false, t: 0.0, point: zero, normal: zero }; }
    let at = Vec3 { x: o.x + t*d.x, y: o.y + t*d.y, z: o.z + t*d.z };
    let len = (at.x*at.x + at.y*at.y + at.z*at.z).sqrt();
    let n = Vec3 { x: at.x/len, y: at.y/len, z: at.z/len };
    Answer { hit: true, t, point: Vec3 { x: s.center.x + n.x*s.radius, y: s.center.y + n.y*s.radius,
                                         z: s.center.z + n.z*s.radius }, normal: n }
}
"""


def test_the_cpp_test_compiles_and_passes(tmp_path):
    compiler = shutil.which("g++")
    if compiler is None:
        pytest.skip("g++ is not installed")
    source = cpp_source(Scene(SCENE.objects[:3], "ball", SCENE.direction), "my_sweep")
    assert "0x1.4000000000001p+2" in source  # 5.000000000000001, exactly
    assert source.count("TEST_CASE(") == 2
    (tmp_path / "test.cpp").write_text(CPP_HARNESS + source + CPP_MAIN)
    subprocess.run([compiler, "-std=c++17", "-o", str(tmp_path / "test"), str(tmp_path / "test.cpp")], check=True,
                   capture_output=True, text=True)
    ran = subprocess.run([str(tmp_path / "test")], capture_output=True, text=True)
    assert ran.returncode == 0 and "failed" in ran.stdout and " 0 failed" in ran.stdout, ran.stdout


def test_the_rust_test_compiles_and_passes(tmp_path):
    compiler = shutil.which("rustc")
    if compiler is None:
        pytest.skip("rustc is not installed")
    source = rust_source(Scene(SCENE.objects[:3], "ball", SCENE.direction), "my_sweep")
    assert "f64::from_bits(0x4014000000000001)" in source  # 5.000000000000001, exactly
    (tmp_path / "lib.rs").write_text(RUST_HARNESS + source)
    built = subprocess.run([compiler, "--edition", "2021", "--test", "-o", str(tmp_path / "tests"),
                            str(tmp_path / "lib.rs")], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-2000:]
    ran = subprocess.run([str(tmp_path / "tests")], capture_output=True, text=True)
    assert ran.returncode == 0 and "2 passed" in ran.stdout, ran.stdout + ran.stderr


def test_every_kind_is_written_and_unsupported_pairs_are_left_out():
    source = cpp_source(SCENE, "my_sweep")
    assert "Plane{{0x0.0p+0, 0x0.0p+0, 0x1.0000000000000p+0}, -0x1.4000000000000p+2}" in source
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
    compiler = shutil.which("rustc")
    if compiler is None:
        pytest.skip("rustc is not installed")
    ball, target = SCENE.objects[:2]
    scene = Scene([ball, SceneObject("floor m²", target.kind, target.params)], "ball", SCENE.direction)
    source = rust_source(scene, "f")
    (tmp_path / "lib.rs").write_text(RUST_HARNESS.replace("fn my_sweep(", "fn f(") + source)
    built = subprocess.run([compiler, "--edition", "2021", "--test", "-o", str(tmp_path / "tests"),
                            str(tmp_path / "lib.rs")], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-2000:]
    ran = subprocess.run([str(tmp_path / "tests")], capture_output=True, text=True)
    assert ran.returncode == 0 and "1 passed" in ran.stdout, ran.stdout + ran.stderr
