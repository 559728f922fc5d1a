"""Linear centred kernel alignment (Kornblith et al. 2019, "Similarity of Neural Network Representations Revisited").

For representations X (n x p) and Y (n x q) of the same n inputs, centre each column, then

    CKA(X, Y) = ||Y^T X||_F^2 / (||X^T X||_F ||Y^T Y||_F),

which equals HSIC(K, L) / sqrt(HSIC(K, K) HSIC(L, L)) with linear kernels K = X X^T, L = Y Y^T. It
lies in [0, 1], is invariant to orthogonal transforms and isotropic scaling of either side (not to
arbitrary invertible maps), and for one column each it is the squared Pearson correlation.
"""

from __future__ import annotations

import numpy as np
import torch

__all__ = ["linear_cka"]


def linear_cka(x: torch.Tensor | np.ndarray, y: torch.Tensor | np.ndarray) -> torch.Tensor:
    """Linear CKA of two representations of the same rows (differentiable when given tensors)."""
    xt = torch.as_tensor(x, dtype=torch.float64) if isinstance(x, np.ndarray) else x
    yt = torch.as_tensor(y, dtype=torch.float64) if isinstance(y, np.ndarray) else y
    if xt.ndim != 2 or yt.ndim != 2 or xt.shape[0] != yt.shape[0]:
        raise ValueError(f"CKA needs two matrices with the same rows, got {tuple(xt.shape)} and {tuple(yt.shape)}")
    if xt.shape[0] < 2:
        raise ValueError("CKA needs at least two rows")
    yt = yt.to(xt.dtype)
    xc = xt - xt.mean(dim=0, keepdim=True)
    yc = yt - yt.mean(dim=0, keepdim=True)
    cross = torch.linalg.matrix_norm(yc.T @ xc) ** 2
    norm_x = torch.linalg.matrix_norm(xc.T @ xc)
    norm_y = torch.linalg.matrix_norm(yc.T @ yc)
    eps = torch.finfo(xt.dtype).tiny
    return cross / torch.clamp(norm_x * norm_y, min=eps)
