"""Deterministic parser and renderer between plain sentences and relations (one relation a sentence)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from models.layout.scene import Relation, normalize_name

__all__ = ["ParseOutcome", "parse_sentence", "parse_statements", "render"]

_VERB = r"(?:is |are |sits |stands |lies |rests |is placed |is standing |is sitting |)"
_WALL = r"(?:the )?(?P<wall>north|south|east|west) wall"
# Tried in order; the first full match wins (wall forms before the generic "on" form).
_PATTERNS: list[tuple[str, str]] = [
    ("corner", rf"(?P<a>.+?) {_VERB}in (?:the )?(?P<corner>north|south)[ -]?(?P<corner2>east|west) corner"),
    ("clearance", r"(?P<a>.+?) (?:has|keeps|needs) (?:a )?(?:(?P<distance>\d+(?:\.\d+)?) ?m (?:of )?)?"
                  r"(?:clearance|walkway|free space|clear space) in front(?: of it)?"),
    ("align", rf"(?P<a>.+?) {_VERB}(?:aligned|in line) with (?P<b>.+?)(?: (?P<axis>north to south|south to north|east to west|west to east))?"),
    ("around", rf"(?P<a>.+?) {_VERB}(?:around|round) (?P<b>.+)"),
    ("against_wall", rf"(?P<a>.+?) {_VERB}(?:against|along|by) {_WALL}"),
    ("facing", rf"(?P<a>.+?) (?:faces|is facing|is turned towards|is turned toward) {_WALL}"),
    ("facing", r"(?P<a>.+?) (?:faces|is facing|is turned towards|is turned toward) (?P<b>.+)"),
    ("left_of", rf"(?P<a>.+?) {_VERB}(?:to |on )?(?:the )?left of (?P<b>.+)"),
    ("right_of", rf"(?P<a>.+?) {_VERB}(?:to |on )?(?:the )?right of (?P<b>.+)"),
    ("in_front_of", rf"(?P<a>.+?) {_VERB}in front of (?P<b>.+)"),
    ("behind", rf"(?P<a>.+?) {_VERB}behind (?P<b>.+)"),
    ("west_of", rf"(?P<a>.+?) {_VERB}(?:to the )?west of (?P<b>.+)"),
    ("east_of", rf"(?P<a>.+?) {_VERB}(?:to the )?east of (?P<b>.+)"),
    ("south_of", rf"(?P<a>.+?) {_VERB}(?:to the )?south of (?P<b>.+)"),
    ("north_of", rf"(?P<a>.+?) {_VERB}(?:to the )?north of (?P<b>.+)"),
    ("far", rf"(?P<a>.+?) {_VERB}far (?:away )?from (?P<b>.+)"),
    ("near", rf"(?P<a>.+?) {_VERB}(?:near|close to|next to|beside|by) (?P<b>.+)"),
    ("on_top_of", rf"(?P<a>.+?) {_VERB}(?:on top of|on|upon|atop) (?P<b>.+)"),
]
_COMPILED = [(kind, re.compile(rf"^{pattern}$")) for kind, pattern in _PATTERNS]
_TEMPLATES: dict[str, str] = {
    "left_of": "{a} is to the left of {b}",
    "right_of": "{a} is to the right of {b}",
    "in_front_of": "{a} is in front of {b}",
    "behind": "{a} is behind {b}",
    "west_of": "{a} is west of {b}",
    "east_of": "{a} is east of {b}",
    "south_of": "{a} is south of {b}",
    "north_of": "{a} is north of {b}",
    "facing": "{a} faces {b}",
    "near": "{a} is near {b}",
    "far": "{a} is far from {b}",
    "on_top_of": "{a} is on top of {b}",
    "around": "{a} is around {b}",
}
_AXIS_WORDS = {"x": "north to south", "y": "east to west"}
_WORD_AXIS = {"north to south": "x", "south to north": "x", "east to west": "y", "west to east": "y"}
EXAMPLE = "'the lamp is on top of nightstand a'"


@dataclass
class ParseOutcome:
    """Relations parsed from sentences, the index of the sentence each came from, and the errors."""

    relations: list[Relation] = field(default_factory=list)
    sources: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def render(rel: Relation) -> str:
    """Return the canonical sentence of a relation ("the desk is against the east wall")."""
    a = f"the {rel.a}"
    if rel.type == "against_wall":
        return f"{a} is against the {rel.wall} wall"
    if rel.type == "facing" and rel.wall is not None:
        return f"{a} faces the {rel.wall} wall"
    if rel.type == "corner":
        return f"{a} is in the {str(rel.corner).replace('_', ' ')} corner"
    if rel.type == "clearance":
        return f"{a} has {rel.distance:g} m of clearance in front" if rel.distance is not None else f"{a} has clearance in front"
    if rel.type == "align":
        tail = f" {_AXIS_WORDS[rel.axis]}" if rel.axis is not None else ""
        return f"{a} is aligned with the {rel.b}{tail}"
    return _TEMPLATES[rel.type].format(a=a, b=f"the {rel.b}")


def _clean(text: str) -> str:
    text = " ".join(text.strip().lower().replace(",", " ").split())
    return text.rstrip(".!;").strip()


def _strip_article(name: str) -> str:
    for article in ("the ", "a ", "an "):
        if name.startswith(article):
            return name[len(article):]
    return name


def _lookup(phrase: str, names: dict[str, str]) -> str | None:
    key = normalize_name(phrase)
    if key in names:
        return names[key]
    stripped = normalize_name(_strip_article(key))
    return names.get(stripped)


def parse_sentence(sentence: str, object_names: list[str]) -> Relation | str:
    """Return the relation a sentence states, or an error message saying why it was not understood."""
    names = {normalize_name(n): n for n in object_names}
    text = _clean(sentence)
    if not text:
        return "is empty"
    unknown: list[str] = []
    for kind, pattern in _COMPILED:
        match = pattern.match(text)
        if match is None:
            continue
        groups = match.groupdict()
        a = _lookup(groups["a"], names)
        if a is None:
            unknown.append(groups["a"])
            continue
        if kind == "corner":
            return Relation(type="corner", a=a, corner=f"{groups['corner']}_{groups['corner2']}")  # type: ignore[arg-type]
        if kind == "clearance":
            distance = float(groups["distance"]) if groups.get("distance") else None
            if distance is not None and not 0.2 <= distance <= 3.0:
                return f"asks for {distance:g} m of clearance; the limits are 0.2 to 3 m"
            return Relation(type="clearance", a=a, distance=distance)
        if groups.get("wall"):
            return Relation(type=kind, a=a, b=None, wall=groups["wall"])  # type: ignore[arg-type]
        b = _lookup(groups["b"], names)
        if b is None:
            unknown.append(groups["b"])
            continue
        if a == b:
            return f"relates '{a}' to itself"
        if kind == "align":
            axis = _WORD_AXIS.get(groups.get("axis") or "")
            return Relation(type="align", a=a, b=b, axis=axis)  # type: ignore[arg-type]
        return Relation(type=kind, a=a, b=b)  # type: ignore[arg-type]
    if unknown:
        return f"names an unknown object '{_strip_article(unknown[0])}'"
    return f"is not a relation the parser knows (e.g. {EXAMPLE})"


def parse_statements(sentences: list[str], object_names: list[str]) -> ParseOutcome:
    """Parse one relation per sentence; every sentence that fails is reported with its index."""
    outcome = ParseOutcome()
    for i, sentence in enumerate(sentences):
        parsed = parse_sentence(sentence, object_names)
        if isinstance(parsed, str):
            outcome.errors.append(f"statements[{i}] '{sentence.strip()[:80]}' {parsed}")
        else:
            outcome.relations.append(parsed)
            outcome.sources.append(i)
    return outcome
