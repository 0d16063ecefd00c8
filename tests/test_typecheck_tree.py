"""``typecheck/sweeplab`` is the installed package's shape for mypy: one link to each
module and room of ``app/``, and to ``physics/`` and ``shaders/`` (pyproject.toml's
``package-dir``).  A module added to ``app/`` without its link would go unchecked."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def expected_links(root: Path) -> dict[str, Path]:
    """Link name: the folder or file it must resolve to."""
    app = root / "app"
    links = {entry.name: entry.resolve() for entry in app.iterdir()
             if entry.suffix == ".py" or entry.name == "py.typed" or (entry / "__init__.py").is_file()}
    links.update(physics=(root / "physics").resolve(), shaders=(root / "shaders").resolve())
    return links


def actual_links(root: Path) -> dict[str, Path]:
    tree = root / "typecheck" / "sweeplab"
    return {entry.name: entry.resolve() for entry in tree.iterdir() if entry.is_symlink()}


def test_the_link_tree_mirrors_the_package():
    assert actual_links(ROOT) == expected_links(ROOT)
    assert all(entry.is_symlink() for entry in (ROOT / "typecheck" / "sweeplab").iterdir())


def test_a_missing_link_is_seen(tmp_path):
    for folder in ("app/view", "physics", "shaders", "typecheck/sweeplab"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "app" / "view" / "__init__.py").write_text("")
    (tmp_path / "app" / "cli.py").write_text("")
    (tmp_path / "app" / "examples").mkdir()  # package data, not a package: no link
    for name, target in (("view", "../../app/view"), ("physics", "../../physics"), ("shaders", "../../shaders")):
        (tmp_path / "typecheck" / "sweeplab" / name).symlink_to(target)
    assert set(expected_links(tmp_path)) == {"view", "cli.py", "physics", "shaders"}
    assert set(actual_links(tmp_path)) == {"view", "physics", "shaders"}
