"""Tiny models shared by the model-composition methods: transformer blocks, a budgeted trainer, a model store."""

from __future__ import annotations

from models.common.tiny.blocks import Block, CausalSelfAttention, TinyTransformer
from models.common.tiny.store import ModelStore
from models.common.tiny.trainer import TrainLog, train_budgeted
from models.common.tiny.vocab import CharVocab

__all__ = [
    "Block",
    "CausalSelfAttention",
    "CharVocab",
    "ModelStore",
    "TinyTransformer",
    "TrainLog",
    "train_budgeted",
]
