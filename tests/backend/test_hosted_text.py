"""Issue 45, N1 at the unit level: figure text passes an allow-list (not a one-pass regex), and the
kit's `plain`/`code` render a stranger's text with no image, link or HTML. The browser-level check
(Chromium, every request intercepted) is tests/e2e/test_hostile_names.py."""

from __future__ import annotations

import html
import random
import re

from markdown_it import MarkdownIt

from app.components.plain import code, plain
from backend.jobs.outcome import figure_text, unlinked

ALLOWED = re.compile(r"</?(br|b|i|em|sup|sub|extra)>")
EVIL = "http://127.0.0.9:18399"


def _only_allowed_tags(text: str) -> bool:
    """Every `<` in `text` (and in it once entity-decoded) opens an allow-listed tag with no attribute."""
    for shown in (text, html.unescape(text)):
        for match in re.finditer("<", shown):
            if not ALLOWED.match(shown, match.start()):
                return False
    return True


def test_the_nested_link_of_the_red_team_is_text_not_a_link() -> None:
    cleaned = figure_text(f'![p]({EVIL}/s.png) <<a>a href="{EVIL}/t">v</a>')
    assert _only_allowed_tags(cleaned), cleaned
    assert "<a" not in html.unescape(cleaned).lower()


def test_random_tag_soup_never_yields_a_tag_outside_the_allow_list() -> None:
    """Brute force: 20,000 random strings over the characters that build tags and entities."""
    rng = random.Random(45)
    pieces = ["<", ">", "/", "a", "A", " href=", '"', "'", "img", "br", "b", "&", "lt;", "gt;", "#60;", "x", "=",
              "<a ", "</a>", "<br>", "<b>", "span", "style", "\t", "\n", "extra"]
    for _ in range(20_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 14)))
        cleaned = figure_text(text)
        assert _only_allowed_tags(cleaned), (text, cleaned)


def test_the_figures_own_formatting_and_ordinary_text_stay() -> None:
    assert figure_text("Shapley value<br>of atom 3 (x<sup>2</sup>, <b>bold</b>, <i>it</i>)") == (
        "Shapley value<br>of atom 3 (x<sup>2</sup>, <b>bold</b>, <i>it</i>)")
    assert figure_text("%{x}: %{y:.3f}<extra></extra>") == "%{x}: %{y:.3f}<extra></extra>"
    assert figure_text("<BR/>a<br />b") == "<br>a<br>b"
    assert figure_text("max <w, x> over w in V") == "max \uff1cw, x\uff1e over w in V", "a bracket is text"
    assert figure_text("Aspirin (test) [v2]!") == "Aspirin (test) [v2]!"
    spec = unlinked({"layout": {"title": {"text": f'<a href="{EVIL}">n</a> R&D'}}, "data": [{"x": [1, 2]}]})
    assert spec == {"layout": {"title": {"text": "n R&amp;D"}}, "data": [{"x": [1, 2]}]}


def test_a_code_span_cannot_be_closed_by_its_text() -> None:
    hostile = f"a` ![x]({EVIL}/r) ``b"
    rendered = MarkdownIt("commonmark").render(f"There is no run {code(hostile)} here.")
    assert "<img" not in rendered and "<a " not in rendered, rendered
    assert rendered.count("<code>") == 1 and "![x]" in rendered
    assert MarkdownIt("commonmark").render(code("CC(=O)Oc1ccccc1C(=O)O")).strip() == (
        "<p><code>CC(=O)Oc1ccccc1C(=O)O</code></p>")


def test_names_a_person_may_type_are_shown_as_typed() -> None:
    for typed in ("Aspirin (test) [v2]!", "caffeine #2 - 3*x_1", "sofa [left]!"):
        rendered = MarkdownIt("commonmark").render(plain(typed)).strip()
        assert html.unescape(re.sub(r"</?p>", "", rendered)) == typed, rendered
