"""The trained offline matching judge: features, assignment rule, artifact, grouped training, real model."""

from __future__ import annotations

import json
import socket

import numpy as np
import pytest

from webtester.eval.judges.base import JudgeError, check_matches
from webtester.eval.judges.trained import training as judge_training
from webtester.eval.judges.trained.dev_set import (
    GUIDE_EXAMPLES,
    TUNING_SET_FILE,
    Checklist,
    TuningSet,
    item_agreement,
    judge_figures,
    load_dev_set,
    read_tuning_set,
)
from webtester.eval.judges.trained.features import FEATURES, pair_features, token_alignment, words
from webtester.eval.judges.trained.judge import MODEL_FILE, PairModel, TrainedJudge, assign, read_adapter, read_model
from webtester.models import Category, Dimension, GoldItem, Instance, TestItem

F, C = Dimension.functionality, Dimension.constraint

GOLD = Instance(
    index="T1", instruction="A recipe site. Users search recipes and keep favourites.", category=Category.search,
    checklist=[
        GoldItem(id=1, content="Users can search recipes by keyword.", dimension=F, passed=True),
        GoldItem(id=2, content="Users can save a recipe to their favourites list.", dimension=F, passed=False),
        GoldItem(id=3, content="The favourites list cannot hold the same recipe twice.", dimension=C, passed=True),
    ],
)


class HashEncoder:
    """A deterministic stand-in encoder: bag of hashed words (sentences) and one vector per word (tokens)."""

    dim = 64

    def _vec(self, word: str) -> np.ndarray:
        rng = np.random.default_rng(abs(hash(word)) % (2**32))
        return rng.standard_normal(self.dim)

    def tokens(self, texts):
        out = []
        for t in texts:
            ws = sorted(words(t)) or ["-"]
            m = np.stack([self._vec(w) for w in ws])
            out.append(m / np.linalg.norm(m, axis=1, keepdims=True))
        return out

    def sentences(self, texts):
        vs = [t.sum(axis=0) for t in self.tokens(texts)]
        return np.stack([v / np.linalg.norm(v) for v in vs])


def test_pair_features_shape_and_meaning():
    pred = [
        TestItem(id="FT-01", dimension=F, description="Search recipes by keyword"),
        TestItem(id="CS-01", dimension=C, description="Duplicate favourite", action='Save "Pancakes" twice',
                 expected="The favourites list holds the same recipe once"),
    ]
    x = pair_features(GOLD, pred, HashEncoder())
    assert x.shape == (2, 3, len(FEATURES)) and np.isfinite(x).all()
    col = {name: x[..., i] for i, name in enumerate(FEATURES)}
    # the gold item sharing the words ranks first in its row, lexically and by embedding
    assert col["row_rank_full"][0].argmin() == 0 and col["lex_row_rank"][0, 0] == 0
    assert col["lex_recall"][0, 0] > col["lex_recall"][0, 1]
    assert col["same_dimension"][1].tolist() == [0.0, 0.0, 1.0]
    assert col["has_action"][1].tolist() == [1.0, 1.0, 1.0] and col["has_action"][0].tolist() == [0.0, 0.0, 0.0]
    assert col["row_margin_full"][0, 0] > 0 > col["row_margin_full"][0, 1]
    assert pair_features(GOLD, [], HashEncoder()).shape == (0, 3, len(FEATURES))


def test_token_alignment_is_greedy_precision_recall():
    e = np.eye(3)
    out = token_alignment([e[:2]], [e[:1], e])
    # pred tokens {0,1} vs gold {0}: precision 0.5, recall 1; vs gold {0,1,2}: precision 1, recall 2/3
    assert out[0, 0, :2].tolist() == [0.5, 1.0]
    assert out[0, 1, :2] == pytest.approx([1.0, 2 / 3])


def test_assignment_rule_argmax_above_threshold():
    prob = np.array([[0.2, 0.7, 0.1], [0.3, 0.2, 0.1], [0.5, 0.1, 0.49]])
    assert assign(prob, [10, 20, 30], 0.4) == [20, None, 10]
    assert assign(np.zeros((2, 0)), [], 0.4) == [None, None]


def test_artifact_is_small_and_consistent_with_the_code():
    data = read_model()
    assert MODEL_FILE.stat().st_size < 1_000_000
    model = PairModel.from_json(data["model"])
    assert model.features == FEATURES
    assert 0.0 < data["threshold"] < 1.0
    assert not set(data["training_data"]["instances"]) & {"WebTestBench_0004", "WebTestBench_0057", "WebTestBench_0075"}


def test_every_stored_judge_version_loads_with_the_encoder_it_was_fitted_with():
    """The shipped judge and the earlier versions kept for comparison each name their tuned encoder file, whose
    digest matches; the shipped one's is the encoder the tuning-set record names."""
    digests = {}
    for name in ("trained_judge.json", "trained_judge_v3.json", "trained_judge_v2.json"):
        path = MODEL_FILE.with_name(name)
        data = read_model(path)
        assert read_adapter(path, data), name  # raises JudgeError when the file's digest differs
        digests[name] = data["adapter"]["digest"]
    assert digests["trained_judge_v3.json"] == digests["trained_judge_v2.json"] != digests["trained_judge.json"]
    assert read_tuning_set(TUNING_SET_FILE).adapter_digest == digests["trained_judge.json"]
    assert read_tuning_set(TUNING_SET_FILE.with_name("encoder_tuning_set_v3.json")).adapter_digest == digests["trained_judge_v3.json"]


def test_bad_artifacts_are_refused(tmp_path):
    data = read_model()
    wrong = dict(data, format="something-else")
    (tmp_path / "a.json").write_text(json.dumps(wrong))
    with pytest.raises(JudgeError, match="format"):
        TrainedJudge(tmp_path / "a.json", cache_path=None)
    short = dict(data, model=dict(data["model"], features=data["model"]["features"][:-1],
                                  mean=data["model"]["mean"][:-1], scale=data["model"]["scale"][:-1],
                                  coef=data["model"]["coef"][:-1]))
    (tmp_path / "b.json").write_text(json.dumps(short))
    with pytest.raises(JudgeError, match="retrain"):
        TrainedJudge(tmp_path / "b.json", cache_path=None)
    with pytest.raises(JudgeError, match="no trained judge model"):
        TrainedJudge(tmp_path / "missing.json", cache_path=None)


def _toy_checklists(n_instances: int = 6) -> tuple[list[Checklist], list[np.ndarray]]:
    """Instances whose items copy a gold item (matched) or say something else (unmatched)."""
    rng = np.random.default_rng(0)
    cls, tensors = [], []
    for k in range(n_instances):
        inst = GOLD.model_copy(update={"index": f"T{k}"})
        items = [TestItem(id=f"FT-0{i + 1}", dimension=F, description=g.content) for i, g in enumerate(inst.checklist)]
        items.append(TestItem(id="FT-09", dimension=F, description="The footer shows a phone number"))
        labels = [1, 2, 3, None]
        x = rng.normal(0, 0.05, (4, 3, len(FEATURES)))
        x[np.arange(3), np.arange(3), 0] += 1.0  # cos_full high on the true pair
        cls.append(Checklist(inst, "toy", items, [], {"reference": labels}))
        tensors.append(x)
    return cls, tensors


def test_cross_validation_never_trains_on_the_held_out_instance(monkeypatch):
    cls, tensors = _toy_checklists()
    fits: list[set[int]] = []  # tensors seen by each fit, in call order
    folds: list[int] = []  # number of fits done when each outer fold ended
    real_fit = judge_training.fit_pair_model

    def spy(ts, ys, c):
        fits.append({id(t) for t in ts})
        return real_fit(ts, ys, c)

    monkeypatch.setattr(judge_training, "fit_pair_model", spy)
    result = judge_training.cross_validate_trained(cls, tensors, c_grid=(1.0,), inner_folds=2,
                                                   progress=lambda _msg: folds.append(len(fits)))["agreement"]
    assert len(result.choices) == len(cls) == len(folds)  # leave one instance out
    start = 0
    for choice, end in zip(result.choices, folds):
        held = {id(t) for cl, t in zip(cls, tensors) if cl.index in choice["held_out"]}
        assert held and end > start
        assert all(not (f & held) for f in fits[start:end]), "a fit of this fold saw its held-out instance"
        start = end
    # the toy problem is learnable: out-of-fold matches recover nearly all labels
    assert judge_figures(cls, result.matches)["agreement"] >= 0.9


def test_best_threshold_maximises_agreement():
    cls, _ = _toy_checklists(2)
    scores = [np.array([[0.9, 0.1, 0.1], [0.1, 0.8, 0.1], [0.1, 0.1, 0.7], [0.3, 0.1, 0.1]])] * 2
    t, agr = judge_training.row_threshold(scores, cls, "reference")
    assert agr == 1.0 and 0.3 < t < 0.7


def test_item_agreement_and_kappa():
    assert item_agreement([1, None, 2], [1, None, 2]) == {"items": 3, "agreement": 1.0, "kappa": 1.0}
    assert item_agreement([1, 1, 1], [1, None, 2])["agreement"] == pytest.approx(1 / 3)


@pytest.fixture(scope="module")
def dev_set(webtestbench_path):
    return load_dev_set(dataset=webtestbench_path)


@pytest.fixture(scope="module")
def judge(tmp_path_factory):
    return TrainedJudge(cache_path=tmp_path_factory.mktemp("tok") / "tokens.sqlite")


@pytest.mark.slow
def test_real_judge_offline_constraints_determinism_and_trained_agreement(dev_set, judge, monkeypatch):
    def no_network(self, address, *args, **kwargs):
        host = address[0] if isinstance(address, tuple) else str(address)
        if host not in ("127.0.0.1", "::1", "localhost") and not str(host).startswith("/"):
            raise AssertionError(f"network access to {address}")
        return real_connect(self, address, *args, **kwargs)

    real_connect = socket.socket.connect
    monkeypatch.setattr(socket.socket, "connect", no_network)
    index = "WebTestBench_0040"  # one instance, its three checklists
    part = [cl for cl in dev_set if cl.index == index]
    pairs = [(cl.instance, cl.items) for cl in part]
    first = judge.match_many(pairs)
    for (inst, items), m in zip(pairs, first):
        check_matches(inst, items, m)
        assert all(g is None or isinstance(g, int) for g in m)
    assert judge.match_many(pairs) == first
    assert judge.match(*pairs[0]) == first[0]
    expected = read_model()["in_sample"]["per_instance"][index]["agreement"]
    measured = judge_figures(part, first)["agreement"]
    assert abs(measured - expected) <= 0.03, (measured, expected)
    assert judge.info.name == "embedding" and judge.info.details["kind"] == "trained"


def test_guide_examples_are_in_the_set(dev_set):
    keys = {k for cl in dev_set for k in cl.keys()}
    assert GUIDE_EXAMPLES <= keys and len(GUIDE_EXAMPLES) == 26


def test_get_judge_embedding_is_the_trained_judge_and_the_naive_one_stays_reachable(tmp_path):
    from webtester.eval.judges import JUDGES, get_judge
    from webtester.eval.judges.embedding import EmbeddingJudge

    trained = get_judge("embedding", cache_path=tmp_path / "t.sqlite")
    assert isinstance(trained, TrainedJudge) and trained.threshold == read_model()["threshold"]
    assert get_judge("embedding", threshold=0.9).threshold == 0.9
    naive = get_judge("embedding-naive", cache_path=tmp_path / "n.sqlite")
    assert isinstance(naive, EmbeddingJudge) and naive.info.name == "embedding-naive"
    assert {"embedding", "embedding-naive"} <= set(JUDGES)


def _two_style_checklists() -> tuple[list[Checklist], list[np.ndarray]]:
    """The toy checklists, each instance written in two styles."""
    cls, tensors = _toy_checklists(4)
    more, more_x = _toy_checklists(4)
    for cl in more:
        cl.system = "other"
    return cls + more, tensors + more_x


def test_style_splits_hold_out_each_style_once():
    cls, _ = _two_style_checklists()
    splits = judge_training.style_splits(cls)
    assert [f.style for f in splits] == ["other", "toy"]
    for fold in splits:
        held = [cl for cl in cls if fold.holds(cl)]
        assert len(held) == 4 and {cl.system for cl in held} == {fold.style}
    by_instance = judge_training.instance_splits(cls, 2)
    assert sorted(i for f in by_instance for i in f.instances) == sorted({cl.index for cl in cls})
    assert all(fold.holds(cl) == (cl.index in fold.instances) for fold in by_instance for cl in cls)


def test_share_threshold_matches_the_labelled_share_of_items():
    cls, _ = _toy_checklists(2)  # 3 of every 4 items are labelled as matched
    scores = [np.array([[0.9, 0.1, 0.1], [0.1, 0.4, 0.1], [0.1, 0.1, 0.7], [0.5, 0.1, 0.1]]),
              np.array([[0.8, 0.1, 0.1], [0.1, 0.6, 0.1], [0.1, 0.1, 0.3], [0.2, 0.1, 0.1]])]
    t = judge_training.share_threshold(scores, cls, "reference")
    tops = np.concatenate([s.max(axis=1) for s in scores])
    assert (tops >= t).sum() == 6 and t == pytest.approx(0.35)
    # the agreement rule cuts elsewhere on the same scores: it is a different rule
    assert judge_training.agreement_threshold(scores, cls, "reference") != pytest.approx(t)


def test_cross_validation_by_style_never_trains_on_the_held_out_style(monkeypatch):
    cls, tensors = _two_style_checklists()
    seen: list[tuple[str, set[str]]] = []
    real_fit = judge_training.fit_pair_model
    style_of = {id(t): cl.system for cl, t in zip(cls, tensors)}

    def spy(ts, ys, c):
        seen.append(("fit", {style_of[id(t)] for t in ts}))
        return real_fit(ts, ys, c)

    monkeypatch.setattr(judge_training, "fit_pair_model", spy)
    splits = judge_training.style_splits(cls)
    result = judge_training.cross_validate_trained(cls, tensors, splits=splits, c_grid=(1.0,), inner_folds=2,
                                                   rules={"share": judge_training.share_threshold},
                                                   progress=lambda _msg: seen.append(("fold", set())))["share"]
    assert [c["held_out_style"] for c in result.choices] == ["other", "toy"]
    fold = 0
    for kind, styles in seen:
        if kind == "fold":
            fold += 1
        else:
            assert styles == {s.style for s in splits} - {splits[fold].style}
    assert judge_figures(cls, result.matches)["agreement"] >= 0.9


def test_tuned_cross_validation_tunes_each_fold_once_for_every_rule(monkeypatch):
    cls, tensors = _two_style_checklists()
    x_of = {id(cl): t for cl, t in zip(cls, tensors)}
    tunings: list[set[str]] = []

    def fake_tune(train, source, config):
        tunings.append({cl.system for cl in train})
        return {}

    monkeypatch.setattr(judge_training, "tune_encoder", fake_tune)
    monkeypatch.setattr(judge_training, "cross_fitted_tensors", lambda train, *a, **k: [x_of[id(cl)] for cl in train])
    monkeypatch.setattr(judge_training, "_features_with", lambda adapter, part: [x_of[id(cl)] for cl in part])
    out = judge_training.cross_validate_tuned(cls, splits=judge_training.style_splits(cls))
    assert tunings == [{"toy"}, {"other"}]
    assert set(out) == set(judge_training.THRESHOLD_RULES)
    for result in out.values():
        assert all(m is not None for m in result.matches)
        assert [c["held_out_style"] for c in result.choices] == ["other", "toy"]


def test_refit_features_never_come_from_an_encoder_tuned_on_the_same_instance(monkeypatch):
    cls, tensors = _two_style_checklists()  # instances T0..T3, styles "toy" and "other"
    tuned_on = TuningSet(frozenset({"T0", "T1"}), frozenset({"toy"}))
    stored = {"stored": np.zeros(1)}
    tunings: list[set[str]] = []
    used: dict[int, object] = {}

    def fake_tune(train, source, config):
        assert all(cl.system == "toy" and cl.index in tuned_on.instances for cl in train), "tuned outside its set"
        tunings.append({cl.index for cl in train})
        return {"without": np.zeros(1), "seen": sorted({cl.index for cl in train})}

    def fake_features(adapter, part):
        for cl in part:
            used[id(cl)] = adapter
        return [tensors[cls.index(cl)] for cl in part]

    monkeypatch.setattr(judge_training, "tune_encoder", fake_tune)
    monkeypatch.setattr(judge_training, "_features_with", fake_features)
    out = judge_training.refit_tensors(cls, stored, tuned_on, folds=2)
    assert all(x is not None for x in out)
    assert tunings == [{"T1"}, {"T0"}] or tunings == [{"T0"}, {"T1"}]
    for cl in cls:
        adapter = used[id(cl)]
        if cl.index in tuned_on.instances:  # every style of a tuning instance: cross-fitted without it
            assert adapter is not stored and cl.index not in adapter["seen"]
        else:
            assert adapter is stored
