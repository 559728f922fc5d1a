"""Train the sixteen Skill-MoE experts and write them to static/weights/skill_moe (a minute or two on one core).

Usage: OMP_NUM_THREADS=1 python scripts/train_skill_moe.py [--examples 6000] [--steps 2500] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import torch

from models.common.paths import static_path
from models.common.tiny import ModelStore, train_budgeted
from models.skill_moe.experts import EXPERT_MIXES, MAX_LEN, VOCAB, ExpertMix, ExpertNet, predict
from models.skill_moe.suite import SKILLS, make_skill_queries


def train_expert(mix: ExpertMix, examples: int, steps: int, seed: int) -> tuple[ExpertNet, dict[str, float], int]:
    rng = np.random.default_rng(seed)
    queries = [q for skill, share in mix.shares.items()
               for q in make_skill_queries(skill, round(share * examples), rng)]
    tokens = VOCAB.encode([q.text for q in queries], MAX_LEN)
    answers = torch.tensor([q.answer for q in queries])
    torch.manual_seed(seed)
    model = ExpertNet()
    gen = torch.Generator().manual_seed(seed)

    def loss_of_step(step: int) -> torch.Tensor:
        idx = torch.randint(0, len(queries), (128,), generator=gen)
        return torch.nn.functional.cross_entropy(model(tokens[idx]), answers[idx])

    log = train_budgeted(model, loss_of_step, max_steps=steps, lr=3e-3, weight_decay=1e-5)
    held_out = {s: make_skill_queries(s, 300, np.random.default_rng(seed + 10_000)) for s in SKILLS}
    accuracy = {s: float((predict(model, [q.text for q in qs]) == torch.tensor([q.answer for q in qs]))
                         .float().mean()) for s, qs in held_out.items()}
    return model, accuracy, log.steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--examples", type=int, default=6000)
    parser.add_argument("--steps", type=int, default=2500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", type=int, default=-1, help="train only this expert index (a quick look)")
    args = parser.parse_args()
    out = static_path("weights", "skill_moe")
    manifest = {"examples": args.examples, "steps": args.steps, "seed": args.seed, "experts": []}
    for i, mix in enumerate(EXPERT_MIXES):
        if args.only >= 0 and i != args.only:
            continue
        start = time.perf_counter()
        model, accuracy, steps = train_expert(mix, args.examples, args.steps, args.seed + 101 * i)
        if args.only < 0:
            ModelStore.save(model, out / f"{mix.name}.pt")
        manifest["experts"].append({"name": mix.name, "shares": mix.shares, "held_out_accuracy": accuracy})
        print(f"{mix.name} {time.perf_counter() - start:5.1f}s steps {steps} "
              + " ".join(f"{s[:4]} {a:.2f}" for s, a in accuracy.items()), flush=True)
    if args.only < 0:
        (out / "manifest.json").write_text(json.dumps(manifest, indent=1))


if __name__ == "__main__":
    main()
