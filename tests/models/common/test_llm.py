"""The shared LLM client: one failure rule (LlmError with a readable message), retries, size cap."""

from __future__ import annotations

import httpx
import pytest

from models.common.llm import MAX_REPLY_CHARS, LlmConfig, LlmError, chat

CONFIG = LlmConfig(base_url="http://llm.test/v1", model="m", api_key="k")
MESSAGES = [{"role": "user", "content": "hi"}]


def _reply(text: object) -> httpx.Response:
    return httpx.Response(200, json={"choices": [{"message": {"content": text}}]})


def test_returns_the_reply_and_sends_model_key_and_temperature() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return _reply("x^2")

    assert chat(MESSAGES, CONFIG, transport=httpx.MockTransport(handler)) == "x^2"
    assert str(seen[0].url) == "http://llm.test/v1/chat/completions"
    assert seen[0].headers["authorization"] == "Bearer k"
    assert b'"temperature":0' in seen[0].content.replace(b" ", b"")


def test_retries_transient_failures_then_succeeds() -> None:
    answers = iter([httpx.Response(503), httpx.Response(429), _reply("ok")])
    assert chat(MESSAGES, CONFIG, retries=2, transport=httpx.MockTransport(lambda r: next(answers))) == "ok"


def test_gives_up_after_the_retries_with_a_readable_message() -> None:
    calls = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(1)
        return httpx.Response(502)

    with pytest.raises(LlmError, match="answered HTTP 502"):
        chat(MESSAGES, CONFIG, retries=1, transport=httpx.MockTransport(handler))
    assert len(calls) == 2


def test_client_errors_are_not_retried() -> None:
    calls = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(1)
        return httpx.Response(401)

    with pytest.raises(LlmError, match="refused the request"):
        chat(MESSAGES, CONFIG, transport=httpx.MockTransport(handler))
    assert len(calls) == 1


@pytest.mark.parametrize("payload", [{"choices": []}, {"nope": 1}, {"choices": [{"message": {"content": 3}}]}])
def test_malformed_replies_are_errors(payload: dict) -> None:
    with pytest.raises(LlmError):
        chat(MESSAGES, CONFIG, transport=httpx.MockTransport(lambda r: httpx.Response(200, json=payload)))


def test_unreachable_and_unconfigured() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused")

    with pytest.raises(LlmError, match="not reachable"):
        chat(MESSAGES, CONFIG, retries=0, transport=httpx.MockTransport(handler))
    with pytest.raises(LlmError, match="no LLM is configured"):
        chat(MESSAGES, LlmConfig(base_url="", model=""))


def test_reply_is_capped() -> None:
    text = chat(MESSAGES, CONFIG, transport=httpx.MockTransport(lambda r: _reply("a" * (MAX_REPLY_CHARS * 3))))
    assert len(text) == MAX_REPLY_CHARS
