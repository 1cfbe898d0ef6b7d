"""Features of (predicted item, gold item) pairs for the trained matching judge.

For one checklist (the predicted items of one instance) and the instance's gold
items, ``pair_features`` returns a tensor ``(n_predicted, n_gold, n_features)``
whose columns are named in ``FEATURES``. Three kinds of evidence go in:

* **sentence embeddings** of the predicted item's description, of its full text
  (description + action + expected) and of its expected result, against the
  gold item's content, plus where each similarity stands in its row (rank among
  the gold items, margin to the runner-up) and in its column (rank / z-score
  among the checklist's predicted items for that gold item);
* **token alignment** (BERTScore-style): each token of the predicted item's
  full text greedily aligned to its most similar token of the gold item in the
  encoder's contextual token embeddings, and back (precision / recall / F);
* **lexical evidence**: stemmed content words shared with the gold item,
  weighted by how distinctive they are among the instance's gold items (idf
  over the gold list), quoted UI labels and numbers that reappear in the gold
  item;
* **context**: agreement of the predicted dimension with the gold class, how
  much of the predicted item the instruction speaks about, whether it has an
  action / expected result.

Everything here is deterministic numpy over texts and precomputed embeddings;
the encoder is passed in (``Encoder``: sentence vectors and token vectors).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

import numpy as np

from webtester.models import Instance, TestItem


class Encoder(Protocol):
    """What the features need from a text encoder."""

    def sentences(self, texts: Sequence[str]) -> np.ndarray:
        """One L2-normalised row per text."""

    def tokens(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Per text, its L2-normalised contextual token vectors (special tokens left out)."""

FEATURES: tuple[str, ...] = (
    # embeddings: pair
    "cos_full", "cos_desc", "cos_exp", "cos_max",
    # embeddings: position in the row (this predicted item over all gold items)
    "row_gap_full", "row_margin_full", "row_rank_full", "row_gap_desc", "row_rank_desc", "row_z_full",
    # embeddings: position in the column (this gold item over the checklist's predicted items)
    "col_z_full", "col_rank_full", "col_gap_full",
    # lexical
    # token alignment of the full text with the gold item
    "tok_precision", "tok_recall", "tok_f", "tok_row_gap", "tok_row_rank",
    # lexical
    "lex_recall", "lex_precision", "lex_shared", "lex_row_gap", "lex_row_rank", "quoted_hit", "number_hit",
    # context: pair
    "same_dimension",
    # context: predicted item
    "row_max_full", "row_second_full", "instr_cos", "instr_lex", "gold_lex", "has_action", "has_expected", "n_words",
)

_WORD = re.compile(r"[a-z0-9]+")
_QUOTED = re.compile(r"[\"“”«»]([^\"“”«»]{1,60})[\"“”«»]")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
_SENTENCE = re.compile(r"(?<=[.!?;])\s*(?=[A-Z\"“])|\n+")


def clean(text: str) -> str:
    """Whitespace-normalised text."""
    return " ".join(text.split())


def full_text(item: TestItem) -> str:
    """Description, action and expected result of a predicted item, in that order."""
    return clean(" ".join(p for p in (item.description, item.action, item.expected) if p and p.strip()))


def desc_text(item: TestItem) -> str:
    return clean(item.description)


def expected_text(item: TestItem) -> str:
    """The expected result, or the description when the item has none."""
    return clean(item.expected) if item.expected.strip() else desc_text(item)


def instruction_sentences(instance: Instance) -> list[str]:
    """The instruction split into sentences (at least one entry)."""
    parts = [clean(s) for s in _SENTENCE.split(instance.instruction) if s.strip()]
    return parts or [clean(instance.instruction) or "-"]


def texts_needed(instance: Instance, predicted: Sequence[TestItem]) -> list[str]:
    """Every text ``pair_features`` will ask the encoder for (to batch the encoding)."""
    out = [clean(g.content) for g in instance.checklist] + instruction_sentences(instance)
    for it in predicted:
        out += [full_text(it), desc_text(it), expected_text(it)]
    return out


@lru_cache(maxsize=1)
def _stemmer():
    import snowballstemmer

    return snowballstemmer.stemmer("english")


@lru_cache(maxsize=1)
def _stop_words() -> frozenset[str]:
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return frozenset(ENGLISH_STOP_WORDS) | {"user", "users", "can", "able", "page", "e", "g", "eg"}


def words(text: str) -> set[str]:
    """Stemmed content words (lower case, stop words dropped)."""
    stop = _stop_words()
    toks = [t for t in _WORD.findall(text.lower()) if t not in stop and (len(t) > 1 or t.isdigit())]
    return set(_stemmer().stemWords(toks))


def quoted_words(text: str) -> set[str]:
    """Stemmed words inside quotation marks (UI labels, sample data)."""
    out: set[str] = set()
    for q in _QUOTED.findall(text):
        out |= words(q)
    return out


def numbers(text: str) -> set[str]:
    return set(_NUMBER.findall(text))


def _rank_desc(m: np.ndarray, axis: int) -> np.ndarray:
    """0 for the largest value along ``axis``, 1 for the next, ... (ties share the order of appearance)."""
    order = np.argsort(-m, axis=axis, kind="stable")
    return np.argsort(order, axis=axis, kind="stable").astype(float)


def _zscore(m: np.ndarray, axis: int) -> np.ndarray:
    sd = m.std(axis=axis, keepdims=True)
    return (m - m.mean(axis=axis, keepdims=True)) / np.where(sd > 1e-6, sd, 1.0)


def _second(m: np.ndarray) -> np.ndarray:
    """Per row: the largest value among the other columns (the runner-up of each cell)."""
    if m.shape[1] < 2:
        return np.zeros_like(m)
    top2 = -np.sort(-m, axis=1)[:, :2]
    best = m.max(axis=1, keepdims=True)
    return np.where(m >= best, top2[:, 1:2], best)


@dataclass
class _Lex:
    """Lexical statistics of one instance: gold word sets and their idf."""

    gold: list[set[str]]
    idf: dict[str, float]
    instruction: set[str]
    max_idf: float

    @classmethod
    def build(cls, instance: Instance) -> "_Lex":
        gold = [words(g.content) for g in instance.checklist]
        n = len(gold)
        df: dict[str, int] = {}
        for ws in gold:
            for w in ws:
                df[w] = df.get(w, 0) + 1
        idf = {w: math.log((n + 1) / (c + 1)) + 1.0 for w, c in df.items()}
        return cls(gold=gold, idf=idf, instruction=words(instance.instruction), max_idf=math.log(n + 1) + 1.0)

    def weight(self, ws: set[str]) -> float:
        return sum(self.idf.get(w, self.max_idf) for w in ws)


def token_alignment(pred: Sequence[np.ndarray], gold: Sequence[np.ndarray]) -> np.ndarray:
    """``(n_pred, n_gold, 3)``: greedy token-alignment precision, recall and F of every pair."""
    out = np.zeros((len(pred), len(gold), 3))
    if not pred or not gold:
        return out
    g_all = np.concatenate(gold)
    bounds = np.cumsum([0] + [len(g) for g in gold])
    for i, p in enumerate(pred):
        if not len(p):
            continue
        sim = p @ g_all.T
        for j in range(len(gold)):
            block = sim[:, bounds[j]:bounds[j + 1]]
            if block.size:
                out[i, j, 0] = block.max(axis=1).mean()
                out[i, j, 1] = block.max(axis=0).mean()
    pr, rc = out[..., 0], out[..., 1]
    out[..., 2] = 2 * pr * rc / np.where(pr + rc > 0, pr + rc, 1.0)
    return out


def pair_features(instance: Instance, predicted: Sequence[TestItem], encoder: Encoder) -> np.ndarray:
    """Feature tensor ``(len(predicted), len(instance.checklist), len(FEATURES))``."""
    n_p, n_g = len(predicted), len(instance.checklist)
    if n_p == 0 or n_g == 0:
        return np.zeros((n_p, n_g, len(FEATURES)))
    gold_texts = [clean(g.content) for g in instance.checklist]
    full_texts = [full_text(it) for it in predicted]
    gold = encoder.sentences(gold_texts)
    full = encoder.sentences(full_texts)
    desc = encoder.sentences([desc_text(it) for it in predicted])
    exp = encoder.sentences([expected_text(it) for it in predicted])
    instr = encoder.sentences(instruction_sentences(instance))
    tok = token_alignment(encoder.tokens(full_texts), encoder.tokens(gold_texts))

    c_full, c_desc, c_exp = full @ gold.T, desc @ gold.T, exp @ gold.T
    c_max = np.maximum(np.maximum(c_full, c_desc), c_exp)
    row_max = c_full.max(axis=1, keepdims=True)
    second = _second(c_full)
    top2 = -np.sort(-c_full, axis=1)[:, 1:2] if n_g > 1 else np.zeros((n_p, 1))

    lex = _Lex.build(instance)
    lex_r = np.zeros((n_p, n_g))
    lex_p = np.zeros((n_p, n_g))
    lex_n = np.zeros((n_p, n_g))
    quoted = np.zeros((n_p, n_g))
    nums = np.zeros((n_p, n_g))
    instr_lex = np.zeros((n_p, 1))
    gold_lex = np.zeros((n_p, 1))
    gold_vocab = set().union(*lex.gold) if lex.gold else set()
    for i, it in enumerate(predicted):
        text = full_text(it)
        wp, qp, np_ = words(text), quoted_words(text), numbers(text)
        wp_weight = lex.weight(wp) or 1.0
        for j, wg in enumerate(lex.gold):
            shared = wp & wg
            lex_r[i, j] = lex.weight(shared) / (lex.weight(wg) or 1.0)
            lex_p[i, j] = lex.weight(shared) / wp_weight
            lex_n[i, j] = len(shared)
            quoted[i, j] = len(qp & wg)
            nums[i, j] = len(np_ & numbers(instance.checklist[j].content))
        instr_lex[i] = len(wp & lex.instruction) / max(len(wp), 1)
        gold_lex[i] = len(wp & gold_vocab) / max(len(wp), 1)
    lex_f = 2 * lex_r * lex_p / np.where(lex_r + lex_p > 0, lex_r + lex_p, 1.0)

    same_dim = np.array([[float(it.dimension == g.dimension) for g in instance.checklist] for it in predicted])
    instr_cos = (full @ instr.T).max(axis=1, keepdims=True)
    item_cols = {
        "row_max_full": row_max,
        "row_second_full": top2,
        "instr_cos": instr_cos,
        "instr_lex": instr_lex,
        "gold_lex": gold_lex,
        "has_action": np.array([[float(bool(it.action.strip()))] for it in predicted]),
        "has_expected": np.array([[float(bool(it.expected.strip()))] for it in predicted]),
        "n_words": np.array([[math.log1p(len(full_text(it).split()))] for it in predicted]),
    }
    cols = {
        "cos_full": c_full, "cos_desc": c_desc, "cos_exp": c_exp, "cos_max": c_max,
        "row_gap_full": c_full - row_max,
        "row_margin_full": c_full - second,
        "row_rank_full": np.minimum(_rank_desc(c_full, 1), 5.0),
        "row_gap_desc": c_desc - c_desc.max(axis=1, keepdims=True),
        "row_rank_desc": np.minimum(_rank_desc(c_desc, 1), 5.0),
        "row_z_full": _zscore(c_full, 1),
        "col_z_full": _zscore(c_full, 0),
        "col_rank_full": np.minimum(_rank_desc(c_full, 0), 10.0),
        "col_gap_full": c_full - c_full.max(axis=0, keepdims=True),
        "tok_precision": tok[..., 0],
        "tok_recall": tok[..., 1],
        "tok_f": tok[..., 2],
        "tok_row_gap": tok[..., 2] - tok[..., 2].max(axis=1, keepdims=True),
        "tok_row_rank": np.minimum(_rank_desc(tok[..., 2], 1), 5.0),
        "lex_recall": lex_r,
        "lex_precision": lex_p,
        "lex_shared": np.minimum(lex_n, 5.0),
        "lex_row_gap": lex_f - lex_f.max(axis=1, keepdims=True),
        "lex_row_rank": np.minimum(_rank_desc(lex_f + 1e-3 * c_full, 1), 5.0),
        "quoted_hit": np.minimum(quoted, 3.0),
        "number_hit": np.minimum(nums, 3.0),
        "same_dimension": same_dim,
        **{k: np.broadcast_to(v, (n_p, n_g)) for k, v in item_cols.items()},
    }
    return np.stack([cols[name] for name in FEATURES], axis=-1).astype(np.float64)
