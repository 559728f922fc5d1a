"""Render plotly figures in Chromium (plotly.js, as the page does) and find text boxes that overlap.

The boxes are the SVG text elements' client rectangles: the figure title, subplot titles and other
annotations, axis titles, legend entries and colorbar titles; tick labels count against all of those
(two tick labels of one axis are plotly's business). Used by tests/e2e/test_figure_text.py and by hand:
`.venv/bin/python -m tests.e2e.figure_text FIGURE.json ...` prints the overlaps of saved figures.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import plotly

PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
WIDTH = 736  # the main column of a page at 1400 px with the sidebar open
SLACK = 1.5  # pixels two boxes may share (anti-aliasing, glyph overhang)

# Each kind of text: a CSS selector, and whether it is a tick label (ticks are only checked against labels).
_SELECTORS = {
    "title": (".g-gtitle text", False),
    "annotation": (".annotation text", False),
    "axis title": (".g-xtitle text, .g-ytitle text, [class^='g-x'][class$='title'] text, [class^='g-y'][class$='title'] text", False),
    "legend": (".legend text", False),
    "colorbar title": (".cbtitle text", False),
    "tick": (".xtick text, .ytick text, .cbaxis text", True),
}

_BOXES_JS = """(selectors) => {
  const out = [];
  const seen = new Set();
  for (const [kind, [selector, tick]] of Object.entries(selectors)) {
    for (const el of document.querySelectorAll(selector)) {
      if (seen.has(el) || !el.textContent.trim()) continue;
      seen.add(el);
      const style = window.getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden' || style.opacity === '0') continue;
      const r = el.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) continue;
      const axis = el.closest('[class*="tick"]')?.parentElement?.getAttribute('class') || '';
      out.push({kind, tick, axis, text: el.textContent.trim(), x0: r.left, y0: r.top, x1: r.right, y1: r.bottom});
    }
  }
  for (const el of document.querySelectorAll('.nsewdrag')) {  // each subplot's plot area
    const r = el.getBoundingClientRect();
    out.push({kind: 'plot area', tick: false, axis: '', text: '(plot area)', x0: r.left, y0: r.top, x1: r.right, y1: r.bottom});
  }
  return out;
}"""


def harness_html() -> str:
    """A blank page with plotly.js loaded, where `render` draws one figure at a time."""
    return (f"<html><head><meta charset='utf-8'><script>{PLOTLY_JS.read_text(encoding='utf-8')}</script></head>"
            f"<body style='margin:0'><div id='fig' style='width:{WIDTH}px'></div></body></html>")


def render(page: Any, figure_json: dict[str, Any]) -> list[dict[str, Any]]:
    """Draw `figure_json` ({data, layout}) in `page` and return its text boxes."""
    page.evaluate("""async ([fig, width]) => {
        const div = document.getElementById('fig');
        Plotly.purge(div);
        const layout = Object.assign({}, fig.layout || {}, {width: width});
        await Plotly.newPlot(div, fig.data || [], layout, {displayModeBar: false});
    }""", [figure_json, WIDTH])
    return list(page.evaluate(_BOXES_JS, {k: list(v) for k, v in _SELECTORS.items()}))


def _overlap(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return (min(a["x1"], b["x1"]) - max(a["x0"], b["x0"]) > SLACK
            and min(a["y1"], b["y1"]) - max(a["y0"], b["y0"]) > SLACK)


def overlaps(boxes: list[dict[str, Any]]) -> list[str]:
    """Every box cut by the figure's edge, and every pair of boxes that overlap, as 'kind "text" / kind "text"'
    (pairs of axis tick labels are skipped)."""
    found = [f'{a["kind"]} "{a["text"][:40]}" is cut by the figure\'s edge' for a in boxes
             if a["x0"] < -SLACK or a["y0"] < -SLACK or a["x1"] > WIDTH + SLACK]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if a["tick"] and b["tick"] and "cbaxis" not in a["axis"] + b["axis"]:
                continue  # two axis tick labels (plotly spaces them); a colorbar's against an axis's counts
            if a["kind"] == b["kind"] == "legend":  # one legend entry's parts are laid out by plotly
                continue
            if "plot area" in (a["kind"], b["kind"]):  # only an axis title over some panel's plot is wrong
                other = b if a["kind"] == "plot area" else a
                if other["kind"] not in ("axis title", "colorbar title"):
                    continue
            if _overlap(a, b):
                found.append(f'{a["kind"]} "{a["text"][:40]}" / {b["kind"]} "{b["text"][:40]}"')
    return found


def main(paths: list[str]) -> None:
    import plotly.io as pio
    from playwright.sync_api import sync_playwright

    from app.components.axes import readable_axes
    from devtools.devstack import BROWSER_FLAGS, chromium_path

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=BROWSER_FLAGS)
        page = browser.new_page(viewport={"width": WIDTH + 40, "height": 1200})
        page.set_content(harness_html())
        for path in paths:
            figure = readable_axes(pio.from_json(Path(path).read_text(encoding="utf-8")))
            found = overlaps(render(page, json.loads(figure.to_json())))
            print(f"{Path(path).stem}: {len(found)} overlaps", *found[:8], sep="\n  ")
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1:])
