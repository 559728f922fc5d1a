"""Every method's claims are judged as a referee would sign them (issue 38): tests with intervals, named
nulls, a reason for every bar, a cited paper passage for every headline claim, demotions reviewed in
docs/claims.md, and a verdict that is data (no page parses its text)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any

import pytest

from models.common.claims import Claim, ClaimResult
from tests.smoke_runs import NAMES, SEEDS, smoke_run

ROOT = Path(__file__).resolve().parent.parent
KINDS = {"reproduced", "partly", "beaten", "not_reproduced", "not_tested", "answer"}


def _module(name: str) -> Any:
    return importlib.import_module(f"models.{name}.claims")


def _declared(name: str) -> tuple[Claim, ...]:
    return tuple(_module(name).CLAIMS)


@pytest.mark.parametrize("name", NAMES)
def test_every_headline_claim_cites_its_paper_passage_and_states_its_bar_and_null(name: str) -> None:
    module = _module(name)
    doc = module.__doc__ or ""
    no_null: dict[str, str] = getattr(module, "NO_NULL", {})
    headline = [c for c in _declared(name) if c.headline]
    assert headline, "every method keeps at least one headline claim"
    problems = []
    for claim in headline:
        if not re.search(rf"^- `{re.escape(claim.id)}`: \S", doc, re.M):
            problems.append(f"{claim.id}: no '- `{claim.id}`: <paper passage>' line in the claims.py docstring")
        if not claim.why.strip():
            problems.append(f"{claim.id}: no `why` for its bar")
        if not claim.null and not no_null.get(claim.id, "").strip():
            problems.append(f"{claim.id}: no `null` and no reason in NO_NULL")
    assert not problems, problems


def _check_claim(claim: ClaimResult, declared: Claim) -> list[str]:
    problems = []
    if claim.holds == "not_tested":
        return problems
    test = claim.test
    if test is None:
        return [f"{claim.id}: tested but no `test`"]
    if not declared.exact and test.interval is None:
        problems.append(f"{claim.id}: {SEEDS} seeds but no interval ({test.kind})")
    if declared.null and claim.null is None:
        problems.append(f"{claim.id}: its null {declared.null!r} was not measured in the run")
    if claim.holds == "held":
        if test.interval is not None and not declared.interval_passes(*test.interval):
            problems.append(f"{claim.id}: held but its interval {test.interval} is not on the claim's side")
        if claim.null is not None and claim.null.passes:
            problems.append(f"{claim.id}: held although its null passes")
        if test.p_value is not None and test.p_value >= 0.05:
            problems.append(f"{claim.id}: held with sign test p = {test.p_value}")
    return problems


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_the_smoke_run_carries_tests_nulls_and_a_verdict_as_data(name: str) -> None:
    result, _ = smoke_run(name)
    declared = {c.id: c for c in _declared(name)}
    assert [c.id for c in result.claims] == list(declared), "the result carries every declared claim, in order"
    problems = [p for c in result.claims for p in _check_claim(c, declared[c.id])]
    assert not problems, problems
    verdict = result.verdict()
    headline = [c for c in result.claims if c.headline]
    assert verdict.kind in KINDS and verdict.headline == len(headline) and verdict.seeds == SEEDS
    assert 0 <= verdict.held <= verdict.tested <= verdict.headline
    assert verdict.held == sum(c.holds == "held" for c in headline)
    assert verdict.tested == sum(c.holds != "not_tested" for c in headline)
    for grid in result.grids:
        assert grid.best in grid.values and len(grid.scores) == len(grid.values), grid
        assert grid.at_edge == (len(grid.values) > 1 and grid.best in (min(grid.values), max(grid.values))), grid
    if result.standing is not None:
        labels = {result.standing.labels.get(n, n) for n in result.standing.seed_scores}
        assert set(verdict.beaten_by) <= labels and verdict.metric == result.standing.metric
        assert all(len(v) == SEEDS for v in result.standing.seed_scores.values()), "the standing keeps every seed"


def _claims_table() -> dict[tuple[str, str], tuple[str, str, str]]:
    """docs/claims.md's rows: (method, claim id) -> (paper passage, headline yes/no, reason for a demotion)."""
    rows: dict[tuple[str, str], tuple[str, str, str]] = {}
    for line in (ROOT / "docs" / "claims.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0] not in ("method", "") and not set(cells[0]) <= set("-: "):
            rows[(cells[0], cells[1].strip("`"))] = (cells[2], cells[3], cells[4])
    return rows


def demotion_problems(name: str, claims: tuple[Claim, ...], table: dict[tuple[str, str], tuple[str, str, str]]) -> list[str]:
    """What the reviewed table and the code disagree on for one method."""
    problems = []
    for claim in claims:
        row = table.get((name, claim.id))
        if row is None:
            problems.append(f"{name}.{claim.id}: no row in docs/claims.md")
            continue
        if row[1] != ("yes" if claim.headline else "no"):
            problems.append(f"{name}.{claim.id}: headline={claim.headline} in the code, {row[1]!r} in the table")
        if not claim.headline and not row[2]:
            problems.append(f"{name}.{claim.id}: demoted without a reason")
    return problems


@pytest.mark.parametrize("name", NAMES)
def test_every_demotion_is_in_the_reviewed_table(name: str) -> None:
    assert not demotion_problems(name, _declared(name), _claims_table())


def test_the_table_check_finds_an_unreviewed_demotion() -> None:
    claim = Claim("c", "s", "qualitative", "q", ">", 0.0, headline=False)
    assert demotion_problems("m", (claim,), {}) == ["m.c: no row in docs/claims.md"]
    assert demotion_problems("m", (claim,), {("m", "c"): ("abstract", "yes", "")})[0].startswith("m.c: headline=False")
    assert demotion_problems("m", (claim,), {("m", "c"): ("abstract", "no", "")}) == ["m.c: demoted without a reason"]


_PARSES_VERDICT = re.compile(r"(detail|label)\b[^\n]*\.(split|startswith|endswith|partition|removeprefix|find|index)\("
                             r"|beaten on|(==|!=| in)\s*\"(Reproduced|Partly|Not reproduced|All \d)")


def verdict_parsing(source: str) -> list[str]:
    """Lines of `source` that read English out of a verdict's text."""
    return [line.strip() for line in source.splitlines() if _PARSES_VERDICT.search(line)]


def test_no_page_parses_verdict_text() -> None:
    found = {str(path.relative_to(ROOT)): verdict_parsing(path.read_text())
             for path in (ROOT / "app").rglob("*.py")}
    assert not {path: lines for path, lines in found.items() if lines}
    old = 'beaten = (verdict.detail or "").split("; ")[0]\nif beaten.startswith("beaten on "):'
    assert len(verdict_parsing(old)) == 2, "the check finds the parsing the kit used to do"
