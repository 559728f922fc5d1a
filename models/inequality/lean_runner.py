"""Run Lean on a generated proof: `lake env lean proof.lean` inside a prebuilt Mathlib project.

Settings come from the environment when the method runs: LEAN_PROJECT (a directory with a built
Mathlib lake project) and LEAN_CMD (the command prefix, default `lake env lean`). The command runs
without a shell, in a fresh temporary directory, with a wall-clock limit; the output of
`#print axioms` must list only propext, Classical.choice and Quot.sound.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

__all__ = ["ALLOWED_AXIOMS", "LeanRun", "lean_settings", "run_lean"]

ALLOWED_AXIOMS = frozenset({"propext", "Classical.choice", "Quot.sound"})
_AXIOMS = re.compile(r"depends on axioms:\s*\[([^\]]*)\]")


@dataclass(frozen=True)
class LeanRun:
    """`accepted`, `rejected` (with Lean's messages) or `not_available` (with why)."""

    status: Literal["accepted", "rejected", "not_available"]
    messages: str
    seconds: float = 0.0


def lean_settings() -> tuple[Path | None, list[str]]:
    """(LEAN_PROJECT or None, the LEAN_CMD words), read at call time."""
    project = os.environ.get("LEAN_PROJECT", "").strip()
    command = shlex.split(os.environ.get("LEAN_CMD", "").strip() or "lake env lean")
    return (Path(project) if project else None), command


def _axioms_ok(output: str, theorem: str) -> tuple[bool, str]:
    if f"'{theorem}' does not depend on any axioms" in output:
        return True, "no axioms"
    match = _AXIOMS.search(output)
    if match is None:
        return False, "no `#print axioms` output found"
    axioms = {a.strip() for a in match.group(1).split(",") if a.strip()}
    extra = sorted(axioms - ALLOWED_AXIOMS)
    if extra:
        return False, f"uses axioms outside the allowed set: {', '.join(extra)}"
    return True, f"axioms: {', '.join(sorted(axioms))}"


def _kill_group(process: subprocess.Popen[str]) -> None:
    """SIGKILL the whole process group started for Lean, then reap it."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        process.kill()
    process.communicate()


def run_lean(source: str, theorem: str, timeout_s: float) -> LeanRun:
    """Check `source` with Lean when configured; never raises for a missing or failing Lean."""
    import time

    project, command = lean_settings()
    if project is None:
        return LeanRun("not_available", "LEAN_PROJECT is not set")
    if not project.is_dir():
        return LeanRun("not_available", "LEAN_PROJECT is not a directory")
    if not command or shutil.which(command[0]) is None:
        return LeanRun("not_available", f"`{command[0] if command else 'lake'}` is not on PATH")
    with tempfile.TemporaryDirectory(prefix="nspi_lean_") as tmp:
        path = Path(tmp) / "proof.lean"
        path.write_text(source, encoding="utf-8")
        started = time.perf_counter()
        try:
            process = subprocess.Popen(  # noqa: S603 - fixed argv, no shell, file written by us
                [*command, str(path)],
                cwd=project,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                text=True,
                start_new_session=True,  # its own process group, so a timeout kills lean as well as lake
            )
        except OSError as exc:
            return LeanRun("not_available", f"could not start Lean: {exc.strerror}")
        try:
            output, _ = process.communicate(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            _kill_group(process)
            return LeanRun("rejected", f"Lean did not finish within {timeout_s:.0f} s", timeout_s)
        seconds = time.perf_counter() - started
        returncode = process.returncode
    output = output or ""
    tail = output[-4000:]
    if returncode != 0 or re.search(r"\berror\b", output):
        return LeanRun("rejected", tail or f"exit status {returncode}", seconds)
    if "declaration uses 'sorry'" in output:
        return LeanRun("rejected", tail, seconds)
    ok, why = _axioms_ok(output, theorem)
    if not ok:
        return LeanRun("rejected", f"{why}\n{tail}", seconds)
    return LeanRun("accepted", why, seconds)
