"""Print the README's pages table from the registered methods (tests/test_readme.py holds the README to it).

    .venv/bin/python scripts/readme_pages.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from backend.registry import Registry, discover  # noqa: E402


def pages_table(registry: Registry) -> str:
    """One row per method in page order: section, page title, method name, and the paper with its link."""
    rows = ["| Section | Page | Method | Paper |", "|---|---|---|---|"]
    for method in registry.ordered():
        spec, paper = method.spec, method.spec.paper
        rows.append(f"| {spec.section} | {spec.title} | `{spec.name}` | {paper.authors}. "
                    f"[{paper.title}]({paper.url}). {paper.venue}. |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(pages_table(discover()))
