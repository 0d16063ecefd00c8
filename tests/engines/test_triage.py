"""``sweeplab triage`` (#22): disagreements ranked, fixtures written and checked."""

import json

from sweeplab.cli import main
from sweeplab.engines.compare import Tolerances, compare
from sweeplab.engines.triage import triage
from sweeplab.scene.fixture import load_fixture, run_fixture
from sweeplab.scene.query_log import EngineAnswer, read_log
from sweeplab.physics import Sphere, sweep

from tests.engines.test_query_log import FLOAT32_LOG


def hand_made_log(path):
    agreeing = FLOAT32_LOG[0]
    late = json.loads(json.dumps(agreeing))
    late["id"], late["answer"] = "t too late", {"hit": True, "t": "0x1.3d70a4p-2"}  # 0.31 in float32
    missed = json.loads(json.dumps(agreeing))
    missed["id"], missed["answer"] = "missed", {"hit": False}
    turned = json.loads(json.dumps(agreeing))
    turned["id"], turned["answer"] = "normal", {"hit": True, "t": "0x1.333334p-2", "normal": [0.0, 0.2, 1.0]}
    path.write_text("".join(json.dumps(line) + "\n" for line in (agreeing, late, missed, turned)))
    return path


def test_kinds_rank_hit_then_t_then_normal(tmp_path):
    verdicts = triage(read_log(hand_made_log(tmp_path / "log.jsonl")))
    assert [(v.number, v.kind) for v in verdicts] == [(3, "hit"), (2, "t"), (4, "normal"), (1, "agrees")]
    assert verdicts[1].size == abs(float.fromhex("0x1.3d70a4p-2") - 0.3)
    assert [v.reference is not None for v in verdicts] == [True] * 4


def test_within_a_kind_the_largest_disagreement_comes_first_and_start_ranks_above_t(tmp_path):
    base = FLOAT32_LOG[0]  # sweeplab: t = 0.3
    lines = [json.loads(json.dumps(base)) for _ in range(3)]
    lines[0]["answer"] = {"hit": True, "t": 0.31}
    lines[1]["moving"]["params"]["center"] = [0.0, 0.0, 0.5]  # overlapping at t = 0
    lines[1]["answer"] = {"hit": False}
    lines[2]["answer"] = {"hit": True, "t": 0.6}
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    verdicts = triage(read_log(path), reference=False)
    assert [(v.number, v.kind) for v in verdicts] == [(2, "start"), (3, "t"), (1, "t")]


def test_tolerances_follow_the_engines_precision():
    shapes = Sphere([0, 0, 5], 1.0), Sphere([0, 0, 0], 1.0), [0, 0, -10]
    ours = sweep(*shapes)
    near = EngineAnswer(True, 0.3 + 5e-5)
    assert compare(near, ours, "float32", shapes=shapes)[0] == "agrees"
    assert compare(near, ours, "float64", shapes=shapes)[0] == "t"
    assert compare(near, ours, "float64", Tolerances(t=1e-4), shapes=shapes)[0] == "agrees"
    overlapping = Sphere([0, 0, 0.5], 1.0), Sphere([0, 0, 0], 1.0), [0, 0, -1]
    assert compare(EngineAnswer(False), sweep(*overlapping), "float64", shapes=overlapping)[0] == "start"


def test_triage_writes_fixtures_that_check_and_record_the_engine(tmp_path, capsys):
    log = hand_made_log(tmp_path / "log.jsonl")
    assert main(["triage", str(log), "--fixtures", str(tmp_path / "fixtures")]) == 1
    out = capsys.readouterr().out
    assert "4 queries: 1 agree; 3 real disagreements (1 hit: engine misses or invents a contact, 0 overlap at " \
           "start missed, 1 |dt| beyond tolerance, 1 normal); 0 tolerance effects" in out, out
    assert out.index("    3  hit") < out.index("    2  t") < out.index("    4  normal")
    written = sorted((tmp_path / "fixtures").glob("*.json"))
    assert [path.name for path in written] == ["query00002-t.json", "query00003-hit.json", "query00004-normal.json"]
    fixture = load_fixture(written[1])
    assert fixture.engine == {"name": "my-engine", "version": "2.3.0", "precision": "float32",
                              "answers": {"target": {"hit": False}}}
    assert fixture.expected["target"]["hit"]["value"] is True and run_fixture(fixture).passed
    assert main(["check", str(tmp_path / "fixtures")]) == 0


def test_an_agreeing_log_exits_0_and_a_bad_one_2(tmp_path, capsys):
    path = tmp_path / "good.jsonl"
    path.write_text(json.dumps(FLOAT32_LOG[0]) + "\n")
    assert main(["triage", str(path)]) == 0
    path.write_text("{not json\n")
    assert main(["triage", str(path)]) == 2 and "line 1 is not valid JSON" in capsys.readouterr().err


def test_an_empty_log_is_an_input_error(tmp_path, capsys):
    """It was read as "0 queries: 0 agree, 0 disagree", exit 0."""
    path = tmp_path / "empty.jsonl"
    for text in ("", "# only a comment\n\n"):
        path.write_text(text)
        assert main(["triage", str(path)]) == 2
        assert capsys.readouterr().err == f"sweeplab triage: query log {path} holds no queries\n"


def test_regression_an_unwritable_fixtures_folder_is_one_line_and_exit_2(tmp_path, capsys):
    """Review find: --fixtures naming a file ended in a FileExistsError traceback."""
    log = hand_made_log(tmp_path / "log.jsonl")
    blocker = tmp_path / "not a folder"
    blocker.write_text("")
    assert main(["triage", str(log), "--fixtures", str(blocker)]) == 2
    assert "sweeplab triage: cannot write the fixtures:" in capsys.readouterr().err


def _line(t: float) -> str:
    line = json.loads(json.dumps(FLOAT32_LOG[0]))  # sweeplab: t = 0.3
    line["answer"] = {"hit": True, "t": t}
    return json.dumps(line)


def test_a_log_cut_by_a_crash_is_judged_up_to_its_bad_line(tmp_path, capsys):
    """#34: one truncated line threw the whole log away (exit 2, no verdicts).  The
    bad lines are reported (file, line, what is wrong) and the rest judged; the line
    column is the file's line, comments counted."""
    path = tmp_path / "crashed.jsonl"
    path.write_text("# my-engine, frame 1812\n" + _line(0.3) + "\n" + _line(0.31) + "\n" + _line(0.3)[:57] + "\n")
    assert main(["triage", str(path), "--no-reference"]) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith(f"sweeplab triage: skipped {path} line 4") and captured.err.count("\n") == 1, \
        captured.err
    assert "2 queries: 1 agree; 1 real disagreement (" in captured.out and "    3  t" in captured.out, captured.out


def test_a_log_with_no_good_line_is_an_input_error(tmp_path, capsys):
    path = tmp_path / "bad.jsonl"
    path.write_text("{not json\n" + _line(0.3)[:40] + "\n")
    assert main(["triage", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path} line 1" in err and f"{path} line 2" in err and "holds no query that can be read" in err, err


def test_the_editor_opens_a_cut_log_and_says_what_it_skipped(tmp_path):
    from sweeplab.cli import DEMO_SCENE
    from sweeplab.editor import Editor
    from sweeplab.scene.model import load

    path = tmp_path / "crashed.jsonl"
    path.write_text(_line(0.3) + "\n" + _line(0.3)[:57] + "\n")
    editor = Editor(load(DEMO_SCENE))
    assert editor.open(path), editor.message
    assert len(editor.queries) == 1 and f"skipped 1 bad line (first: {path} line 2" in editor.message, editor.message
