"""Kalman filter: log-likelihood against the brute-force joint Gaussian density of all observations."""

from __future__ import annotations

import torch

from models.common.sampling import LinearGaussianSSM, kalman_filter


def _model(rho: float = 0.7) -> LinearGaussianSSM:
    f64 = torch.float64
    return LinearGaussianSSM(
        transition=torch.tensor([[rho, 0.1], [0.0, 0.5]], dtype=f64),
        transition_cov=torch.tensor([[0.5, 0.1], [0.1, 0.3]], dtype=f64),
        observation=torch.tensor([[1.0, -1.0]], dtype=f64),
        observation_cov=torch.tensor([[0.4]], dtype=f64),
        initial_mean=torch.tensor([0.3, -0.2], dtype=f64),
        initial_cov=torch.tensor([[1.0, 0.2], [0.2, 0.8]], dtype=f64),
    )


def _brute_force_log_likelihood(model: LinearGaussianSSM, ys: torch.Tensor) -> torch.Tensor:
    """Stack X_0..X_K as one Gaussian vector, map to Y, and evaluate one big normal density."""
    steps, dx = ys.shape[0], model.transition.shape[0]
    mean_x = [model.initial_mean]
    # Cov(X_i, X_j) = F^(j-i) Cov(X_i) for j >= i
    cov_single = [model.initial_cov]
    for _ in range(1, steps):
        mean_x.append(model.transition @ mean_x[-1])
        cov_single.append(model.transition @ cov_single[-1] @ model.transition.T + model.transition_cov)
    joint = torch.zeros(steps * dx, steps * dx, dtype=ys.dtype)
    for i in range(steps):
        for j in range(i, steps):
            block = torch.linalg.matrix_power(model.transition, j - i) @ cov_single[i]
            joint[j * dx:(j + 1) * dx, i * dx:(i + 1) * dx] = block
            joint[i * dx:(i + 1) * dx, j * dx:(j + 1) * dx] = block.T
    h = torch.block_diag(*[model.observation] * steps)
    r = torch.block_diag(*[model.observation_cov] * steps)
    mean_y = h @ torch.cat(mean_x)
    dist = torch.distributions.MultivariateNormal(mean_y, h @ joint @ h.T + r)
    return dist.log_prob(ys.reshape(-1))


def test_log_likelihood_matches_the_joint_gaussian_density() -> None:
    model = _model()
    _, ys = model.simulate(7, torch.Generator().manual_seed(4))
    out = kalman_filter(model, ys)
    assert torch.allclose(out.log_likelihood, _brute_force_log_likelihood(model, ys), atol=1e-9)


def test_log_likelihood_gradient_matches_finite_differences() -> None:
    _, ys = _model().simulate(10, torch.Generator().manual_seed(5))
    rho = torch.tensor(0.7, dtype=torch.float64, requires_grad=True)
    base = _model()
    transition = torch.stack([torch.stack([rho, base.transition[0, 1]]), base.transition[1]])
    model = LinearGaussianSSM(transition, base.transition_cov, base.observation, base.observation_cov,
                              base.initial_mean, base.initial_cov)
    (grad,) = torch.autograd.grad(kalman_filter(model, ys).log_likelihood, rho)
    h = 1e-6
    plus = kalman_filter(_model(0.7 + h), ys).log_likelihood
    minus = kalman_filter(_model(0.7 - h), ys).log_likelihood
    assert abs(float(grad) - float((plus - minus) / (2 * h))) < 1e-6


def test_filter_mean_is_the_exact_conditional_mean_at_the_last_step() -> None:
    model = _model()
    _, ys = model.simulate(4, torch.Generator().manual_seed(6))
    out = kalman_filter(model, ys)
    # brute force: condition the joint Gaussian of (X_K, Y_0:K)
    steps = ys.shape[0]
    gen = torch.Generator().manual_seed(0)
    states, observations = [], []
    for _ in range(3000):
        x, y = model.simulate(steps - 1, gen)
        states.append(x[-1])
        observations.append(y.reshape(-1))
    xs, yy = torch.stack(states), torch.stack(observations)
    design = torch.cat([torch.ones(len(yy), 1, dtype=yy.dtype), yy], dim=1)
    coef = torch.linalg.lstsq(design, xs).solution  # linear regression = conditional mean for Gaussians
    predicted = torch.cat([torch.ones(1, dtype=yy.dtype), ys.reshape(-1)]) @ coef
    assert torch.allclose(predicted, out.means[-1], atol=0.15)
