"""run(params, progress): train one prompt per seen domain (with and without the energy band), then score
every selector on the four seen domains and the unseen one."""

from __future__ import annotations

import time

import numpy as np
import torch

from models.common.continual import to_tensors
from models.common.contract import Progress
from models.common.device import torch_device
from models.common.progress import MonotoneProgress
from models.hedp.domains import Domain, build_domains
from models.hedp.params import Params
from models.hedp.prompts import Backbone, Prompt, energy, train_prompt
from models.hedp.result import EnergySample, Result, Variant
from models.hedp.selection import (
    SELECTORS,
    CueStatistics,
    DomainScores,
    fit_centroids,
    fit_cue_statistics,
    nearest_centre_domain,
    select,
)

__all__ = ["run"]

ENERGY_SAMPLE = 200


def _train_prompts(
    backbone: Backbone, seen: list[Domain], params: Params, energy_weight: float, device: str, progress: Progress
) -> list[Prompt]:
    """One prompt per seen domain, trained in order; the same initial weights and batches for every variant."""
    prompts: list[Prompt] = []
    monotone = MonotoneProgress(progress)
    for d, domain in enumerate(seen):
        prompt = Prompt(64, params.features, 10, torch.Generator().manual_seed(params.seed + 100 + d)).to(device)
        train_prompt(
            backbone, prompt, domain.x_train, domain.y_train, epochs=params.epochs, lr=params.learning_rate,
            energy_weight=energy_weight, band=(params.band_low, params.band_high),
            rng=np.random.default_rng([params.seed, d]), device=device,
            progress=monotone.stage(d / len(seen), (d + 1) / len(seen)),
        )
        for p in prompt.parameters():
            p.requires_grad_(False)
        prompts.append(prompt)
    return prompts


@torch.no_grad()
def _raw_scores(backbone: Backbone, prompts: list[Prompt], means: torch.Tensor, x: torch.Tensor):
    logits = torch.stack([p(backbone, x) for p in prompts], dim=1)  # n x D x C
    energies = energy(logits.flatten(0, 1)).reshape(logits.shape[:2])
    distances = ((backbone(x)[:, None, :] - means[None, :, :]) ** 2).sum(dim=2)
    return energies, distances, torch.softmax(logits, dim=2)


def _evaluate(
    backbone: Backbone, prompts: list[Prompt], domains: list[Domain], centroids: tuple[np.ndarray, np.ndarray],
    params: Params, device: str,
) -> Variant:
    seen = [d for d in domains if d.seen]
    means = torch.stack([backbone(to_tensors(d.x_train, d.y_train, device)[0]).mean(dim=0) for d in seen])
    own_e, own_d = [], []
    for k, d in enumerate(seen):
        e, dist, _ = _raw_scores(backbone, prompts, means, to_tensors(d.x_train, d.y_train, device)[0])
        own_e.append(e[:, k].cpu().numpy())
        own_d.append(dist[:, k].cpu().numpy())
    stats: CueStatistics = fit_cue_statistics(own_e, own_d)
    per_domain: dict[str, dict[str, float]] = {s: {} for s in SELECTORS}
    selection_hits: dict[str, list[float]] = {s: [] for s in SELECTORS}
    confusion = np.zeros((len(domains), len(seen)), dtype=int)
    test_energy: list[np.ndarray] = []
    oracle: list[float] = []
    for t, domain in enumerate(domains):
        x, y = to_tensors(domain.x_test, domain.y_test, device)
        e, dist, probs = _raw_scores(backbone, prompts, means, x)
        scores = DomainScores(
            e.cpu().numpy(), dist.cpu().numpy(), probs.cpu().numpy(),
            nearest_centre_domain(backbone(x).cpu().numpy(), *centroids),
        )
        labels = domain.y_test
        for selector in SELECTORS:
            chosen, predicted = select(selector, scores, stats, params.fusion_weight, params.temperature)
            per_domain[selector][domain.name] = float((predicted == labels).mean())
            if domain.seen:
                selection_hits[selector].append(float((chosen == t).mean()))
            if selector == "hybrid":
                confusion[t] = np.bincount(chosen, minlength=len(seen))
        if domain.seen:
            test_energy.append(scores.energy)
            oracle.append(float((scores.probabilities[:, t].argmax(axis=1) == labels).mean()))
    seen_names = [d.name for d in seen]
    return Variant(
        selection_accuracy={s: float(np.mean(selection_hits[s])) for s in SELECTORS},
        seen_accuracy={s: float(np.mean([per_domain[s][n] for n in seen_names])) for s in SELECTORS},
        unseen_accuracy={s: per_domain[s][domains[-1].name] for s in SELECTORS},
        per_domain_accuracy=per_domain,
        confusion=confusion.tolist(),
        energies=_energy_samples(test_energy, seen_names),
        oracle_seen_accuracy=float(np.mean(oracle)),
    )


def _energy_samples(test_energy: list[np.ndarray], names: list[str]) -> list[EnergySample]:
    """Prompt d's energies on its own domain's test inputs and on the other seen domains' (first 200 each)."""
    out = []
    for d, name in enumerate(names):
        matched = test_energy[d][:ENERGY_SAMPLE, d]
        others = np.concatenate([test_energy[o][:, d] for o in range(len(names)) if o != d])
        step = max(1, others.size // ENERGY_SAMPLE)
        out.append(EnergySample(domain=name, matched=matched.round(4).tolist(), mismatched=others[::step][:ENERGY_SAMPLE].round(4).tolist()))
    return out


def _labelled(stage: Progress, label: str) -> Progress:
    def report(fraction: float, message: str = "") -> None:
        stage(fraction, f"{label}: {message}")

    return report


def run(params: Params, progress: Progress) -> Result:
    """Both variants (energy band on and off) on the same domains, backbone, initial prompts and batches."""
    start = time.perf_counter()
    monotone = MonotoneProgress(progress)
    monotone(0.0, "building the domains")
    device = torch_device()
    domains = build_domains(np.random.default_rng(params.seed))
    seen = [d for d in domains if d.seen]
    backbone = Backbone(64, params.features, torch.Generator().manual_seed(params.seed)).to(device)
    with torch.no_grad():
        features = [backbone(to_tensors(d.x_train, d.y_train, device)[0]).cpu().numpy() for d in seen]
    centroids = fit_centroids(features, params.centroids, params.seed)
    variants: list[Variant] = []
    for k, weight in enumerate((params.energy_weight, 0.0)):
        label = "with" if k == 0 else "without"
        report = _labelled(monotone.stage(0.02 + 0.48 * k, 0.45 + 0.5 * k), f"prompts {label} the energy band")
        prompts = _train_prompts(backbone, seen, params, weight, device, report)
        variants.append(_evaluate(backbone, prompts, domains, centroids, params, device))
    reg, unreg = variants
    monotone(1.0, "done")
    return Result(
        domains=[d.name for d in domains],
        seen_domains=[d.name for d in seen],
        unseen_domain=domains[-1].name,
        selection_accuracy=reg.selection_accuracy,
        seen_accuracy=reg.seen_accuracy,
        unseen_accuracy=reg.unseen_accuracy,
        regularised=reg,
        unregularised=unreg,
        energy_weight=params.energy_weight,
        seconds=time.perf_counter() - start,
    )
