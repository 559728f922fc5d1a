"""The paper's claims (abstract, arXiv:2602.19241) as this page measures them, at matched noise, per seed."""

from __future__ import annotations

from models.common.claims import Claim

__all__ = ["CLAIMS", "KEEP_FRACTION", "MATCHED", "SHRINK_FRACTION"]

KEEP_FRACTION = 0.9  # multiplicative keeps the model size: m_eff >= 0.9 M at the largest M
SHRINK_FRACTION = 0.8  # additive reduces it: m_eff < 0.8 M at the largest M
MATCHED = "measured noise variances within 2x of each other"

CLAIMS = (
    Claim("matched_noise", "The two quantisers are compared at matched noise (the setting of the comparison)",
          paper="a comparison at equal noise is our setting, not a figure of the paper",
          quantity="log2 of the measured mean noise variance per feature, multiplicative / additive",
          op="within", target=0.0, tolerance=1.0, headline=False),
    Claim("multiplicative_model_size", "Multiplicative quantisation maintains the full-precision model size",
          paper="maintains the full-precision model size (qualitative)",
          quantity="effective model size m_eff / M at the largest M, multiplicative",
          op=">=", target=KEEP_FRACTION, floor=MATCHED),
    Claim("additive_model_size", "Additive quantisation reduces the effective model size",
          paper="reduces the effective model size (qualitative)",
          quantity="effective model size m_eff / M at the largest M, additive",
          op="<", target=SHRINK_FRACTION, floor=MATCHED),
    Claim("multiplicative_data_size", "Multiplicative quantisation degrades the effective data size",
          paper="both schemes degrade the effective data size (qualitative)",
          quantity="effective data size N_eff / N at the largest M, multiplicative",
          op="<", target=1.0, floor="the full-precision curve gives N_eff"),
    Claim("additive_data_size", "Additive quantisation degrades the effective data size",
          paper="both schemes degrade the effective data size (qualitative)",
          quantity="effective data size N_eff / N at the largest M, additive",
          op="<", target=1.0, floor="the full-precision curve gives N_eff"),
    Claim("additive_error", "Both schemes introduce an additive error",
          paper="both schemes introduce an additive error (qualitative)",
          quantity="infinite-data risk, quantised / full precision, the smaller of the two schemes",
          op=">", target=1.0, headline=False),
)
