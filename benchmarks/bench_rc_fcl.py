"""RC-FCL: the speed of the vectorised drift discriminator against a per-sample loop, and the paper's
checks over seeds.

* Core: scoring one client's data against its Gaussian reference (fit the per-class linear rule on
  half, score the held-out half, P(new) for every sample). Vectorised numpy (`score_drift`) vs the
  straightforward per-sample Python loop over rows and features for the held-out predictions and the
  probabilities (same fitted rule, same numbers: checked).
* The headline table: the "Reproduce the paper" example (seeds 0, 1, 2), methods, detectors and claims.

    python benchmarks/bench_rc_fcl.py
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.common import no_progress  # noqa: E402
from models.rc_fcl import SPEC, examples  # noqa: E402
from models.rc_fcl.detector import VARIANCE_FLOOR, GaussianReference, score_drift  # noqa: E402
from models.rc_fcl.params import Params  # noqa: E402


def loop_score(reference: GaussianReference, x: np.ndarray, y: np.ndarray, rng: np.random.Generator) -> float:
    """The same rule as `score_drift`, with the held-out predictions and P(new) computed row by row."""
    correct = total = 0
    probability = [0.5] * len(y)
    for label in np.unique(y):
        rows = np.flatnonzero(y == label)
        if rows.size < 8 or int(label) not in reference.means:
            continue
        new = x[rows]
        ref = reference.sample(int(label), rows.size, rng)
        order_new, order_ref = rng.permutation(rows.size), rng.permutation(rows.size)
        half = rows.size // 2
        fit_new, fit_ref = new[order_new[:half]], ref[order_ref[:half]]
        mu_new, mu_ref = fit_new.mean(axis=0), fit_ref.mean(axis=0)
        pooled = 0.5 * (fit_new.var(axis=0) + fit_ref.var(axis=0)) + VARIANCE_FLOOR
        w = [float(a) for a in (mu_new - mu_ref) / pooled]
        b = -sum(wi * (a + c) for wi, a, c in zip(w, mu_new, mu_ref, strict=True)) / 2.0
        for side, idx, is_new in ((new, order_new[half:], True), (ref, order_ref[half:], False)):
            for i in idx:
                logit = b + sum(wi * float(v) for wi, v in zip(w, side[i], strict=True))
                correct += int((logit > 0) == is_new)
                total += 1
        for j, r in enumerate(rows):
            logit = b + sum(wi * float(v) for wi, v in zip(w, new[j], strict=True))
            probability[r] = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, logit))))
    return max(0.0, 2.0 * correct / total - 1.0) if total else 0.0


def bench_detector() -> None:
    print("drift discriminator: vectorised vs per-sample loop (64 features, digits-like data)")
    print(f"{'rows':>6} {'vectorised (ms)':>16} {'loop (ms)':>10} {'ratio':>7} {'same':>5}")
    for n in (150, 600, 2400):
        rng = np.random.default_rng(0)
        y = rng.integers(0, 10, size=n)
        x = rng.random((n, 64)) + y[:, None] * 0.01
        reference = GaussianReference.fit(x, y)
        shifted = x + 0.05
        score_drift(reference, shifted, y, np.random.default_rng(1))  # warm-up (first-call overheads)
        t0 = time.perf_counter()
        fast = score_drift(reference, shifted, y, np.random.default_rng(1)).score
        t1 = time.perf_counter()
        slow = loop_score(reference, shifted, y, np.random.default_rng(1))
        t2 = time.perf_counter()
        print(f"{n:>6} {(t1 - t0) * 1e3:>16.2f} {(t2 - t1) * 1e3:>10.1f} {(t2 - t1) / (t1 - t0):>7.0f} "
              f"{str(abs(fast - slow) < 1e-9):>5}")


PREVIOUS = 'previous version (review turn 4, seeds 53-55, no replay): RC-FCL 68.6% vs FedAvg 68.5%, forgetting about 30 points for every learner'


def main() -> None:
    bench_detector()
    label = next(k for k in examples() if k.startswith("Reproduce the paper"))
    start = time.perf_counter()
    r = SPEC.run(Params.model_validate(examples()[label]), no_progress)
    print(f"\nheadline: {label}, {time.perf_counter() - start:.1f} s; accuracies in %")
    print(f"{'seed':>4} {'method':>12} {'avg acc':>8} {'forget':>7}")
    for s in r.per_seed:
        for name, m in s.methods.items():
            forgetting = "—" if m.forgetting is None else f"{100 * m.forgetting:.1f}"
            print(f"{s.seed:>4} {name:>12} {100 * m.average_accuracy:>8.1f} {forgetting:>7}")
        for name, d in s.detection.items():
            print(f"     {name} detector: {d.detected_events}/{d.events} events, {d.false_positives}/{d.negatives} "
                  f"false alarms")
    for c in r.claims:
        values = ", ".join(f"{o.value:+.3f}" for o in c.seeds if o.value is not None)
        span = "" if c.test is None or c.test.interval is None else f"[{c.test.interval[0]:+.2f}, {c.test.interval[1]:+.2f}]"
        print(f"  {c.id:>10}: {c.holds:>10}  {c.ours.text:>26} {span:>18}  per seed [{values}]  ({c.quantity} "
              f"{c.criterion})")
    v = r.verdict()
    print(f"  verdict: {v.kind}, {v.held} of {v.headline} headline claims held on {v.seeds} seeds; beaten by "
          f"{', '.join(v.beaten_by) or 'nobody'}")
    print(PREVIOUS)


if __name__ == "__main__":
    main()
