"""The paper's ERM claims as the page tests them, declared once (see models/common/claims.py)."""

from __future__ import annotations

from models.common.claims import QUALITATIVE, Claim, Measurement
from models.erm_overfit.result import SeedOutcome

__all__ = ["CLAIMS", "SOLVER_TOLERANCE", "measure"]

SOLVER_TOLERANCE = 1e-6

CLAIMS = (
    Claim("some_erm_overfits", "In dimension linear in m (d = 6m), an exact empirical risk minimiser overfits by a "
          "constant", paper=QUALITATIVE + " ('sample size linear in the dimension')",
          quantity="population excess of a codeword in no sample / (1 - theta)/2", op=">=", target=1.0, tolerance=1e-9,
          floor="a codeword in no sample exists and is an exact minimiser"),
    Claim("unique_erm_overfits", "The unique minimiser of the regularised empirical objective overfits by a constant",
          paper=QUALITATIVE + " ('the ERM is likely to be unique and to overfit')",
          quantity="population excess of the solver's minimiser (Feldman part) / (1 - theta)/2", op=">=", target=0.5,
          floor=f"solver certified to {SOLVER_TOLERANCE:g} and x = 0 not a minimiser"),
    Claim("zero_not_minimiser", "x = 0 (which generalises) is not a minimiser of the regularised empirical objective",
          paper=QUALITATIVE, quantity="empirical objective at 0 - at the solver's minimiser", op=">",
          target=SOLVER_TOLERANCE, headline=False, floor=f"solver certified to {SOLVER_TOLERANCE:g}"),
)


def measure(outcomes: list[SeedOutcome], guarantee: float) -> dict[str, list[Measurement]]:
    out: dict[str, list[Measurement]] = {c.id: [] for c in CLAIMS}
    for o in outcomes:
        certified = o.solver_gap <= SOLVER_TOLERANCE
        exact = o.bad_erm_train_excess is not None and abs(o.bad_erm_train_excess) < 1e-12
        bad = None if o.bad_erm_excess is None else o.bad_erm_excess / guarantee
        out["some_erm_overfits"].append(Measurement(bad if bad is not None else 0.0, o.unseen > 0 and exact,
                                                    f"{o.unseen} codewords in no sample"))
        out["unique_erm_overfits"].append(Measurement(
            o.erm_excess / guarantee, certified and o.zero_minus_erm > SOLVER_TOLERANCE,
            f"excess {o.erm_excess:.4f} (with lambda term {o.erm_excess_total:.4f}), norm {o.erm_norm:.3f}"))
        out["zero_not_minimiser"].append(Measurement(o.zero_minus_erm, certified, f"gap {o.solver_gap:.1e}"))
    return out
