"""Registers the test-only `gpu_toy` method (it declares one GPU) through EXTRA_METHODS."""

from __future__ import annotations

from tests.backend.job_methods import GPU_TOY as SPEC

__all__ = ["SPEC"]
