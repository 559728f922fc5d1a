"""Pre-train the two LMNet nodes on their synthetic languages and write static/weights/lmnet/*.pt.

Usage: OMP_NUM_THREADS=1 python scripts/train_lmnet.py [--steps 1500] [--seed 0] [--only translator]
About a minute per node on one CPU core. Prints each node's held-out exact match.
"""

from __future__ import annotations

import argparse
import json
import time

import torch

from models.lmnet.nodes import NODE_TASKS, pretrain_node, weights_dir


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", choices=list(NODE_TASKS), help="retrain one node and keep the other's weights")
    args = parser.parse_args()
    out = weights_dir()
    out.mkdir(parents=True, exist_ok=True)
    previous = out / "pretraining.json"
    report = json.loads(previous.read_text())["nodes"] if args.only and previous.exists() else {}
    for i, task in enumerate(NODE_TASKS):
        if args.only and task != args.only:
            continue
        start = time.perf_counter()
        node, exact = pretrain_node(task, steps=args.steps, seed=args.seed + i)
        torch.save(node.state_dict(), out / f"{task}.pt")
        report[task] = {"exact_match": exact, "seconds": round(time.perf_counter() - start, 1),
                        "parameters": sum(p.numel() for p in node.parameters())}
        print(task, report[task], flush=True)
        report[task]["steps"] = args.steps
    (out / "pretraining.json").write_text(json.dumps({"seed": args.seed, "nodes": report},
                                                     indent=2) + "\n")


if __name__ == "__main__":
    main()
