"""Every registered method keeps the contract: documented, bounded params; valid examples; a run
whose result.json round-trips, whose figures serialise and whose progress never goes backwards."""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

import pytest

from backend.registry import discover
from models.common import MethodResult, MethodSpec
from models.common.claims import ClaimResult
from tests.smoke_runs import smoke_params, smoke_run
from tests.test_figure_axes import untitled_axes

SPECS: dict[str, MethodSpec] = {m.spec.name: m.spec for m in discover().ordered()}
NAMES = sorted(SPECS)


def _leaf_problems(name: str, prop: dict[str, Any], defs: dict[str, Any]) -> list[str]:
    """What a parameter's schema lacks: a description, and bounds on numbers, strings and lists."""
    if "$ref" in prop:
        prop = {**defs.get(prop["$ref"].split("/")[-1], {}), **prop}
    options = prop.get("anyOf") or []
    problems: list[str] = []
    if options:
        for option in options:
            if option.get("type") != "null":
                problems += [p for p in _leaf_problems(name, {**option, "description": "x"}, defs)]
        return problems
    kind = prop.get("type")
    if kind in ("integer", "number") and "enum" not in prop and "const" not in prop:
        if not any(k in prop for k in ("maximum", "exclusiveMaximum")) or not any(
                k in prop for k in ("minimum", "exclusiveMinimum")):
            problems.append(f"{name}: a number without both bounds")
    if kind == "string" and "enum" not in prop and "const" not in prop and "maxLength" not in prop:
        problems.append(f"{name}: a string without maxLength")
    if kind == "array":
        if "maxItems" not in prop:
            problems.append(f"{name}: a list without maxItems")
        if isinstance(prop.get("items"), dict):
            problems += _leaf_problems(f"{name}[]", {**prop["items"], "description": "x"}, defs)
    if kind == "object" and "properties" in prop:
        for child, child_prop in prop["properties"].items():
            problems += _leaf_problems(f"{name}.{child}", {**child_prop, "description": "x"}, defs)
    return problems


@pytest.mark.parametrize("name", NAMES)
def test_params_have_defaults_bounds_and_descriptions(name: str) -> None:
    model = SPECS[name].params_model
    schema = model.model_json_schema()
    defs = schema.get("$defs", {})
    problems: list[str] = []
    for field, prop in schema.get("properties", {}).items():
        if not prop.get("description"):
            problems.append(f"{field}: no description")
        if model.model_fields[field].is_required():
            problems.append(f"{field}: no default")
        problems += _leaf_problems(field, prop, defs)
    assert not problems, problems
    SPECS[name].params_model()  # the defaults alone are a valid input


@pytest.mark.parametrize("name", NAMES)
def test_examples_validate_and_the_spec_is_complete(name: str) -> None:
    spec = SPECS[name]
    assert spec.paper.title and spec.paper.authors, "the citation needs a title and authors"
    assert spec.about.strip(), "the page's About expander needs the algorithm in steps"
    stray = sorted({hex(ord(c)) for c in spec.about if ord(c) < 32 and c != "\n"})
    assert not stray, f"the About (models/{name}/about.md) holds control characters {stray}: an escape read as one"
    examples = dict(spec.examples()) if spec.examples else {}
    for params in examples.values():
        spec.params_model.model_validate(params)
    if spec.smoke_params is not None:
        spec.params_model.model_validate(dict(spec.smoke_params))


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_a_tiny_run_round_trips_and_reports_monotone_progress(name: str) -> None:
    spec = SPECS[name]
    params = smoke_params(name)
    result, seen = smoke_run(name)
    assert seen, "run() reports progress"
    assert all(0.0 <= f <= 1.0 for f in seen), seen
    assert seen == sorted(seen), f"progress went backwards: {seen}"
    files = result.all_artifacts()
    ragged = {file: problem for file, artifact in files.items() if file.endswith(".csv")
              and (problem := csv_problem(artifact.content.decode()))}
    assert not ragged, ragged
    reloaded = spec.result_model.model_validate_json(files["result.json"].content)
    assert reloaded.model_dump(mode="json") == result.model_dump(mode="json")
    problems: list[str] = []
    for figure_name, figure in spec.figures(result).items():
        assert json.loads(figure.to_json())["data"] is not None, figure_name
        problems += [f"{figure_name}: {p}" for p in figure_problems(figure)]
    assert not problems, problems
    verdict = result.verdict()
    assert verdict.kind and verdict.tone in ("success", "info", "warning", "error")
    _assert_claims_decide_the_verdict(result, params)


def csv_problem(text: str) -> str:
    """Why a CSV is not one rectangular table with a header ('' when it is)."""
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or not rows[0]:
        return "no header"
    widths = {len(row) for row in rows if row}
    return "" if widths == {len(rows[0])} else f"rows of {sorted(widths)} cells"


def test_the_csv_check_finds_a_ragged_row() -> None:
    assert csv_problem('group,n\n"y=0, a=0",3\n') == ""
    assert csv_problem("group,n\ny=0, a=0,3\n") == "rows of [2, 3] cells"


def figure_problems(figure: Any) -> list[str]:
    """What a reader would miss in a figure: a title, a labelled axis for every axis a trace uses, and
    curves of more than one point."""
    layout = figure.layout
    problems = [] if (layout.title and layout.title.text) else ["no title"]
    for trace in figure.data:
        kind = trace.type
        mode = getattr(trace, "mode", None) or ""
        if kind in ("scatter", "scattergl") and "lines" in mode and "markers" not in mode:
            drawn = [x for x in (() if trace.x is None else trace.x) if x is not None]  # [None]: a legend entry
            if trace.x is not None and len(drawn) == 1:
                problems.append(f"trace {trace.name!r} is a one-point curve")
    problems += [f"{axis} has no title" for axis in untitled_axes(figure)]  # one rule: tests/test_figure_axes.py
    return problems


def test_the_figure_check_finds_what_a_reader_would_miss() -> None:
    import plotly.graph_objects as go

    bare = go.Figure(go.Scatter(x=[1], y=[2], mode="lines", name="one point"))
    assert len(figure_problems(bare)) == 4  # no title, two unlabelled axes, a one-point curve
    good = go.Figure(go.Scatter(x=[1, 2], y=[2, 3], mode="lines"))
    good.add_trace(go.Scatter(x=[None], y=[None], mode="lines", name="marker line (legend entry only)"))
    good.update_layout(title="t", xaxis_title="step", yaxis_title="loss (nats)")
    assert figure_problems(good) == []


def _assert_claims_decide_the_verdict(result: MethodResult, params: Any) -> None:
    """Claims carry every field, one outcome per seed run, and green means every headline claim held."""
    assert result.claims, "the result declares the paper's claims"
    for claim in result.claims:
        assert claim.statement and claim.paper and claim.quantity and claim.criterion, claim.id
        assert len(claim.seeds) == params.seeds, f"{claim.id}: {len(claim.seeds)} outcomes for {params.seeds} seeds"
        assert claim.holds in ("held", "partial", "not_held", "not_tested")
    headline = [c for c in result.claims if c.headline]
    assert headline, "at least one headline claim"
    if result.verdict().tone == "success":
        assert all(c.holds == "held" and all(o.holds for o in c.seeds) for c in headline)
        if result.standing is not None:
            assert not result.standing.beaten_by(), result.standing


INTERNAL_NOTES = re.compile(r"\bthe issue\b|\bissue \d+|reading list|paper \d+ of|\bTODO\b|\(paper \d+\)", re.I)
PLACEHOLDER_AUTHORS = re.compile(r"as listed|et al|^\s*$|&", re.I)
# Papers whose ICML 2026 page lists no authors and for which we found no preprint (searched by title on
# 2026-12-03): their citation links the ICML page. Remove a name here once its authors are known.
AUTHORS_UNKNOWN = {"rc_fcl"}
# Methods whose verdict is not yet judged by their claims (issue 25 is open for them): these two checks
# are reported as expected failures for them (visibly, in the summary); remove a method once converted.
NOT_YET_ON_CLAIMS: set[str] = set()


def _not_yet_on_claims(name: str) -> None:
    if name in NOT_YET_ON_CLAIMS:
        pytest.xfail(f"{name} is not yet judged by its claims (issue 25 open for it)")


@pytest.mark.parametrize("name", NAMES)
def test_the_citation_is_complete_and_the_text_has_no_internal_notes(name: str) -> None:
    spec = SPECS[name]
    paper = spec.paper
    assert paper.url.startswith("https://"), "a link to the paper (arXiv or proceedings)"
    if name not in AUTHORS_UNKNOWN:
        assert not PLACEHOLDER_AUTHORS.search(paper.authors), f"every author by name: {paper.authors!r}"
        assert all(len(author.split()) >= 2 for author in paper.authors.split(",")), f"full names: {paper.authors!r}"
    for text in (spec.about, spec.summary, spec.title):
        found = INTERNAL_NOTES.search(text)
        assert found is None, f"an internal note on the page: {found.group(0)!r}"


@pytest.mark.parametrize("name", NAMES)
def test_the_verdict_comes_from_the_claims_rule_alone(name: str) -> None:
    _not_yet_on_claims(name)
    result_model = SPECS[name].result_model
    assert result_model.verdict is MethodResult.verdict, "a result must not compute its own verdict"
    assert result_model.model_fields["claims"].annotation == list[ClaimResult]


@pytest.mark.parametrize("name", NAMES)
def test_every_method_takes_seeds_and_offers_a_reproduce_the_paper_example(name: str) -> None:
    _not_yet_on_claims(name)
    spec = SPECS[name]
    seeds = spec.params_model.model_json_schema()["properties"].get("seeds")
    assert seeds is not None and seeds.get("minimum") == 1 and seeds.get("maximum", 0) >= 3, "a bounded `seeds` parameter"
    examples = dict(spec.examples()) if spec.examples else {}
    reproduce = [label for label in examples if label.startswith("Reproduce the paper")]
    assert reproduce, "a 'Reproduce the paper' example"
    assert any(ch.isdigit() for ch in reproduce[0]), "its expected time is on the label"
    assert spec.params_model.model_validate(examples[reproduce[0]]).seeds >= 3
