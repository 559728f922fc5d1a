"""The LLM proposer speaks the OpenAI chat completions API and feeds the same sentence parser."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

import httpx
import pytest

from models.common import MethodInputError, no_progress
from models.common.llm import LlmConfig
from models.layout.llm import propose_statements, reply_lines
from models.layout.params import Params
from models.layout.run import run
from tests.models.layout.helpers import boxes, scene

REPLY = "1. the lamp is on top of the nightstand\n- The bed is against the north wall.\n* the nightstand is left of the bed\nthe bed likes music\n"


def test_reply_lines_strip_bullets() -> None:
    assert reply_lines(REPLY) == ["the lamp is on top of the nightstand", "The bed is against the north wall.",
                                  "the nightstand is left of the bed", "the bed likes music"]


def test_propose_statements_posts_a_chat_completion() -> None:
    seen: dict[str, Any] = {}

    def handler(request: httpx.Request) -> httpx.Response:
        seen["url"] = str(request.url)
        seen["auth"] = request.headers.get("authorization")
        seen["body"] = json.loads(request.content)
        return httpx.Response(200, json={"choices": [{"message": {"role": "assistant", "content": REPLY}}]})

    config = LlmConfig(base_url="http://llm.test/v1", model="tiny-model", api_key="k")
    lines = propose_statements("a cosy bedroom", ["bed", "lamp"], config, transport=httpx.MockTransport(handler))
    assert seen["url"] == "http://llm.test/v1/chat/completions"
    assert seen["auth"] == "Bearer k"
    assert seen["body"]["model"] == "tiny-model"
    assert "bed, lamp" in seen["body"]["messages"][1]["content"]
    assert len(lines) == 4


@pytest.mark.parametrize("response", [httpx.Response(500, text="boom"), httpx.Response(200, json={"choices": []}),
                                      httpx.Response(200, text="not json")])
def test_proposer_failures_are_one_line_input_errors(response: httpx.Response) -> None:
    transport = httpx.MockTransport(lambda request: response)
    with pytest.raises(MethodInputError, match="LLM proposer failed") as err:
        propose_statements("x", ["bed"], LlmConfig(base_url="http://llm.test/v1", model="m"), transport=transport, retries=0)
    assert "\n" not in str(err.value)


class _FakeChat(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 (http.server API)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        assert self.path == "/v1/chat/completions" and body["messages"][0]["role"] == "system"
        payload = json.dumps({"choices": [{"message": {"content": REPLY}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def fake_llm(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    server = HTTPServer(("127.0.0.1", 0), _FakeChat)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    monkeypatch.setenv("LLM_BASE_URL", url)
    monkeypatch.setenv("LLM_MODEL", "fake")
    yield url
    server.shutdown()


def test_run_uses_llm_relations_like_any_other(fake_llm: str) -> None:
    s = scene(boxes(("bed", 1.6, 2.0, 0.5), ("nightstand", 0.45, 0.4, 0.55), ("lamp", 0.25, 0.25, 0.4)), [])
    result = run(Params(scene=s, use_llm=True, description="a bedroom with a lamp by the bed", stage2_iterations=100), no_progress)
    assert result.status == "ok"
    assert [r.source for r in result.relations] == ["llm"] * 3
    assert [r.type for r in result.relations] == ["on_top_of", "against_wall", "left_of"]
    assert len(result.unparsed) == 1 and "bed likes music" in result.unparsed[0]
    assert result.scores.relation_fraction == 1.0


def test_llm_off_by_default_and_needs_a_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LLM_BASE_URL", raising=False)
    assert Params().use_llm is False
    with pytest.raises(MethodInputError, match="LLM_BASE_URL"):
        run(Params(use_llm=True, description="x"), no_progress)
