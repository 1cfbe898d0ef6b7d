"""Oracle and LLM judges. The LLM judge runs on a scripted chat model (real tool calls and
structured output, including malformed ones) and once over ChatOpenAI's wire path against the local stub."""

from __future__ import annotations

import re

import pytest
import yaml
from langchain_core.messages import SystemMessage

from webtester.eval.judges import JudgeError, get_judge
from webtester.eval.judges.llm import PROMPT_VERSION, LLMJudge
from webtester.llm.scripted import Script, ScriptedChatModel
from webtester.models import Category, Dimension, GoldItem, Instance, TestItem, oracle_ids, oracle_items
from webtester.settings import Settings, load_settings

F, C, I = Dimension.functionality, Dimension.constraint, Dimension.interaction

GOLD = Instance(
    index="J1", instruction="A recipe site with search and favourites.", category=Category.search,
    checklist=[
        GoldItem(id=1, content="Users can search recipes by keyword.", dimension=F, passed=True),
        GoldItem(id=2, content="Search cannot be submitted empty.", dimension=C, passed=False),
        GoldItem(id=3, content="Users can save favourites.", dimension=F, passed=False),
        GoldItem(id=4, content="The list updates as filters change.", dimension=I, passed=True),
    ],
)


def items(n: int) -> list[TestItem]:
    return [TestItem(id=f"FT-{j + 1:02d}", dimension=F, description=f"predicted check {j + 1}") for j in range(n)]


# ---------------------------------------------------------------- oracle


def test_oracle_maps_markdown_ids_per_dimension_in_gold_order_and_integer_ids():
    assert oracle_ids(GOLD) == {"FT-01": 1, "CS-01": 2, "FT-02": 3, "IX-01": 4}
    judge = get_judge("oracle")
    pred = [TestItem(id=i, dimension=F, description="x") for i in ("FT-02", "cs-1", "IX-01", "3", "FT-09", "Q-1", "77")]
    assert judge.match(GOLD, pred) == [3, 2, 4, 3, None, None, None]
    assert judge.info.name == "oracle"


def test_oracle_on_webtestbench_gold_is_the_identity(webtestbench_path):
    from webtester.datasets import load_dataset

    judge = get_judge("oracle")
    for inst in load_dataset(webtestbench_path)[:20]:
        assert judge.match(inst, oracle_items(inst)) == [g.id for g in inst.checklist]


# ---------------------------------------------------------------- LLM judge, scripted model


def scripted(replies) -> ScriptedChatModel:
    return ScriptedChatModel(script=Script.build({"checklist": replies}))


def answer(pairs):
    return {"structured": {"matches": [{"pred_id": p, "gold_id": g} for p, g in pairs]}}


def judge_with(model: ScriptedChatModel, **judge: object) -> LLMJudge:
    return LLMJudge(Settings(judge=judge), chat_model=model)


def test_llm_judge_valid_answer_and_recorded_identity():
    model = scripted([answer([("P1", 1), ("P2", None), ("P3", 3)])])
    judge = judge_with(model)
    assert judge.match(GOLD, items(3)) == [1, None, 3]
    assert judge.info.name == "llm" and judge.info.model == "scripted" and judge.info.prompt_version == PROMPT_VERSION
    assert judge.cost.model_calls == 1 and judge.cost.input_tokens > 0
    system, user = judge.messages(GOLD, ["P1"], items(1))
    assert isinstance(system, SystemMessage) and "Do NOT force matches" in system.content
    assert "2: Search cannot be submitted empty." in user.content and "P1: predicted check 1" in user.content


def test_llm_judge_from_settings_with_a_scripted_model_file(tmp_path):
    script = tmp_path / "judge.yaml"
    script.write_text(yaml.safe_dump({"checklist": [answer([("P1", 2), ("P2", None)])]}))
    settings = load_settings(environ={"WEBTESTER_JUDGE_MODEL": f"scripted:{script}"})  # no endpoint needed
    judge = get_judge("llm", settings)
    assert judge.match(GOLD, items(2)) == [2, None]
    assert judge.info.model == "scripted"  # never labelled as a model's result


def test_llm_judge_needs_settings_and_an_endpoint_for_a_real_model():
    with pytest.raises(JudgeError, match="needs settings"):
        get_judge("llm")
    with pytest.raises(JudgeError, match="needs a model endpoint"):
        get_judge("llm", Settings())
    with pytest.raises(JudgeError, match="cannot be used: script file not found"):
        get_judge("llm", Settings(judge={"model": "scripted:/nonexistent/judge.yaml"}))


def test_llm_judge_retries_malformed_and_invalid_answers_then_succeeds():
    model = scripted([
        {"invalid_tool_call": {"name": "MatchAnswer", "args": "{not json"}},
        answer([("P1", 99), ("P2", 1)]),               # unknown gold id
        answer([("P1", 2), ("P7", 1)]),                # unknown predicted id, P2 missing
        answer([("P1", 2), ("P2", 1)]),
    ])
    judge = judge_with(model, max_attempts=4)
    assert judge.match(GOLD, items(2)) == [2, 1]
    assert judge.cost.model_calls == 4


def test_llm_judge_leaves_items_it_cannot_place_unmatched_and_says_so_after_bounded_attempts():
    # P2's gold id is never valid and P3 is never answered; the most complete answer's valid entries are kept
    model = scripted([answer([("P1", 99), ("P2", 99)]), answer([("P1", 2), ("P2", 77)]), answer([("P1", 1)])])
    judge = judge_with(model, max_attempts=2)
    assert judge.match(GOLD, items(3)) == [2, None, None]
    assert judge.cost.model_calls == 2
    assert judge.unplaced_items() == {"J1": ["FT-02", "FT-03"]}
    [note] = judge.judge_notes()
    assert note.startswith("J1: 2 of 3 items (P2, P3) left unmatched") and "after 2 attempts" in note
    assert "gold_id 77 for P2 is not a gold item id" in note


def test_llm_judge_does_not_keep_a_twice_answered_item():
    model = scripted([answer([("P1", 1), ("P1", 2)])])
    judge = judge_with(model, max_attempts=1)
    assert judge.match(GOLD, items(1)) == [None]
    assert "answered twice" in judge.judge_notes()[0]


def test_llm_judge_model_call_failure_is_a_judge_error():
    model = scripted([{"raise": "boom"}])
    with pytest.raises(JudgeError, match="the judge model call failed"):
        judge_with(model).match(GOLD, items(1))


def test_llm_judge_batches_long_checklists_without_truncation():
    seen: list[list[str]] = []

    def reply(ctx):
        text = ctx.messages[1].content
        labels = re.findall(r"^(P\d+): ", text, re.M)
        seen.append(labels)
        assert all(f"{g}: " in text for g in (1, 2, 3, 4))  # every batch sees every gold item
        return answer([(lab, (int(lab[1:]) % 4) + 1) for lab in labels])

    model = ScriptedChatModel(script=Script.build({"checklist": {"replies": [reply], "repeat_last": True}}))
    judge = judge_with(model, batch_size=3)
    got = judge.match(GOLD, items(7))
    assert seen == [["P1", "P2", "P3"], ["P4", "P5", "P6"], ["P7"]]
    assert got == [(j % 4) + 1 for j in range(1, 8)]


def test_llm_judge_over_chatopenai_wire_path_with_its_endpoint_from_the_config_file(tmp_path):
    from webtester.llm.stub_server import StubServer

    script = Script.build({"checklist": [
        {"http_error": 503, "times": 1, **answer([("P1", 3), ("P2", None)])},  # retried by the client
    ]})
    with StubServer(script) as server:
        cfg = tmp_path / "webtester.toml"
        cfg.write_text(f'[webtester.judge]\nbase_url = "{server.url}"\napi_key = "test-key"\n')
        env = {"OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "WEBTESTER_JUDGE_BASE_URL": "http://127.0.0.1:9/v1",
               "WEBTESTER_JUDGE_MODEL": "stub-judge"}
        judge = get_judge("llm", load_settings(cfg, environ=env))  # the file's endpoint wins over the environment's
        assert judge.match(GOLD, items(2)) == [3, None]
        requests = list(server.requests)
    assert len(requests) == 2 and all(r["model"] == "stub-judge" for r in requests)
    assert requests[0]["tools"][0]["function"]["name"] == "MatchAnswer"
    assert judge.info.model == "stub-judge"
    assert "test-key" not in judge.info.model_dump_json()


def test_unknown_judge_name():
    with pytest.raises(ValueError, match="unknown judge"):
        get_judge("telepathy")


def test_repair_prompt_names_the_problem_and_every_label():
    from webtester.eval.judges.llm import repair_prompt

    text = repair_prompt("gold_id 99 for P1 is not a gold item id", ["P1", "P2"])
    assert "gold_id 99" in text and "P1, P2" in text


def test_llm_judge_records_the_model_its_server_reports_and_the_method_that_worked():
    from webtester.llm.stub_server import StubServer

    script = Script.build({"checklist": [answer([("P1", 1)])]})
    with StubServer(script, strict=True, reported_model="served-model.gguf") as server:
        settings = Settings(base_url=server.url, judge={"model": "configured-name", "method": "json_schema"})
        judge = get_judge("llm", settings)
        assert judge.match(GOLD, items(1)) == [1]
    assert judge.info.model == "configured-name"
    assert judge.info.observed == {"reported_model": "served-model.gguf", "method": "function_calling"}
    assert "server reports served-model.gguf" in judge.info.label()
    assert "observed" not in judge.info.identity()  # what the server showed does not change the judge's identity
