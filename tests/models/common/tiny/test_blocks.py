"""The tiny transformer: causality, padding, the written-out attention against torch's, the stripped body."""

from __future__ import annotations

import torch

from models.common.tiny import CausalSelfAttention, CharVocab, TinyTransformer


def _model(seed: int = 0, causal: bool = True) -> TinyTransformer:
    torch.manual_seed(seed)
    return TinyTransformer(vocab=12, dim=16, heads=2, layers=2, max_len=10, causal=causal).eval()


def test_causal_outputs_do_not_see_the_future() -> None:
    model = _model()
    gen = torch.Generator().manual_seed(1)
    tokens = torch.randint(0, 12, (3, 8), generator=gen)
    changed = tokens.clone()
    changed[:, 5:] = (changed[:, 5:] + 3) % 12
    with torch.no_grad():
        a, b = model(tokens), model(changed)
    assert torch.allclose(a[:, :5], b[:, :5], atol=1e-6)
    assert not torch.allclose(a[:, 5:], b[:, 5:], atol=1e-3)


def test_bidirectional_outputs_do_see_the_future() -> None:
    model = _model(causal=False)
    tokens = torch.randint(0, 12, (2, 8), generator=torch.Generator().manual_seed(2))
    changed = tokens.clone()
    changed[:, 7] = (changed[:, 7] + 1) % 12
    with torch.no_grad():
        assert not torch.allclose(model(tokens)[:, 0], model(changed)[:, 0], atol=1e-4)


def test_attention_matches_torch_scaled_dot_product() -> None:
    torch.manual_seed(3)
    attn = CausalSelfAttention(dim=8, heads=2, causal=True)
    x = torch.randn(2, 5, 8)
    q, k, v = attn.qkv(x).split(8, dim=2)
    q, k, v = (z.view(2, 5, 2, 4).transpose(1, 2) for z in (q, k, v))
    ref = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
    expected = attn.out(ref.transpose(1, 2).reshape(2, 5, 8))
    assert torch.allclose(attn(x), expected, atol=1e-5)


def test_padding_keys_are_ignored() -> None:
    model = _model(causal=False)
    tokens = torch.tensor([[3, 4, 5, 0, 0]])
    other = torch.tensor([[3, 4, 5, 7, 9]])
    mask_a, mask_b = tokens == 0, torch.tensor([[False, False, False, True, True]])
    with torch.no_grad():
        assert torch.allclose(model(tokens, mask_a)[:, :3], model(other, mask_b)[:, :3], atol=1e-6)


def test_body_plus_embeddings_equals_forward() -> None:
    model = _model()
    tokens = torch.randint(0, 12, (2, 6), generator=torch.Generator().manual_seed(4))
    with torch.no_grad():
        assert torch.allclose(model.unembed(model.body(model.embed_tokens(tokens))), model(tokens))


def test_vocab_round_trip_and_padding() -> None:
    vocab = CharVocab("0123456789+=")
    ids = vocab.encode(["12+3=", "9"], length=6)
    assert ids.shape == (2, 6)
    assert vocab.decode(ids[0].tolist()) == "12+3="
    assert ids[1, 1:].tolist() == [0] * 5
    assert vocab.encode(["x"], 2)[0, 0] == CharVocab.UNK
