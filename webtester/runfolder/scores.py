"""``RUN_DIR/scores/`` (or any scores folder): what scoring writes and what later readers take from it.

The figures themselves are computed by the evaluation harness; this module owns
the files: ``summary.json`` and ``instances.jsonl`` (the harness's own records,
kept as JSON objects here), ``matches.jsonl`` (the judge's matches, reused when
rescoring), and ``report_scores.json`` (what the HTML report shows, in the
types below, so the reports need nothing from the harness).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from webtester.models import Dimension
from webtester.runfolder import layout
from webtester.runfolder.errors import RunFolderError
from webtester.runfolder.io import read_json, read_json_lines, read_model, read_model_lines, write_json, write_text


class MatchedPair(BaseModel):
    """One predicted item and the gold item the judge mapped it to (None: no match)."""

    pred_id: str
    description: str
    gold_id: int | None
    unplaced: bool = Field(default=False, description="the judge gave no valid answer for it: left unmatched")


class MatchRecord(BaseModel):
    """One line of ``matches.jsonl``: an instance's matches and the judge that made them."""

    index: str
    judge: dict[str, Any] = Field(default_factory=dict)
    matches: list[MatchedPair]


Outcome = Literal["TP", "FP", "FN", "TN"]


class GoldItemScore(BaseModel):
    """How one gold item was scored (by the metrics, and as the report shows it)."""

    gold_id: int
    dimension: Dimension
    gold_pass: bool
    matched: list[str] = Field(default_factory=list, description="ids of the predicted items mapped to it")
    predicted_fail: bool = Field(description="aggregated verdict D(g) is Fail")
    outcome: Outcome


class InstanceScoreView(BaseModel):
    """The figures of one instance, as the report shows them (fractions in [0, 1])."""

    coverage: float
    precision: float
    recall: float
    f1: float
    tp: int
    fp: int
    fn: int
    tn: int
    items: list[GoldItemScore] = Field(default_factory=list)


class ScoreTable(BaseModel):
    """A table of display strings."""

    title: str
    header: list[str]
    rows: list[list[str]]


class ReportScores(BaseModel):
    """Everything the reports show of a scored run."""

    judge: str = Field(description="the judge that produced the matches, as a label")
    tables: list[ScoreTable] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    instances: dict[str, InstanceScoreView] = Field(default_factory=dict)


def scores_dir(run_dir: Path) -> Path:
    """The default scores folder of a run."""
    return Path(run_dir) / layout.SCORES_DIR


def write_summary(out_dir: Path, summary: dict[str, Any], instance_records: Iterable[dict[str, Any] | str]) -> list[Path]:
    """``summary.json`` and ``instances.jsonl`` (one record per instance: a dict, or its JSON text)."""
    out_dir = Path(out_dir)
    write_json(out_dir / layout.SUMMARY_FILE, summary)
    lines = [(r if isinstance(r, str) else _dumps(r)) + "\n" for r in instance_records]
    write_text(out_dir / layout.INSTANCE_SCORES_FILE, "".join(lines))
    return [out_dir / layout.SUMMARY_FILE, out_dir / layout.INSTANCE_SCORES_FILE]


def read_summary(out_dir: Path) -> dict[str, Any] | None:
    """``summary.json`` of a scores folder, or None when there is none (strict otherwise)."""
    path = Path(out_dir) / layout.SUMMARY_FILE
    if not path.exists():
        return None
    data = read_json(path)
    if not isinstance(data, dict):
        raise RunFolderError(f"{path}: expected a JSON object, got {type(data).__name__}")
    return data


def read_instance_records(out_dir: Path) -> list[dict[str, Any]]:
    """The records of ``instances.jsonl`` ([] when there is none); a bad line raises :class:`RunFolderError`."""
    path = Path(out_dir) / layout.INSTANCE_SCORES_FILE
    return [row for _, row in read_json_lines(path)] if path.exists() else []


def write_matches(out_dir: Path, records: Iterable[MatchRecord]) -> Path:
    """``matches.jsonl``."""
    path = Path(out_dir) / layout.MATCHES_FILE
    write_text(path, "".join(r.model_dump_json() + "\n" for r in records))
    return path


def read_matches(out_dir: Path) -> dict[str, MatchRecord]:
    """Index -> record of ``matches.jsonl`` ({} when there is none); a bad line raises :class:`RunFolderError`
    naming the file and line."""
    path = Path(out_dir) / layout.MATCHES_FILE
    if not path.exists():
        return {}
    return {r.index: r for r in read_model_lines(path, MatchRecord, "match record")}


def write_report_scores(out_dir: Path, scores: ReportScores) -> Path:
    """``report_scores.json``."""
    path = Path(out_dir) / layout.REPORT_SCORES_FILE
    write_json(path, scores.model_dump(mode="json"))
    return path


def read_report_scores(out_dir: Path) -> ReportScores | None:
    """``report_scores.json`` of a scores folder, or None when the run was not scored there (strict otherwise)."""
    path = Path(out_dir) / layout.REPORT_SCORES_FILE
    return read_model(path, ReportScores, "report scores file") if path.exists() else None


def _dumps(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, default=str)
