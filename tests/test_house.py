"""The house rules of ../STYLE.md, held by the suite: every file of ours stays readable in one sitting, and
imports run one way.

No file in any source folder over 300 lines and no function over 60 (docstring included). A longer one is
allowed only where it reads better whole, listed below with the reason; the list may only shrink. No import
circle anywhere (read with an AST; imports under TYPE_CHECKING and inside functions count: a circle in types
is a circle for a reader).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("models", "backend", "app", "db", "scripts", "benchmarks", "devtools", "playground_client")
MAX_FILE_LINES = 300
MAX_FUNCTION_LINES = 60

# path -> why it is clearer as one file; the list may only shrink (empty since issue 30's splits)
LONG_FILES: dict[str, str] = {}
# "path:function" -> why it is clearer as one function; empty since issue 30's splits
LONG_FUNCTIONS: dict[str, str] = {}


def _sources() -> list[Path]:
    return sorted(p for folder in FOLDERS if (ROOT / folder).is_dir()
                  for p in (ROOT / folder).rglob("*.py") if "migrations" not in p.parts)


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


def test_no_source_file_passes_300_lines() -> None:
    over = {path: n for path, n in long_files(_sources()).items() if path not in LONG_FILES}
    assert not over, f"split these files by stage (or justify them in LONG_FILES): {over}"


def test_no_source_function_passes_60_lines() -> None:
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


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(paths: list[Path], root: Path = ROOT) -> dict[str, set[str]]:
    """module -> the modules of ours it imports (any import statement anywhere in the file)."""
    names = {_module_name(p, root): p for p in paths}
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                deps |= {f"{base}.{a.name}" if f"{base}.{a.name}" in names else base for a in node.names}
            elif isinstance(node, ast.Import):
                deps |= {a.name for a in node.names}
        graph[name] = {d for d in deps if d in names and d != name}
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        circles.append(sorted(group))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return circles


def test_no_import_circle_anywhere() -> None:
    circles = import_circles(import_graph(_sources()))
    assert not circles, f"move the shared type down so imports run one way: {circles}"


def test_the_circle_check_finds_a_circle_in_types(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.b import B\n")
    (package / "b.py").write_text("from pkg import a\n")
    (package / "c.py").write_text("from .a import x\n")
    paths = sorted(package.glob("*.py"))
    assert import_circles(import_graph(paths, tmp_path)) == [["pkg.a", "pkg.b"]]
