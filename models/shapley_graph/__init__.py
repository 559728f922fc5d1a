"""TN-SHAP-G: Shapley values and interactions of a molecule's atoms from a graph-aligned tensor network."""

from __future__ import annotations

from typing import Any

from models.common import MethodSpec, Paper
from models.common.paths import about_markdown
from models.shapley_graph.examples import examples
from models.shapley_graph.figures import figures
from models.shapley_graph.masking import MASKING_MEANING
from models.shapley_graph.molecules import load_molecule_list
from models.shapley_graph.oracles import PREDICTORS
from models.shapley_graph.params import Params
from models.shapley_graph.result import Result
from models.shapley_graph.run import run

__all__ = ["SPEC"]

ABOUT = about_markdown(__file__)


def page_resources() -> dict[str, Any]:
    """The shipped molecule list for the page's picker, and the one-line meaning of each predictor and masking."""
    return {
        "molecules": [{"name": name, "smiles": smiles, "category": category, "atoms": atoms}
                      for name, smiles, category, atoms in load_molecule_list()],
        "predictors": dict(PREDICTORS),
        "maskings": dict(MASKING_MEANING),
    }


def input_summary(params: Params) -> str:
    """Molecule, predictor and masking, budget."""
    molecule = params.name or params.smiles[:32]
    return f"{molecule}, {params.predictor}/{params.masking}, {params.budget} queries"


SPEC = MethodSpec(
    name="shapley_graph",
    nav_title="Graph Shapley",
    title="Graph Shapley: TN-SHAP-G molecule explanations",
    paper=Paper(
        title="TN-SHAP-G: Graph-Structured Tensor Network Surrogates for Shapley Values and Interactions",
        authors="Farzaneh Heidari, Guillaume Rabusseau",
        url="https://arxiv.org/abs/2606.01540",
    ),
    summary=(
        "Explains a molecular property predictor atom by atom: each heavy atom's Shapley value says how much it "
        "moves the predicted logP, and pairwise interaction indices say which atoms act together. A tensor network "
        "shaped like the molecule is fitted to a few hundred masked predictions, and every index is read off "
        "its multilinear extension exactly, without further model queries."
    ),
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Core demos",
    about=ABOUT,
    examples=examples,
    page_resources=page_resources,
    input_summary=input_summary,
    order=2,
    tags=("Shapley", "interactions", "tensor networks", "molecules", "GNN", "torch"),
)
