"""Shared fixtures.  GL tests need a real OpenGL context: without one they skip,
except when ``SWEEPLAB_REQUIRE_GL=1`` (CI), where a missing context fails them.

Hypothesis draws new examples on every run (so local runs keep exploring); with
``HYPOTHESIS_PROFILE=ci`` (``.ci/run``) it draws the same ones every time, so a CI
verdict is reproducible and a new find cannot block unrelated work
(``uncompiled``: the same, fewer, for the run with the kernels as Python).  A failure a
local run finds becomes a hand-worked regression test: every profile prints, beside
the falsifying example, the ``@reproduce_failure(...)`` line that replays it exactly
(``tests/test_hypothesis_replay.py``).  No profile has a deadline:
a test's first call loads (or compiles) its kernels, and timings on a shared machine
prove nothing (speed is measured in ``bench/``).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("local", deadline=None, print_blob=True)
settings.register_profile("ci", derandomize=True, max_examples=50, deadline=None, print_blob=True)
"""Half the examples of a local run where a test does not set its own count: the suite
runs within CI's 15 minutes on 2 cores (local runs keep exploring 100 a test)."""
settings.register_profile("uncompiled", derandomize=True, max_examples=10, deadline=None, print_blob=True)
"""For ``NUMBA_DISABLE_JIT=1`` runs (``.ci/run``): the kernels run as Python, ~1000x slower."""
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "local"))


def examples(count: int) -> int:
    """A test's own example count, but never more than the profile's: under
    ``uncompiled`` (10, kernels as Python) a test that asks 60 of its own took 92 s of
    the stage's 103."""
    return min(count, settings.default.max_examples)


@pytest.fixture(scope="session")
def gl_context():
    from sweeplab.render.headless import GLUnavailable, create_context

    try:
        ctx = create_context()
    except GLUnavailable as error:
        if os.environ.get("SWEEPLAB_REQUIRE_GL") == "1":
            pytest.fail(f"SWEEPLAB_REQUIRE_GL=1 but {error}")
        pytest.skip(str(error))
    yield ctx
    ctx.release()


# Every tests/fixtures/*.json runs as its own test through sweeplab's pytest plugin
# (``sweeplab.pytest_plugin``, entry point ``pytest11``), as in any user's project.
