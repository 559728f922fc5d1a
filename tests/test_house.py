"""The house rule of ../STYLE.md, held by the suite: files in models/ and backend/ stay readable in one sitting.

No file there over 300 lines and no function over 60 (docstring included). A longer one is allowed only
where it reads better whole, listed below with the reason; the list may only shrink.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("models", "backend")
MAX_FILE_LINES = 300
MAX_FUNCTION_LINES = 60

# path -> why it is clearer as one file; the list may only shrink (empty since issue 30's splits)
LONG_FILES: dict[str, str] = {}
# "path:function" -> why it is clearer as one function; empty since issue 30's splits
LONG_FUNCTIONS: dict[str, str] = {}


def _sources() -> list[Path]:
    return sorted(p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py") if "migrations" not in p.parts)


def long_files(paths: list[Path], root: Path = ROOT) -> dict[str, int]:
    """Files over MAX_FILE_LINES lines: relative path -> line count."""
    counts = {str(p.relative_to(root)): len(p.read_text(encoding="utf-8").splitlines()) for p in paths}
    return {path: n for path, n in counts.items() if n > MAX_FILE_LINES}


def long_functions(paths: list[Path], root: Path = ROOT) -> dict[str, int]:
    """Functions (and methods) over MAX_FUNCTION_LINES lines: "path:name" -> line count."""
    found: dict[str, int] = {}
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    found[f"{path.relative_to(root)}:{node.name}"] = length
    return found


def test_no_file_in_models_or_backend_passes_300_lines() -> None:
    over = {path: n for path, n in long_files(_sources()).items() if path not in LONG_FILES}
    assert not over, f"split these files by stage (or justify them in LONG_FILES): {over}"


def test_no_function_in_models_or_backend_passes_60_lines() -> None:
    over = {name: n for name, n in long_functions(_sources()).items() if name not in LONG_FUNCTIONS}
    assert not over, f"split these functions (or justify them in LONG_FUNCTIONS): {over}"


def test_every_allowed_exception_still_exists_and_is_still_long() -> None:
    measured = {**long_files(_sources()), **long_functions(_sources())}
    stale = [allowed for allowed in [*LONG_FILES, *LONG_FUNCTIONS] if allowed not in measured]
    assert not stale, f"no longer long (or gone): remove {stale} from the allow-list"


def test_the_measure_sees_a_long_function_and_a_long_file_but_not_a_short_one(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES - 1))
    short, long = tmp_path / "short.py", tmp_path / "long.py"
    short.write_text(f"def probe() -> None:\n{body}\n", encoding="utf-8")  # exactly 60 lines
    long.write_text(f"class C:\n    def probe(self) -> None:\n    {body.replace(chr(10), chr(10) + '    ')}\n        y = 0\n"
                    + "\n" * MAX_FILE_LINES, encoding="utf-8")
    assert long_functions([short, long], tmp_path) == {"long.py:probe": MAX_FUNCTION_LINES + 1}
    assert long_files([short, long], tmp_path) == {"long.py": MAX_FILE_LINES + 2 + MAX_FUNCTION_LINES}
