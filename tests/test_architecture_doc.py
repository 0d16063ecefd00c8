"""``docs/architecture.md`` names every module of the package, under its current name:
each room's row of the app's table lists exactly the room's modules (its
``__init__`` where it holds more than the room's docstring), and the
physics section names every physics module (its table's first column only modules
that exist)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULE = re.compile(r"^[a-z_][a-z0-9_]*(/[a-z_][a-z0-9_]*)?$")


def modules(folder: Path) -> set[str]:
    """Module paths under ``folder`` without ``.py`` (``sweep/ball``); a package's
    ``__init__`` is its folder's, and only a top-level one is named."""
    found = {path.relative_to(folder).with_suffix("").as_posix() for path in folder.rglob("*.py")}
    return {name for name in found if not (name.endswith("__init__") and "/" in name)}


def names(text: str) -> set[str]:
    """The backticked tokens of ``text`` that can be module paths."""
    return {token for token in re.findall(r"`([^`]+)`", text) if MODULE.match(token)}


def section(doc: str, heading: str) -> str:
    """From the line ``heading`` to the next ``## `` heading."""
    start = re.search(rf"^{re.escape(heading)}$", doc, re.MULTILINE)
    assert start is not None, f"no {heading!r} section"
    end = doc.find("\n## ", start.end())
    return doc[start.start():end if end != -1 else len(doc)]


def room_rows(doc: str) -> dict[str, str]:
    """The app table's modules column by room (``""``: the top-level modules)."""
    rows = {}
    for line in section(doc, "## app/").splitlines():
        match = re.match(r"^\| (?:`([a-z_]+)/`|top level) \| (.*?) \| [^|]* \|$", line)
        if match:
            rows[match.group(1) or ""] = match.group(2)
    return rows


def app_mismatches(doc: str, app: Path) -> list[str]:
    """Each room whose row does not list exactly its modules: what is missing or stale."""
    rooms = {"": {path.stem for path in app.glob("*.py")}}
    rooms.update({folder.name: modules(folder) for folder in app.iterdir() if (folder / "__init__.py").is_file()})
    rows = room_rows(doc)
    wrong = []
    for room in sorted(rooms.keys() | rows.keys()):  # a room's __init__ may be named, need not be
        listed, actual = names(rows.get(room, "")) - {"__init__"}, rooms.get(room, set()) - {"__init__"}
        if listed != actual:
            wrong.append(f"{room or 'top level'}: missing {sorted(actual - listed)}, stale {sorted(listed - actual)}")
    return wrong


def physics_mismatches(doc: str, physics: Path) -> list[str]:
    text = section(doc, "## physics/")
    actual = modules(physics) - {"__init__"}
    first_column = {token for line in text.splitlines() if line.startswith("| `")
                    for token in names(line.split("|")[1])}
    wrong = [f"physics: {name} is not named" for name in sorted(actual - names(text))]
    return wrong + [f"physics: the table names {name}, which is no module" for name in sorted(first_column - actual)]


def test_every_module_is_named_under_its_current_name():
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    wrong = app_mismatches(doc, ROOT / "app") + physics_mismatches(doc, ROOT / "physics")
    assert not wrong, "docs/architecture.md: " + "; ".join(wrong)


def test_a_missing_and_a_stale_module_are_named(tmp_path):
    for name in ("app/view/__init__.py", "app/view/reports.py", "app/view/camera.py", "app/cli.py",
                 "physics/shapes.py", "physics/sweep/__init__.py", "physics/sweep/ball.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    doc = ("## physics/\n\nDESIGN's `shapes`.\n\n| module | what | why |\n|---|---|---|\n"
           "| `sweep/ball` | a ball | one |\n| `sweep/gone` | old | two |\n\n## app/\n\n"
           "| room | modules | what |\n|---|---|---|\n"
           "| `view/` | `reports` (the `Editor`'s), `tessellate` | plain data |\n| top level | `cli` | one each |\n")
    assert app_mismatches(doc, tmp_path / "app") == ["view: missing ['camera'], stale ['tessellate']"]
    assert physics_mismatches(doc, tmp_path / "physics") == ["physics: the table names sweep/gone, which is no module"]
