"""Result of an LMNet run: exact match per label count and variant, the gradient check, parameter counts."""

from __future__ import annotations

import io

from pydantic import BaseModel, Field, computed_field

from models.common.contract import Artifact, MethodResult, Verdict

__all__ = ["CLAIM_LABELS", "CLAIM_MARGIN", "Gradients", "LABELS", "LabelRow", "Result"]

LABELS = {"dense": "LMNet (dense edges)", "text": "Text pipeline", "single": "Single fine-tuned model"}
CLAIM_LABELS = 200
CLAIM_MARGIN = 0.10


class LabelRow(BaseModel):
    """Test exact match (fraction of words entirely right) of each variant trained on `labels` words."""

    labels: int
    dense: float
    text: float
    single: float


class Gradients(BaseModel):
    """One backward pass of the dense network (tokens in) after training, at `labels` labels."""

    labels: int
    edges_nonzero: bool = Field(description="every edge tensor received a gradient with a nonzero entry")
    frozen_nonzero: bool = Field(description="some tensor of a frozen node received a nonzero gradient")
    frozen_requires_grad: int = Field(description="frozen-node tensors with requires_grad (should be 0)")
    edge_tensors: int
    frozen_tensors: int


class Result(MethodResult):
    rows: list[LabelRow]
    gradients: Gradients
    trainable_parameters: dict[str, int] = Field(description="variant -> trainable parameters")
    frozen_parameters: int = Field(description="parameters of the two frozen nodes")
    text_ceiling: float = Field(description="test words without marks: the most a text interface can get right")
    test_words: int
    epochs: int
    device: str
    seconds: float

    @computed_field  # type: ignore[prop-decorator]
    @property
    def exact_match(self) -> dict[str, float]:
        """Exact match of each variant at 200 labels (or at the largest count run when 200 is not)."""
        row = self._claim_row() or max(self.rows, key=lambda r: r.labels)
        return {"dense": row.dense, "text": row.text, "single": row.single}

    @computed_field  # type: ignore[prop-decorator]
    @property
    def exact_match_by_labels(self) -> dict[str, dict[str, float]]:
        return {str(r.labels): {"dense": r.dense, "text": r.text, "single": r.single} for r in self.rows}

    def _claim_row(self) -> LabelRow | None:
        return next((r for r in self.rows if r.labels == CLAIM_LABELS), None)

    def verdict(self) -> Verdict:
        g = self.gradients
        grads = (f"edges get gradients: {'yes' if g.edges_nonzero else 'NO'}; frozen nodes get none: "
                 f"{'yes' if not g.frozen_nonzero and g.frozen_requires_grad == 0 else 'NO'}")
        grads_ok = g.edges_nonzero and not g.frozen_nonzero and g.frozen_requires_grad == 0
        row = self._claim_row()
        if row is None:
            return Verdict("Claim not checked", "info",
                           f"the claim is at {CLAIM_LABELS} labels, which this run did not include; {grads}")
        gap = row.dense - row.text
        detail = (f"at {CLAIM_LABELS} labels dense {row.dense:.1%} vs text pipeline {row.text:.1%} exact match "
                  f"({100 * gap:+.1f} points, claim >= +{100 * CLAIM_MARGIN:.0f}); single fine-tuned "
                  f"{row.single:.1%}; {grads}")
        if gap >= CLAIM_MARGIN and grads_ok:
            return Verdict("Claim holds", "success", detail)
        return Verdict("Claim does not hold in this run", "warning", detail)

    def metrics(self) -> dict[str, float | int | str]:
        out: dict[str, float | int | str] = {}
        for r in self.rows:
            for key in ("dense", "text", "single"):
                out[f"{LABELS[key]}, {r.labels} labels: exact match (%)"] = round(100 * getattr(r, key), 1)
        for key, count in self.trainable_parameters.items():
            out[f"{LABELS.get(key, key)}: trainable parameters"] = count
        out["Frozen node parameters"] = self.frozen_parameters
        out["Text ceiling: unmarked test words (%)"] = round(100 * self.text_ceiling, 1)
        out["Edges receive gradients"] = "yes" if self.gradients.edges_nonzero else "no"
        out["Frozen nodes receive gradients"] = "yes" if self.gradients.frozen_nonzero else "no"
        out["Run time (s)"] = round(self.seconds, 1)
        return out

    def artifacts(self) -> dict[str, Artifact]:
        return {"exact_match.csv": Artifact.csv(self.rows_csv())}

    def rows_csv(self) -> str:
        buf = io.StringIO()
        buf.write("labels,dense,text,single\n")
        for r in self.rows:
            buf.write(f"{r.labels},{r.dense:.6f},{r.text:.6f},{r.single:.6f}\n")
        return buf.getvalue()
