"""The LLM proposer over an OpenAI-compatible endpoint, driven by httpx.MockTransport."""

from __future__ import annotations

import json

import httpx
import pytest

from models.common.contract import no_progress
from models.inequality.checker import check_certificate
from models.inequality.llm import parse_reply, propose_squares
from models.inequality.params import Params
from models.inequality.parser import parse_polynomial
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


def test_pipeline_uses_llm_squares_and_still_checks(llm_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[dict] = []
    # an approximately right proposal: exact refinement has to fix the weights
    reply = "0.26 | 2*a - b - c\n0.74 | b - c"
    import importlib

    run_module = importlib.import_module("models.inequality.run")

    monkeypatch.setattr(
        run_module, "propose_squares", lambda poly: propose_squares(poly, transport=_transport(reply, seen))
    )
    problem = "a^2 + b^2 + c^2 >= a*b + b*c + c*a"
    result = run(Params(problem=problem, refute_starts=2, lean_check=False, use_llm=True), no_progress)
    assert seen, "the endpoint was called"
    assert result.status == "proved"
    assert any(s.name == "propose (LLM)" and s.status == "refined" for s in result.stages)
    assert check_certificate(parse_polynomial("a^2 + b^2 + c^2 - a*b - b*c - c*a"), result.certificate.model_dump()).ok


def test_llm_off_when_not_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LLM_BASE_URL", raising=False)
    monkeypatch.delenv("LLM_MODEL", raising=False)
    result = run(Params(problem="x^2 >= 0", refute_starts=1, lean_check=False, use_llm=True), no_progress)
    assert result.status == "proved"
    assert any(s.name == "propose (LLM)" and s.status == "skipped" for s in result.stages)
