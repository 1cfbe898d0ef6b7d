"""Bias tuning of the packaged encoder: what it changes, that it learns, how it is stored and checked."""

from __future__ import annotations

import json

import numpy as np
import pytest

from webtester.eval.judges.base import JudgeError
from webtester.eval.judges.embedding import load_encoder
from webtester.eval.judges.trained import training as judge_training
from webtester.eval.judges.trained.dev_set import Checklist
from webtester.eval.judges.trained.encoder_tuning import (
    TuningConfig,
    adapted_encoder,
    adapter_digest,
    is_tuned_parameter,
    load_adapter,
    save_adapter,
    tune_encoder,
)
from webtester.eval.judges.trained.judge import MODEL_FILE, PackagedEncoder, TrainedJudge, read_model
from webtester.models import Category, Dimension, GoldItem, Instance, TestItem

F = Dimension.functionality

SHOP = Instance(
    index="S1", instruction="A small shop with a cart and a checkout.", category=Category.commerce,
    checklist=[
        GoldItem(id=1, content="Products can be added to the shopping cart.", dimension=F, passed=True),
        GoldItem(id=2, content="The checkout form rejects an invalid card number.", dimension=F, passed=True),
        GoldItem(id=3, content="The order history lists past orders with their dates.", dimension=F, passed=True),
    ],
)
# wording far from the gold items', so the packaged encoder is unsure and tuning has something to learn
PREDICTED = [
    ("Put a hoodie in the basket and look at the basket badge", 1),
    ("Pay with 1234 as card number", 2),
    ("Open my purchases page", 3),
    ("Basket icon count after choosing two mugs", 1),
    ("The footer shows the company's phone number", None),  # no gold counterpart
]


def _checklist() -> Checklist:
    items = [TestItem(id=f"FT-0{i + 1}", dimension=F, description=d) for i, (d, _) in enumerate(PREDICTED)]
    return Checklist(SHOP, "toy", items, [], {"reference": [g for _, g in PREDICTED]})


def _similarities(adapter) -> np.ndarray:
    enc = PackagedEncoder(None, adapter)
    return enc.sentences([d for d, _ in PREDICTED]) @ enc.sentences([g.content for g in SHOP.checklist]).T


def _margins(sims: np.ndarray) -> np.ndarray:
    """Per matched predicted item: cosine with its labelled gold item minus the best other gold item."""
    return np.array([row[gold - 1] - np.delete(row, gold - 1).max()
                     for row, (_, gold) in zip(sims, PREDICTED) if gold is not None])


@pytest.fixture(scope="module")
def tuned():
    return tune_encoder([_checklist()], config=TuningConfig(epochs=4, learning_rate=5e-3))


def test_only_bias_and_layernorm_values_are_tuned_and_they_move(tuned):
    packaged = dict(load_encoder().named_parameters())
    before = {n: p.detach().numpy().copy() for n, p in packaged.items() if is_tuned_parameter(n)}
    assert tuned and all(is_tuned_parameter(n) for n in tuned)
    assert {n for n in packaged if is_tuned_parameter(n)} == set(tuned)
    assert sum(v.size for v in tuned.values()) < 0.01 * sum(p.numel() for p in packaged.values())
    moved = [n for n, v in tuned.items() if not np.allclose(v, before[n])]
    assert len(moved) > len(tuned) // 2
    # tuning works on a copy: the packaged model in use by other judges is untouched
    tune_encoder([_checklist()], config=TuningConfig(epochs=1))
    assert all(np.array_equal(p.detach().numpy(), before[n]) for n, p in load_encoder().named_parameters() if n in before)
    assert adapted_encoder(None) is load_encoder()


def test_tuning_learns_the_labelled_pairs(tuned):
    plain, adapted = _similarities(None), _similarities(tuned)
    before, after = _margins(plain), _margins(adapted)
    assert (before <= 0).any() and (after > 0).all()  # every matched item now ranks its gold item first
    assert after.mean() > before.mean()


def test_the_no_match_option_pushes_unmatched_items_away():
    with_none = tune_encoder([_checklist()], config=TuningConfig(epochs=4, learning_rate=5e-3, none_option=True))
    plain, adapted = _similarities(None), _similarities(with_none)
    assert (_margins(adapted) > 0).all()
    # the unmatched item ends further below the matched items' best similarities than it started
    gap = lambda s: s[:-1].max(axis=1).min() - s[-1].max()  # noqa: E731
    assert gap(adapted) > gap(plain)


def test_tuning_is_deterministic(tuned):
    again = tune_encoder([_checklist()], config=TuningConfig(epochs=4, learning_rate=5e-3))
    assert adapter_digest(again) == adapter_digest(tuned)


def test_tuning_needs_labelled_matches():
    cl = _checklist()
    cl.labels["reference"] = [None] * len(cl.items)
    with pytest.raises(JudgeError, match="no labelled matches"):
        tune_encoder([cl])


def test_adapter_file_round_trip_and_errors(tuned, tmp_path):
    path = tmp_path / "a.npz"
    save_adapter(tuned, path)
    back = load_adapter(path)
    assert adapter_digest(back) == adapter_digest(tuned)
    with pytest.raises(JudgeError, match="missing.npz"):
        load_adapter(tmp_path / "missing.npz")
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    with pytest.raises(JudgeError, match="bad.npz"):
        load_adapter(tmp_path / "bad.npz")
    name = next(iter(tuned))
    with pytest.raises(JudgeError, match="shape"):
        adapted_encoder({name: np.zeros(tuned[name].size + 1, dtype=np.float32)})
    with pytest.raises(JudgeError, match="unknown parameters"):
        adapted_encoder({"no.such.bias": np.zeros(3, dtype=np.float32)})


def test_vectors_of_tuned_and_packaged_encoders_are_kept_apart(tuned):
    text = "Put a hoodie in the basket"
    plain, adapted = PackagedEncoder(None).sentences([text]), PackagedEncoder(None, tuned).sentences([text])
    assert not np.allclose(plain, adapted)
    assert PackagedEncoder(None, tuned).model.endswith(adapter_digest(tuned))


def test_shipped_judge_refuses_an_adapter_that_does_not_match_its_record(tmp_path):
    data = read_model()
    assert data["adapter"]["file"] and (MODEL_FILE.parent / data["adapter"]["file"]).stat().st_size < 300_000
    (tmp_path / data["adapter"]["file"]).write_bytes((MODEL_FILE.parent / data["adapter"]["file"]).read_bytes())
    (tmp_path / "m.json").write_text(json.dumps(dict(data, adapter=dict(data["adapter"], digest="0" * 16))))
    with pytest.raises(JudgeError, match="does not match"):
        TrainedJudge(tmp_path / "m.json", cache_path=None)
    (tmp_path / "n.json").write_text(json.dumps(dict(data, adapter=dict(data["adapter"], file="gone.npz"))))
    with pytest.raises(JudgeError, match="gone.npz"):
        TrainedJudge(tmp_path / "n.json", cache_path=None)


def test_cross_fitted_features_never_come_from_an_encoder_tuned_on_their_instance(monkeypatch):
    cls = []
    for k in range(3):
        cl = _checklist()
        cl.instance = SHOP.model_copy(update={"index": f"S{k}"})
        cls.append(cl)
    seen: list[set[str]] = []

    def fake_tune(checklists, source="reference", config=None, progress=None):
        seen.append({cl.index for cl in checklists})
        return {}

    featurised: list[set[str]] = []
    real = judge_training._features_with

    def spy(adapter, checklists):
        featurised.append({cl.index for cl in checklists})
        return real(None, checklists)

    monkeypatch.setattr(judge_training, "tune_encoder", fake_tune)
    monkeypatch.setattr(judge_training, "_features_with", spy)
    tensors = judge_training.cross_fitted_tensors(cls, folds=3)
    assert len(tensors) == 3 and all(t.shape[:2] == (len(PREDICTED), 3) for t in tensors)
    assert all(not (trained & used) for trained, used in zip(seen, featurised))
    assert set().union(*featurised) == {"S0", "S1", "S2"}
