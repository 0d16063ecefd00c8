"""#34: a fuzzing campaign on every core or a Dask cluster, the same report for a seed
whatever ran it; an engine that crashes its worker is a finding, not a dead run.

Each test here that runs a fuzz starts worker processes (a fresh interpreter loads
sweeplab and the kernel cache: 2 to 4 s on the 2 shared cores where this was written),
so the fuzz tests are few and small."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from sweeplab.cli import main
from sweeplab.engines import EngineUnavailable, engine
from sweeplab.engines.campaign import NO_QUERY, AdapterRecipe, ClusterUnavailable, WorkerLost, workers
from sweeplab.engines.compare import DEFAULT_TOLERANCES
from sweeplab.engines.fuzz import CRASHED, Chunk, chunk_sizes, judge_chunk, run
from sweeplab.scene.query_log import read_log, write_log
from tests.engines.fake_tasks import Echo, Fails

AGREES = "tests.engines.fake_engines:Agrees"


def fcl_recipe_or_fake() -> AdapterRecipe:
    try:
        engine("fcl")
    except EngineUnavailable:
        return AdapterRecipe(AGREES)
    return AdapterRecipe.of_engine("fcl")


def signature(report) -> tuple:
    """Everything a report says but its time."""
    return (report.count, sorted(report.counts.items()), report.unsupported,
            [(f.draw, f.kind, f.detail, f.original.to_json(), f.shrunk.to_json()) for f in report.findings])


@pytest.fixture(scope="module")
def one_process():
    """150 sphere pairs in chunks of 50, one worker process."""
    return run(fcl_recipe_or_fake(), "sphere-sphere", 150, seed=5, shrink_each=1, jobs=1, chunk_size=50)


def test_chunks_are_a_fixed_size_the_last_one_the_rest():
    assert chunk_sizes(999, 1000) == [999]
    assert chunk_sizes(1000, 1000) == [1000]
    assert chunk_sizes(1001, 1000) == [1000, 1]
    assert chunk_sizes(1, 1) == [1]
    with pytest.raises(ValueError, match="chunk_size"):
        chunk_sizes(10, 0)


def test_the_report_is_the_same_whatever_the_number_of_processes(one_process):
    report = run(fcl_recipe_or_fake(), "sphere-sphere", 150, seed=5, shrink_each=1, jobs=2, chunk_size=50)
    assert signature(report) == signature(one_process)
    assert report.cpu_seconds > 0 and one_process.cpu_seconds > 0  # the workers' own time, summed over the chunks
    if report.engine == "fcl":  # fcl disagrees on some sphere pairs: findings, some shrunk, to compare
        assert report.findings and any(f.shrunk is not f.original for f in report.findings)


def test_a_dask_cluster_of_two_workers_finds_what_one_process_finds(one_process):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        report = run(fcl_recipe_or_fake(), "sphere-sphere", 150, seed=5, shrink_each=1,
                     scheduler=cluster.scheduler_address, chunk_size=50)
    assert signature(report) == signature(one_process)


def test_a_task_that_kills_dask_workers_is_run_here_to_find_its_crash():
    distributed = pytest.importorskip("distributed")
    import dask

    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), \
            distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                     dashboard_address=None) as cluster, \
            workers(scheduler=cluster.scheduler_address) as pool:  # (a KilledWorker at the first death)
        assert pool.map([Echo(0), Echo(1, position=7, how="abort"), Echo(2), Echo(3, how="segfault")]) == \
            [0, ("after a crash at", 7), 2, ("after a crash at", None)]


def test_no_scheduler_at_the_address_is_one_line():
    pytest.importorskip("distributed")
    import dask

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}), \
            pytest.raises(ClusterUnavailable, match="cannot reach the Dask scheduler at tcp://127.0.0.1:1"), \
            workers(scheduler="tcp://127.0.0.1:1"):
        pass


def test_tasks_answer_in_order_and_a_crash_runs_what_the_task_says_instead():
    tasks = [Echo(0), Echo(1, position=7, how="abort"), Echo(2), Echo(3, how="segfault"), Echo(4),
             Echo(5, position=9, how="abort", give_up=True), Echo(6)]
    with workers(2) as pool:
        assert pool.map(tasks) == [0, ("after a crash at", 7), 2, ("after a crash at", None), 4, None, 6]
        assert pool.map([Echo(7)]) == [7]  # the same workers, or fresh ones after a crash


def test_an_error_in_a_task_is_raised_not_taken_for_a_crash():
    with pytest.raises(ZeroDivisionError, match="a bug in a task"), workers(1) as pool:
        pool.map([Echo(0), Fails()])


def test_jobs_must_be_zero_or_more_zero_this_process():
    with pytest.raises(ValueError, match="jobs"), workers(-1):
        pass
    with workers(0) as pool:
        assert pool.map([Echo(0), Echo(1, position=3)]) == [0, 1]
    with workers(1) as pool:
        assert pool.map([Echo(0)]) == [0]
    assert NO_QUERY < 0  # no position of a query


def asked(recipe: AdapterRecipe, seed: int, index: int, size: int) -> list[list[float]]:
    """The moving centres chunk ``index`` of a run of ``seed`` asks the engine, in order (run here)."""
    chunk = Chunk(recipe, "sphere-sphere", np.random.SeedSequence(seed).spawn(index + 1)[index], size,
                  DEFAULT_TOLERANCES)
    adapter = recipe.build()
    adapter.asked.clear()
    judge_chunk(chunk, lambda position: None)
    return list(adapter.asked)


def test_an_engine_that_crashes_its_worker_is_a_finding_and_the_run_goes_on(tmp_path):
    """fcl's conservative advancement segfaulted on mesh targets (fcl_engine refuses them
    up front); any engine may abort on a query.  Before #34 the fuzz ran the engine in
    its own process: one crash ended the run and lost every finding."""
    first, second = asked(AdapterRecipe(AGREES), 11, 0, 20), asked(AdapterRecipe(AGREES), 11, 1, 20)
    recipe = AdapterRecipe(AGREES, (("abort_at", first[4][0]), ("segfault_at", second[13][0])))
    report = run(recipe, "sphere-sphere", 40, seed=11, shrink_each=5, jobs=2, chunk_size=20)
    assert [(f.kind, f.original.scene.object("moving").params["center"]) for f in report.findings] == \
        [(CRASHED, first[4]), (CRASHED, second[13])]
    assert all(f.shrunk is f.original and f.original.answer is None and "crashed" in f.original.note
               for f in report.findings)
    kinds = {kind for _, kind in report.counts}
    assert kinds == {"agrees", CRASHED} and report.count == len(first) + len(second)
    write_log([f.original for f in report.findings], tmp_path / "log.jsonl")  # the crash, logged to replay
    assert [query.answer for query in read_log(tmp_path / "log.jsonl")] == [None, None]


def test_fcls_real_segfault_on_a_mesh_target_is_a_crashed_finding():
    """python-fcl 0.7.0.11's conservative advancement segfaults on a sphere swept
    against a BVH (mesh) target; ``fcl_engine`` refuses those pairs, this adapter does
    not.  Should fcl stop crashing here, this fails: the refusal can go."""
    try:
        engine("fcl")
    except EngineUnavailable as error:
        pytest.skip(str(error))
    report = run(AdapterRecipe("tests.engines.fake_engines:unguarded_fcl"), "sphere-mesh", 1, seed=2, jobs=1)
    assert [(f.draw, f.kind, f.original.answer) for f in report.findings] == [("random", CRASHED, None)]
    assert report.counts == {("random", CRASHED): 1}


def test_a_chunk_whose_worker_died_outside_an_engine_call_is_an_error_not_a_finding():
    chunk = Chunk(AdapterRecipe(AGREES), "sphere-sphere", np.random.SeedSequence(3).spawn(1)[0], 10,
                  DEFAULT_TOLERANCES)
    assert chunk.after_crash(4).crashed == {4}
    for position in (None, 4):  # a query reported as a crash is not asked again: it cannot crash again
        with pytest.raises(WorkerLost, match="died outside an engine call"):
            chunk.after_crash(4).after_crash(position)


def test_fuzz_jobs_and_scheduler_are_checked(tmp_path, capsys):
    for more, message in ((["--jobs", "-1"], "--jobs must be 0 or more"),
                          (["--jobs", "2", "--scheduler", "tcp://localhost:1"], "exclude each other")):
        with pytest.raises(SystemExit) as exited:
            main(["fuzz", "--engine", "fcl", "--pair", "sphere-sphere", "--out", str(tmp_path), *more])
        assert exited.value.code == 2 and message in capsys.readouterr().err


def test_a_missing_cluster_extra_is_one_line_naming_it(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed: its import fails
    with pytest.raises(ClusterUnavailable, match=r"pip install 'sweeplab\[cluster\]'"), \
            workers(scheduler="tcp://localhost:1"):
        pass
    try:
        engine("fcl")
    except EngineUnavailable as error:
        pytest.skip(str(error))
    assert main(["fuzz", "--engine", "fcl", "--pair", "sphere-sphere", "--out", str(tmp_path),
                 "--scheduler", "tcp://localhost:1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "sweeplab fuzz: --scheduler needs Dask distributed" in err, err


def test_a_lost_worker_ends_fuzz_with_one_line_and_exit_2(tmp_path, capsys, monkeypatch):
    """It ended in a traceback with exit 1, the code for "found a disagreement"."""
    from sweeplab.engines import fuzz

    pytest.importorskip("fcl")  # (the command builds its engine before the run)

    def lost(*arguments, **options):
        raise WorkerLost("a fuzzing worker died outside an engine call (chunk (0,) of seed 1): out of memory, ...")

    monkeypatch.setattr(fuzz, "run", lost)
    assert main(["fuzz", "--engine", "fcl", "--pair", "sphere-sphere", "-n", "10", "--out", str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err == ("sweeplab fuzz: a fuzzing worker died outside an engine call (chunk (0,) of "
                                       "seed 1): out of memory, ...\n")
