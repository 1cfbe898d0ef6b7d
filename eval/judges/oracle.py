"""Oracle judge: identity by id (for oracle-checklist runs, where the predicted items *are* the gold items).

A predicted id names a gold item either as the markdown id of the WebTestBench
reference harness (``FT-01``, ``CS-03``, ...: numbered per dimension in the gold
file's order) or as the gold integer id written as a string (``"7"``). Any
other id is left unmatched.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from webtester.eval.judges.base import Judge, JudgeInfo, Matches
from webtester.models import Dimension, Instance, TestItem

_MARKDOWN_ID = re.compile(r"^\s*(FT|CS|IX|CT)-0*(\d+)\s*$", re.IGNORECASE)
_INT_ID = re.compile(r"^\s*(\d+)\s*$")


def markdown_ids(instance: Instance) -> dict[str, int]:
    """Map ``FT-01``-style ids (numbered per dimension in gold order) to gold ids."""
    counters: dict[Dimension, int] = {}
    out: dict[str, int] = {}
    for g in instance.checklist:
        counters[g.dimension] = counters.get(g.dimension, 0) + 1
        out[f"{g.dimension.prefix}-{counters[g.dimension]:02d}"] = g.id
    return out


def oracle_gold_id(instance: Instance, item_id: str, table: dict[str, int] | None = None) -> int | None:
    """The gold id a predicted id names, or None."""
    table = table if table is not None else markdown_ids(instance)
    m = _MARKDOWN_ID.match(item_id)
    if m:
        return table.get(f"{m.group(1).upper()}-{int(m.group(2)):02d}")
    m = _INT_ID.match(item_id)
    if m:
        gid = int(m.group(1))
        return gid if any(g.id == gid for g in instance.checklist) else None
    return None


class OracleJudge(Judge):
    """Identity by id; needs no model."""

    def __init__(self) -> None:
        self.info = JudgeInfo(name="oracle", details={"rule": "identity by id (FT-01 per dimension in gold order, or gold id)"})

    def match(self, instance: Instance, predicted: Sequence[TestItem]) -> Matches:
        table = markdown_ids(instance)
        return [oracle_gold_id(instance, item.id, table) for item in predicted]
