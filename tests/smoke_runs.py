"""One run of each method's smoke params on 3 seeds, shared by every cross-method test of the session."""

from __future__ import annotations

import functools
from typing import Any

from backend.registry import discover
from models.common import MethodResult, MethodSpec

SPECS: dict[str, MethodSpec[Any, Any]] = {m.spec.name: m.spec for m in discover().ordered()}
NAMES = sorted(SPECS)
SEEDS = 3  # every comparative claim then has an interval over seeds, whatever its units


def smoke_params(name: str) -> Any:
    """The method's smoke params (about a second of work per seed) on `SEEDS` seeds."""
    spec = SPECS[name]
    return spec.params_model.model_validate({**dict(spec.smoke_params or {}), "seeds": SEEDS})


@functools.cache
def smoke_run(name: str) -> tuple[MethodResult, list[float]]:
    """The result of the smoke run and every progress fraction it reported (run once per session)."""
    seen: list[float] = []
    result = SPECS[name].run(smoke_params(name), lambda fraction, message="": seen.append(float(fraction)))
    return result, seen
