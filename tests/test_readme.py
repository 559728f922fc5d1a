"""The README is a map that cannot go stale: its pages table is the registry's, its paths and links exist."""

from __future__ import annotations

import re
from pathlib import Path

from backend.registry import discover
from scripts.readme_pages import pages_table

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, flags=re.S | re.M)
    assert match, f"the README has no section {title!r}"
    return match.group(1)


def test_the_pages_table_is_the_registered_methods_as_scripts_readme_pages_prints_it() -> None:
    assert pages_table(discover()) in _section("Pages"), "run scripts/readme_pages.py and paste its table"


def test_every_path_in_where_things_live_exists() -> None:
    rows = [line for line in _section("Where things live").splitlines() if line.startswith("| `")]
    paths = [p for row in rows for p in re.findall(r"`([^`]+)`", row.split("|")[1])]
    assert len(paths) >= 15
    missing = [p for p in paths if not (ROOT / p.replace("<method>", "inequality")).exists()]
    assert not missing, f"the README names paths that do not exist: {missing}"


def test_every_top_level_folder_with_files_is_on_the_map() -> None:
    mapped = _section("Where things live")
    folders = {p.name for p in ROOT.iterdir() if p.is_dir() and not p.name.startswith((".", "_")) and not p.name.endswith(".egg-info")
               and p.name not in {"var", "out", "node_modules"} and any(p.iterdir())}
    folders -= {"docker"}  # the image and compose files: described in docs/operations.md
    assert not [f for f in sorted(folders) if f"`{f}/" not in mapped]


def test_every_linked_document_exists_and_the_readme_stays_a_short_map() -> None:
    links = re.findall(r"\]\(((?:docs/)[^)#]+)", README)
    assert links and all((ROOT / link).exists() for link in links)
    assert len(README.splitlines()) <= 170
