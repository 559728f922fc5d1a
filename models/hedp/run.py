"""run(params, progress): per seed, pre-train the extractor, train one prompt per seen domain (with and
without the energy regulariser), tune every selector's temperatures on held-out images, then score the
four seen domains and the unseen one; the claims are judged over the seeds."""

from __future__ import annotations

import math
import time

import numpy as np
import torch

from models.common.claims import Measurement, Standing, evaluate_claims, run_seeds, seed_values
from models.common.continual import one_thread, to_tensors
from models.common.contract import Progress
from models.common.device import torch_device
from models.common.progress import MonotoneProgress
from models.hedp.claims import CLAIMS
from models.hedp.domains import Domain, Stream, build_domains
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


def _evaluate(backbone: Backbone, prompts: list[Prompt], stream: Stream, keys: list[np.ndarray], device: str) -> Variant:
    seen = stream.seen
    val_x = np.concatenate([d.x_val for d in seen])
    val_y = np.concatenate([d.y_val for d in seen])
    temperatures = tune_temperatures(score(backbone, prompts, keys, val_x, device), val_y)
    per_domain: dict[str, dict[str, float]] = {s: {} for s in SELECTORS}
    hits: dict[str, list[float]] = {s: [] for s in SELECTORS}
    confusion = np.zeros((len(stream.domains), len(seen)), dtype=int)
    test_energy: list[np.ndarray] = []
    oracle: list[float] = []
    for t, domain in enumerate(stream.domains):
        scores = score(backbone, prompts, keys, domain.x_test, device)
        for selector in SELECTORS:
            chosen, predicted = select(selector, scores, temperatures[selector])
            per_domain[selector][domain.name] = float((predicted == domain.y_test).mean())
            if domain.seen:
                hits[selector].append(float((chosen == t).mean()))
            if selector == "hybrid":
                confusion[t] = np.bincount(chosen, minlength=len(seen))
        if domain.seen:
            test_energy.append(scores.energy)
            oracle.append(float((scores.logits[:, t].argmax(axis=1) == domain.y_test).mean()))
    names = [d.name for d in seen]
    return Variant(
        selection_accuracy={s: float(np.mean(hits[s])) for s in SELECTORS},
        seen_accuracy={s: float(np.mean([per_domain[s][n] for n in names])) for s in SELECTORS},
        unseen_accuracy={s: per_domain[s][stream.domains[-1].name] for s in SELECTORS},
        per_domain_accuracy=per_domain, confusion=confusion.tolist(),
        energies=_energy_samples(test_energy, names), oracle_seen_accuracy=float(np.mean(oracle)),
        temperatures={s: _temperature_record(t) for s, t in temperatures.items()},
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


def _one_seed(params: Params, seed: int, device: str, progress: Progress) -> tuple[Stream, Variant, Variant]:
    """Both variants (regulariser on and off) on the same domains, extractor, keys, initial prompts and batches."""
    monotone = MonotoneProgress(progress)
    monotone(0.0, f"seed {seed}: pre-training the feature extractor")
    stream = build_domains(np.random.default_rng(seed))
    backbone = pretrain_backbone(stream.pretrain_x, stream.pretrain_y, epochs=params.pretrain_epochs, seed=seed,
                                 device=device)
    with torch.no_grad():
        features = [backbone(to_tensors(d.x_train, d.y_train, device)[0]).cpu().numpy() for d in stream.seen]
    keys = domain_keys(features, params.keys, seed)
    variants: list[Variant] = []
    for k, weight in enumerate((params.energy_weight, 0.0)):
        label = "with" if k == 0 else "without"
        stage = monotone.stage(0.1 + 0.45 * k, 0.55 + 0.45 * k)

        def report(fraction: float, message: str = "", stage: Progress = stage, label: str = label) -> None:
            stage(fraction, f"seed {seed}, prompts {label} the energy regulariser: {message}")

        prompts = _train_prompts(backbone, stream.seen, params, seed, weight, device, report)
        variants.append(_evaluate(backbone, prompts, stream, keys, device))
    return stream, variants[0], variants[1]


def _measure(params: Params, reg: Variant, unreg: Variant) -> dict[str, Measurement]:
    def best_single(metric: dict[str, float]) -> float:
        return max(metric["energy_only"], metric["distance_only"])

    gap = {name: 100 * (getattr(reg, name)["hybrid"] - best_single(getattr(reg, name)))
           for name in ("selection_accuracy", "seen_accuracy", "unseen_accuracy")}
    return {
        "separability": Measurement(
            100 * (reg.selection_accuracy["energy_only"] - unreg.selection_accuracy["energy_only"]),
            floor_ok=params.energy_weight > 0),
        "selection": Measurement(gap["selection_accuracy"]),
        "seen": Measurement(gap["seen_accuracy"]),
        "unseen": Measurement(gap["unseen_accuracy"]),
        "unseen_sprompts": Measurement(100 * (reg.unseen_accuracy["hybrid"] - reg.unseen_accuracy["nearest_centroid"])),
    }


def run(params: Params, progress: Progress) -> Result:
    """Every seed in turn (one torch thread: the same numbers on any host), then the claims over the seeds."""
    start = time.perf_counter()
    device = torch_device()
    seeds = seed_values(params.seed, params.seeds)
    with one_thread():
        outcomes = run_seeds(seeds, lambda s, p: _one_seed(params, s, device, p), progress)
    measured = [_measure(params, reg, unreg) for _, reg, unreg in outcomes]
    per_seed = [SeedSummary(seed=s, selection_accuracy=reg.selection_accuracy, seen_accuracy=reg.seen_accuracy,
                            unseen_accuracy=reg.unseen_accuracy,
                            energy_selection_without_regulariser=unreg.selection_accuracy["energy_only"])
                for s, (_, reg, unreg) in zip(seeds, outcomes, strict=True)]
    stream, reg, unreg = outcomes[0]
    unseen = {k: float(np.mean([p.unseen_accuracy[k] for p in per_seed])) for k in SELECTORS}
    return Result(
        domains=[d.name for d in stream.domains], seen_domains=[d.name for d in stream.seen],
        unseen_domain=stream.domains[-1].name, per_seed=per_seed, regularised=reg, unregularised=unreg,
        energy_weight=params.energy_weight, seconds=time.perf_counter() - start,
        claims=evaluate_claims(CLAIMS, {c.id: [m[c.id] for m in measured] for c in CLAIMS}, seeds),
        standing=Standing(metric="accuracy on the unseen domain", lower_is_better=False, method="hybrid",
                          scores=unseen, labels=SELECTOR_LABELS),
    )
