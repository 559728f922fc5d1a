"""Numbers and words as a person reads them, for everything the kit shows (tables, metric cards, axes).

The same rules as `models/common/numbers.py` (which builds what `models/` writes; `app/` may not import
`models/`): both are checked against one table of cases, `tests/number_format_cases.json`. A change here
is a change there.

- `number`: `digits` significant digits, no exponent at ordinary sizes (1e-4 to 1e6), thousands
  grouped from 10,000, "2.4 × 10¹³" beyond; a value below the numerical `floor` is 0 (never
  "-1.850e-17"); "—" when missing.
- `seconds`: a duration in µs, ms, s, min or h (never "3.000e-04" seconds).
- `interval`: "[lo, hi]" with just enough digits that the two ends differ.
- `plural`: "1 seed", "3 seeds".  `titled`: "bits", never "bits (bits)".
- `numbered`: objects and relations counted from 1.  `words`: an identifier said in words.
- `format_number`: the tables' formatter (4 significant digits).
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["FLOOR", "format_number", "interval", "number", "numbered", "plural", "seconds", "titled", "words"]

FLOOR = 1e-12  # below this a value is numerical noise around 0 (float64 sums of order-1 terms)
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
_WORDS = {
    "ok": "done",
    "not_available": "not available",
    "not_run": "not run",
    "not_tested": "not tested",
    "not_held": "not held",
    "accepted": "accepted",
    "rejected": "rejected",
    "optimiser": "gradient optimiser",
    "milp": "MILP solver (HiGHS)",
    "LEAN_PROJECT is not set": "Lean is not installed on this server, so no Lean check was made",
    "LEAN_PROJECT is not a directory": "Lean is not installed on this server, so no Lean check was made",
}


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _mantissa(value: float, digits: int) -> str:
    text = f"{value:.{digits - 1}e}"
    mantissa, exponent = text.split("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa} × 10{str(int(exponent)).translate(_SUPERSCRIPT)}"


def number(value: Any, digits: int = 3, *, floor: float = FLOOR) -> str:
    """`value` to `digits` significant digits for a person; text is returned as it is."""
    if _missing(value):
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, float) and math.isinf(value):
        return "∞" if value > 0 else "-∞"
    magnitude = abs(value)
    if magnitude < floor or magnitude == 0:
        return "0"
    if isinstance(value, int) or (float(value).is_integer() and magnitude < 1e9):
        return f"{int(value):,}" if magnitude >= 10_000 else str(int(value))
    if 1e-4 <= magnitude < 1e6:
        decimals = max(0, digits - 1 - math.floor(math.log10(magnitude)))
        text = f"{value:.{decimals}f}"
        text = text.rstrip("0").rstrip(".") if "." in text else text
        if text in ("-0", "0"):
            return "0"
        whole, dot, fraction = text.partition(".")
        if abs(float(text)) >= 10_000:
            whole = f"{int(whole):,}"
        return whole + dot + fraction
    return _mantissa(float(value), digits)


def seconds(value: float | None) -> str:
    """A duration in the unit that reads best: 300 µs, 12.3 ms, 2.5 s, 1 min 15 s, 1 h 2 min."""
    if _missing(value):
        return "—"
    assert value is not None
    if value == 0:
        return "0 s"
    if value < 1e-3:
        return f"{number(value * 1e6)} µs"
    if value < 1:
        return f"{number(value * 1e3)} ms"
    if value < 60:
        return f"{number(value)} s"
    if value < 3600:
        minutes, rest = divmod(round(value), 60)
        return f"{minutes} min {rest} s" if rest else f"{minutes} min"
    hours, rest = divmod(round(value / 60), 60)
    return f"{hours} h {rest} min" if rest else f"{hours} h"


def interval(low: float | None, high: float | None, digits: int = 3, *, floor: float = FLOOR) -> str:
    """"[low, high]" with the fewest digits (at least `digits`, at most 8) that tell the two ends apart."""
    if _missing(low) or _missing(high):
        return "—"
    for shown in range(digits, 9):
        text_low, text_high = number(low, shown, floor=floor), number(high, shown, floor=floor)
        if text_low != text_high or low == high:
            break
    return f"[{text_low}, {text_high}]"


def plural(count: int, noun: str, many: str | None = None) -> str:
    """"1 seed", "3 seeds" (`many` for irregular plurals: plural(2, "query", "queries"))."""
    return f"{count:,} {noun if count == 1 else (many or noun + 's')}"


def titled(label: str, unit: str) -> str:
    """An axis or column title with its unit in parentheses, unless the label already names it."""
    if not unit or unit.lower() in label.lower():
        return label
    return f"{label} ({unit})"


def numbered(prefix: str, index: int) -> str:
    """The `index`-th (0-based in code) object as a person counts it, from 1: numbered("C", 0) == "C1"."""
    return f"{prefix}{index + 1}"


def words(identifier: str) -> str:
    """An identifier or machine message said in words ("not_available" -> "not available")."""
    if identifier in _WORDS:
        return _WORDS[identifier]
    if identifier.replace("_", "").isalnum() and "_" in identifier and identifier.lower() == identifier:
        return identifier.replace("_", " ")
    return identifier


def format_number(value: Any, digits: int = 4) -> str:
    """A table cell's number (4 significant digits by default); text and identifiers as they are."""
    return number(value, digits)
