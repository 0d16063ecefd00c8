"""Reading the editor's JSON files (scenes, fixtures): one clear line for any file
that is not JSON at all, whatever is wrong with it."""

from __future__ import annotations

import json
from pathlib import Path


class JsonFileError(ValueError):
    """A file that could not be read as JSON; the message names it and says why."""


def read_json(path) -> object:
    """The parsed contents of the JSON file ``path``."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise JsonFileError(f"cannot read {path}: {error.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise JsonFileError(f"{path} is not valid JSON: {error}") from None
    except RecursionError:
        raise JsonFileError(f"{path} nests lists or objects too deeply to read") from None
