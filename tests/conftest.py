"""Shared fixtures.  GL tests need a real OpenGL context: without one they skip,
except when ``SWEEPLAB_REQUIRE_GL=1`` (CI), where a missing context fails them.

Hypothesis draws new examples on every run (so local runs keep exploring); with
``HYPOTHESIS_PROFILE=ci`` (``.ci/run``) it draws the same ones every time, so a CI
verdict is reproducible and a new find cannot block unrelated work
(``uncompiled``: the same, fewer, for the run with the kernels as Python).  A failure a
local run finds becomes a hand-worked regression test.  No profile has a deadline:
a test's first call loads (or compiles) its kernels, and timings on a shared machine
prove nothing (speed is measured in ``bench/``).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("local", deadline=None)
settings.register_profile("ci", derandomize=True, deadline=None)
settings.register_profile("uncompiled", derandomize=True, max_examples=10, deadline=None)
"""For ``NUMBA_DISABLE_JIT=1`` runs (``.ci/run``): the kernels run as Python, ~1000x slower."""
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "local"))


@pytest.fixture(scope="session")
def gl_context():
    from app.headless import GLUnavailable, create_context

    try:
        ctx = create_context()
    except GLUnavailable as error:
        if os.environ.get("SWEEPLAB_REQUIRE_GL") == "1":
            pytest.fail(f"SWEEPLAB_REQUIRE_GL=1 but {error}")
        pytest.skip(str(error))
    yield ctx
    ctx.release()


# --- every tests/fixtures/*.json runs as its own test --------------------------

FIXTURE_DIRECTORY = "fixtures"


class FixtureFailure(Exception):
    """A fixture's answer differs from what it expects (carries the report)."""


def pytest_collect_file(parent, file_path):
    if file_path.suffix == ".json" and file_path.parent.name == FIXTURE_DIRECTORY:
        return FixtureFile.from_parent(parent, path=file_path)
    return None


class FixtureFile(pytest.File):
    def collect(self):
        yield FixtureItem.from_parent(self, name=self.path.name)


class FixtureItem(pytest.Item):
    """Loads the fixture, sweeps its scene and compares field by field; a
    known-failing fixture is a strict expected failure."""

    def runtest(self):
        from app.fixture import FixtureError, load_fixture, run_fixture

        try:
            fixture = load_fixture(self.path)
        except FixtureError as error:
            pytest.fail(f"malformed fixture: {error}", pytrace=False)
        report = run_fixture(fixture)
        if fixture.known_failing:
            if report.passed:
                pytest.fail(f"{self.path.name} is marked known failing ({fixture.known_failing}) but now passes: "
                            "remove \"known_failing\" from it", pytrace=False)
            pytest.xfail(f"known failing: {fixture.known_failing}")
        if not report.passed:
            raise FixtureFailure(f"{self.path.name}: {fixture.note}\n{report.table()}")

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, FixtureFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, 0, f"fixture {self.name}"
