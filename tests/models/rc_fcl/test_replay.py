"""Retrospective replay: samples from the archived class-conditional generators, and the replay baselines."""

from __future__ import annotations

import numpy as np

from models.rc_fcl.detector import GaussianReference
from models.rc_fcl.federation import _Client, _replay
from models.rc_fcl.replay import BUFFER, PERIOD, REPLAY, generated_replay


def _reference(classes: list[int], centre: float) -> GaussianReference:
    return GaussianReference({c: np.full(4, centre + c) for c in classes}, {c: np.full(4, 1e-6) for c in classes})


def test_generated_replay_splits_evenly_over_archives_and_keeps_each_archives_classes() -> None:
    rng = np.random.default_rng(0)
    assert generated_replay([], 10, rng) is None
    archive = [_reference([0, 1], 0.0), _reference([5], 100.0)]
    out = generated_replay(archive, 11, rng)
    assert out is not None
    x, y = out
    assert x.shape == (11, 4) and y.shape == (11,)
    from_second = x[:, 0] > 50  # the second archive's samples sit near 105
    assert from_second.sum() == 5 and set(y[from_second]) == {5} and set(y[~from_second]) <= {0, 1}
    assert np.allclose(x[:, 0], y + np.where(from_second, 100.0, 0.0), atol=0.01)  # class-conditional means


def test_each_method_replays_what_its_memory_holds() -> None:
    rng = np.random.default_rng(1)
    x, y = rng.random((8, 4)).astype(np.float32), np.arange(8) % 2
    rc = _Client()
    assert _replay("rc_fcl", rc, x, y, rng) is None  # nothing archived before a flag
    rc.archive.append(_reference([0, 1], 0.0))
    replayed = _replay("rc_fcl", rc, x, y, rng)
    assert replayed is not None and len(replayed[1]) == REPLAY
    er = _Client()
    assert _replay("fedavg_replay", er, x, y, rng) is None and er.buffer is not None and len(er.buffer) == 8
    replayed = _replay("fedavg_replay", er, x, y, rng)
    assert replayed is not None and len(replayed[1]) == REPLAY and er.buffer.capacity == BUFFER
    gen = _Client()
    for clock in range(2 * PERIOD + 1):
        gen.clock = clock
        _replay("fedavg_genreplay", gen, x, y, rng)
    assert len(gen.archive) == 2  # archived at local rounds PERIOD and 2 PERIOD, without any detection
    assert _replay("fedavg", _Client(), x, y, rng) is None
