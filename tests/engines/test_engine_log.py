"""The logging side for engines (#34): ``sweeplab_log.h`` (C99 and C++11) and
``sweeplab_log.rs``, compiled here (g++, gcc, rustc; each test skips without its
compiler), log queries that ``query_log`` reads back bit for bit and ``triage`` judges,
Box3D-like answers with their contact offset and tolerance among them.

The programs are written from ``QUERIES``: each number as a literal of the engine's
type (``0.1f``, ``1e-300``, ``-0.0``, subnormals of both types); the log must hold
exactly the float the compiler made of it (C and Rust round literals correctly, as
Python's ``float`` and numpy's ``float32`` do for these)."""

import json
import math
import shutil
import subprocess
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from sweeplab.engines.triage import triage
from sweeplab.scene.query_log import MOVING, TARGET, read_log

ENGINE_LOG = Path(str(resources.files("sweeplab") / "engine_log"))
C_WARNINGS = ["-Wall", "-Wextra", "-Wpedantic", "-Wshadow", "-Wconversion", "-Werror"]
"""A strict project's flags: the header must compile cleanly under them."""
RUSTC = shutil.which("rustc") or shutil.which(str(Path.home() / ".cargo" / "bin" / "rustc"))
RUST = [str(RUSTC), "--edition", "2021", "-D", "warnings"]
SQUARE = [["-1", "-1", "0"], ["1", "-1", "0"], ["1", "1", "0"], ["-1", "1", "0"]]
BOX = [[x, y, z] for x in ("-0.9", "1.1") for y in ("-1", "1") for z in ("2", "4")]  # corners, world space
SLOP = ("-0.005", "0.00125")
"""Box3D's contact for spheres whose radii add to 0.01 or more: 0.005 inside, up to
0.00125 less deep (``box3d_engine``): its t is later than touching by 0.005 / |d·n|."""
BALLS = {"moving": ("sphere", [["0", "0", "5"]], "1"), "target": ("sphere", [["0", "0", "0"]], "1"),
         "direction": ["0", "0", "-10"]}
"""Two unit balls, one coming down onto the other: touching at t = 0.3, Box3D's
contact 0.005 inside at t = 0.3005 (it may stop up to 0.000125 earlier)."""
QUERIES = {
    "float32": [
        {"id": 'ball "on" a \\ floor\t1', "verdict": "agrees",  # sweeplab: t = 0.4
         "moving": ("sphere", [["0.1", "-0.0", "5"]], "1"),
         "target": ("triangle", [["-1", "-1", "0"], ["1", "-1", "0"], ["1e-45", "1", "0"]], None),
         "direction": ["0", "0", "-10"], "answer": ("0.4", ["0.1", "-0.0", "0"], ["0", "0", "1"])},
        {"id": "a point, late", "verdict": "t",  # sweeplab: t = 0.5
         "moving": ("point", [["0.25", "0.25", "1"]], None), "target": ("polygon", SQUARE, None),
         "direction": ["0", "0", "-2"], "answer": ("0.75", None, None)},
        {"id": "huge and tiny", "verdict": "agrees",  # the segment runs through the ball: hit at t = 0
         "moving": ("segment", [["3.4028235e38", "0", "0"], ["1.17549435e-38", "0", "0"]], None),
         "target": ("sphere", [["0", "0", "0"]], "1"), "direction": ["0", "0", "0"],
         "answer": ("0", None, None)},
        {"id": "box3d-like: slop-shifted t, offset given", "verdict": "agrees", **BALLS,
         "answer": ("0.3005", ["0", "0", "1"], ["0", "0", "1"]), "contact": SLOP},
        {"id": "box3d-like: slop-shifted t, no offset", "verdict": "t", **BALLS,  # |0.3005 - 0.3| > 1e-4
         "answer": ("0.3005", ["0", "0", "1"], ["0", "0", "1"])},
        {"id": "box3d-like: a miss, offset at tolerance 0", "verdict": "agrees",  # passes 1 wide of touching
         **BALLS, "moving": ("sphere", [["3", "0", "5"]], "1"), "answer": "miss", "contact": ("-0.005", "0")},
    ],
    "float64": [
        {"id": "capsule onto a point-like ball", "verdict": "agrees",  # sweeplab: t = 0.25
         "moving": ("capsule", [["-1e-300", "0", "3"], ["1e-300", "0", "3"]], "0.5"),
         "target": ("sphere", [["0", "0", "0"]], "4.9406564584124654e-324"),
         "direction": ["-0.0", "0", "-10"], "answer": ("0.25", ["0", "0", "0"], ["0", "0", "1"])},
        {"id": "box through a floor", "verdict": "hit",  # sweeplab: hit at t = 0.2
         "moving": ("polyhedron", BOX, None), "target": ("plane", [["0", "0", "1"]], "1e-300"),
         "direction": ["0", "0", "-10"], "answer": "miss"},
        {"id": "not answered", "verdict": "unsupported",
         "moving": ("sphere", [["0.1", "0.2", "0.3"]], "2.2250738585072014e-308"),
         "target": ("sphere", [["0", "0", "-1e-320"]], "1"), "direction": ["0", "0", "1"], "answer": None},
        {"id": "box3d-like: slop-shifted t, offset given", "verdict": "agrees", **BALLS,
         "answer": ("0.3005", ["0", "0", "1"], ["0", "0", "1"]), "contact": SLOP},
        {"id": "box3d-like: slop-shifted t, no offset", "verdict": "t", **BALLS,  # |0.3005 - 0.3| > 1e-6
         "answer": ("0.3005", ["0", "0", "1"], ["0", "0", "1"])},
        {"id": "box3d-like: a miss, offset at tolerance -0", "verdict": "agrees",
         **BALLS, "moving": ("sphere", [["3", "0", "5"]], "1"), "answer": "miss", "contact": ("-0.005", "-0.0")},
    ],
}
"""Per precision, the queries the programs log: shapes as (kind, points, scalar), and
triage's verdict on the engine's answer (a miss, a hit (t, point, normal), or None),
given, where the query has ``contact``, its (contact_offset, contact_tolerance)."""


def held(text: str, precision: str) -> float:
    """The float a program holds for the literal ``text``: float32 promoted to double."""
    return float(np.float32(text)) if precision == "float32" else float(text)


def expected_values(precision: str) -> list[list[str]]:
    """Every number the log must hold, as ``float.hex`` (exact, the sign of zero kept),
    in the order ``logged_values`` reads them."""
    found = []
    for query in QUERIES[precision]:
        for role in ("moving", "target"):
            _, points, scalar = query[role]
            found += [held(x, precision).hex() for point in points for x in point]
            found += [] if scalar is None else [held(scalar, precision).hex()]
        found += [held(x, precision).hex() for x in query["direction"]]
        if isinstance(query["answer"], tuple):
            t, point, normal = query["answer"]
            found += [held(x, precision).hex() for x in [t] + (point or []) + (normal or [])]
        found += [held(x, precision).hex() for x in query.get("contact", ())]
        found.append([])  # the end of a query
    return found


def logged_values(path: Path) -> list[list[str]]:
    found = []
    for query in read_log(path):
        for role in (MOVING, TARGET):
            params = query.scene.object(role).params
            for name, value in params.items():  # (the kinds' order: points, then the scalar)
                if name not in ("origin", "axes"):  # (a polyhedron's, not logged: its vertices are in world space)
                    found += [x.hex() for x in np.ravel(value).tolist()]
        found += [x.hex() for x in query.scene.direction]
        answer = query.answer
        if answer is not None and answer.hit:
            found += [x.hex() for x in [answer.t] + (answer.point or []) + (answer.normal or [])]
        if answer is not None:
            found += [x.hex() for x in (answer.contact_offset, answer.contact_tolerance) if x is not None]
        found.append([])
    return found


def check_the_log(path: Path, precision: str) -> None:
    """The log holds every float exactly, and triage gives each query its verdict."""
    assert logged_values(path) == expected_values(precision)
    queries = read_log(path)
    for line, query, logged in zip(path.read_text().splitlines(), queries, QUERIES[precision], strict=True):
        for role in (MOVING, TARGET):  # no field but the kind's
            assert set(json.loads(line)[role]["params"]) == set(query.scene.object(role).params) - {"origin", "axes"}
        contact = {"contact_offset", "contact_tolerance"} & set(json.loads(line).get("answer", {}))
        assert contact == ({"contact_offset", "contact_tolerance"} if "contact" in logged else set())
    assert [query.id for query in queries] == [query["id"] for query in QUERIES[precision]]
    assert {query.engine.precision for query in queries} == {precision}
    verdicts = {verdict.query.id: verdict.kind for verdict in triage(queries, reference=False)}
    assert verdicts == {query["id"]: query["verdict"] for query in QUERIES[precision]}


def c_program(precision: str) -> str:
    """A C program (also C++) that logs ``QUERIES[precision]`` to argv[1], and checks
    that bad input is refused (exit 3)."""
    c_type, suffix = ("float", "f") if precision == "float32" else ("double", "d")

    def literal(text):
        return text + ".0f" if suffix == "f" and "." not in text and "e" not in text else text + (
            "f" if suffix == "f" else "")

    def array(values):
        return "{" + ", ".join(literal(x) for x in values) + "}"

    lines = ['#include "sweeplab_log.h"', "int main(int argc, char **argv) {", "    sweeplab_log log;",
             f"    {c_type} one[3] = {{1, 2, 3}}, many[3 * 65] = {{0}};",
             f'    if (argc != 2 || sweeplab_log_open(&log, argv[1], "test-engine", "1.0", "{precision}") != 0)'
             " return 1;"]
    for query in QUERIES[precision]:
        lines.append("    {")
        for role in ("moving", "target"):
            kind, points, scalar = query[role]
            lines.append(f"        {c_type} {role}_points[] = {array([x for p in points for x in p])};")
            lines.append(f'        sweeplab_shape {role} = sweeplab_shape_{suffix}("{kind}", {role}_points, '
                         f"{len(points)}, {literal(scalar or '0')});")
        lines.append(f"        {c_type} direction[3] = {array(query['direction'])};")
        if query["answer"] is None:
            lines.append("        const sweeplab_answer *answer = NULL;")
        elif query["answer"] == "miss":
            lines += ["        sweeplab_answer said = sweeplab_miss();",
                      "        const sweeplab_answer *answer = &said;"]
        else:
            t, point, normal = query["answer"]
            if point is not None:
                lines.append(f"        {c_type} point[3] = {array(point)};")
            if normal is not None:
                lines.append(f"        {c_type} normal[3] = {array(normal)};")
            lines += [f"        sweeplab_answer said = sweeplab_hit_{suffix}({literal(t)}, "
                      f"{'point' if point else 'NULL'}, {'normal' if normal else 'NULL'});",
                      "        const sweeplab_answer *answer = &said;"]
        if "contact" in query:
            offset, tolerance = query["contact"]
            lines.append(f"        said = sweeplab_with_contact(said, {literal(offset)}, {literal(tolerance)});")
        id_literal = query["id"].replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
        lines += [f'        if (sweeplab_log_query_{suffix}(&log, "{id_literal}", &moving, &target, direction, answer)'
                  f" != 0) return 2;", "    }"]
    lines += [  # bad input: refused, nothing written
        f'    sweeplab_shape torus = sweeplab_shape_{suffix}("torus", one, 1, 1);',
        f'    sweeplab_shape two_cornered = sweeplab_shape_{suffix}("triangle", one, 2, 0);',
        f'    sweeplab_shape ball = sweeplab_shape_{suffix}("sphere", one, 1, 1);',
        f'    sweeplab_shape crowd = sweeplab_shape_{suffix}("polyhedron", many, 65, 0);',
        "    sweeplab_answer below_zero = sweeplab_with_contact(sweeplab_miss(), 0, -4.9406564584124654e-324);",
        "    sweeplab_log other;",
        f"    if (torus.kind != NULL || two_cornered.kind != NULL || crowd.kind != NULL"
        f" || sweeplab_log_query_{suffix}(&log, NULL, &torus, &ball, one, NULL) != -1"
        f" || sweeplab_log_query_{suffix}(&log, NULL, &ball, &two_cornered, one, NULL) != -1"
        f" || sweeplab_log_query_{suffix}(&log, NULL, &ball, &ball, one, &below_zero) != -1"
        ' || sweeplab_log_open(&other, argv[1], "x", "1", "float16") != -1'
        ' || sweeplab_log_open(&other, argv[1], "", "1", "float64") != -1) return 3;',
        "    return sweeplab_log_close(&log) != 0;", "}"]
    return "\n".join(lines) + "\n"


def compile_and_run(compiler: list[str], source: Path, *arguments: str) -> None:
    """Compile ``source`` (``compiler SOURCE -o PROGRAM``), then run the program in its folder."""
    program = source.with_suffix("")
    compiled = subprocess.run([*compiler, str(source), "-o", str(program)], capture_output=True, text=True, timeout=120)
    assert compiled.returncode == 0, f"{' '.join(compiler)} {source.name}:\n{compiled.stderr}"
    ran = subprocess.run([str(program), *arguments], cwd=source.parent, capture_output=True, text=True, timeout=10)
    assert ran.returncode == 0, f"the program exited {ran.returncode}: {ran.stderr}"


@pytest.mark.parametrize("compiler, flags", [
    ("g++", ["-x", "c++", "-std=c++11", "-Wold-style-cast", "-Wzero-as-null-pointer-constant"]),
    ("gcc", ["-x", "c", "-std=c99", "-Wstrict-prototypes"])])
@pytest.mark.parametrize("precision", ["float32", "float64"])
def test_a_c_and_cpp_program_logs_queries_that_read_back_exactly(tmp_path, compiler, flags, precision):
    if shutil.which(compiler) is None:
        pytest.skip(f"no {compiler}")
    source = tmp_path / "log_queries.c"
    source.write_text(c_program(precision))
    compile_and_run([compiler, *flags, *C_WARNINGS, "-I", str(ENGINE_LOG)], source, "engine.jsonl")
    check_the_log(tmp_path / "engine.jsonl", precision)


def rust_program(precision: str) -> str:
    """A Rust program that logs ``QUERIES[precision]`` to its argument through
    ``sweeplab_log.rs``, and checks that bad input is refused."""
    rust_type = "f32" if precision == "float32" else "f64"

    def number(text):
        literal = text if "." in text or "e" in text else text + ".0"
        return f"f64::from({literal}_{rust_type})"

    def point(values):
        return "[" + ", ".join(number(x) for x in values) + "]"

    def shape(kind, points, scalar):
        names = {"sphere": ["center"], "capsule": ["a", "b"], "point": ["p"], "segment": ["a", "b"],
                 "plane": ["normal"], "triangle": ["a", "b", "c"]}
        scalar_name = {"sphere": "radius", "capsule": "radius", "plane": "offset"}.get(kind)
        if kind in names:
            fields = [f"{name}: {point(p)}" for name, p in zip(names[kind], points, strict=True)]
        else:
            fields = ["vertices: vec![" + ", ".join(point(p) for p in points) + "]"]
        fields += [] if scalar_name is None else [f"{scalar_name}: {number(scalar)}"]
        return f"Shape::{kind.capitalize()} {{ {', '.join(fields)} }}"

    lines = ['#[path = "sweeplab_log.rs"]', "mod sweeplab_log;", "use sweeplab_log::{Answer, Log, Precision, Shape};",
             "fn main() -> std::io::Result<()> {", "    let path = std::env::args().nth(1).unwrap();",
             f'    let mut log = Log::create(&path, "test-engine", "1.0", Precision::{precision.capitalize()})?;']
    for query in QUERIES[precision]:
        answer = query["answer"]
        if answer is None:
            said = "None"
        elif answer == "miss":
            said = "Some(&Answer::miss())"
        else:
            t, at, normal = answer
            said = (f"Some(&Answer::hit({number(t)}, {'None' if at is None else f'Some({point(at)})'}, "
                    f"{'None' if normal is None else f'Some({point(normal)})'}))")
        if "contact" in query:
            offset, tolerance = query["contact"]
            said = f"Some(&{said.removeprefix('Some(&')[:-1]}.with_contact({number(offset)}, {number(tolerance)}))"
        lines.append(f"    log.query(Some({json.dumps(query['id'])}), &{shape(*query['moving'])}, "
                     f"&{shape(*query['target'])}, {point(query['direction'])}, {said})?;")
    lines += ["    let ball = Shape::Sphere { center: [0.0; 3], radius: 1.0 };",
              "    let flat = Shape::Polygon { vertices: vec![[0.0; 3]; 2] };",
              "    let crowd = Shape::Polyhedron { vertices: vec![[0.0; 3]; 65] };",
              "    assert!(log.query(None, &ball, &flat, [0.0; 3], None).is_err());",
              "    assert!(log.query(None, &crowd, &ball, [0.0; 3], None).is_err());",
              "    let below_zero = Answer::miss().with_contact(0.0, -4.9406564584124654e-324);",
              "    assert!(log.query(None, &ball, &ball, [0.0; 3], Some(&below_zero)).is_err());",
              '    assert!(Log::new(Vec::new(), "", "1", Precision::Float64).is_err());',
              "    Ok(())", "}"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("precision", ["float32", "float64"])
def test_a_rust_program_logs_queries_that_read_back_exactly(tmp_path, precision):
    if RUSTC is None:
        pytest.skip("no rustc")
    shutil.copy(ENGINE_LOG / "sweeplab_log.rs", tmp_path)
    source = tmp_path / "log_queries.rs"
    source.write_text(rust_program(precision))
    compile_and_run(RUST, source, "engine.jsonl")
    check_the_log(tmp_path / "engine.jsonl", precision)


def test_the_values_are_the_hard_ones():
    """What the programs log includes float32's 0.1, largest and smallest normal and
    smallest subnormal, double's 1e-300 and smallest subnormal, and -0.0 of both."""
    assert held("0.1", "float32").hex() == "0x1.99999a0000000p-4" and held("1e-45", "float32") == 2.0 ** -149
    assert held("4.9406564584124654e-324", "float64") == 2.0 ** -1074 and math.copysign(1, held("-0.0", "float32")) < 0
    assert held("3.4028235e38", "float32") == float(np.finfo(np.float32).max)


def test_help_log_names_the_installed_files_and_its_example_logs_a_query(tmp_path, capsys):
    """``sweeplab help log`` prints where the writers are and the header's 10-line
    example, which compiles as it stands and logs a query triage agrees with."""
    from sweeplab.cli import main, usage_example

    assert main(["help", "log"]) == 0
    out = capsys.readouterr().out
    example = usage_example(ENGINE_LOG / "sweeplab_log.h")
    assert str(ENGINE_LOG / "sweeplab_log.h") in out and str(ENGINE_LOG / "sweeplab_log.rs") in out
    assert "\n".join(example) in out and len(example) == 10 and example[0] == '  #include "sweeplab_log.h"'
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "help topics (sweeplab help TOPIC):\n  log  " in capsys.readouterr().out
    if shutil.which("gcc") is None:
        pytest.skip("no gcc")
    source = tmp_path / "example.c"
    source.write_text(example[0] + "\nint main(void) {\n" + "\n".join(example[1:]) + "\n    return 0;\n}\n")
    compile_and_run(["gcc", "-std=c99", *C_WARNINGS, "-I", str(ENGINE_LOG)], source)
    (verdict,) = triage(read_log(tmp_path / "queries.jsonl"), reference=False)
    assert verdict.kind == "agrees" and verdict.query.id == "frame 12"
    assert verdict.query.answer.t == held("0.4", "float32")


def test_the_rust_modules_example_logs_a_query(tmp_path):
    if RUSTC is None:
        pytest.skip("no rustc")
    text = (ENGINE_LOG / "sweeplab_log.rs").read_text()
    example = [line.removeprefix("//! ") for line in text.split("//! ```ignore\n")[1].split("//! ```")[0].splitlines()]
    assert example[0] == '#[path = "sweeplab_log.rs"] mod sweeplab_log;'
    shutil.copy(ENGINE_LOG / "sweeplab_log.rs", tmp_path)
    source = tmp_path / "example.rs"
    source.write_text(example[0] + "\nfn main() -> std::io::Result<()> {\n" + "\n".join(example[1:])
                      + "\n    Ok(())\n}\n")
    compile_and_run(RUST, source)
    (verdict,) = triage(read_log(tmp_path / "queries.jsonl"), reference=False)
    assert verdict.kind == "agrees" and verdict.query.id == "frame 12"
