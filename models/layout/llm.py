"""LLM relation proposer: a prompt for models.common.llm and a parser of its reply, one sentence a line."""

from __future__ import annotations

import re

import httpx

from models.common import MethodInputError
from models.common.llm import LlmConfig, LlmError, chat, llm_config
from models.layout.scene import Relation
from models.layout.sentences import render

__all__ = ["DEFAULT_MODEL", "SYSTEM_PROMPT", "propose_statements", "reply_lines"]

DEFAULT_MODEL = "gpt-4o-mini"  # model name sent when LLM_MODEL is not set

SYSTEM_PROMPT = (
    "You arrange furniture. Given a room description and a list of object names, answer with spatial "
    "relations, one short sentence per line and nothing else, each in one of these forms: "
    + "; ".join(
        render(Relation(type=t, a="A", b="B"))  # type: ignore[arg-type]
        for t in ("left_of", "right_of", "in_front_of", "behind", "west_of", "east_of", "south_of",
                  "north_of", "facing", "near", "far", "on_top_of", "around")
    )
    + "; the A is against the north wall (or south, east, west); the A faces the north wall; "
    "the A is in the north east corner; the A is aligned with the B north to south (or east to west); "
    "the A has 0.6 m of clearance in front. "
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
    config: LlmConfig | None = None,
    transport: httpx.BaseTransport | None = None,
    retries: int = 2,
) -> list[str]:
    """Ask the project's OpenAI-compatible LLM client for relation sentences, one a line.

    The reply is untrusted text: it only goes through the same bounded, deterministic sentence parser
    as typed sentences, so the rest of the pipeline treats the model's proposals like any other
    relations. Any failure of the client becomes one MethodInputError line."""
    messages = [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": f"Objects: {', '.join(object_names)}\nRoom: {description}"},
    ]
    try:
        content = chat(messages, config or llm_config(DEFAULT_MODEL), transport=transport, retries=retries)
    except LlmError as error:
        raise MethodInputError(f"the LLM proposer failed: {error}") from error
    return reply_lines(content)
