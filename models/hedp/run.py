"""run(params, progress): per seed, pre-train the extractor, train one prompt per seen domain (with and
without the energy regulariser), tune every selector's temperatures on held-out images, then score the
four seen domains and the unseen one; the claims are judged over the seeds."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import torch

from models.common.claims import Measurement, Standing, evaluate_claims
from models.common.continual import one_thread, to_tensors
from models.common.contract import Progress
from models.common.device import torch_device
from models.common.progress import MonotoneProgress
from models.common.seeds import run_seeds, seed_values
from models.hedp.claims import CLAIMS
from models.hedp.domains import Domain, Stream, build_domains
from models.hedp.outcomes import Points, Trained, choose_weights, paired, points
from models.hedp.params import Params
from models.hedp.prompts import Backbone, Prompt, energy, pretrain_backbone, train_prompt
from models.hedp.result import SELECTOR_LABELS, EnergySample, Result, SeedSummary, Variant
from models.hedp.selection import (
    SELECTORS,
    DomainScores,
    Temperatures,
    domain_keys,
    min_key_distance,
    select,
    tune_temperatures,
)

__all__ = ["run", "score"]

ENERGY_SAMPLE = 200


def _train_prompts(backbone: Backbone, seen: list[Domain], params: Params, seed: int, energy_weight: float,
                   device: str, progress: Progress) -> list[Prompt]:
    """One prompt per seen domain, trained in order; the same initial weights and batches for every variant."""
    prompts: list[Prompt] = []
    monotone = MonotoneProgress(progress)
    for d, domain in enumerate(seen):
        prompt = Prompt(64, 10, torch.Generator().manual_seed(seed + 100 + d)).to(device)
        train_prompt(
            backbone, prompt, domain.x_train, domain.y_train, epochs=params.epochs, lr=params.learning_rate,
            energy_weight=energy_weight, midline=params.energy_midline, border=params.energy_border,
            rng=np.random.default_rng([seed, d]), device=device,
            progress=monotone.stage(d / len(seen), (d + 1) / len(seen)),
        )
        for p in prompt.parameters():
            p.requires_grad_(False)
        prompts.append(prompt)
    return prompts


@torch.no_grad()
def score(backbone: Backbone, prompts: list[Prompt], keys: list[np.ndarray], x: np.ndarray, device: str) -> DomainScores:
    """Every prompt's energy and logits on x, and the distance of x's frozen feature to each domain's keys."""
    xt = torch.as_tensor(np.asarray(x, dtype=np.float32), device=device)
    logits = torch.stack([p(backbone, xt) for p in prompts], dim=1)  # n x D x C
    energies = energy(logits.flatten(0, 1)).reshape(logits.shape[:2])
    distance = min_key_distance(backbone(xt).cpu().numpy(), keys)
    return DomainScores(energies.cpu().numpy(), distance, logits.cpu().numpy())


def _temperature_record(t: Temperatures) -> dict[str, float | None]:
    return {"energy": None if math.isinf(t.energy) else t.energy, "distance": None if math.isinf(t.distance) else t.distance}


def _trained(backbone: Backbone, prompts: list[Prompt], stream: Stream, keys: list[np.ndarray], weight: float,
             device: str) -> Trained:
    """One prompt set's temperatures and accuracy per selector on the held-out seen images, and its test scores."""
    val_x = np.concatenate([d.x_val for d in stream.seen])
    val_y = np.concatenate([d.y_val for d in stream.seen])
    val = score(backbone, prompts, keys, val_x, device)
    temperatures = tune_temperatures(val, val_y)
    val_accuracy = {s: float((select(s, val, temperatures[s])[1] == val_y).mean()) for s in SELECTORS}
    tests = [score(backbone, prompts, keys, d.x_test, device) for d in stream.domains]
    return Trained(weight, temperatures, val_accuracy, tests)


def _variant(choice: dict[str, Trained], stream: Stream, pts: Points) -> Variant:
    """The seed's record: every selector at its own prompt set; confusion and energies of the hybrid's set."""
    seen = stream.seen
    names = [d.name for d in seen]
    n = len(seen[0].y_test)
    per_domain: dict[str, dict[str, float]] = {}
    for selector, t in choice.items():
        per_domain[selector] = {
            d.name: float((select(selector, t.tests[k], t.temperatures[selector])[1] == d.y_test).mean())
            for k, d in enumerate(stream.domains)}
    hybrid = choice["hybrid"]
    confusion = [np.bincount(select("hybrid", s, hybrid.temperatures["hybrid"])[0], minlength=len(seen)).tolist()
                 for s in hybrid.tests]
    oracle = [float((hybrid.tests[t].logits[:, t].argmax(axis=1) == d.y_test).mean()) for t, d in enumerate(seen)]
    return Variant(
        selection_accuracy={s: float(pts.chosen_ok[s].mean()) for s in SELECTORS},
        seen_accuracy={s: float(pts.seen_correct[s].mean()) for s in SELECTORS},
        unseen_accuracy={s: float(pts.unseen_correct[s].mean()) for s in SELECTORS},
        per_domain_accuracy=per_domain, confusion=confusion,
        energies=_energy_samples([s.energy for s in hybrid.tests[: len(seen)]], names),
        oracle_seen_accuracy=float(np.mean(oracle)),
        temperatures={s: _temperature_record(t.temperatures[s]) for s, t in choice.items()},
        energy_weight={s: t.weight for s, t in choice.items()},
        seen_points_per_domain=n,
    )


def _energy_samples(test_energy: list[np.ndarray], names: list[str]) -> list[EnergySample]:
    """Prompt d's energies on its own domain's test inputs and on the other seen domains' (first 200 each)."""
    out = []
    for d, name in enumerate(names):
        matched = test_energy[d][:ENERGY_SAMPLE, d]
        others = np.concatenate([test_energy[o][:, d] for o in range(len(names)) if o != d])
        step = max(1, others.size // ENERGY_SAMPLE)
        out.append(EnergySample(domain=name, matched=matched.round(4).tolist(),
                                mismatched=others[::step][:ENERGY_SAMPLE].round(4).tolist()))
    return out


@dataclass(frozen=True)
class SeedRun:
    """One seed: the stream, every selector at its chosen weight, all at weight 0, and their per-point outcomes."""

    stream: Stream
    regularised: Variant
    unregularised: Variant
    points: Points
    points_off: Points


def _one_seed(params: Params, seed: int, device: str, progress: Progress) -> SeedRun:
    """One prompt set per regulariser weight on the same domains, extractor, keys, initial prompts and batches."""
    monotone = MonotoneProgress(progress)
    monotone(0.0, f"seed {seed}: pre-training the feature extractor")
    stream = build_domains(np.random.default_rng(seed))
    backbone = pretrain_backbone(stream.pretrain_x, stream.pretrain_y, epochs=params.pretrain_epochs, seed=seed,
                                 device=device)
    with torch.no_grad():
        features = [backbone(to_tensors(d.x_train, d.y_train, device)[0]).cpu().numpy() for d in stream.seen]
    keys = domain_keys(features, params.keys, seed)
    weights = params.weights()
    trained: list[Trained] = []
    for k, weight in enumerate(weights):
        stage = monotone.stage(0.1 + 0.9 * k / len(weights), 0.1 + 0.9 * (k + 1) / len(weights))

        def report(fraction: float, message: str = "", stage: Progress = stage, weight: float = weight) -> None:
            stage(fraction, f"seed {seed}, prompts with λ = {weight:g}: {message}")

        prompts = _train_prompts(backbone, stream.seen, params, seed, weight, device, report)
        trained.append(_trained(backbone, prompts, stream, keys, weight, device))
    labels = [d.y_test for d in stream.domains]
    choice = choose_weights(trained)
    hybrid = choice["hybrid"]  # the uniform mixture of its prompts: the trivial reference
    choice_with_null = {**choice, "uniform": Trained(hybrid.weight, {"uniform": Temperatures(math.inf, math.inf)},
                                                     {}, hybrid.tests)}
    off = {s: trained[0] for s in SELECTORS}
    pts, pts_off = points(choice_with_null, labels, len(stream.seen)), points(off, labels, len(stream.seen))
    return SeedRun(stream, _variant(choice, stream, pts), _variant(off, stream, pts_off), pts, pts_off)


def _rival(table: dict[str, np.ndarray]) -> str:
    """The single cue that does better on these test points."""
    return max(("energy_only", "distance_only"), key=lambda s: float(table[s].mean()))


def _measure(one: SeedRun) -> dict[str, Measurement]:
    """Each claim's per-test-point paired differences on this seed (their mean is the value), and the same
    difference for the uniform mixture of the hybrid's prompts (the trivial reference)."""
    pts, off = one.points, one.points_off
    out: dict[str, Measurement] = {
        "separability": measurement(paired(pts.chosen_ok["energy_only"], off.chosen_ok["energy_only"]),
                                    floor_ok=one.regularised.energy_weight["energy_only"] > 0),
    }
    for claim, table in (("selection", pts.chosen_ok), ("seen", pts.seen_correct), ("unseen", pts.unseen_correct)):
        rival = table[_rival(table)]
        out[claim] = measurement(paired(table["hybrid"], rival), null=paired(table["uniform"], rival))
    unseen = pts.unseen_correct
    out["unseen_sprompts"] = measurement(paired(unseen["hybrid"], unseen["nearest_centroid"]),
                                         null=paired(unseen["uniform"], unseen["nearest_centroid"]))
    return out


def measurement(units: np.ndarray, floor_ok: bool = True, null: np.ndarray | None = None) -> Measurement:
    """A claim's value on one seed: the mean of its per-test-point paired differences."""
    return Measurement(float(units.mean()), floor_ok=floor_ok, units=units.tolist(),
                       null=None if null is None else float(null.mean()))


def run(params: Params, progress: Progress) -> Result:
    """Every seed in turn (one torch thread: the same numbers on any host), then the claims over the seeds."""
    start = time.perf_counter()
    device = torch_device()
    seeds = seed_values(params.seed, params.seeds)
    with one_thread():
        outcomes: list[SeedRun] = run_seeds(seeds, lambda s, p: _one_seed(params, s, device, p), progress)
    measured = [_measure(one) for one in outcomes]
    unit_scores = {k: [(100.0 * o.points.unseen_correct[k]).tolist() for o in outcomes] for k in SELECTORS}
    per_seed = [SeedSummary(seed=s, selection_accuracy=o.regularised.selection_accuracy,
                            seen_accuracy=o.regularised.seen_accuracy, unseen_accuracy=o.regularised.unseen_accuracy,
                            energy_selection_without_regulariser=o.unregularised.selection_accuracy["energy_only"],
                            energy_weight=o.regularised.energy_weight)
                for s, o in zip(seeds, outcomes, strict=True)]
    first = outcomes[0]
    return Result(
        domains=[d.name for d in first.stream.domains], seen_domains=[d.name for d in first.stream.seen],
        unseen_domain=first.stream.domains[-1].name, per_seed=per_seed, regularised=first.regularised,
        unregularised=first.unregularised, energy_weight=params.energy_weight,
        tune_energy_weight=params.tune_energy_weight, seconds=time.perf_counter() - start,
        claims=evaluate_claims(CLAIMS, {c.id: [m[c.id] for m in measured] for c in CLAIMS}, seeds),
        standing=Standing(metric="accuracy on the unseen domain (%)", lower_is_better=False, method="hybrid",
                          seed_scores={k: [100 * p.unseen_accuracy[k] for p in per_seed] for k in SELECTORS},
                          unit_scores=unit_scores, labels=SELECTOR_LABELS),
    )
