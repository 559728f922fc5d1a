"""Claims as data: the one rule (interval on the claim's side, floor, null), spreads, and the verdict's fields."""

from __future__ import annotations

import math

import pytest

from models.common import MethodResult
from models.common.claims import Claim, Measurement, Standing, evaluate_claims, format_value
from models.common.verdict import Answer, claims_verdict

BEATS = Claim("beats", "Ours beats the baseline", "qualitative", "baseline - ours (nats)", ">", 0.0, null="plain")
RATIO = Claim("ratio", "At most half the parameters", "≤ 50%", "added / full", "<=", 0.5,
              floor="at least one expert kept")
RATE = Claim("rate", "Time follows the rate law", "qualitative", "measured / predicted time", "within", 1.0,
             tolerance=0.15, headline=False)
EXACT = Claim("exact", "The certificate checks", "qualitative", "residual", "<=", 0.0, exact=True)
SEEDS = [0, 1, 2]


def _m(*values: float | None) -> list[Measurement]:
    return [Measurement(v) for v in values]


@pytest.mark.parametrize(("claim", "value", "expected"), [
    (BEATS, 0.0, False), (BEATS, 1e-9, True), (RATIO, 0.5, True), (RATIO, 0.5001, False),
    (RATE, 1.15, True), (RATE, 0.84, False), (BEATS, math.nan, False),
])
def test_comparisons_are_exact_at_their_boundaries(claim: Claim, value: float, expected: bool) -> None:
    assert claim.passes(value) is expected


def test_a_difference_within_the_resolution_is_a_tie() -> None:
    floor = Claim("f", "s", "qualitative", "q", "<", 0.0, resolution=1e-8)
    assert not floor.passes(-2e-14) and not floor.passes(-1e-8) and floor.passes(-2e-8)


def test_held_only_when_the_whole_interval_is_on_the_claims_side() -> None:
    # t over 3 seeds: mean 0.2, sd 0.1, half-width 4.303 * 0.1 / sqrt(3) = 0.248 -> [-0.048, 0.448]: a tie
    (tie,) = evaluate_claims([BEATS], {"beats": _m(0.1, 0.2, 0.3)}, SEEDS)
    assert tie.holds == "partial" and tie.detail.startswith("tie:")
    assert tie.test is not None and tie.test.interval == pytest.approx([0.2 - 0.24841, 0.2 + 0.24841], abs=1e-4)
    (clear,) = evaluate_claims([BEATS], {"beats": _m(1.0, 1.1, 1.2)}, SEEDS)
    assert clear.holds == "held" and clear.test is not None and clear.test.interval[0] > 0
    (wrong,) = evaluate_claims([BEATS], {"beats": _m(-1.0, -1.1, -1.2)}, SEEDS)
    assert wrong.holds == "not_held" and not wrong.detail.startswith("tie")
    (lean,) = evaluate_claims([BEATS], {"beats": _m(-0.1, 0.0, -0.2)}, SEEDS)
    assert lean.holds == "not_held" and lean.detail.startswith("tie:")


def test_a_within_claim_needs_the_whole_interval_inside_the_band() -> None:
    (inside,) = evaluate_claims([RATE], {"rate": _m(1.0, 1.01, 0.99)}, SEEDS)
    assert inside.holds == "held"
    (straddles,) = evaluate_claims([RATE], {"rate": _m(0.9, 1.1, 1.2)}, SEEDS)
    assert straddles.holds == "partial"


def test_units_decide_the_interval_of_one_seed_and_must_average_to_its_value() -> None:
    units = [1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0] * 4
    (one,) = evaluate_claims([BEATS], {"beats": [Measurement(0.8, units=units)]}, [7])
    assert one.holds == "held" and one.test is not None and one.test.resamples > 0
    (no_units,) = evaluate_claims([BEATS], {"beats": _m(0.8)}, [7])
    assert no_units.holds == "partial" and no_units.test is not None and no_units.test.interval is None
    with pytest.raises(ValueError, match="units' mean"):
        Measurement(0.5, units=[1.0, 1.0])


def test_a_binary_claim_needs_the_sign_test_too() -> None:
    gain = Claim("gain", "s", "qualitative", "points", ">", 0.0, binary=True, units="queries")
    few = [100.0, 100.0, 100.0] + [0.0] * 50  # 3 wins, no loss: p = 0.25 although every difference is >= 0
    (result,) = evaluate_claims([gain], {"gain": [Measurement(sum(few) / len(few), units=few)]}, [0])
    assert result.test is not None and result.test.p_value == pytest.approx(0.25)
    assert result.holds != "held"
    many = [100.0] * 12 + [0.0] * 40
    (strong,) = evaluate_claims([gain], {"gain": [Measurement(sum(many) / len(many), units=many)]}, [0])
    assert strong.test is not None and strong.test.p_value == pytest.approx(2 * 0.5 ** 12) and strong.holds == "held"


def test_a_claim_its_null_also_passes_is_vacuous() -> None:
    measured = [Measurement(v, null=0.5) for v in (1.0, 1.1, 1.2)]
    (vacuous,) = evaluate_claims([BEATS], {"beats": measured}, SEEDS)
    assert vacuous.holds == "not_held" and vacuous.detail.startswith("vacuous:")
    assert vacuous.null is not None and vacuous.null.passes and vacuous.null.value == pytest.approx(0.5)
    (real,) = evaluate_claims([BEATS], {"beats": [Measurement(v, null=-0.5) for v in (1.0, 1.1, 1.2)]}, SEEDS)
    assert real.holds == "held" and real.null is not None and not real.null.passes


def test_an_exact_claim_is_judged_on_its_values() -> None:
    (one,) = evaluate_claims([EXACT], {"exact": _m(0.0)}, [0])
    assert one.holds == "held" and one.test is not None and one.test.kind == "exact"


def test_the_sanity_floor_and_a_missing_seed_keep_a_claim_from_held() -> None:
    (ratio,) = evaluate_claims([RATIO], {"ratio": [Measurement(0.0, floor_ok=False)] * 3}, SEEDS)
    assert ratio.holds == "not_held" and "sanity floor not met on 3 seeds" in ratio.detail
    (some,) = evaluate_claims([RATIO], {"ratio": [Measurement(0.0, floor_ok=False)] + _m(0.0, 0.0)}, SEEDS)
    assert some.holds == "partial" and "sanity floor not met on 1 seed" in some.detail
    (beats,) = evaluate_claims([BEATS], {"beats": _m(1.0, None, 1.2)}, SEEDS)
    assert beats.holds == "partial" and "measured on 2 of 3 seeds" in beats.detail


def test_measurements_must_match_the_seeds_and_the_declared_claims() -> None:
    with pytest.raises(ValueError):
        evaluate_claims([BEATS], {"beats": _m(0.1)}, SEEDS)
    with pytest.raises(ValueError):
        evaluate_claims([BEATS], {"undeclared": _m(1, 2, 3)}, SEEDS)
    with pytest.raises(ValueError):
        Claim("q", "statement", "", "quantity", ">", 0)


def _standing(ours: list[float], theirs: list[float], floor: float = 0.0) -> Standing:
    return Standing(metric="test loss", lower_is_better=True, method="ours", floor=floor,
                    seed_scores={"ours": ours, "ema": theirs}, labels={"ema": "EMA of the weights"})


def test_a_competitor_beats_the_method_only_by_a_paired_interval_above_the_floor() -> None:
    assert _standing([1.0, 1.1, 1.2], [0.9, 1.0, 1.1]).beaten_by() == ["EMA of the weights"]  # paired: 0.1 each
    assert _standing([1.0, 1.1, 1.2], [0.95, 1.2, 1.0]).beaten_by() == []  # better on average, not by the test
    assert _standing([6e-9, 6e-9, 6e-9], [2e-14, 3e-14, 2e-14], floor=1e-6).beaten_by() == []  # both exact
    assert _standing([1.0], [0.5]).beaten_by() == []  # one seed, no units: no win can be shown
    one_seed = Standing(metric="accuracy", lower_is_better=False, method="ours", seed_scores={"ours": [0.5], "r": [0.7]},
                        unit_scores={"ours": [[1, 0] * 20], "r": [[1, 1] * 14 + [1, 0] * 6]})
    assert one_seed.beaten_by() == ["r"]
    assert _standing([1.0, 1.1, 1.2], [0.9, 1.0, 1.1]).scores == pytest.approx({"ours": 1.1, "ema": 1.0})


def test_the_verdict_is_data_counting_headline_claims() -> None:
    held = evaluate_claims([BEATS, RATIO, RATE], {"beats": _m(1, 1.1, 1.2), "ratio": _m(0.1, 0.1, 0.1),
                                                  "rate": _m(3, 3, 3)}, SEEDS)
    verdict = claims_verdict(held)
    assert (verdict.kind, verdict.tone, verdict.held, verdict.tested, verdict.headline, verdict.seeds) == (
        "reproduced", "success", 2, 2, 2, 3)  # the check (RATE) does not count
    beaten = claims_verdict(held, _standing([1.0, 1.1, 1.2], [0.9, 1.0, 1.1]))
    assert beaten.kind == "beaten" and beaten.beaten_by == ("EMA of the weights",) and beaten.metric == "test loss"
    half = evaluate_claims([BEATS, RATIO], {"beats": _m(1, 1.1, 1.2), "ratio": _m(0.9, 0.9, 0.9)}, SEEDS)
    assert claims_verdict(half).kind == "partly" and claims_verdict(half).held == 1
    none = evaluate_claims([BEATS, RATIO], {"beats": _m(-1, -1, -1), "ratio": _m(0.9, 0.9, 0.9)}, SEEDS)
    assert claims_verdict(none).kind == "not_reproduced" and claims_verdict(none).tone == "error"
    untested = claims_verdict(evaluate_claims([BEATS], {}, SEEDS))
    assert untested.kind == "not_tested" and untested.tested == 0 and untested.headline == 1


def test_an_answer_keeps_its_label_but_is_not_green_while_a_headline_claim_fails() -> None:
    refuted = evaluate_claims([BEATS], {"beats": _m(-1, -1, -1)}, SEEDS)
    answered = claims_verdict(refuted, answer=Answer("Proved", "success"))
    assert (answered.kind, answered.label, answered.tone) == ("answer", "Proved", "warning")
    held = evaluate_claims([EXACT], {"exact": _m(0.0, 0.0, 0.0)}, SEEDS)
    assert claims_verdict(held, answer=Answer("Proved", "success")).tone == "success"
    assert claims_verdict(held, answer=Answer("Refuted", "error")).tone == "error"


def test_the_result_base_derives_its_verdict_from_its_claims() -> None:
    result = MethodResult(claims=evaluate_claims([BEATS], {"beats": _m(-1, -1, -1)}, SEEDS))
    assert result.verdict().kind == "not_reproduced"
    reloaded = MethodResult.model_validate_json(result.model_dump_json())
    assert reloaded.verdict() == result.verdict()


@pytest.mark.parametrize(("value", "text"), [
    (0.123456, "0.123"), (12.0, "12"), (123456.7, "123,457"), (1e-7, "1 × 10⁻⁷"), (None, "—"),
    (math.nan, "—"), (-0.5, "-0.5"), (0.0, "0"), (2 / 3, "0.667"),
])
def test_values_are_formatted_for_people(value: float | None, text: str) -> None:
    assert format_value(value) == text
