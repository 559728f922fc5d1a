"""LLM relation proposer: an OpenAI-compatible chat completions call whose reply is one sentence a line."""

from __future__ import annotations

import re

import httpx

from models.common import MethodInputError
from models.layout.scene import Relation
from models.layout.sentences import render

__all__ = ["SYSTEM_PROMPT", "propose_statements", "reply_lines"]

SYSTEM_PROMPT = (
    "You arrange furniture. Given a room description and a list of object names, answer with spatial "
    "relations, one short sentence per line and nothing else, each in one of these forms: "
    + "; ".join(
        render(Relation(type=t, a="A", b="B"))  # type: ignore[arg-type]
        for t in ("left_of", "right_of", "in_front_of", "behind", "west_of", "east_of", "south_of",
                  "north_of", "facing", "near", "far", "on_top_of")
    )
    + "; the A is against the north wall (or south, east, west); the A faces the north wall. "
    "Use only the given object names."
)
_BULLET = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s*")


def reply_lines(content: str) -> list[str]:
    """Split a model reply into sentences: one a line, bullets and numbering removed."""
    lines = [_BULLET.sub("", line).strip() for line in content.splitlines()]
    return [line for line in lines if line and not line.startswith("```")]


def propose_statements(
    description: str,
    object_names: list[str],
    base_url: str,
    model: str,
    api_key: str | None = None,
    transport: httpx.BaseTransport | None = None,
    timeout_s: float = 60.0,
) -> list[str]:
    """Ask an OpenAI-compatible server (POST {base_url}/chat/completions) for relation sentences.

    The sentences go through the same deterministic parser as typed ones, so the rest of the
    pipeline treats the model's proposals like any other relations (R^3L's LLM front end)."""
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    body = {
        "model": model,
        "temperature": 0,
        "messages": [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": f"Objects: {', '.join(object_names)}\nRoom: {description}"},
        ],
    }
    url = base_url.rstrip("/") + "/chat/completions"
    try:
        with httpx.Client(transport=transport, timeout=timeout_s) as client:
            response = client.post(url, json=body, headers=headers)
            response.raise_for_status()
            content = response.json()["choices"][0]["message"]["content"]
    except (httpx.HTTPError, ValueError, KeyError, IndexError, TypeError) as exc:
        raise MethodInputError(f"the LLM proposer at LLM_BASE_URL failed: {type(exc).__name__}: {str(exc)[:160]}") from exc
    if not isinstance(content, str):
        raise MethodInputError("the LLM proposer at LLM_BASE_URL returned no text")
    return reply_lines(content)
