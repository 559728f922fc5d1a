"""Command line: `python -m backend.cli methods` and `python -m backend.cli run METHOD --params JSON`."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any, NoReturn

from pydantic import ValidationError

from backend.jobs.limits import limit_threads, tree_rss_mb
from backend.jobs.outcome import stored_tables
from backend.jobs.run import is_out_of_memory, out_of_memory_message, run_method
from backend.jobs.service import describe_validation_error
from backend.registry import Registry, discover
from backend.settings import get_settings
from backend.tokens import add_token_commands, run_token_command
from models.common import MethodInputError

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2
        self.exit(2, f"error: {message}\n")


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def _progress(fraction: float, message: str = "") -> None:
    print(f"[{fraction * 100:5.1f}%] {message}", file=sys.stderr, flush=True)


def _registry() -> Registry:
    """All loadable methods; a method package that fails to import is simply not listed here."""
    logging.disable(logging.ERROR)
    try:
        return discover(get_settings().extra_method_modules())
    finally:
        logging.disable(logging.NOTSET)


def _run(name: str, raw_params: str, out: Path | None, quiet: bool) -> int:
    registry = _registry()
    method = registry.get(name)
    if method is None:
        return _fail(f"unknown method {name!r}; available methods: {', '.join(registry.names())}")
    try:
        payload: Any = json.loads(raw_params)
    except json.JSONDecodeError as exc:
        return _fail(f"--params is not valid JSON: {exc.msg} at position {exc.pos}")
    if not isinstance(payload, dict):
        return _fail("--params must be a JSON object")
    spec = method.spec
    limit_threads(get_settings().job_threads)  # the thread limit of a job (JOB_THREADS), not torch's default
    try:
        run = run_method(spec, payload, (lambda f, m="": None) if quiet else _progress)
    except ValidationError as exc:
        return _fail(f"invalid params: {describe_validation_error(exc)}")
    except MethodInputError as exc:
        return _fail(str(exc))
    except Exception as exc:  # noqa: BLE001 - out of memory gets the one wording the jobs use
        if not is_out_of_memory(exc):
            raise
        print(f"error: {out_of_memory_message(tree_rss_mb(os.getpid()))}", file=sys.stderr)
        return 1
    print(json.dumps({**run.result.model_dump(mode="json"), "tables": stored_tables(run.result)}, indent=2))
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        for file_name, artifact in run.artifacts.items():
            (out / Path(file_name).name).write_bytes(artifact.content)
        for figure_name, figure in run.figures.items():
            figure.write_html(out / f"{figure_name}.html", include_plotlyjs="cdn")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(prog="python -m backend.cli", description="Run Method Playground methods without a server.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    commands.add_parser("methods", help="list the methods as JSON")
    run = commands.add_parser("run", help="run one method and print its result JSON")
    run.add_argument("method")
    run.add_argument("--params", default="{}", help="parameters as a JSON object")
    run.add_argument("--out", type=Path, default=None, help="folder for artifacts and figures (HTML)")
    run.add_argument("--quiet", action="store_true", help="no progress on stderr")
    add_token_commands(commands)
    args = parser.parse_args(argv)
    if args.command == "tokens":
        return run_token_command(args)
    if args.command == "methods":
        registry = _registry()
        listing = [{"name": m.spec.name, "title": m.spec.title, "section": m.spec.section,
                    "summary": m.spec.summary, "paper": m.spec.paper.citation()} for m in registry.ordered()]
        print(json.dumps(listing, indent=2))
        return 0
    return _run(args.method, args.params, args.out, args.quiet)


if __name__ == "__main__":
    sys.exit(main())
