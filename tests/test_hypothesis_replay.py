"""A property test's failure can be replayed: the suite's hypothesis profiles print the
``@reproduce_failure`` line beside the falsifying example (``tests/conftest.py``), and
that line alone makes the same failure happen again, even under a profile that draws
other examples."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

FAILING = '''
from hypothesis import given, strategies as st

@given(st.floats(0, 1))
def test_half(x):
    assert x < 0.5
'''


def _run(folder: Path, source: str, profile: str) -> str:
    folder.mkdir(exist_ok=True)
    (folder / "test_failing.py").write_text(source)
    (folder / "conftest.py").write_text((Path(__file__).parent / "conftest.py").read_text())
    completed = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                                "-p", "no:randomly", str(folder / "test_failing.py")],
                               capture_output=True, text=True, cwd=folder,
                               env={**os.environ, "HYPOTHESIS_PROFILE": profile,
                                    "HYPOTHESIS_STORAGE_DIRECTORY": str(folder / ".hypothesis")})
    return completed.stdout + completed.stderr


def test_a_failure_prints_the_line_that_replays_it(tmp_path):
    for profile in ("local", "ci"):
        output = _run(tmp_path / profile, FAILING, profile)
        example = re.search(r"\bx=([^,\n]+)", output)  # "Falsifying example" or "Failing test case" (6.170)
        assert "1 failed" in output and example is not None, output
        replay = re.search(r"@reproduce_failure\([^)]*\)", output)
        assert replay is not None, f"{profile}: no replay line in\n{output}"
    # In a folder of its own (no example database to replay from): the line alone.
    replayed = FAILING.replace("from hypothesis import given", "from hypothesis import given, reproduce_failure") \
        .replace("@given", f"{replay.group(0)}\n@given")
    output = _run(tmp_path / "replay", replayed, "local")
    replayed_example = re.search(r"\bx=([^,\n]+)", output)
    assert "1 failed" in output and replayed_example is not None, output
    assert replayed_example.group(1) == example.group(1), output
