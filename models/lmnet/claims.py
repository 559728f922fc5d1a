"""The paper's claims as LMNet tests them (see models/common/claims.py for the rule).

Units are test words: each word scores 100 x (LMNet entirely right - the rival entirely right), a win, tie
or loss, so the exact sign test over the discordant words decides beside the 95% interval.
`efficiency` is judged against the best *fair* fine-tuned baseline at the fewest labels run: the same
A -> edge -> B network with every weight trainable (it holds both skills), node A fine-tuned, and LoRA on
node B with as many parameters as the edge. `text` is judged against the better of the text pipeline
trained and untrained (its early stopping may keep step 0), at the most labels run.

Paper passages, per headline claim id:
- `efficiency`: abstract, "effective adaptation under limited supervision" at "small additional training cost"
- `text`: title, "Supervision-Efficient Learning through Dense Communication"
"""

from __future__ import annotations

from models.common.claims import QUALITATIVE, Claim

__all__ = ["CLAIMS"]

CLAIMS = (
    Claim("efficiency", "With few labels, LMNet's dense edges beat fine-tuning (the whole network, a single node, "
          "or LoRA with as many parameters as the edge)",
          paper="qualitative: \"effective adaptation under limited supervision\"",
          quantity="exact match at the fewest labels run, LMNet - best fine-tuned model (points); per test word "
          "100 x (LMNet right - best right)", op=">", target=0.0, floor="LMNet learns (above 0% exact match)",
          why="the paper gives no figure: any lead whose interval excludes 0 and whose sign test gives p < 0.05",
          null="untrained network (edge at its initialisation)", units="test words", binary=True),
    Claim("text", "Dense communication beats a pipeline whose models talk in text (A's decoded text into B, "
          "its edge trained with early stopping)",
          paper=QUALITATIVE, quantity="exact match at the most labels run, LMNet - text pipeline (better of "
          "trained and untrained) (points); per test word", op=">", target=0.0,
          why="the paper gives no figure: any lead whose interval excludes 0 and whose sign test gives p < 0.05",
          null="untrained network (edge at its initialisation)", units="test words", binary=True),
    Claim("gradients", "End-task gradients reach every edge through the frozen nodes, and no node weight",
          paper=QUALITATIVE, quantity="1 if every edge tensor has a nonzero gradient and no node tensor has one",
          op=">=", target=1.0, headline=False, exact=True,
          why="true by construction of our code (frozen nodes): a check, not a result"),
)
