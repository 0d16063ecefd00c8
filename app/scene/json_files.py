"""Reading the editor's JSON files (scenes, fixtures, query logs, lessons): one clear
line for any file that is not JSON at all, whatever is wrong with it."""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path
from typing import TypeGuard


def is_integer(value) -> TypeGuard[int]:
    """A JSON integer (``true`` and ``false`` are Python ints, and are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_finite_number(value) -> bool:
    """A JSON number that is a finite float: not a boolean, NaN, infinity, or an
    integer of hundreds of digits (beyond any float)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


ECHO_CHARACTERS = 80
"""How much of an offending value an error message quotes (a file may hold a
megabyte where a number belongs)."""


def brief(value) -> str:
    """``repr(value)``, cut to ``ECHO_CHARACTERS`` with an ellipsis: how every error
    message quotes the data it refuses."""
    text = repr(value)
    return text if len(text) <= ECHO_CHARACTERS else text[:ECHO_CHARACTERS - 1] + "…"


class JsonFileError(ValueError):
    """A file that could not be read as JSON; the message names it and says why."""


def read_json(path) -> object:
    """The parsed contents of the JSON file ``path``."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise JsonFileError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError as error:
        raise JsonFileError(f"{path} is not valid JSON: {error}") from None
    return parse_json(text, str(path))


def parse_json(text: str, where: str) -> object:
    """``text`` parsed; ``JsonFileError`` beginning with ``where`` (a file, a file's
    line) for text that is not JSON, nests too deeply, or holds an integer of more
    digits than Python converts (``sys.get_int_max_str_digits``)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise JsonFileError(f"{where} is not valid JSON: {error}") from None
    except ValueError:  # the only other one json.loads raises: int("9" * 5000)
        raise JsonFileError(f"{where} holds an integer of more than {sys.get_int_max_str_digits()} digits") from None
    except RecursionError:
        raise JsonFileError(f"{where} nests lists or objects too deeply to read") from None


FIXTURE_FORMAT = "sweeplab-fixture"
"""The ``"format"`` of a fixture file (``sweeplab.scene.fixture``)."""

_FIXTURE_DECLARATION = re.compile(rb'"format"\s*:\s*"' + FIXTURE_FORMAT.encode() + rb'"')

SNIFF_BYTES = 4096
"""How much of a JSON file ``declares_fixture`` reads: the format comes first in the
files sweeplab writes, and a large data file is not parsed."""


def declares_fixture(path) -> bool:
    """Whether the opening bytes of ``path`` declare ``"format": "sweeplab-fixture"``:
    such a file is a fixture, and fails as one if it is malformed; any other JSON file
    is none of sweeplab's business (the pytest plugin and ``sweeplab check`` on a
    folder skip it).  Standard library only: the plugin loads in every pytest run."""
    try:
        with open(path, "rb") as file:
            return _FIXTURE_DECLARATION.search(file.read(SNIFF_BYTES)) is not None
    except OSError:
        return False
