"""Oracle judge: identity by id (for oracle-checklist runs, where the predicted items *are* the gold items).

A predicted id names a gold item either as the oracle id an oracle run gives it
(the markdown id of the WebTestBench reference harness: ``FT-01``, ``CS-03``, ...,
numbered per dimension in the gold file's order; see
:func:`webtester.models.oracle_ids`) or as the gold integer id written as a
string (``"7"``). Any other id is left unmatched.
"""

from __future__ import annotations

from collections.abc import Sequence

from webtester.eval.judges.base import Judge, JudgeInfo, Matches
from webtester.models import Instance, TestItem, oracle_gold_id, oracle_ids


class OracleJudge(Judge):
    """Identity by id; needs no model."""

    def __init__(self) -> None:
        self.info = JudgeInfo(name="oracle", details={"rule": "identity by id (FT-01 per dimension in gold order, or gold id)"})

    def match(self, instance: Instance, predicted: Sequence[TestItem]) -> Matches:
        table = oracle_ids(instance)
        return [oracle_gold_id(instance, item.id, table) for item in predicted]
