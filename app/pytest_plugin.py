"""The pytest plugin (entry point ``pytest11``): in any project with sweeplab
installed, ``pytest`` collects every ``*.json`` whose ``"format"`` is
``"sweeplab-fixture"``, wherever it lives, as one test (id = the file name).

A fixture's scene is swept and its answers compared field by field; a failure shows
the expected/actual table.  A fixture marked ``known_failing`` is a strict expected
failure (it fails once it passes).  A file is taken when its opening bytes declare
the format (``sweeplab.scene.fixture.declares_fixture``), and fails if it is then malformed;
other JSON files are ignored, never failed.
"""

from __future__ import annotations

import pytest

from sweeplab.scene.json_files import declares_fixture


class FixtureFailure(Exception):
    """A fixture's answer differs from what it expects (carries the report)."""


def pytest_collect_file(parent, file_path):
    if file_path.suffix == ".json" and declares_fixture(file_path):
        return FixtureFile.from_parent(parent, path=file_path)
    return None


class FixtureFile(pytest.File):
    def collect(self):
        yield FixtureItem.from_parent(self, name=self.path.name)


class FixtureItem(pytest.Item):
    """Loads the fixture, sweeps its scene and compares field by field; a
    known-failing fixture is a strict expected failure."""

    def runtest(self):
        from sweeplab.scene.fixture import FixtureError, load_fixture, run_fixture

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
