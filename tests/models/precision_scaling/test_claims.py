"""Properties behind the claims: noise closed forms, matched bits, m_eff bounds and monotonicity, N_eff, seeds."""

from __future__ import annotations

import numpy as np
import pytest

from models.common import no_progress
from models.precision_scaling import SPEC
from models.precision_scaling.claims import REGIME_FACTOR
from models.precision_scaling.measure import effective_data_size
from models.precision_scaling.params import Params
from models.precision_scaling.quantise import (
    additive,
    expected_noise_variance,
    matched_additive_bits,
    multiplicative,
)
from models.precision_scaling.simulation import make_problem
from models.precision_scaling.theory import theory

SMALL = {"model_sizes": [4, 8, 16, 32], "n_samples": 1000, "dimension": 128}


@pytest.mark.parametrize("bits", [2, 6, 9])
@pytest.mark.parametrize("variance", [0.25, 1e-2, 1e-4, 1e-6])
def test_measured_additive_noise_matches_its_closed_form(bits: int, variance: float) -> None:
    rng = np.random.default_rng(bits)
    x = rng.normal(size=200_000) * np.sqrt(variance)
    measured = ((additive(x, bits, 4.0, rng) - x) ** 2).mean()
    assert measured == pytest.approx(expected_noise_variance("additive", bits, variance, 4.0), rel=0.02)


@pytest.mark.parametrize("bits", [1, 2, 4])
@pytest.mark.parametrize("variance", [1.0, 1e-3, 1e-6])
def test_measured_multiplicative_noise_matches_its_closed_form(bits: int, variance: float) -> None:
    rng = np.random.default_rng(bits)
    x = rng.normal(size=200_000) * np.sqrt(variance)
    measured = ((multiplicative(x, bits, rng) - x) ** 2).mean()
    # the flat-density approximation is within a few per cent at 1 bit, closer with more bits
    assert measured == pytest.approx(expected_noise_variance("multiplicative", bits, variance, 4.0), rel=0.05)


@pytest.mark.parametrize("exponent", [1.5, 2.0, 3.0])
@pytest.mark.parametrize("bits", [1, 2, 3])
def test_matched_bits_are_the_integer_width_closest_in_measured_noise(exponent: float, bits: int) -> None:
    """Integer widths step the variance by about 4x, so the best one is within about 2x, not always inside it."""
    spectrum = np.arange(1, 257, dtype=float) ** -exponent
    b = matched_additive_bits(bits, spectrum, 4.0)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(4000, 256)) * np.sqrt(spectrum)
    mult = ((multiplicative(x, bits, rng) - x) ** 2).mean()

    def gap(width: int) -> float:
        return abs(np.log2(mult / ((additive(x, width, 4.0, rng) - x) ** 2).mean()))

    assert gap(b) <= min(gap(b - 1), gap(b + 1)) and gap(b) < 1.1, (b, gap(b))


def _m_eff(scheme: str, bits: int, seed: int = 0) -> tuple[float, int]:
    p = make_problem(np.random.default_rng(seed), dimension=128, exponent=2.0, max_size=32, samples=10, label_noise=0.1)
    q = np.array([expected_noise_variance(scheme, bits, float(v), 4.0) for v in p.spectrum])  # type: ignore[arg-type]
    return theory(p.sketch_of(32), p.spectrum, p.target, q, 0.1, 0.01, [10]).effective_size, 32


@pytest.mark.parametrize("scheme", ["multiplicative", "additive"])
def test_effective_model_size_is_at_most_m_and_grows_with_the_bits(scheme: str) -> None:
    sizes = [_m_eff(scheme, b)[0] for b in range(1, 13)]
    assert all(0 < s <= 32 + 1e-9 for s in sizes)
    assert all(a < b for a, b in zip(sizes, sizes[1:], strict=False)), sizes
    assert sizes[-1] == pytest.approx(32, rel=2e-2)


def test_effective_data_size_reads_the_full_precision_curve() -> None:
    record = [64, 128, 256, 512, 1024, 2048, 4096]
    curve = 3.0 * np.asarray(record, float) ** -0.5
    assert effective_data_size(record, curve, 3.0 * 1000**-0.5) == pytest.approx(1000, rel=1e-9)
    assert effective_data_size(record, curve, 3.0 * 8000**-0.5) == pytest.approx(8000, rel=1e-9)  # extrapolated
    assert effective_data_size(record, curve, -1.0) is None
    assert effective_data_size(record, -curve, 0.1) is None


def test_seed_k_of_a_run_is_the_run_of_seed_k() -> None:
    three = SPEC.run(Params.model_validate({**SMALL, "seeds": 3, "seed": 4}), no_progress)
    one = SPEC.run(Params.model_validate({**SMALL, "seeds": 1, "seed": 5}), no_progress)
    assert three.per_seed[1] == one.per_seed[0]
    assert [o.seed for o in three.claims[0].seeds] == [4, 5, 6]


def test_model_size_claims_read_the_risk_fit_and_the_regime_floor() -> None:
    """The headline values are each seed's fitted kappa; the floor asks for matched noise and M past twice the
    swamping index; the additive claim's null is full precision (kappa 1); the trace formula is a check."""
    result = SPEC.run(Params.model_validate({**SMALL, "n_samples": 4000, "seeds": 2}), no_progress)
    by_id = {c.id: c for c in result.claims}
    for scheme in ("multiplicative", "additive"):
        claim = by_id[f"{scheme}_model_size"]
        assert claim.headline and not by_id[f"trace_{scheme}"].headline
        for outcome, row in zip(claim.seeds, result.per_seed, strict=True):
            assert outcome.value == pytest.approx(row.kappa[scheme])
            expected = 0.5 <= row.noise_ratio <= 2.0 and row.m >= REGIME_FACTOR * row.swamping_index
            assert outcome.floor_ok == expected
    null = by_id["additive_model_size"].null
    assert null is not None and null.value == 1.0 and not null.passes
    for row in result.per_seed:  # the swamping index counts eigenvalues above the additive noise variance
        spectrum = np.arange(1, 129, dtype=float) ** -2.0
        assert row.swamping_index == float((spectrum > row.noise_variance["additive"]).sum())


def test_rounding_at_matched_noise_does_not_reach_the_regime() -> None:
    result = SPEC.run(Params.model_validate({**SMALL, "seeds": 1, "noise_level": 0.0}), no_progress)
    claim = next(c for c in result.claims if c.id == "additive_model_size")
    assert not claim.seeds[0].floor_ok and claim.holds != "held"


def test_headline_claims_are_cited_in_the_docstring() -> None:
    import models.precision_scaling.claims as module

    for claim in module.CLAIMS:
        assert (f"- `{claim.id}`:" in (module.__doc__ or "")) == claim.headline
        assert not claim.headline or claim.why


def test_unmatched_noise_is_refused_by_the_floor() -> None:
    result = SPEC.run(Params.model_validate({**SMALL, "seeds": 1, "noise_level": 0.0, "multiplicative_bits": 6,
                                             "additive_bits": 6}), no_progress)
    by_id = {c.id: c for c in result.claims}
    assert by_id["matched_noise"].holds != "held"
    assert by_id["multiplicative_model_size"].holds != "held"
    assert not by_id["multiplicative_model_size"].seeds[0].floor_ok
