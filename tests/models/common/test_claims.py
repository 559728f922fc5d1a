"""Claims as data: per-seed judgement, the sanity floor, spreads, and the one verdict rule."""

from __future__ import annotations

import math

import pytest

from models.common import MethodResult
from models.common.claims import (
    LABEL_LIMIT,
    Claim,
    Measurement,
    Standing,
    Verdict,
    claims_verdict,
    evaluate_claims,
    format_value,
)

BEATS = Claim("beats", "Ours beats the baseline", "qualitative", "baseline - ours (nats)", ">", 0.0)
RATIO = Claim("ratio", "At most half the parameters", "≤ 50%", "added / full", "<=", 0.5,
              floor="at least one expert kept")
RATE = Claim("rate", "Time follows the rate law", "qualitative", "measured / predicted time", "within", 1.0,
             tolerance=0.15, headline=False)
SEEDS = [0, 1, 2]


def _m(*values: float | None) -> list[Measurement]:
    return [Measurement(v) for v in values]


@pytest.mark.parametrize(("claim", "value", "expected"), [
    (BEATS, 0.0, False), (BEATS, 1e-9, True), (RATIO, 0.5, True), (RATIO, 0.5001, False),
    (RATE, 1.15, True), (RATE, 0.84, False), (BEATS, math.nan, False),
])
def test_comparisons_are_exact_at_their_boundaries(claim: Claim, value: float, expected: bool) -> None:
    assert claim.passes(value) is expected


def test_a_claim_holds_only_on_every_seed() -> None:
    held, partial, refuted, untested = evaluate_claims(
        [BEATS, RATIO, RATE, Claim("x", "x", "qualitative", "x", ">=", 1.0)],
        {"beats": _m(0.1, 0.2, 0.3), "ratio": _m(0.2, 0.9, 0.3), "rate": _m(2.0, 2.0, 2.0)}, SEEDS)
    assert (held.holds, partial.holds, refuted.holds, untested.holds) == ("held", "partial", "not_held", "not_tested")
    assert held.ours.mean == pytest.approx(0.2) and held.ours.sd == pytest.approx(0.1) and held.ours.n == 3
    assert [o.seed for o in held.seeds] == SEEDS and all(o.holds for o in held.seeds)
    assert untested.ours.text == "—"


def test_the_sanity_floor_refuses_a_degenerate_pass() -> None:
    (ratio,) = evaluate_claims([RATIO], {"ratio": [Measurement(0.0, floor_ok=False)] * 3}, SEEDS)
    assert ratio.holds == "not_held"
    assert "at least one expert kept" in ratio.detail


def test_a_seed_that_does_not_test_the_claim_keeps_it_from_held() -> None:
    (beats,) = evaluate_claims([BEATS], {"beats": _m(0.1, None, 0.2)}, SEEDS)
    assert beats.holds == "partial"


def test_measurements_must_match_the_seeds_and_the_declared_claims() -> None:
    with pytest.raises(ValueError):
        evaluate_claims([BEATS], {"beats": _m(0.1)}, SEEDS)
    with pytest.raises(ValueError):
        evaluate_claims([BEATS], {"undeclared": _m(1, 2, 3)}, SEEDS)
    with pytest.raises(ValueError):
        Claim("q", "statement", "", "quantity", ">", 0)


def test_green_only_when_every_headline_claim_held_and_no_competitor_wins() -> None:
    all_held = evaluate_claims([BEATS, RATIO, RATE], {"beats": _m(1, 1, 1), "ratio": _m(0.1, 0.1, 0.1),
                                                      "rate": _m(3, 3, 3)}, SEEDS)
    assert claims_verdict(all_held).tone == "success"  # the secondary claim does not decide the banner
    assert claims_verdict(all_held).label == "Reproduced: all 2 headline claims hold on each of 3 seeds"
    winner = Standing(metric="test loss", lower_is_better=True, method="ours", scores={"ours": 1.0, "fno": 0.9})
    beaten = claims_verdict(all_held, winner)
    assert beaten.tone == "warning" and "fno" in beaten.label
    loser = Standing(metric="test loss", lower_is_better=True, method="ours", scores={"ours": 0.8, "fno": 0.9})
    assert claims_verdict(all_held, loser).tone == "success"
    one_of_two = evaluate_claims([BEATS, RATIO], {"beats": _m(1, 1, 1), "ratio": _m(0.1, 0.9, 0.9)}, SEEDS)
    assert claims_verdict(one_of_two).tone == "warning"
    none = evaluate_claims([BEATS, RATIO], {"beats": _m(-1, -1, -1), "ratio": _m(0.9, 0.9, 0.9)}, SEEDS)
    assert claims_verdict(none).tone == "error"
    assert claims_verdict(evaluate_claims([BEATS], {}, SEEDS)).tone == "info"


def test_an_answer_keeps_its_label_but_is_not_green_while_a_headline_claim_fails() -> None:
    refuted = evaluate_claims([BEATS], {"beats": _m(-1, -1, -1)}, SEEDS)
    proved = Verdict("Proved", "success")
    assert claims_verdict(refuted, answer=proved) == Verdict("Proved", "warning", claims_verdict(refuted, answer=proved).detail)
    held = evaluate_claims([BEATS], {"beats": _m(1, 1, 1)}, SEEDS)
    assert claims_verdict(held, answer=proved).tone == "success"
    assert claims_verdict(held, answer=Verdict("Refuted", "error")).tone == "error"


def test_the_result_base_derives_its_verdict_from_its_claims() -> None:
    result = MethodResult(claims=evaluate_claims([BEATS], {"beats": _m(-1, -1, -1)}, SEEDS))
    assert result.verdict().tone == "error"
    reloaded = MethodResult.model_validate_json(result.model_dump_json())
    assert reloaded.verdict() == result.verdict()


@pytest.mark.parametrize(("value", "text"), [
    (0.123456, "0.123"), (12.0, "12"), (123456.7, "123457"), (1e-7, "1.00e-07"), (None, "—"),
    (math.nan, "—"), (-0.5, "-0.5"), (0.0, "0"), (2 / 3, "0.667"),
])
def test_values_are_formatted_for_people(value: float | None, text: str) -> None:
    assert format_value(value) == text


def test_one_seed_is_named_as_one_seed_in_the_label() -> None:
    one = evaluate_claims([BEATS], {"beats": _m(1)}, [0])
    verdict = claims_verdict(one)
    assert verdict.tone == "success" and "this one seed" in verdict.label and "Reproduced" not in verdict.label


def test_the_label_names_who_scores_better_by_display_name_and_metric() -> None:
    held = evaluate_claims([BEATS], {"beats": _m(1, 1, 1)}, SEEDS)
    standing = Standing(metric="test loss", lower_is_better=True, method="ours", scores={"ours": 2.0, "ema": 1.5},
                        labels={"ema": "EMA of the weights"})
    assert standing.beaten_by() == ["EMA of the weights"]
    verdict = claims_verdict(held, standing)
    assert verdict.tone == "warning"
    # the whole phrase would pass the store's 64 characters: the label names the winner, the detail the metric
    assert verdict.label == "All 1 headline claims hold, but EMA of the weights scores better"
    assert verdict.detail.startswith("beaten on test loss by EMA of the weights")


def test_a_label_fits_the_store_and_names_the_winner_only_when_it_fits() -> None:
    """The label is built within LABEL_LIMIT (never cut mid-word downstream); the detail always names who won."""
    partial = evaluate_claims([BEATS, RATIO], {"beats": _m(1, 1, 1), "ratio": _m(0.1, 0.9, 0.9)}, SEEDS)
    held = evaluate_claims([BEATS, RATIO], {"beats": _m(1, 1, 1), "ratio": _m(0.1, 0.1, 0.1)}, SEEDS)
    long_name = "Local only (radius GNO, no attention)"
    for names in (["fno"], [long_name], [long_name, "Global only (latent attention)"]):
        scores = {"ours": 1.0} | {name: 0.5 for name in names}
        standing = Standing(metric="relative L2 error on the adaptive mesh", lower_is_better=True, method="ours",
                            scores=scores)
        for claims in (partial, held):
            verdict = claims_verdict(claims, standing)
            assert len(verdict.label) <= LABEL_LIMIT, verdict.label
            assert verdict.tone == "warning" and verdict.detail.startswith(f"beaten on {standing.metric} by ")
            assert all(name in verdict.detail for name in names)
    one_seed = evaluate_claims([BEATS] * 12, {"beats": [Measurement(1.0)]}, [0])
    assert len(claims_verdict(one_seed).label) <= LABEL_LIMIT, "the one-seed label fits with a two-digit count"
    short = claims_verdict(partial, Standing(metric="loss", lower_is_better=True, method="ours",
                                             scores={"ours": 1.0, "fno": 0.5}))
    assert short.label == "Partly reproduced: 1 of 2 headline claims hold; a baseline wins"
