"""The LLM proposer over an OpenAI-compatible endpoint, driven by httpx.MockTransport."""

from __future__ import annotations

import json

import httpx
import pytest

from models.common.contract import no_progress
from models.inequality.checker import check_certificate
from models.inequality.llm import parse_reply, propose_squares
from models.inequality.params import Params
from models.inequality.parser import parse_polynomial, parse_problem
from models.inequality.run import run


def _transport(reply: str, seen: list[dict]) -> httpx.MockTransport:
    def handler(request: httpx.Request) -> httpx.Response:
        seen.append({"url": str(request.url), "body": json.loads(request.content)})
        return httpx.Response(200, json={"choices": [{"message": {"content": reply}}]})

    return httpx.MockTransport(handler)


@pytest.fixture
def llm_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LLM_BASE_URL", "http://llm.invalid/v1")
    monkeypatch.setenv("LLM_MODEL", "prover-test")


def test_reply_is_parsed_as_untrusted_text() -> None:
    reply = "1 | x - y\n2 | __import__('os').system('id')\nnot a square\n-1 | x\n1/2 | x + y"
    proposal = parse_reply(reply, ("x", "y"))
    assert [str(s.coeff) for s in proposal.squares] == ["1", "1/2"]
    assert proposal.rejected == 3


def test_request_shape_and_exact_proposal(llm_env: None) -> None:
    seen: list[dict] = []
    poly = parse_polynomial("x^2 - 2*x*y + y^2")
    proposal = propose_squares(poly, transport=_transport("1 | x - y", seen))
    assert seen[0]["url"] == "http://llm.invalid/v1/chat/completions"
    assert seen[0]["body"]["model"] == "prover-test" and seen[0]["body"]["temperature"] == 0
    assert len(proposal.squares) == 1


def test_failed_request_gives_empty_proposal(llm_env: None) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(500, json={"error": "down"})

    proposal = propose_squares(parse_polynomial("x^2"), transport=httpx.MockTransport(handler))
    assert proposal.squares == [] and "failed" in proposal.note


def _with_reply(monkeypatch: pytest.MonkeyPatch, reply: str, seen: list[dict]) -> None:
    import models.inequality.search as search_module

    monkeypatch.setattr(
        search_module, "propose_squares", lambda poly: propose_squares(poly, transport=_transport(reply, seen))
    )


def test_llm_basis_restricts_the_sdp_and_the_result_still_checks(llm_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[dict] = []
    _with_reply(monkeypatch, "0.26 | 2*a - b - c\n0.74 | b - c", seen)  # approximately right weights
    problem = "a^2 + b^2 + c^2 >= a*b + b*c + c*a"
    result = run(Params(problem=problem, refute_starts=2, lean_check=False, use_llm=True), no_progress)
    assert seen, "the endpoint was called"
    assert result.status == "proved" and result.llm.startswith("used: SDP over the LLM's 3-monomial basis")
    assert any(s.name == "propose (LLM)" and s.status == "used" for s in result.stages)
    assert check_certificate(parse_problem(problem), result.certificate.model_dump()).ok


def test_exact_llm_proposal_is_used_as_is(llm_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    _with_reply(monkeypatch, "1 | x - y", [])
    result = run(Params(problem="x^2 + y^2 >= 2*x*y", refute_starts=2, lean_check=False, use_llm=True), no_progress)
    assert result.status == "proved" and result.llm.startswith("used: the proposal is an exact certificate")


def test_llm_monomials_outside_the_newton_polytope_are_repaired(llm_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    _with_reply(monkeypatch, "1 | x - y + x^2\n1 | y", [])  # x^2 cannot appear in a square of a quadratic
    result = run(Params(problem="x^2 + 2*y^2 >= 2*x*y", refute_starts=2, lean_check=False, use_llm=True), no_progress)
    assert result.status == "proved" and result.llm.startswith("repaired: 1 monomial(s) outside the Newton polytope")


def test_llm_off_when_not_configured(no_llm: None) -> None:
    result = run(Params(problem="x^2 + x + 1 >= 0", refute_starts=1, lean_check=False, use_llm=True), no_progress)
    assert result.status == "proved"
    assert any(s.name == "propose (LLM)" and s.status == "skipped" for s in result.stages)
    assert result.llm.startswith("ignored")
