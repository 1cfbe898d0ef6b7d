"""Reach / trigger / detect counts of a scored run, per dimension: of all verdicts, and of the wrong ones.

Each predicted item of an instance with results is diagnosed by :func:`webtester.diagnosis.diagnose` and
counted under its first failed stage (``not run``, ``reach``, ``trigger``, ``detect``) or as ``held`` (all three
held). A verdict is *wrong* when its item was matched by the judge to a gold item whose label differs from the
verdict, read as the metrics read it (Fail, or not Fail: Pass, error and no verdict); a wrong verdict counts
under :func:`webtester.diagnosis.wrong_stage` (``detect`` when all held, also counted as ``misjudged``).
Items the judge matched to no gold item have no label and are not counted among the wrong ones. Rows are the
predicted item's dimension, and ``all``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel, Field

from webtester.diagnosis import NOT_RUN, Diagnosis, diagnose, wrong_stage
from webtester.models import Dimension, Instance, Status

ALL = "all"


class StageCounts(BaseModel):
    """Verdicts counted by the first stage that failed."""

    n: int = 0
    not_run: int = 0
    reach: int = 0
    trigger: int = 0
    detect: int = Field(default=0, description="of wrong verdicts: with the misjudged ones")
    held: int = Field(default=0, description="all three stages held (all verdicts only)")
    misjudged: int = Field(default=0, description="wrong verdicts whose three stages held (counted under detect)")

    def add(self, diagnosis: Diagnosis, *, wrong: bool = False) -> None:
        """Count one verdict (``wrong``: by :func:`~webtester.diagnosis.wrong_stage`)."""
        self.n += 1
        stage = wrong_stage(diagnosis) if wrong else diagnosis.stage
        if wrong and diagnosis.stage is None:
            self.misjudged += 1
        if stage is None:
            self.held += 1
        else:
            key = "not_run" if stage == NOT_RUN else stage
            setattr(self, key, getattr(self, key) + 1)


class StageSummary(BaseModel):
    """Stage counts per dimension (keys: dimension values, then ``all``); ``wrong`` when gold labels exist."""

    all: dict[str, StageCounts]
    wrong: dict[str, StageCounts]


def _rows(dimensions: Iterable[Dimension]) -> dict[str, StageCounts]:
    return {**{d.value: StageCounts() for d in dimensions}, ALL: StageCounts()}


def stage_summary(instances: Sequence[Instance], predictions: dict[str, Any], matches: dict[str, list[int | None]]) -> StageSummary:
    """Diagnose every predicted item of the instances with results (``predictions``: index -> an object with
    ``status``, ``items`` and ``verdicts``; ``matches``: index -> gold id per predicted item)."""
    dims = [d for d in Dimension if any(it.dimension is d for p in predictions.values() for it in p.items)]
    everything, wrong = _rows(dims), _rows(dims)
    for inst in instances:
        pred = predictions.get(inst.index)
        if pred is None or pred.status == "missing":
            continue
        labels = {g.id: g.passed for g in inst.checklist}
        verdicts = {v.item_id: v for v in pred.verdicts}
        for item, gold_id in zip(pred.items, matches.get(inst.index) or [None] * len(pred.items)):
            verdict = verdicts.get(item.id)
            d = diagnose(item, verdict)
            for key in (item.dimension.value, ALL):
                everything[key].add(d)
            if gold_id is not None and (verdict is not None and verdict.status is Status.failed) == labels[gold_id]:
                for key in (item.dimension.value, ALL):
                    wrong[key].add(d, wrong=True)
    return StageSummary(all=everything, wrong=wrong)


def stage_table(counts: dict[str, StageCounts], *, wrong: bool) -> tuple[list[str], list[list[str]]]:
    """Display header and rows of stage counts (``wrong``: the columns of wrong verdicts)."""
    if wrong:
        header = ["Dimension", "Wrong", "Not run", "Reach", "Trigger", "Detect", "of which misjudged"]
        rows = [[k.capitalize(), *(str(v) for v in (c.n, c.not_run, c.reach, c.trigger, c.detect, c.misjudged))]
                for k, c in counts.items()]
    else:
        header = ["Dimension", "Verdicts", "Not run", "Reach failed", "Trigger failed", "Detect failed", "All held"]
        rows = [[k.capitalize(), *(str(v) for v in (c.n, c.not_run, c.reach, c.trigger, c.detect, c.held))]
                for k, c in counts.items()]
    return header, rows
