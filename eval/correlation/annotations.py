"""Human matching annotations: reading, consensus, and templates for annotators.

One annotation says, for a predicted item of one system on one instance, which
gold item a person matched it to, or none. Files are CSV or JSONL with the
columns ``annotator, index, system, item_id, gold_id`` (``gold_id`` empty,
``null`` or ``none`` for no match). A JSONL file without an ``annotator``
field takes the file's name (``annotator_a.jsonl`` -> ``annotator_a``). A
folder is read as every ``*.csv`` / ``*.jsonl`` file in it.
"""

from __future__ import annotations

import csv
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from webtester.datasets import json_lines
from webtester.errors import InputError

Key = tuple[str, str, str]  # (index, system, item_id)
TEMPLATE_COLUMNS = ["annotator", "index", "system", "item_id", "dimension", "description", "action", "expected", "gold_id"]


class AnnotationError(InputError):
    """An annotation file that cannot be used; the message names the file and line."""


@dataclass(frozen=True)
class Annotation:
    """One human decision: ``gold_id`` is None when the item matches no gold item."""

    annotator: str
    index: str
    system: str
    item_id: str
    gold_id: int | None

    @property
    def key(self) -> Key:
        return (self.index, self.system, self.item_id)


def _gold_id(value, where: str) -> int | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "null", "none", "-")):
        return None
    if isinstance(value, bool):
        raise AnnotationError(f"{where}: gold_id must be an integer or empty, got {value!r}")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise AnnotationError(f"{where}: gold_id must be an integer or empty, got {value!r}") from None
    if not number.is_integer():
        raise AnnotationError(f"{where}: gold_id must be an integer or empty, got {value!r}")
    return int(number)


def _record(row: dict, where: str, default_annotator: str) -> Annotation:
    missing = [c for c in ("index", "system", "item_id", "gold_id") if c not in row]
    if missing:
        raise AnnotationError(f"{where}: missing column(s) {missing}")
    annotator = str(row.get("annotator") or default_annotator).strip()
    for col in ("index", "system", "item_id"):
        if not str(row[col]).strip():
            raise AnnotationError(f"{where}: empty {col}")
    return Annotation(annotator, str(row["index"]).strip(), str(row["system"]).strip(),
                      str(row["item_id"]).strip(), _gold_id(row["gold_id"], where))


def _read_file(path: Path) -> list[Annotation]:
    out: list[Annotation] = []
    if path.suffix == ".csv":
        with path.open(newline="", encoding="utf-8") as fh:
            for lineno, row in enumerate(csv.DictReader(fh), start=2):
                out.append(_record(row, f"{path}:{lineno}", path.stem))
    elif path.suffix == ".jsonl":
        for lineno, row in json_lines(path, AnnotationError):
            out.append(_record(row, f"{path}:{lineno}", path.stem))
    else:
        raise AnnotationError(f"{path}: annotations must be .csv or .jsonl")
    return out


def load_annotations(*paths: str | Path) -> list[Annotation]:
    """Read annotation files or folders; one annotator may label an item only once."""
    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            files += sorted(f for f in p.iterdir() if f.suffix in (".csv", ".jsonl"))
        elif p.exists():
            files.append(p)
        else:
            raise AnnotationError(f"{p}: no such file or folder")
    if not files:
        raise AnnotationError(f"no annotation files in {', '.join(map(str, paths))}")
    annotations: list[Annotation] = []
    seen: dict[tuple[str, Key], str] = {}
    for f in files:
        for a in _read_file(f):
            if (a.annotator, a.key) in seen:
                raise AnnotationError(f"{f}: {a.annotator} labelled {a.key} twice (also in {seen[(a.annotator, a.key)]})")
            seen[(a.annotator, a.key)] = str(f)
            annotations.append(a)
    return annotations


def by_annotator(annotations: list[Annotation]) -> dict[str, dict[Key, int | None]]:
    """``{annotator: {(index, system, item_id): gold_id}}``."""
    out: dict[str, dict[Key, int | None]] = defaultdict(dict)
    for a in annotations:
        out[a.annotator][a.key] = a.gold_id
    return dict(sorted(out.items()))


def consensus(annotations: list[Annotation]) -> dict[Key, int | None]:
    """The majority label per item; a tie goes to the first annotator (by name) holding a tied label."""
    per = by_annotator(annotations)
    keys = {k for labels in per.values() for k in labels}
    out: dict[Key, int | None] = {}
    for key in sorted(keys):
        votes = [(name, labels[key]) for name, labels in per.items() if key in labels]
        counts = Counter(label for _, label in votes)
        top = max(counts.values())
        out[key] = next(label for _, label in votes if counts[label] == top)
    return out


def write_template(rows: list[dict], path: Path, annotator: str = "") -> None:
    """Write a CSV an annotator fills in (only the ``gold_id`` column)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=TEMPLATE_COLUMNS)
        writer.writeheader()
        for row in rows:
            writer.writerow({**{c: row.get(c, "") for c in TEMPLATE_COLUMNS}, "annotator": annotator, "gold_id": ""})
