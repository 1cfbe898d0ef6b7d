"""The tester workflow end to end: scripted model, real graph, real Chromium, a bundled app.

The scripted replies pick element references out of the observations they are
shown and decide pass / fail from what the app actually displayed, so the
verdicts come from the app's behaviour, not from the script.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from webtester.agents.llm_tester import LLMTester
from webtester.bundled import get_instance
from webtester.graphs.run import run_instance
from webtester.llm.scripted import Script, ScriptedChatModel
from webtester.models import Status
from webtester.settings import Settings

pytestmark = pytest.mark.browser

DEMO = Path(__file__).resolve().parents[2] / "webtester" / "llm" / "scripts" / "portfolio_site.yaml"
EXTRA_ITEMS = [
    {"dimension": "functionality", "description": "The About section shows the services",
     "action": "Scroll to About", "expected": "A list of services"},
    {"dimension": "interaction", "description": "The lightbox opens on click", "action": "Click a project",
     "expected": "A lightbox with the project"},
    {"dimension": "content", "description": "The page title names the photographer", "action": "Read the title",
     "expected": "Noor Haddad"},
]


def script_spec() -> dict:
    """The demo script (a pass on working behaviour, a fail on the shipped email defect) plus failure cases."""
    spec = yaml.safe_load(DEMO.read_text())
    spec["checklist"][0]["structured"]["items"] += EXTRA_ITEMS
    spec["items"].update({
        "FT-02": [{"tool_calls": [{"name": "observe", "args": {}}]}, {"raise": "upstream connection reset"}],
        "IX-01": {"replies": [{"tool_calls": [{"name": "observe", "args": {}}]}], "repeat_last": True},
        "CT-01": [{"invalid_tool_call": {"name": "click", "args": "{\"ref\": e1"}},
                  {"tool_calls": [{"name": "click", "args": {"reference": "e1"}}]},
                  {"tool_calls": [{"name": "fill", "args": {"ref": "e1"}}]},
                  {"verdict": {"status": "pass"}}],
    })
    return spec


def scripted_tester(spec: dict | None = None) -> LLMTester:
    model = ScriptedChatModel(script=Script.build(spec or script_spec()))
    return LLMTester(model, model, name="scripted", models={"checklist": "scripted", "detection": "scripted"})


SETTINGS = Settings(max_tool_calls_per_item=7, max_tool_calls_per_instance=150)


@pytest.fixture(scope="module")
def app():
    return get_instance("portfolio_site")


@pytest.fixture(scope="module")
def scripted_run(tmp_path_factory, browser, app):
    out = tmp_path_factory.mktemp("run")
    result = run_instance(app, mode="e2e", tester=scripted_tester(), out_dir=out, settings=SETTINGS, browser=browser)
    return out, result


def test_verdicts_come_from_the_app(scripted_run):
    out, result = scripted_run
    assert result.status == "ok" and result.tester == "scripted"
    assert [i.id for i in result.checklist] == ["FT-01", "FT-02", "CS-01", "IX-01", "CT-01"]
    v = {x.item_id: x for x in result.verdicts}
    assert len(result.verdicts) == 5
    # working behaviour passes, the shipped defect (negative rate accepted) fails with a bug report and evidence
    assert v["FT-01"].status is Status.passed
    assert v["CS-01"].status is Status.failed
    assert v["CS-01"].bug_report.issue == "An invalid email address is accepted"
    assert "settled observation" in v["CS-01"].evidence.notes
    assert v["CS-01"].evidence.screenshots == ["portfolio_site/screenshots/CS-01.png"]
    assert (out / "portfolio_site" / "screenshots" / "CS-01.png").exists()
    assert any(s.startswith("fill(") for s in v["CS-01"].evidence.steps)


def test_budget_malformed_calls_and_model_errors_become_errors(scripted_run):
    _, result = scripted_run
    v = {x.item_id: x for x in result.verdicts}
    assert v["IX-01"].status is Status.error and "item budget of 7 tool calls used up" in v["IX-01"].evidence.notes
    assert v["IX-01"].cost.tool_calls == 7
    assert v["CT-01"].status is Status.error and "3 malformed tool calls in a row" in v["CT-01"].evidence.notes
    assert v["FT-02"].status is Status.error and "upstream connection reset" in v["FT-02"].evidence.notes
    assert any(s.startswith("observe(") for s in v["FT-02"].evidence.steps)  # what it did before the failure is kept


def test_costs_and_artifacts(scripted_run):
    out, result = scripted_run
    folder = out / "portfolio_site"
    v = {x.item_id: x for x in result.verdicts}
    assert v["FT-01"].cost.model_calls == 3 and v["FT-01"].cost.tool_calls == 3
    assert v["FT-01"].cost.input_tokens == 300 and v["FT-01"].cost.output_tokens == 30  # the script's usage figures
    assert v["FT-01"].cost.input_tokens > 0 and v["FT-01"].cost.seconds > 0
    assert result.cost.model_calls == 1 + sum(x.cost.model_calls for x in result.verdicts)
    assert json.loads((folder / "result.json").read_text())["verdicts"][2]["status"] == "fail"
    assert [d["id"] for d in json.loads((folder / "checklist.json").read_text())] == [i.id for i in result.checklist]
    assert "- [ ] CS-01:" in (folder / "result.md").read_text()
    assert "Scripted run" in (folder / "result.md").read_text()
    assert "![CS-01 screenshot](screenshots/CS-01.png)" in (folder / "bugs.md").read_text()
    assert (folder / "checklist.md").read_text().startswith("# Test Checklist")
    assert len((folder / "verdicts.jsonl").read_text().splitlines()) == 5
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["tester"] == "scripted" and manifest["tester_info"]["scripted"] is True
    assert {p["name"] for p in manifest["tester_info"]["prompts"]} >= {"checklist", "detection"}
    assert manifest["instances"]["portfolio_site"]["status"] == "ok"
    assert manifest["totals"]["model_calls"] == result.cost.model_calls
    assert "api_key" not in json.dumps(manifest["settings"]).replace("api_key_set", "")
    lines = [json.loads(x) for x in (folder / "exchanges.jsonl").read_text().splitlines()]
    assert {x["channel"] for x in lines} == {"checklist", "FT-01", "FT-02", "CS-01", "IX-01", "CT-01"}
    import zipfile

    trace = folder / "traces" / "CS-01.zip"
    assert v["CS-01"].evidence.trace == "portfolio_site/traces/CS-01.zip"
    with zipfile.ZipFile(trace) as zf:
        assert zf.testzip() is None and any(n.endswith(".trace") for n in zf.namelist())


def test_replay_gives_the_same_verdicts_without_the_script(scripted_run, tmp_path, browser, app):
    out, first = scripted_run
    replayer = LLMTester.from_specs(f"replay:{out}")
    again = run_instance(app, mode="e2e", tester=replayer, out_dir=tmp_path, settings=SETTINGS, browser=browser)
    assert again.tester == "replay"
    key = lambda r: [(v.item_id, v.status, v.bug_report) for v in r.verdicts]  # noqa: E731
    assert key(again) == key(first)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["replayed"] is True and manifest["tester_info"]["replayed_from"] == str(out)
    assert json.loads((tmp_path / "portfolio_site" / "result.json").read_text())["replayed"] is True
    assert "Replayed run" in (tmp_path / "portfolio_site" / "result.md").read_text()


def test_clean_build_passes_the_item_the_shipped_build_fails(tmp_path, browser, app):
    spec = script_spec()
    spec["checklist"][0]["structured"]["items"] = spec["checklist"][0]["structured"]["items"][1:2]
    result = run_instance(app, mode="e2e", tester=scripted_tester(spec), out_dir=tmp_path, build="clean",
                          settings=SETTINGS, browser=browser)
    assert [(v.item_id, v.status) for v in result.verdicts] == [("CS-01", Status.passed)]
