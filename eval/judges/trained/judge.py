"""Offline judge with a trained pair classifier over embedding and lexical features.

For each instance, every (predicted item, gold item) pair is described by the
features of ``webtester.eval.judges.trained.features`` (sentence-embedding similarities of the
predicted item's description / full text / expected result with the gold item,
their rank and margin within the row and column, idf-weighted shared words,
quoted UI labels, dimension agreement, how much the instruction speaks about
the item). A logistic model, trained on the labelled matching set
(``python -m webtester.eval.judges.trained.train``) and stored as plain JSON coefficients in
``eval/data/models/trained_judge.json``, turns them into a match probability.

Assignment rule (the matching constraints, per instance): each predicted item
goes to the gold item with the highest probability if that probability reaches
the stored threshold, otherwise to none; a gold item may receive several
predicted items.

The encoder is the packaged all-MiniLM-L6-v2 of the embedding judge (offline,
CPU) with its bias terms tuned for item matching (``webtester.eval.judges.trained.encoder_tuning``;
the tuned values are stored beside the artifact in ``eval/data/models/tuned_encoder.npz``
and checked against the digest the artifact records). Its sentence and
contextual token vectors are kept in memory for the process, so the judge needs
no network and no other model.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from webtester.eval.judges.base import Judge, JudgeError, JudgeInfo, Matches
from webtester.eval.judges.embedding import MODEL_NAME, default_cache_path, model_id
from webtester.eval.judges.trained.encoder_tuning import TRAIN_COMMAND, adapted_encoder, adapter_digest, load_adapter
from webtester.eval.judges.trained.features import FEATURES, Encoder, pair_features, texts_needed
from webtester.eval.paths import MODELS_ROOT
from webtester.models import Instance, TestItem

MODEL_FILE = MODELS_ROOT / "trained_judge.json"
FORMAT = "webtester-trained-judge/1"


@dataclass(frozen=True)
class PairModel:
    """Standardised logistic model over ``features``: p = sigmoid(((x - mean) / scale) . coef + intercept)."""

    features: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: float

    def probability(self, x: np.ndarray) -> np.ndarray:
        """Match probability of every pair; ``x`` has the features on its last axis."""
        z = ((x - self.mean) / self.scale) @ self.coef + self.intercept
        return 1.0 / (1.0 + np.exp(-z))

    def to_json(self) -> dict:
        return {"kind": "logistic", "features": list(self.features), "mean": self.mean.tolist(),
                "scale": self.scale.tolist(), "coef": self.coef.tolist(), "intercept": self.intercept}

    @classmethod
    def from_json(cls, data: dict) -> "PairModel":
        if data.get("kind") != "logistic":
            raise JudgeError(f"unsupported pair model kind {data.get('kind')!r}")
        feats = tuple(data["features"])
        arrays = [np.asarray(data[k], dtype=np.float64) for k in ("mean", "scale", "coef")]
        if any(a.shape != (len(feats),) for a in arrays):
            raise JudgeError("pair model: mean / scale / coef must have one entry per feature")
        return cls(feats, *arrays, float(data["intercept"]))


def assign(prob: np.ndarray, gold_ids: Sequence[int], threshold: float) -> Matches:
    """Per predicted row: the gold id of the most probable pair if it reaches ``threshold``, else None."""
    if prob.size == 0:
        return [None] * prob.shape[0]
    best = prob.argmax(axis=1)
    top = prob[np.arange(prob.shape[0]), best]
    return [int(gold_ids[b]) if p >= threshold else None for b, p in zip(best, top)]


def read_model(path: Path = MODEL_FILE) -> dict:
    """The stored artifact (model, threshold, provenance); ``JudgeError`` if missing or malformed."""
    if not path.exists():
        raise JudgeError(f"no trained judge model at {path}: run `{TRAIN_COMMAND}`")
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("format") != FORMAT:
        raise JudgeError(f"{path}: format {data.get('format')!r}, expected {FORMAT!r}")
    return data


def read_adapter(model_path: Path, data: dict) -> dict[str, np.ndarray] | None:
    """The tuned-encoder values an artifact names (beside it), checked against the recorded digest."""
    spec = data.get("adapter")
    if not spec:
        return None
    adapter = load_adapter(model_path.parent / spec["file"])
    if adapter_digest(adapter) != spec["digest"]:
        raise JudgeError(f"{model_path.parent / spec['file']}: digest {adapter_digest(adapter)} does not match "
                         f"{spec['digest']} recorded in {model_path.name}; retrain")
    return adapter


# model id -> text -> (sentence vector, token vectors), per process
_token_memory: dict[str, dict[str, tuple[np.ndarray, np.ndarray]]] = {}
_token_lock = threading.Lock()


def forget_vectors(adapter_key: str | None = None) -> None:
    """Drop the in-process vectors computed with the adapter of digest ``adapter_key`` (None: all vectors)."""
    with _token_lock:
        for model in [m for m in _token_memory if adapter_key is None or m.endswith(f"+tuned:{adapter_key}")]:
            del _token_memory[model]


def default_token_cache() -> Path:
    """On-disk cache of sentence + token vectors, beside the embedding judge's cache."""
    return default_cache_path().with_name("tokens.sqlite")


def sentence_and_token_vectors(model, texts: list[str], batch_size: int = 64) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per text: its L2-normalised sentence vector and contextual token vectors (special tokens left out)."""
    special = set(model.tokenizer.all_special_ids)
    outputs = model.encode(texts, output_value=None, batch_size=batch_size, convert_to_numpy=True, show_progress_bar=False)
    out = {}
    for text, o in zip(texts, outputs):
        sent = o["sentence_embedding"].detach().cpu().numpy().astype(np.float32)
        toks = o["token_embeddings"].detach().cpu().numpy().astype(np.float32)
        keep = np.array([int(i) not in special for i in o["input_ids"].tolist()], dtype=bool)[: len(toks)]
        toks = toks[keep]
        sent /= max(float(np.linalg.norm(sent)), 1e-12)
        toks /= np.maximum(np.linalg.norm(toks, axis=1, keepdims=True), 1e-12)
        out[text] = (sent, toks)
    return out


class PackagedEncoder:
    """Sentence and token vectors from the packaged all-MiniLM-L6-v2 (offline, CPU), optionally bias-tuned.

    ``adapter`` holds tuned bias values (``encoder_tuning``); None uses the model as
    packaged. Vectors are kept in memory for the process and, unless
    ``cache_path`` is None, in a SQLite file keyed by model, adapter and text
    (token vectors as float16).
    """

    batch_size = 64

    def __init__(self, cache_path: Path | str | None = "default", adapter: Mapping[str, np.ndarray] | None = None) -> None:
        self.path = default_token_cache() if cache_path == "default" else (Path(cache_path) if cache_path else None)
        self.adapter = dict(adapter) if adapter else None
        self.model = model_id() + (f"+tuned:{adapter_digest(self.adapter)}" if self.adapter else "")
        self.memory = _token_memory.setdefault(self.model, {})

    def _key(self, text: str) -> str:
        return hashlib.sha256(f"{self.model}\ntokens\n{text}".encode()).hexdigest()

    def _connect(self) -> sqlite3.Connection | None:
        if self.path is None:
            return None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        con = sqlite3.connect(self.path, timeout=30)
        con.execute("CREATE TABLE IF NOT EXISTS vec (key TEXT PRIMARY KEY, sent BLOB NOT NULL, toks BLOB NOT NULL)")
        return con

    def _compute(self, texts: list[str]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        out = sentence_and_token_vectors(adapted_encoder(self.adapter), texts, self.batch_size)
        return {t: (sent, toks.astype(np.float16).astype(np.float32)) for t, (sent, toks) in out.items()}

    def encode(self, texts: Sequence[str]) -> None:
        """Encode every text not encoded yet (memory, then disk, then the model in one batched pass)."""
        with _token_lock:
            wanted = [t for t in dict.fromkeys(texts) if t not in self.memory]
            if not wanted:
                return
            con = self._connect()
            try:
                if con is not None:
                    keys = {self._key(t): t for t in wanted}
                    items = list(keys)
                    for i in range(0, len(items), 500):
                        chunk = items[i:i + 500]
                        rows = con.execute(f"SELECT key, sent, toks FROM vec WHERE key IN ({','.join('?' * len(chunk))})", chunk)
                        for k, sent, toks in rows:
                            self.memory[keys[k]] = (np.frombuffer(sent, dtype=np.float32),
                                                      np.frombuffer(toks, dtype=np.float16).astype(np.float32).reshape(-1, 384))
                    wanted = [t for t in wanted if t not in self.memory]
                if wanted:
                    new = self._compute(wanted)
                    self.memory.update(new)
                    if con is not None:
                        with con:
                            con.executemany("INSERT OR REPLACE INTO vec VALUES (?, ?, ?)", [
                                (self._key(t), v[0].tobytes(), v[1].astype(np.float16).tobytes()) for t, v in new.items()])
            finally:
                if con is not None:
                    con.close()

    def sentences(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        self.encode(texts)
        return np.stack([self.memory[t][0] for t in texts])

    def tokens(self, texts: Sequence[str]) -> list[np.ndarray]:
        self.encode(texts)
        return [self.memory[t][1] for t in texts]


class PairFeaturizer:
    """Pair-feature tensors for many instances, with all texts encoded in one batched pass."""

    def __init__(self, encoder: Encoder | None = None) -> None:
        self.encoder = encoder or PackagedEncoder()

    def features(self, pairs: Sequence[tuple[Instance, Sequence[TestItem]]]) -> list[np.ndarray]:
        """``pair_features`` of every (instance, predicted items) pair."""
        texts = [t for inst, items in pairs for t in texts_needed(inst, items)]
        if texts and hasattr(self.encoder, "encode"):
            self.encoder.encode(texts)
        return [pair_features(inst, items, self.encoder) for inst, items in pairs]


class TrainedJudge(Judge):
    """Embedding + lexical pair features, a trained logistic model, argmax above a threshold."""

    def __init__(
        self,
        model_path: Path | str = MODEL_FILE,
        *,
        threshold: float | None = None,
        encoder: Encoder | None = None,
        cache_path: Path | str | None = "default",
        name: str = "embedding",
    ) -> None:
        path = Path(model_path)
        data = read_model(path)
        self.model = PairModel.from_json(data["model"])
        if self.model.features != FEATURES:
            missing = sorted(set(self.model.features) ^ set(FEATURES))
            raise JudgeError(f"{path}: trained on other features than this code computes ({', '.join(missing) or 'order'}); retrain")
        self.threshold = float(threshold if threshold is not None else data["threshold"])
        trained_with = data.get("encoder")
        if trained_with and trained_with != model_id():
            raise JudgeError(f"{path}: trained with encoder {trained_with}, installed is {model_id()}; retrain")
        adapter = read_adapter(path, data)
        self.featurizer = PairFeaturizer(encoder or PackagedEncoder(cache_path, adapter))
        details = {"kind": "trained", "base_model": MODEL_NAME, "classifier": "logistic regression over pair features",
                   "artifact": path.name, "artifact_version": data.get("version"),
                   "rule": "argmax match probability >= threshold"}
        if adapter:
            details["tuned_encoder"] = f"{data['adapter']['file']} ({adapter_digest(adapter)})"
        self.info = JudgeInfo(name=name, model=model_id(), threshold=self.threshold, details=details)

    def probabilities(self, pairs: Sequence[tuple[Instance, Sequence[TestItem]]]) -> list[np.ndarray]:
        """Match probability (predicted x gold) for each instance."""
        return [self.model.probability(x) for x in self.featurizer.features(pairs)]

    def match(self, instance: Instance, predicted: Sequence[TestItem]) -> Matches:
        return self.match_many([(instance, predicted)])[0]

    def match_many(self, pairs: Sequence[tuple[Instance, Sequence[TestItem]]]) -> list[Matches]:
        probs = self.probabilities(pairs)
        return [assign(p, [g.id for g in inst.checklist], self.threshold) for (inst, _), p in zip(pairs, probs)]
