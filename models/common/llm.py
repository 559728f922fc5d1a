"""One OpenAI-compatible chat client for every method: timeouts, bounded retries, one failure rule.

Settings come from the environment (`LLM_BASE_URL`, `LLM_MODEL`, `LLM_API_KEY`). A reply is
untrusted text: callers parse it with their own bounded parsers and never evaluate it; here it is
only capped in size. Every failure becomes an `LlmError` whose message is fit for the user; a method
decides whether that fails the run (`MethodInputError(str(error))`) or is reported and skipped.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

import httpx

__all__ = ["LlmConfig", "LlmError", "chat", "llm_config"]

MAX_REPLY_CHARS = 20_000
_RETRIED_STATUS = {429, 500, 502, 503, 504}


class LlmError(RuntimeError):
    """The LLM could not give a usable reply; the message says why in words a user can act on."""


@dataclass(frozen=True)
class LlmConfig:
    base_url: str
    model: str
    api_key: str = ""

    @property
    def configured(self) -> bool:
        return bool(self.base_url and self.model)


def llm_config(default_model: str = "") -> LlmConfig:
    """The endpoint from the environment; `configured` is False unless a base URL and a model are set."""
    return LlmConfig(
        base_url=os.environ.get("LLM_BASE_URL", "").strip().rstrip("/"),
        model=os.environ.get("LLM_MODEL", "").strip() or default_model,
        api_key=os.environ.get("LLM_API_KEY", "").strip(),
    )


def chat(
    messages: list[dict[str, str]],
    config: LlmConfig | None = None,
    *,
    timeout_s: float = 60.0,
    retries: int = 2,
    transport: httpx.BaseTransport | None = None,
) -> str:
    """POST {base_url}/chat/completions at temperature 0 and return the reply's text (capped).

    Connection errors, timeouts and 429/5xx answers are retried `retries` times with a short
    back-off; other HTTP errors and malformed replies fail at once. Raises `LlmError`.
    """
    config = config or llm_config()
    if not config.configured:
        raise LlmError("no LLM is configured (set LLM_BASE_URL and LLM_MODEL on the model server)")
    headers = {"Authorization": f"Bearer {config.api_key}"} if config.api_key else {}
    body = {"model": config.model, "temperature": 0, "messages": messages}
    url = f"{config.base_url}/chat/completions"
    last = "no attempt"
    for attempt in range(retries + 1):
        if attempt:
            time.sleep(min(0.5 * 2 ** (attempt - 1), 4.0))
        try:
            with httpx.Client(timeout=timeout_s, transport=transport) as client:
                response = client.post(url, json=body, headers=headers)
        except httpx.TimeoutException:
            last = f"the LLM at {config.base_url} did not answer within {timeout_s:g} s"
            continue
        except httpx.TransportError as exc:
            last = f"the LLM at {config.base_url} is not reachable ({type(exc).__name__})"
            continue
        if response.status_code in _RETRIED_STATUS:
            last = f"the LLM at {config.base_url} answered HTTP {response.status_code}"
            continue
        if response.status_code >= 400:
            raise LlmError(f"the LLM at {config.base_url} refused the request (HTTP {response.status_code})")
        return _reply_text(response, config)
    raise LlmError(last)


def _reply_text(response: httpx.Response, config: LlmConfig) -> str:
    try:
        content = response.json()["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        raise LlmError(f"the LLM at {config.base_url} sent a reply that is not a chat completion") from None
    if not isinstance(content, str) or not content.strip():
        raise LlmError(f"the LLM at {config.base_url} returned no text")
    return content[:MAX_REPLY_CHARS]
