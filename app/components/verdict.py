"""The verdict's sentence, worded once from its fields (the model server sends data, never prose to parse)."""

from __future__ import annotations

from app.components.jobview import VerdictView

__all__ = ["KIND_NAMES", "verdict_sentence"]

# The history filter's names of the verdict kinds (the API filters on the kind itself).
KIND_NAMES = {"reproduced": "Reproduced", "partly": "Partly reproduced", "beaten": "Beaten by a baseline",
              "not_reproduced": "Not reproduced", "not_tested": "Not tested", "answer": "Answered"}


def _seeds(n: int) -> str:
    return "1 seed" if n == 1 else f"{n} seeds"


def _winners(v: VerdictView) -> str:
    verb = "scores" if len(v.beaten_by) == 1 else "score"
    on = f" on {v.metric}" if v.metric else ""
    return f"{', '.join(v.beaten_by)} {verb} better{on}"


def _untested(v: VerdictView) -> str:
    missing = v.headline - v.tested
    return f" ({missing} not tested by these settings)" if missing > 0 else ""


def verdict_sentence(v: VerdictView) -> str:
    """One sentence from the verdict's fields; counts are of headline claims, those not tested apart."""
    if v.kind == "answer":
        if v.tone == "warning" and v.headline and (v.held < v.headline or v.beaten_by):
            return f"{v.label}, but {v.held} of {v.tested} tested headline claims hold{_untested(v)}"
        return v.label or "Done"
    if v.kind == "not_tested":
        return "These settings test none of the paper's claims"
    if v.kind == "reproduced":
        where = "on this one seed; run 3 or more seeds to check" if v.seeds == 1 else f"over {_seeds(v.seeds)}"
        return f"Reproduced: all {v.headline} headline claims hold {where}"
    if v.kind == "beaten":
        return f"All {v.headline} headline claims hold over {_seeds(v.seeds)}, but {_winners(v)}"
    if v.kind == "partly" and v.held == 0:  # nothing held: the claims lean the paper's way, nothing decides
        text = (f"Inconclusive: none of {v.tested} tested headline claims holds over {_seeds(v.seeds)}; some lean "
                "the paper's way, but their intervals cannot decide")
    elif v.kind == "partly":
        text = f"Partly reproduced: {v.held} of {v.tested} tested headline claims hold over {_seeds(v.seeds)}"
    else:
        text = f"Not reproduced: none of {v.tested} tested headline claims holds over {_seeds(v.seeds)}"
    text += _untested(v)
    return f"{text}; {_winners(v)}" if v.beaten_by else text
