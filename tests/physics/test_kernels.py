"""``physics.kernels``: the tiers answer alike, the policy's choices at its thresholds,
one signature per kernel, and a disk cache that never fails a query.

Tests that need a process with nothing compiled yet (the tier a first call takes,
what a cache folder does) run a script in a fresh Python with a cache folder of its
own; the rest run here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from sweeplab.physics import Capsule, ConvexPolyhedron, Sphere, Triangle, kernels, sweep
from sweeplab.physics.sweep.ball import ball_core_answer
from tests.physics.golden import CORPUS, answer_json, query, read_corpus

pytestmark = pytest.mark.skipif(kernels.JIT_DISABLED, reason="nothing is compiled with NUMBA_DISABLE_JIT=1")


def run_script(code: str, cache: Path, **environment) -> subprocess.CompletedProcess:
    """``code`` in a fresh Python with numba's cache in ``cache``; its last stdout line
    is JSON."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), **environment)
    env.pop("SWEEPLAB_KERNELS", None) if "SWEEPLAB_KERNELS" not in environment else None
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def last_json(done: subprocess.CompletedProcess):
    return json.loads(done.stdout.strip().splitlines()[-1])


def warning_lines(done: subprocess.CompletedProcess) -> list[str]:
    return [line for line in done.stderr.splitlines() if line.strip()]


# --- the tiers ---------------------------------------------------------------------

def test_the_tiers_answer_alike_bit_for_bit_on_the_golden_corpus():
    """Every eighth golden record (every pair both ways, every family, float32 too),
    answered as Python and as machine code: the same answer, floats bit for bit."""
    meshes, records = read_corpus(CORPUS)
    chosen = records[::8]
    with kernels.interpreted():
        as_python = [answer_json(query(record, meshes)) for record in chosen]
    with kernels.compiled():
        as_machine_code = [answer_json(query(record, meshes)) for record in chosen]
    differing = [(record["id"], record["pair"])
                 for record, one, other in zip(chosen, as_python, as_machine_code, strict=True) if one != other]
    assert not differing, f"{len(differing)} of {len(chosen)} differ: {differing[:20]}"
    assert sum(answer["hit"] for answer in as_python) > len(chosen) / 3


def test_a_first_query_runs_as_python_and_compiles_nothing(tmp_path):
    done = run_script("""
        import json
        from sweeplab.physics import Capsule, Triangle, kernels, sweep
        found = sweep(Capsule([0, 0, 3], [1, 0, 3], 0.5), Triangle([-1, -1, 0], [1, -1, 0], [0, 1, 0]), [0, 0, -6.0])
        print(json.dumps({"t": found.t, "compiled": kernels.compiled_signatures(),
                          "interpreted": list(kernels.tier_report())}))
    """, tmp_path)
    answer = last_json(done)
    assert answer["t"] == 0.4166666666666667
    assert answer["compiled"] == {}
    assert "sweeplab.physics.sweep.capsule.capsule_polygon_answer" in answer["interpreted"]
    assert warning_lines(done) == []


def test_each_policy_from_the_environment(tmp_path):
    code = """
        import json
        from sweeplab.physics import Sphere, kernels, sweep
        sweep(Sphere([0, 0, 3], 0.5), Sphere([0, 0, 0], 1.0), [0, 0, -6.0])
        print(json.dumps({"policy": kernels.policy(), "compiled": sorted(kernels.compiled_signatures())}))
    """
    compiled = last_json(run_script(code, tmp_path / "a", SWEEPLAB_KERNELS="compile"))
    assert compiled["policy"] == "compile" and "sweeplab.physics.sweep.ball.ball_core_answer" in compiled["compiled"]
    interpreted = last_json(run_script(code, tmp_path / "b", SWEEPLAB_KERNELS="interpret"))
    assert interpreted == {"policy": "interpret", "compiled": []}
    wrong = run_script(code, tmp_path / "c", SWEEPLAB_KERNELS="fastest")
    assert last_json(wrong)["policy"] == "auto"
    assert len(warning_lines(wrong)) == 1 and "SWEEPLAB_KERNELS" in wrong.stderr


def test_a_large_batch_is_compiled_at_once_and_a_loop_of_small_ones_after_the_budget(tmp_path):
    done = run_script("""
        import json
        import numpy as np
        from sweeplab.physics import Sphere, Triangle, kernels, sweep
        from sweeplab.physics.sweep.ball import ball_core_answer
        triangle = Triangle([-1, -1, 0], [1, -1, 0], [0, 1, 0])
        calls = 0
        while not ball_core_answer.overloads and calls < 100000:
            sweep(Sphere([0, 0, 3], 0.5), triangle, [0, 0, -6.0])
            calls += 1
        spent = kernels.tier_report()["sweeplab.physics.sweep.ball.ball_core_answer"]
        (stats,) = spent.values()
        big = 2 * int(kernels.INTERPRET_BUDGET_SECONDS / kernels.FIRST_GUESS_SECONDS_PER_WORK)  # (serial: < 4096)
        sweep(Sphere(np.zeros((big, 3)) + [0, 0, 3], 0.5), triangle, [0, 0, -6.0])
        print(json.dumps({"calls": calls, "spent": stats.interpreted_seconds,
                          "lanes": "sweeplab.physics.sweep.ball.ball_core_lanes" in kernels.compiled_signatures(),
                          "lanes_interpreted": "sweeplab.physics.sweep.ball.ball_core_lanes" in kernels.tier_report()}))
    """, tmp_path)
    answer = last_json(done)
    assert answer["calls"] > 10, "a one-off query must not wait for the compiler"
    assert answer["spent"] >= 0.5 * 0.5 and answer["calls"] < 100000
    assert answer["lanes"] and not answer["lanes_interpreted"]


@pytest.fixture
def stats_of_a_signature():
    """``ball_core_answer`` with made-up interpreted stats for a made-up signature."""
    signature = ("a signature no call has",)
    before = dict(ball_core_answer._stats)
    ball_core_answer._stats[signature] = kernels.TierStats(3, 0.4, 0.01)
    yield signature
    ball_core_answer._stats.clear()
    ball_core_answer._stats.update(before)


def test_auto_compiles_just_past_the_budget(stats_of_a_signature):
    """spent 0.4 s; a call of work w is expected to take 0.01 w: compile once
    0.4 + 0.01 w exceeds ``INTERPRET_BUDGET_SECONDS`` (0.5), not at it."""
    assert kernels.INTERPRET_BUDGET_SECONDS == 0.5
    with kernels.using("auto"):
        assert ball_core_answer._choose(stats_of_a_signature, 9.0) == "interpret"
        assert ball_core_answer._choose(stats_of_a_signature, 10.0) == "interpret"  # at the budget: 0.5
        assert ball_core_answer._choose(stats_of_a_signature, 10.5) == "compile"
        assert ball_core_answer._choose(("never run",), 499) == "interpret"  # the first guess: 1 ms of work unit
        assert ball_core_answer._choose(("never run",), 501) == "compile"


def test_defer_interprets_while_its_block_is_within_budget(stats_of_a_signature):
    """0.01 s a unit of work (the stats), up to ``DEFER_BUDGET_SECONDS`` (1 s) spent in
    the block so far plus the call's expected time, not beyond."""
    assert kernels.DEFER_BUDGET_SECONDS == 1.0
    with kernels.deferred():
        assert ball_core_answer._choose(stats_of_a_signature, 100.0) == "interpret"
        assert ball_core_answer._choose(stats_of_a_signature, 100.5) == "pending"
        assert ball_core_answer._choose(("never run",), 1000) == "interpret"
        assert ball_core_answer._choose(("never run",), 1001) == "pending"
        kernels._state.deferred_seconds = 0.6
        assert ball_core_answer._choose(stats_of_a_signature, 40.0) == "interpret"
        assert ball_core_answer._choose(stats_of_a_signature, 40.5) == "pending"
        with kernels.deferred():  # a block of its own: its own budget
            assert ball_core_answer._choose(stats_of_a_signature, 100.0) == "interpret"
        assert kernels._state.deferred_seconds == 0.6


def test_compile_and_interpret_ignore_the_budget(stats_of_a_signature):
    for chosen in ("compile", "interpret"):
        with kernels.using(chosen):
            assert ball_core_answer._choose(stats_of_a_signature, 1e9) == chosen
            assert ball_core_answer._choose(stats_of_a_signature, 0.0) == chosen


def test_defer_raises_pending_for_a_batch_too_large_to_interpret(tmp_path):
    done = run_script("""
        import json
        import numpy as np
        from sweeplab.physics import Sphere, Triangle, kernels, sweep
        triangle = Triangle([-1, -1, 0], [1, -1, 0], [0, 1, 0])
        with kernels.deferred():
            small = sweep(Sphere(np.zeros((3, 3)) + [0, 0, 3], 0.5), triangle, [0, 0, -6.0])
            counted = kernels._state.deferred_seconds
            try:
                sweep(Sphere(np.zeros((100000, 3)) + [0, 0, 3], 0.5), triangle, [0, 0, -6.0])
                pending = None
            except kernels.KernelsPending as error:
                pending = str(error)
        print(json.dumps({"small": small.t.tolist(), "pending": pending, "compiled": kernels.compiled_signatures(),
                          "counted": counted}))
    """, tmp_path)
    answer = last_json(done)
    assert answer["small"] == [0.4166666666666667] * 3 and answer["counted"] > 0
    assert answer["pending"] is not None and "too much work (100000) to run as Python now" in answer["pending"]
    assert answer["compiled"] == {}


def test_a_large_batch_waiting_for_its_parallel_twin_runs_on_the_serial_machine_code(tmp_path):
    """Under ``defer`` (the editor's view) a batch large enough for the parallel variant
    of its loop, which is not compiled, runs on the serial variant's machine code
    rather than waiting or running as Python (``physics.lanes``)."""
    done = run_script("""
        import json
        import numba
        import numpy as np
        from sweeplab.physics import Sphere, Triangle, kernels, sweep
        from sweeplab.physics.lanes import PARALLEL_MIN_LANES
        numba.set_num_threads(2)
        triangle = Triangle([-1, -1, 0], [1, -1, 0], [0, 1, 0])
        with kernels.compiled():
            sweep(Sphere(np.zeros((3, 3)) + [0, 0, 3], 0.5), triangle, [0, 0, -6.0])
        with kernels.deferred():
            many = sweep(Sphere(np.zeros((PARALLEL_MIN_LANES, 3)) + [0, 0, 3], 0.5), triangle, [0, 0, -6.0])
        names = kernels.compiled_signatures()
        print(json.dumps({"t": sorted(set(many.t.tolist())), "parallel": any(n.endswith("_parallel") for n in names),
                          "interpreted": list(kernels.tier_report())}))
    """, tmp_path, NUMBA_NUM_THREADS="2")
    answer = last_json(done)
    assert answer["t"] == [0.4166666666666667] and not answer["parallel"]
    assert "sweeplab.physics.sweep.ball.ball_core_lanes_parallel" not in answer["interpreted"]


def test_policy_names_are_checked():
    with pytest.raises(ValueError, match="policy must be one of"):
        kernels.set_policy("fast")
    with pytest.raises(ValueError, match="policy must be one of"):
        with kernels.using("fast"):
            pass


# --- signatures ----------------------------------------------------------------------

def test_every_layout_of_the_inputs_reaches_a_kernel_as_one_signature():
    """Broadcast, strided, Fortran-ordered, read-only and writable inputs, scalar and
    batched, of every pair family: each entry kernel is compiled once per dtype."""
    rng = np.random.default_rng(3)
    centers = np.asfortranarray(rng.normal(size=(6, 3)))
    read_only = rng.normal(size=(6, 3))
    read_only.flags.writeable = False
    triangle = Triangle(*rng.normal(size=(3, 3)))
    box = ConvexPolyhedron.box([0.5, 0.5, 0.5])
    with kernels.compiled():
        for direction in (np.array([0, 0, -6.0]), np.broadcast_to([0, 0, -6.0], (6, 3)), read_only,
                          rng.normal(size=(6, 6))[:, ::2]):
            for moving in (Sphere(centers, 0.5), Sphere(read_only, np.full(6, 0.5)),
                           Capsule(centers, read_only, 0.3), box):
                sweep(moving, triangle, direction)
                sweep(moving, box, direction)
                sweep(moving[0] if moving.batch_shape else moving, triangle, np.array([0, 0, -6.0]))
    signatures = kernels.compiled_signatures()
    for name in ("sweeplab.physics.sweep.ball.ball_core_lanes", "sweeplab.physics.sweep.ball.ball_core_answer",
                 "sweeplab.physics.sweep.ball.ball_core", "sweeplab.physics.sweep.capsule.capsule_polygon_lanes",
                 "sweeplab.physics.sweep.capsule.capsule_polygon_answer",
                 "sweeplab.physics.sweep.capsule.capsule_polygon", "sweeplab.physics.sweep.polyhedron._pair_lanes",
                 "sweeplab.physics.sweep.polyhedron._core_lanes"):
        per_dtype = {}
        for signature in signatures.get(name, []):
            dtype = "float32" if "float32" in signature else "float64"
            per_dtype.setdefault(dtype, set()).add(signature)
        # An entry's callee (``ball_core``) is compiled into the entry; on a warm cache the
        # entry's machine code is loaded and the callee is never compiled on its own.
        assert per_dtype or not name.endswith("_lanes"), f"{name} was not compiled"
        assert all(len(found) == 1 for found in per_dtype.values()), f"{name}: {per_dtype}"


def test_a_constant_argument_is_not_a_signature_of_its_own():
    """``row(v, 0)`` and ``row(v, i)`` share one compile: no kernel is specialised on a
    literal value."""
    with kernels.compiled():
        sweep(Sphere([0, 0, 3], 0.5), Triangle([-1, -1, 0], [1, -1, 0], [0, 1, 0]), [0, 0, -6.0])
    literal = {name: signature for name, found in kernels.compiled_signatures().items()
               if name.startswith("sweeplab.") for signature in found if "Literal" in signature}
    assert literal == {}


def test_queries_call_no_link_only_kernel_from_python(tmp_path):
    """Every pair both ways in both dtypes, scalar and batched, the mesh functions and
    the second opinions (``physics.warmup``'s tasks, run as Python): none calls a
    ``kernel`` from Python, which would compile it a second time as an entry."""
    done = run_script("""
        import json
        from sweeplab.physics import kernels, warmup
        with kernels.interpreted():
            for task in warmup.tasks(parallel=False):
                task.run()
        print(json.dumps({"twins": [d.py_func.__qualname__ for d in kernels.PYTHON_TWINS],
                          "compiled": kernels.compiled_signatures()}))
    """, tmp_path)
    assert last_json(done) == {"twins": [], "compiled": {}}


def test_lane_input_is_contiguous_writable_and_a_copy_only_where_needed():
    original = np.arange(12.0).reshape(3, 4)[:, ::2]
    converted = kernels.lane_input(original, np.float32)
    assert converted.flags.c_contiguous and converted.flags.writeable and converted.dtype == np.float32
    assert converted.tolist() == original.tolist()
    read_only = np.zeros((2, 3))
    read_only.flags.writeable = False
    copied = kernels.lane_input(read_only, float)
    assert copied.flags.writeable and not read_only.flags.writeable
    contiguous = np.zeros((2, 3))
    assert kernels.lane_input(contiguous, float) is contiguous


# --- the disk cache --------------------------------------------------------------------

QUERY = """
    import json
    from sweeplab.physics import Sphere, Triangle, kernels, sweep
    with kernels.compiled():
        found = sweep(Sphere([0, 0, 3], 0.5), Triangle([-1, -1, 0], [1, -1, 0], [0, 1, 0]), [0, 0, -6.0])
    print(json.dumps({"t": found.t}))
"""


def test_no_folder_for_the_cache_anywhere_compiles_in_memory_with_one_warning_line(tmp_path):
    """A non-root user with a read-only site-packages and no home: numba finds no cache
    folder (``no locator available``).  Simulated by leaving numba only the folder
    ``NUMBA_CACHE_DIR`` names, under a file: nothing can create it, not even root."""
    blocker = tmp_path / "a file"
    blocker.write_text("")
    done = run_script(textwrap.dedent("""
        from numba.core import caching
        caching.CacheImpl._locator_classes = [caching.UserProvidedCacheLocator]
    """) + textwrap.dedent(QUERY), blocker / "cache")
    assert last_json(done) == {"t": 0.4166666666666667}
    lines = warning_lines(done)
    assert len(lines) == 1 and "NUMBA_CACHE_DIR" in lines[0], done.stderr


def test_a_damaged_cache_file_is_passed_over_with_at_most_one_line(tmp_path):
    """A data file cut short (a process killed while writing it, a full disk)."""
    first = run_script(QUERY, tmp_path)
    data_files = list(tmp_path.rglob("*.nbc"))
    assert data_files
    for path in data_files:
        path.write_bytes(path.read_bytes()[:50])
    again = run_script(QUERY, tmp_path)
    assert last_json(again) == last_json(first)
    assert len(warning_lines(again)) <= 1
    third = run_script(QUERY, tmp_path)  # compiled anew and written back: read without a word
    assert last_json(third) == last_json(first) and warning_lines(third) == []


def test_a_cache_written_by_another_numba_or_for_another_cpu_is_not_used(tmp_path):
    """numba keys its index by its own version and the CPU's name and features: a cache
    from elsewhere is a miss, compiled anew without a word."""
    first = run_script(QUERY, tmp_path, NUMBA_CPU_NAME="x86-64")
    again = run_script(QUERY, tmp_path)
    assert last_json(again) == last_json(first) and warning_lines(again) == []
    for index in tmp_path.rglob("*.nbi"):
        with open(index, "rb") as stream:
            import pickle

            pickle.load(stream)  # numba's version, first in the file
            rest = stream.read()
        with open(index, "wb") as stream:
            pickle.dump("0.1.0", stream)
            stream.write(rest)
    third = run_script(QUERY, tmp_path)
    assert last_json(third) == last_json(first) and warning_lines(third) == []


def test_a_cache_file_that_cannot_be_written_is_skipped_with_one_line(tmp_path, monkeypatch):
    """A full disk: saving raises OSError; the query still answers."""
    done = run_script(textwrap.dedent("""
        from numba.core import caching
        def full(self, *args, **kwargs):
            raise OSError(28, "No space left on device")
        caching.IndexDataCacheFile.save = full
    """) + textwrap.dedent(QUERY), tmp_path)
    assert last_json(done) == {"t": 0.4166666666666667}
    lines = warning_lines(done)
    assert len(lines) == 1 and "No space left on device" in lines[0] and "NUMBA_CACHE_DIR" in lines[0]
