"""Train the shipped APT-operator checkpoint: three APT variants, the regular-only transfer model, GINO and the FNO,
on channelised media (pressure and saturation).

    OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python scripts/train_apt_operator.py [--samples 128] [--epochs 24]

Every model takes the same number of optimiser steps (epochs x batches over both meshes). The CPU budget of
this project is about 15 minutes on one shared core; the defaults (384 steps per model) take about 6 minutes.
The loss curves saved in the checkpoint (and shown on the page) say whether that is converged. Writes
static/weights/apt_operator/channels.pt (about 0.5 MB).
"""

from __future__ import annotations

import argparse
import time

import torch

from models.apt_operator.data import TRAIN_STREAM, make_set
from models.apt_operator.train import save_checkpoint, train_all
from models.common import torch_device


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=24)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    t0 = time.perf_counter()
    data = make_set(TRAIN_STREAM + args.seed, 0, args.samples, False)
    print(f"{args.samples} samples solved in {time.perf_counter() - t0:.1f} s", flush=True)
    last = [-1.0]

    def progress(fraction: float, message: str = "") -> None:
        if fraction - last[0] >= 0.02:
            last[0] = fraction
            print(f"{fraction:5.2f} {message} ({time.perf_counter() - t0:.0f} s)", flush=True)

    trained = train_all(data.regular32, data.adaptive, args.epochs, args.seed, torch.device(torch_device()), progress)
    for name, curve in trained.losses.items():
        print(name, [round(v, 4) for v in curve], flush=True)
    print("steps per model", trained.meta["steps"], "train time", round(trained.meta["train_time_s"]), "s")
    print("saved", save_checkpoint(trained))


if __name__ == "__main__":
    main()
