"""The differential fuzzer (#22): configurations of each draw, disagreements kept,
shrunk ones rounder and still disagreeing; its log triaged."""

import pytest

from sweeplab.cli import main
from sweeplab.engines import EngineUnavailable, engine
from sweeplab.engines.campaign import AdapterRecipe
from sweeplab.engines.fuzz import run
from sweeplab.scene.query_log import read_log


def fcl_or_skip():
    try:
        return engine("fcl")
    except EngineUnavailable as error:
        pytest.skip(str(error))


def test_capsule_fuzzing_finds_fcl_misses_and_shrinks_them():
    fcl_or_skip()
    report = run(AdapterRecipe.of_engine("fcl"), "capsule-capsule", 600, seed=1, shrink_each=2, jobs=0)
    assert report.count > 500 and {draw for draw, _ in report.counts} == {"random", "grazing", "degenerate"}
    misses = [f for f in report.findings if f.kind == "hit" and f.shrunk is not f.original]
    assert misses, report.counts
    for finding in misses:  # shrinking kept the disagreement and made the floats rounder
        before = str(finding.original.to_json()).count(".")
        assert finding.shrunk.answer is not None and "says" in finding.detail
        assert len(str(finding.shrunk.to_json())) < len(str(finding.original.to_json())) or before == 0


def test_fuzz_command_writes_a_log_that_triage_reads(tmp_path, capsys):
    fcl_or_skip()
    assert main(["fuzz", "--engine", "fcl", "--pair", "sphere-capsule", "-n", "300", "--out", str(tmp_path),
                 "--shrink-each", "1"]) in (0, 1)
    out = capsys.readouterr().out
    assert "configurations in" in out and "a second of a worker's CPU" in out and "random" in out
    log = tmp_path / "disagreements.jsonl"
    if log.read_text():
        assert main(["triage", str(log), "--no-reference"]) == 1
        assert len(read_log(log)) == len(log.read_text().splitlines())


def test_unknown_engine_or_pair_is_a_usage_error(tmp_path, capsys):
    for arguments in (["--engine", "bullet", "--pair", "sphere-sphere"], ["--engine", "fcl", "--pair", "torus-sphere"]):
        with pytest.raises(SystemExit) as exited:
            main(["fuzz", *arguments, "--out", str(tmp_path)])
        assert exited.value.code == 2 and "invalid choice" in capsys.readouterr().err


def test_regression_an_unwritable_out_folder_is_one_line_and_exit_2(tmp_path, capsys):
    """Review find: --out naming a file ended in a FileExistsError traceback."""
    fcl_or_skip()
    blocker = tmp_path / "not a folder"
    blocker.write_text("")
    assert main(["fuzz", "--engine", "fcl", "--pair", "sphere-sphere", "-n", "30", "--out", str(blocker)]) == 2
    assert "sweeplab fuzz: cannot write to" in capsys.readouterr().err


def test_regression_shrinking_keeps_a_polyhedron_frame_a_rotation():
    """Review find: the shrinker rounded every float, the body frame's too: a box's
    turned axes became a shear (0.7071 -> 0.7), then zeros, while the disagreement held."""
    import numpy as np

    from sweeplab.engines.compare import Tolerances
    from sweeplab.engines.fuzz import shrink_configuration
    from sweeplab.scene.model import SceneObject
    from sweeplab.scene.query_log import Engine, EngineAnswer

    class AlwaysMisses:
        info = Engine("misses", "1", "float64")

        def answer(self, moving, target, direction):
            return EngineAnswer(False)

    turn = [[np.sqrt(0.5), np.sqrt(0.5), 0.0], [-np.sqrt(0.5), np.sqrt(0.5), 0.0], [0.0, 0.0, 1.0]]
    box = SceneObject("target", "polyhedron", {
        "vertices": [[x, y, z] for x in (-1.0, 1.0) for y in (-1.0, 1.0) for z in (-1.0, 1.0)],
        "origin": [0.1234, 0.0, 0.0], "axes": turn})
    ball = SceneObject("moving", "sphere", {"center": [0.0, 0.0, 5.4321], "radius": 1.0})
    _, shrunk, _ = shrink_configuration(AlwaysMisses(), (ball, box, [0.0, 0.0, -10.0]), "hit", Tolerances())
    assert shrunk.params["axes"] == turn and shrunk.params["origin"] == [0.0, 0.0, 0.0]


def test_regression_an_unwritable_out_folder_is_refused_before_the_run(tmp_path, capsys):
    """Review find: --out under a file was found unwritable only after the whole run (its
    findings lost): the table was printed first."""
    fcl_or_skip()
    blocker = tmp_path / "not a folder"
    blocker.write_text("")
    assert main(["fuzz", "--engine", "fcl", "--pair", "sphere-sphere", "-n", "30", "--out", str(blocker / "out")]) == 2
    captured = capsys.readouterr()
    assert "cannot write to" in captured.err and "configurations in" not in captured.out


def _fuzz(out, *more: str) -> int:
    return main(["fuzz", "--engine", "fcl", "--pair", "sphere-sphere", "-n", "30", "--seed", "3", "--out", str(out),
                 "--shrink-each", "1", "--jobs", "0", *more])


def test_an_out_folder_holding_files_is_refused_unless_overwrite(tmp_path, capsys):
    """#34: ``--out`` overwrote an earlier run's log silently and mixed two runs'
    fixtures in one folder.  An empty folder is used; one holding a file is refused
    before the run (exit 2, one line naming ``--overwrite``), the file untouched."""
    fcl_or_skip()
    empty = tmp_path / "empty"
    empty.mkdir()
    assert _fuzz(empty) in (0, 1)
    held = tmp_path / "held"
    held.mkdir()
    (held / "notes.txt").write_text("mine")
    assert _fuzz(held) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--overwrite" in err and str(held) in err, err
    assert [path.name for path in held.iterdir()] == ["notes.txt"]


def test_overwrite_replaces_the_earlier_runs_log_and_fixtures_only(tmp_path):
    fcl_or_skip()
    (tmp_path / "fixtures").mkdir()
    stale = tmp_path / "fixtures" / "sphere-sphere-999-hit.json"
    stale.write_text("{}")
    (tmp_path / "disagreements.jsonl").write_text("stale\n")
    (tmp_path / "notes.txt").write_text("mine")
    assert _fuzz(tmp_path, "--overwrite") in (0, 1)
    assert not stale.exists() and (tmp_path / "notes.txt").read_text() == "mine"
    assert "stale" not in (tmp_path / "disagreements.jsonl").read_text()


def test_shrunk_log_keeps_each_original_on_the_line_before_its_shrunk_one(tmp_path):
    """#34: shrunk.jsonl held the shrunk queries only; the originals were in
    disagreements.jsonl among every other one, with nothing linking the two."""
    fcl_or_skip()
    assert main(["fuzz", "--engine", "fcl", "--pair", "capsule-capsule", "-n", "24", "--seed", "1",
                 "--out", str(tmp_path), "--shrink-each", "1"]) == 1
    drawn = {str(query.to_json()["moving"]) for query in read_log(tmp_path / "disagreements.jsonl")}
    lines = read_log(tmp_path / "shrunk.jsonl")
    assert lines and len(lines) % 2 == 0
    for number, (original, shrunk) in enumerate(zip(lines[::2], lines[1::2], strict=True), 1):
        assert str(original.to_json()["moving"]) in drawn
        assert f"shrunk on line {2 * number}" in original.note and f"shrunk from line {2 * number - 1}" in shrunk.note
    for fixture in (tmp_path / "fixtures").glob("*.json"):  # named by the shrunk query's line
        assert int(fixture.name.split("-")[2]) % 2 == 0
    assert main(["triage", str(tmp_path / "shrunk.jsonl"), "--no-reference"]) == 1


def test_answer_all_hands_the_engine_the_shapes_it_answered():
    """#34: each box's hull was found afresh for the engine (two a configuration: box
    pairs fuzzed 12x slower than capsules).  The engine now gets the shapes of the
    draw's batch: each box with its drawn corners, answering as its lane did."""
    import numpy as np

    from sweeplab.engines.fuzz import answer_all, draw_configuration
    from sweeplab.physics import sweep
    from sweeplab.scene.shape_kinds import posed_vertices

    rng = np.random.default_rng(5)
    configurations = [draw_configuration("box-box", "random", rng) for _ in range(6)]
    answered = answer_all(configurations)
    assert len(answered) == 6 and any(ours.hit for ours, _, _ in answered)
    for (moving, target, direction), (ours, moving_shape, target_shape) in zip(configurations, answered, strict=True):
        for drawn, shape in ((moving, moving_shape), (target, target_shape)):
            corners = posed_vertices(drawn.params).tolist()
            assert sorted(map(tuple, shape.vertices.tolist())) == sorted(map(tuple, corners))
        again = sweep(moving_shape, target_shape, direction)
        assert again.hit == ours.hit and (not ours.hit or again.t == ours.t)


def test_grazes_alone_are_not_shrunk_and_fuzz_exits_0(tmp_path, capsys, monkeypatch):
    """Tolerance effects are counted and logged as drawn, never shrunk (shrinking spent
    its tries on them), and a run that finds nothing else exits 0 (it exited 1)."""
    from sweeplab import engines

    report = run(AdapterRecipe("tests.engines.fake_engines:InventsGrazes"), "sphere-sphere", 60, seed=3,
                 shrink_each=5, jobs=0)
    assert report.findings and {finding.kind for finding in report.findings} == {"graze"}
    assert all(finding.shrunk is finding.original for finding in report.findings)
    monkeypatch.setitem(engines.ADAPTERS, "invents-grazes", ("tests.engines.fake_engines", "-", "-"))
    assert main(["fuzz", "--engine", "invents-grazes", "--pair", "sphere-sphere", "-n", "60", "--seed", "3",
                 "--jobs", "0", "--out", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "disagreements.jsonl").read_text().count("\n") == len(report.findings)
    assert (tmp_path / "out" / "shrunk.jsonl").read_text() == ""


def test_a_shrinking_whose_configuration_is_judged_another_kind_keeps_the_finding_as_drawn():
    """Shrinking a "hit" finding whose configuration, built afresh, agrees: the shrinker
    changes nothing, and the finding was relabelled with the fresh verdict's sentence
    ("both hit, t and normal within tolerance") as if shrunk; now it stays as drawn."""
    from sweeplab.engines.compare import DEFAULT_TOLERANCES
    from sweeplab.engines.fuzz import Shrink
    from sweeplab.scene.model import SceneObject
    from sweeplab.scene.query_log import MOVING, TARGET, Engine, EngineAnswer, Query, query_scene

    scene = query_scene(SceneObject(MOVING, "sphere", {"center": [0.0, 0.0, 5.0], "radius": 1.0}),
                        SceneObject(TARGET, "sphere", {"center": [0.0, 0.0, 0.0], "radius": 1.0}), [0.0, 0.0, -10.0])
    drawn = Query(scene, Engine("agrees", "1", "float64"), EngineAnswer(False))
    assert Shrink(AdapterRecipe("tests.engines.fake_engines:Agrees"), drawn, "hit", DEFAULT_TOLERANCES)(
        lambda position: None) is None


def test_the_grazing_draw_slides_along_axes_from_the_chunks_generator():
    """The sideways axes came from a generator seeded by the batch's length (333 in
    every chunk of 1,000): each chunk and seed grazed the same way."""
    import numpy as np

    from sweeplab.engines.fuzz import draw_configuration, graze

    drawn = [draw_configuration("sphere-sphere", "grazing", np.random.default_rng(4)) for _ in range(1)] * 8
    first = graze(drawn, np.random.default_rng(1))
    again, other = graze(drawn, np.random.default_rng(1)), graze(drawn, np.random.default_rng(2))
    centres = [[shape.params["center"] for shape, _, _ in found] for found in (first, again, other)]
    assert centres[0] == centres[1] and centres[0] != centres[2]
