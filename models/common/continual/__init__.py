"""Shared continual-learning harness: task/domain streams, replay, accuracy-matrix metrics, CKA, federated loop."""

from __future__ import annotations

from models.common.continual.cka import linear_cka
from models.common.continual.federated import (
    FederatedClient,
    dirichlet_split,
    fedavg_aggregate,
    fedprox_penalty,
    weighted_aggregate,
)
from models.common.continual.metrics import (
    AccuracyMatrix,
    average_accuracy,
    backward_transfer,
    forgetting,
    per_task_forgetting,
)
from models.common.continual.replay import ReplayBuffer
from models.common.continual.streams import (
    DOMAIN_KINDS,
    Task,
    class_incremental_tasks,
    digits_dataset,
    domain_shift,
    gaussian_classes,
    label_permutation,
    train_test_split_indices,
)
from models.common.continual.torchutil import accuracy, init_linear_, minibatches, one_thread, to_tensors

__all__ = [
    "accuracy",
    "init_linear_",
    "minibatches",
    "one_thread",
    "to_tensors",
    "DOMAIN_KINDS",
    "AccuracyMatrix",
    "FederatedClient",
    "ReplayBuffer",
    "Task",
    "average_accuracy",
    "backward_transfer",
    "class_incremental_tasks",
    "digits_dataset",
    "dirichlet_split",
    "domain_shift",
    "fedavg_aggregate",
    "fedprox_penalty",
    "forgetting",
    "gaussian_classes",
    "label_permutation",
    "linear_cka",
    "per_task_forgetting",
    "train_test_split_indices",
    "weighted_aggregate",
]
