"""Oracle mode: the gold checklist replaces generation; items numbered per dimension in gold order."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from webtester.agents.llm_tester import LLMTester
from webtester.bundled import get_instance
from webtester.eval.judges.oracle import OracleJudge
from webtester.graphs.run import run_instance
from webtester.llm.scripted import Script, ScriptContext, ScriptedChatModel
from webtester.models import Dimension, Status, oracle_gold_id, oracle_ids, oracle_items
from webtester.settings import Settings


def test_oracle_items_follow_the_gold_order_per_dimension():
    inst = get_instance("portfolio_site")
    items = oracle_items(inst)
    assert [i.description for i in items] == [g.content for g in inst.checklist]
    for dim in Dimension:
        ids = [i.id for i in items if i.dimension is dim]
        assert ids == [f"{dim.prefix}-{n:02d}" for n in range(1, len(ids) + 1)]
    mapping = oracle_ids(inst)
    assert len(mapping) == len(inst.checklist) and sorted(mapping.values()) == [g.id for g in inst.checklist]
    # the ids an oracle run gives are the ids the oracle judge reads back (one rule: webtester.models.oracle_ids)
    assert [oracle_gold_id(inst, i.id) for i in items] == [g.id for g in inst.checklist]
    assert OracleJudge().match(inst, items) == [g.id for g in inst.checklist]
    assert [oracle_gold_id(inst, i.id.lower().replace("-0", "-")) for i in items] == [g.id for g in inst.checklist]


@pytest.mark.browser
def test_oracle_run_tests_the_gold_items_without_generating(tmp_path, browser):
    full = get_instance("portfolio_site")
    gold = [g for g in full.checklist if g.id in (1, 2, 9, 17)]
    inst = full.model_copy(update={"checklist": gold})
    calls: Counter = Counter()

    def reply(ctx: ScriptContext) -> dict:
        calls[ctx.channel] += 1
        return {"verdict": {"status": "pass"}}

    model = ScriptedChatModel(script=Script.build({"checklist": [{"raise": "must not be called"}],
                                                   "items": {"*": {"replies": [reply], "repeat_last": True}}}))
    result = run_instance(inst, mode="oracle", tester=LLMTester(model, model, name="scripted"), out_dir=tmp_path,
                          settings=Settings(), browser=browser)
    assert result.status == "ok"
    assert [i.id for i in result.checklist] == ["FT-01", "FT-02", "CS-01", "CT-01"]
    assert [i.description for i in result.checklist] == [g.content for g in gold]
    assert OracleJudge().match(inst, result.checklist) == [1, 2, 9, 17]
    assert [v.status for v in result.verdicts] == [Status.passed] * 4
    assert "checklist" not in calls and sum(calls.values()) == 4
    saved = json.loads((tmp_path / "portfolio_site" / "checklist.json").read_text())
    assert [d["description"] for d in saved] == [g.content for g in gold]
    assert json.loads((tmp_path / "manifest.json").read_text())["mode"] == "oracle"
