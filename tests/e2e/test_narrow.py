"""End to end (issue 47, items 5 and 7): Home and a page at 800 px and 1400 px, and an unknown URL.

At 800 px the sidebar starts collapsed, Home's cards sit two to a row, no word on Home is broken across
lines, and a result's markdown tables stay inside the window (scrolling in their frame); at 1400 px the
sidebar is open and the cards sit four to a row. An unknown URL says so, with a link home."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import wait_for_app

pytestmark = pytest.mark.e2e
LABEL = "Inequality (>=, <=, ≥, ≤; > and < are strict)"

# Words (split at spaces, hyphens and slashes) whose text spans more than one line box: broken mid-word.
BROKEN_WORDS = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.querySelector('[data-testid="stMain"]'), NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, text = node.textContent;
    const re = /[^\\s\\-\\/\u2010-\u2014]{3,}/g;
    let m;
    while ((m = re.exec(text)) !== null) {
      const range = document.createRange();
      range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
      const tops = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0).map(r => Math.round(r.top)));
      if (tops.size > 1) broken.push(m[0]);
    }
  }
  return broken;
}"""

CARDS_PER_ROW = """() => {
  const cards = Array.from(document.querySelectorAll('[class*="st-key-home-grid"] [data-testid="stColumn"]'))
    .filter(c => c.innerText.trim().length > 0 && c.getBoundingClientRect().width > 0);
  const rows = {};
  for (const c of cards) { const top = Math.round(c.getBoundingClientRect().top); rows[top] = (rows[top] || 0) + 1; }
  return Math.max(...Object.values(rows));
}"""

SIDEBAR_OPEN = """() => {
  const bar = document.querySelector('[data-testid="stSidebar"]');
  return !!bar && bar.getBoundingClientRect().right > 50;
}"""

TABLES_INSIDE = """() => Array.from(document.querySelectorAll('[data-testid="stMain"] [data-testid="stMarkdownContainer"] table'))
  .map(t => ({right: t.getBoundingClientRect().right, width: window.innerWidth,
              scrolls: getComputedStyle(t).overflowX, wide: t.scrollWidth > t.clientWidth}))"""


def _home(browser, frontend: str, width: int):  # noqa: ANN001, ANN202 - Playwright objects
    page = browser.new_page(viewport={"width": width, "height": 1000})
    page.goto(frontend)
    wait_for_app(page)
    page.get_by_text("Reproduce:", exact=False).first.wait_for(timeout=60_000)
    page.wait_for_timeout(1500)  # the sidebar's collapse is animated
    return page


@pytest.mark.parametrize(("width", "per_row", "sidebar"), [(800, 2, False), (1400, 4, True)])
def test_home_at_two_widths(servers: dict[str, str], browser, width: int, per_row: int, sidebar: bool) -> None:
    page = _home(browser, servers["frontend"], width)
    try:
        assert page.evaluate(SIDEBAR_OPEN) is sidebar
        assert page.evaluate(CARDS_PER_ROW) == per_row
        assert page.evaluate(BROKEN_WORDS) == []
    finally:
        page.close()


def test_a_result_table_stays_inside_a_narrow_window(servers: dict[str, str], browser) -> None:
    page = browser.new_page(viewport={"width": 800, "height": 1400})
    page.goto(f"{servers['frontend']}/inequality")
    wait_for_app(page)
    box = page.get_by_role("textbox", name=LABEL)
    box.fill("x^2 + y^2 >= 2*x*y")
    box.press("Tab")
    page.get_by_role("button", name="Run", exact=True).first.click()
    page.get_by_text("Finished: run", exact=False).first.wait_for(timeout=240_000)
    wait_for_app(page)
    try:
        tables = page.evaluate(TABLES_INSIDE)
        assert tables, "the claims table is a markdown table"
        for table in tables:
            assert table["right"] <= table["width"] + 1, table
            assert table["scrolls"] in ("auto", "scroll"), table
    finally:
        page.close()


def test_an_unknown_url_says_so_with_a_link_home(servers: dict[str, str], browser) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{servers['frontend']}/no_such_page")
    wait_for_app(page)
    try:
        page.get_by_text("No such page", exact=True).first.wait_for(timeout=30_000)
        assert page.get_by_text("/no_such_page", exact=False).count() >= 1
        assert page.locator("[data-testid='stMain']").get_by_text("Reproduce:", exact=False).count() == 0
        page.keyboard.press("Escape")  # Streamlit's own "Page not found" notice sits over the page until closed
        page.locator("[data-testid='stMain'] a", has_text="Go to Home").first.click()
        page.get_by_text("Reproduce:", exact=False).first.wait_for(timeout=60_000)
    finally:
        page.close()
