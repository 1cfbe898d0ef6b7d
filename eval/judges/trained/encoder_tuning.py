"""Domain tuning of the packaged sentence encoder for item matching (bias terms only).

The packaged all-MiniLM-L6-v2 ranks the right gold item first for only about
60% of the matchable predicted items of the development set. Tuning its bias
and LayerNorm parameters (31,104 of its 22.7 M weights, the rest frozen) with
a listwise loss over each instance's gold items moves that to about 72% on
held-out instances. The tuned values are small enough to ship as a file
beside the judge (``eval/data/models/tuned_encoder.npz``, about 125 KB), so the
judge still needs nothing but the packaged model and no network.

Loss: for a batch of predicted items of one instance, softmax over the cosine
similarities (divided by a temperature) with all of that instance's gold items
plus a learned "no match" score, cross-entropy against the labelled gold item,
or against "no match" for an item the labels leave unmatched.
"""

from __future__ import annotations

import copy
import hashlib
import io
import random
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from webtester.eval.judges.base import JudgeError
from webtester.eval.judges.embedding import load_encoder
from webtester.eval.judges.trained.dev_set import Checklist
from webtester.eval.judges.trained.features import clean, full_text

Adapter = dict[str, np.ndarray]  # parameter name -> tuned values
TRAIN_COMMAND = "python -m webtester.eval.judges.trained.train --write"

_adapted: dict[str, object] = {}
_adapted_lock = threading.Lock()


@dataclass(frozen=True)
class TuningConfig:
    """Hyper-parameters of the bias tuning (fixed, not searched on the development set)."""

    epochs: int = 3
    learning_rate: float = 1e-3
    batch_size: int = 16
    temperature: float = 0.05
    seed: int = 0
    none_option: bool = False  # True: unmatched items learn to stay below a learned "no match" score

    def as_dict(self) -> dict:
        return {"epochs": self.epochs, "learning_rate": self.learning_rate, "batch_size": self.batch_size,
                "temperature": self.temperature, "seed": self.seed, "trained": "bias and LayerNorm parameters",
                "loss": "listwise softmax over the instance's gold items"
                        + (" and a learned 'no match' score" if self.none_option else "")}


DEFAULT_TUNING = TuningConfig()


def is_tuned_parameter(name: str) -> bool:
    """Bias terms and LayerNorm scales are tuned; every weight matrix stays as packaged."""
    return name.endswith("bias") or "LayerNorm" in name


def adapter_digest(adapter: Mapping[str, np.ndarray]) -> str:
    """Short content hash of an adapter (names, shapes and float32 values)."""
    h = hashlib.sha256()
    for name in sorted(adapter):
        v = np.ascontiguousarray(adapter[name], dtype=np.float32)
        h.update(name.encode())
        h.update(str(v.shape).encode())
        h.update(v.tobytes())
    return h.hexdigest()[:16]


def save_adapter(adapter: Mapping[str, np.ndarray], path: Path) -> None:
    """Write the adapter as a compressed ``.npz`` (atomically)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    np.savez_compressed(buf, **{k: np.asarray(v, dtype=np.float32) for k, v in sorted(adapter.items())})
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(buf.getvalue())
    tmp.replace(path)


def load_adapter(path: Path) -> Adapter:
    """Read an adapter file; ``JudgeError`` names the file when it is missing or unreadable."""
    if not path.exists():
        raise JudgeError(f"no tuned encoder at {path}: run `{TRAIN_COMMAND}`")
    try:
        with np.load(path) as data:
            return {k: data[k].astype(np.float32) for k in data.files}
    except (OSError, ValueError) as exc:
        raise JudgeError(f"{path}: not a readable adapter file ({exc})") from None


def adapted_encoder(adapter: Mapping[str, np.ndarray] | None):
    """The packaged SentenceTransformer with ``adapter``'s values in place (one copy per adapter, cached)."""
    base = load_encoder()
    if not adapter:
        return base
    key = adapter_digest(adapter)
    with _adapted_lock:
        if key not in _adapted:
            import torch

            model = copy.deepcopy(base)
            params = dict(model.named_parameters())
            unknown = sorted(set(adapter) - set(params))
            if unknown:
                raise JudgeError(f"tuned encoder does not fit the packaged model: unknown parameters {unknown[:3]}")
            with torch.no_grad():
                for name, values in adapter.items():
                    if tuple(params[name].shape) != values.shape:
                        raise JudgeError(f"tuned encoder: {name} has shape {values.shape}, "
                                         f"the packaged model {tuple(params[name].shape)}")
                    params[name].copy_(torch.from_numpy(np.asarray(values, dtype=np.float32)))
            model.eval()
            _adapted[key] = model
        return _adapted[key]


def release_adapter(adapter: Mapping[str, np.ndarray]) -> None:
    """Drop the cached model copy of an adapter that will not be used again."""
    with _adapted_lock:
        _adapted.pop(adapter_digest(adapter), None)


def _examples(checklists: Sequence[Checklist], source: str) -> dict[str, tuple[list[str], list[tuple[str, int | None]]]]:
    """Per instance: its gold texts, and (predicted text, position of the labelled gold item or None) pairs."""
    out: dict[str, tuple[list[str], list[tuple[str, int | None]]]] = {}
    for cl in checklists:
        ids = [g.id for g in cl.instance.checklist]
        golds, pairs = out.setdefault(cl.index, ([clean(g.content) for g in cl.instance.checklist], []))
        for item, label in zip(cl.items, cl.labels[source]):
            pairs.append((full_text(item), None if label is None else ids.index(label)))
    return out


def tune_encoder(
    checklists: Sequence[Checklist],
    source: str = "reference",
    config: TuningConfig = TuningConfig(),
    progress: Callable[[str], None] | None = None,
) -> Adapter:
    """Tune the packaged encoder's bias terms on the labelled items of ``checklists``; returns the adapter.

    Deterministic for a given config, data and thread count. With
    ``none_option`` the softmax has one more entry, a learned "no match" score,
    which is the target of the unmatched items; the final decision is still
    left to the pair classifier.
    """
    import torch

    examples = _examples(checklists, source)
    if not config.none_option:
        examples = {k: (g, [p for p in ps if p[1] is not None]) for k, (g, ps) in examples.items()}
    if not any(j is not None for _, ps in examples.values() for _, j in ps):
        raise JudgeError("tune_encoder: no labelled matches to learn from")
    examples = {k: v for k, v in examples.items() if v[1]}
    torch.manual_seed(config.seed)
    rng = random.Random(config.seed)
    model = copy.deepcopy(load_encoder())
    tuned = []
    for name, p in model.named_parameters():
        p.requires_grad_(is_tuned_parameter(name))
        if p.requires_grad:
            tuned.append((name, p))
    none_cosine = torch.nn.Parameter(torch.tensor(0.5))  # the "no match" entry, as a cosine
    optimiser = torch.optim.AdamW([p for _, p in tuned] + ([none_cosine] if config.none_option else []),
                                  lr=config.learning_rate)
    model.train()

    def embed(texts: list[str]) -> torch.Tensor:
        prepare = getattr(model, "preprocess", None) or model.tokenize
        out = model(prepare(texts))["sentence_embedding"]
        return torch.nn.functional.normalize(out, dim=-1)

    for epoch in range(config.epochs):
        batches = []
        for index in sorted(examples):
            golds, pairs = examples[index]
            order = pairs[:]
            rng.shuffle(order)
            batches += [(golds, order[i:i + config.batch_size]) for i in range(0, len(order), config.batch_size)]
        rng.shuffle(batches)
        total = 0.0
        for golds, batch in batches:
            logits = embed([t for t, _ in batch]) @ embed(golds).T / config.temperature
            if config.none_option:
                logits = torch.cat([logits, (none_cosine / config.temperature).expand(len(batch), 1)], dim=1)
            target = torch.tensor([len(golds) if j is None else j for _, j in batch])
            loss = torch.nn.functional.cross_entropy(logits, target)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            total += loss.item() * len(batch)
        if progress:
            n = sum(len(p) for _, p in examples.values())
            progress(f"tuning epoch {epoch + 1}/{config.epochs}: mean loss {total / n:.3f} over {n} items")
    return {name: p.detach().cpu().numpy().astype(np.float32).copy() for name, p in tuned}
