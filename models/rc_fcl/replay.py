"""Retrospective replay: samples of previously learned concepts, from the class-conditional generator or a buffer.

RC-FCL (our reading of "retrospective", see the About): when a client flags a drift, the reference
generator it fitted on the concept it had learned (per class a Gaussian, `detector.py`) is archived; from
then on every local update also trains on `REPLAY` samples drawn from the archived generators, an equal
share per archive and the labels uniform over each archive's classes, with weight 1.
The replay baselines see the same number of replayed samples per update:
* FedAvg + replay (experience replay): a reservoir buffer of `BUFFER` real samples per client;
* FedAvg + generator replay: the same class-conditional generator, archived every `PERIOD` local rounds
  on the client's recent batches, without any drift detection (when to archive is not learned).
"""

from __future__ import annotations

import numpy as np

from models.rc_fcl.detector import GaussianReference

__all__ = ["BUFFER", "PERIOD", "REPLAY", "generated_replay"]

REPLAY = 64  # replayed samples per client-round (one fresh batch's worth)
BUFFER = 128  # real samples an experience-replay client keeps (two fresh batches)
PERIOD = 5  # local rounds between two archived generators of the detection-free generator replay


def generated_replay(archive: list[GaussianReference], n: int,
                     rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray] | None:
    """n samples from the archived generators (equal share each, labels uniform over its classes); None if empty."""
    if not archive or n <= 0:
        return None
    shares = np.full(len(archive), n // len(archive))
    shares[: n - int(shares.sum())] += 1
    xs, ys = [], []
    for reference, m in zip(archive, shares, strict=True):
        classes = np.array(sorted(reference.means))
        labels = rng.choice(classes, size=int(m))
        for label in np.unique(labels):
            count = int((labels == label).sum())
            xs.append(reference.sample(int(label), count, rng))
            ys.append(np.full(count, label, dtype=np.int64))
    return np.concatenate(xs).astype(np.float32), np.concatenate(ys)
