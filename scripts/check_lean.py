"""Check every golden Lean file of the inequality prover with Lean: `lake env lean FILE` inside a built
Mathlib project, through the same runner the method uses (exit status, errors, `sorry`, and
`#print axioms` limited to propext, Classical.choice and Quot.sound).

    LEAN_PROJECT=/path/to/mathlib-project python scripts/check_lean.py [FILE.lean ...]

LEAN_PROJECT defaults to ~/lean-checker (the project the Docker image builds with
`--build-arg WITH_LEAN=1`, Mathlib v4.15.0). Exit status: 0 every file accepted, 1 a file rejected,
2 Lean is not available here (no `lake` on PATH or no project), with a message saying which.
No CI needed: the first machine with Lean runs it in one command.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from models.inequality.lean_runner import lean_settings, run_lean  # noqa: E402

GOLDEN = ROOT / "tests" / "models" / "inequality" / "golden"
THEOREM = re.compile(r"^theorem\s+(\S+)", re.M)


def main(argv: list[str]) -> int:
    os.environ.setdefault("LEAN_PROJECT", str(Path.home() / "lean-checker"))
    project, command = lean_settings()
    if not command or shutil.which(command[0]) is None:
        print(f"check_lean: `{command[0] if command else 'lake'}` is not on PATH; install Lean 4 with elan "
              "(or build the Docker image with --build-arg WITH_LEAN=1) and run this again. Nothing was checked.")
        return 2
    if project is None or not (project / "lakefile.lean").is_file() and not (project / "lakefile.toml").is_file():
        print(f"check_lean: LEAN_PROJECT={project} is not a lake project with Mathlib; set LEAN_PROJECT to a "
              "built Mathlib project (see the Dockerfile). Nothing was checked.")
        return 2
    files = [Path(a) for a in argv] or sorted(GOLDEN.glob("*.lean"))
    if not files:
        print(f"check_lean: no .lean files under {GOLDEN}")
        return 1
    failed = 0
    for path in files:
        source = path.read_text(encoding="utf-8")
        match = THEOREM.search(source)
        if match is None:
            print(f"REJECTED {path.name}: no theorem found")
            failed += 1
            continue
        outcome = run_lean(source, match.group(1), timeout_s=600.0)
        print(f"{outcome.status.upper():12s} {path.name} ({outcome.seconds:.1f} s): {outcome.messages.strip()[:2000]}")
        failed += outcome.status != "accepted"
    print(f"check_lean: {len(files) - failed} / {len(files)} accepted")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
