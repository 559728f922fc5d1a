"""Train the shapley_graph predictors on the shipped molecule list to predict RDKit Crippen logP.

Usage: .venv/bin/python scripts/train_shapley_gnn.py [--model gnn|gnn_global] [--epochs 1500] [--seed 0]

`gnn` (sum pooling, linear head): the loss has two parts, the molecule's logP (Crippen.MolLogP) and,
per heavy atom, its Crippen contribution with hydrogens folded in (these sum to MolLogP), so the
per-atom readouts are chemically meaningful. `gnn_global` (the same message passing, then an MLP on
the pooled vector): only the molecule's logP, since it has no per-atom readout. Molecules are split
80/20 by a seeded permutation (the same split for both); the held-out R^2 of logP is written next to
the weights (models/shapley_graph/weights/<model>_logp.json) and shown on the page.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.shapley_graph.gnn import PREDICTOR_FILES, GlobalReadoutGNN, GnnMetadata, MolecularGNN, save_gnn  # noqa: E402
from models.shapley_graph.molecules import MAX_ATOMS, load_molecule_list, parse_molecule  # noqa: E402


def padded_dataset(names_smiles: list[tuple[str, str]]) -> tuple[torch.Tensor, ...]:
    """Features (M, 60, F), adjacency (M, 60, 60), atom mask (M, 60), atom targets (M, 60), logP (M,)."""
    mols = [parse_molecule(smiles, name) for name, smiles in names_smiles]
    m, f = len(mols), mols[0].features.shape[1]
    x = np.zeros((m, MAX_ATOMS, f))
    adj = np.zeros((m, MAX_ATOMS, MAX_ATOMS))
    mask = np.zeros((m, MAX_ATOMS))
    atom_y = np.zeros((m, MAX_ATOMS))
    for k, mol in enumerate(mols):
        n = mol.n_atoms
        x[k, :n] = mol.features
        adj[k, :n, :n] = mol.adjacency()
        mask[k, :n] = 1.0
        atom_y[k, :n] = mol.crippen
    logp = atom_y.sum(axis=1)
    return tuple(torch.tensor(a, dtype=torch.float32) for a in (x, adj, mask, atom_y, logp))


def r2(y: np.ndarray, p: np.ndarray) -> float:
    return float(1 - np.sum((y - p) ** 2) / np.sum((y - y.mean()) ** 2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=sorted(PREDICTOR_FILES), default="gnn")
    parser.add_argument("--epochs", type=int, default=1500)
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    molecules = [(name, smiles) for name, smiles, _category, _n in load_molecule_list()]
    order = rng.permutation(len(molecules))
    n_test = len(molecules) // 5
    test_idx, train_idx = order[:n_test], order[n_test:]
    x, adj, mask, atom_y, logp = padded_dataset(molecules)

    model: MolecularGNN | GlobalReadoutGNN
    if args.model == "gnn":
        model = MolecularGNN(hidden=args.hidden, layers=args.layers)
    else:
        model = GlobalReadoutGNN(hidden=args.hidden, layers=args.layers)
    optimiser = torch.optim.Adam(model.parameters(), lr=3e-3, weight_decay=1e-5)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, T_max=args.epochs)
    tr = torch.tensor(train_idx)
    for epoch in range(args.epochs):
        optimiser.zero_grad()
        if isinstance(model, MolecularGNN):
            readouts = model.atom_readouts(x[tr], adj[tr]) * mask[tr]
            graph = readouts.sum(dim=1) + model.bias
            atom_loss = (((readouts - atom_y[tr]) * mask[tr]) ** 2).sum() / mask[tr].sum()
        else:
            graph = model(x[tr], adj[tr], mask[tr])
            atom_loss = torch.zeros(())
        graph_loss = ((graph - logp[tr]) ** 2).mean()
        loss = graph_loss + atom_loss
        loss.backward()
        optimiser.step()
        scheduler.step()
        if epoch % 250 == 0 or epoch == args.epochs - 1:
            print(f"epoch {epoch:5d}  graph mse {graph_loss.item():.4f}  atom mse {atom_loss.item():.4f}")

    with torch.no_grad():
        pred = model(x, adj, mask).numpy()
    y = logp.numpy()
    metadata = GnnMetadata(
        test_r2=r2(y[test_idx], pred[test_idx]),
        train_r2=r2(y[train_idx], pred[train_idx]),
        test_mae=float(np.mean(np.abs(y[test_idx] - pred[test_idx]))),
        n_train=len(train_idx),
        n_test=len(test_idx),
        hidden=args.hidden,
        layers=args.layers,
        epochs=args.epochs,
        mean_features=tuple(float(v) for v in (x[tr] * mask[tr, :, None]).sum((0, 1)) / mask[tr].sum()),
    )
    save_gnn(model, metadata, PREDICTOR_FILES[args.model])
    print(f"train R^2 {metadata.train_r2:.3f}  test R^2 {metadata.test_r2:.3f}  test MAE {metadata.test_mae:.3f}")


if __name__ == "__main__":
    main()
