"""benchmarks/bench_examples.py: reading a label's stated time and flagging a label off by more than 2x."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("bench_examples", ROOT / "benchmarks" / "bench_examples.py")
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


def test_stated_times_are_read_in_seconds() -> None:
    assert bench.stated_seconds("Default: 3 seeds (~15 s)") == 15
    assert bench.stated_seconds("Reproduce the paper (3 seeds, ~2 min)") == 120
    assert bench.stated_seconds("4-D, partial, against 6 / 20 / 40 logs (~1.5 min)") == 90
    assert bench.stated_seconds("Sentence-embedding skill inference (~1-2 min: loads all-MiniLM-L6-v2)") == 120
    assert bench.stated_seconds("m = 6, d = 36, 3 seeds x 60 training sets") is None
    assert bench.stated_seconds("T = 2^20, 5 seeds") is None


def test_a_label_is_off_when_its_cpu_time_is_more_than_twice_or_under_half_the_stated() -> None:
    def off(cpu: float) -> str:
        return str(bench._row("m", "x (~10 s)", {"wall_s": cpu, "user_cpu_s": cpu})["off"])

    assert [off(4.9), off(5.1), off(19.9), off(20.1)] == ["off", "ok", "ok", "off"]
    assert bench._row("m", "no time", {"wall_s": 1.0, "user_cpu_s": 1.0})["off"] == "no time stated"
    assert bench._row("m", "x (~10 s)", {"wall_s": None, "user_cpu_s": None, "error": "boom"})["off"] == "error: boom"
