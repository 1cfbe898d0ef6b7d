"""`webtester test` end to end: ChatOpenAI against the local OpenAI-compatible stub, a bundled app, real Chromium."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from webtester.datasets.markdown import parse_results
from webtester.llm.scripted import Script
from webtester.llm.stub_server import StubServer
from webtester.models import Status

SECRET = "sk-test-0123456789-never-written"
DEMO = Path(__file__).resolve().parents[2] / "webtester" / "llm" / "scripts" / "portfolio_site.yaml"


@pytest.mark.browser
def test_webtester_test_through_the_openai_wire(tmp_path):
    out = tmp_path / "run"
    with StubServer(Script.load(DEMO)) as stub:
        env = {**os.environ, "OPENAI_BASE_URL": stub.url, "OPENAI_API_KEY": SECRET, "COLUMNS": "200"}
        env.pop("WEBTESTER_CONFIG", None)
        proc = subprocess.run(
            [sys.executable, "-m", "webtester.cli.main", "test", "portfolio_site", "--out", str(out), "--model", "stub-model"],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240,
        )
        requests = list(stub.requests)
    assert proc.returncode == 1, proc.stdout + proc.stderr  # a Fail was found
    assert "1 passed, 1 failed, 0 errors" in proc.stdout
    folder = out / "portfolio_site"

    # the real request path: tool schemas sent, tool calls parsed, usage accounted
    assert requests[0]["tools"][0]["function"]["name"] == "ChecklistOutput"
    detection_tools = {t["function"]["name"] for t in requests[1]["tools"]}
    assert {"record_verdict", "click", "fill", "observe", "run_steps"} <= detection_tools
    result = json.loads((folder / "result.json").read_text())
    assert result["tester"] == "llm:stub-model" and result["replayed"] is False
    assert result["cost"]["model_calls"] == len(requests)
    assert result["cost"]["input_tokens"] == 100 * len(requests) and result["cost"]["output_tokens"] == 10 * len(requests)
    statuses = {v["item_id"]: v["status"] for v in result["verdicts"]}
    assert statuses == {"FT-01": "pass", "CS-01": "fail"}  # the shipped build accepts an invalid email

    # artifacts open: markdown parses back, trace zips are valid Playwright traces
    items, verdicts = parse_results((folder / "result.md").read_text())
    assert [(i.id, v.status) for i, v in zip(items, verdicts)] == [("FT-01", Status.passed), ("CS-01", Status.failed)]
    assert verdicts[1].bug_report.issue == "An invalid email address is accepted"
    assert "![CS-01 screenshot](screenshots/CS-01.png)" in (folder / "bugs.md").read_text()
    for item in ("FT-01", "CS-01"):
        with zipfile.ZipFile(folder / "traces" / f"{item}.zip") as zf:
            names = zf.namelist()
            assert zf.testzip() is None and "trace.trace" in names and "trace.network" in names
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["tester_info"]["models"] == {"checklist": "stub-model", "detection": "stub-model"}
    assert manifest["settings"]["base_url"] == stub.url and manifest["settings"]["api_key_set"] is True
    assert manifest["totals"]["input_tokens"] == 100 * len(requests)

    # the API key reaches no artifact
    for path in out.rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path


def test_missing_endpoint_and_unknown_app_are_clear_errors(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from webtester.cli.main import app

    for var in [k for k in os.environ if k.startswith(("OPENAI_", "WEBTESTER_"))]:
        monkeypatch.delenv(var)
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    missing = runner.invoke(app, ["test", "portfolio_site", "--tester", "llm", "--out", str(tmp_path / "out")])
    assert missing.exit_code == 2 and "no model endpoint configured" in missing.output
    unknown = runner.invoke(app, ["test", "no_such_app", "--model", "scripted:x.yaml"])
    assert unknown.exit_code == 2 and "no_such_app" in unknown.output and "portfolio_site" in unknown.output
    assert not (tmp_path / "out").exists() and not (tmp_path / "runs").exists()


def test_scripted_and_replay_models_are_labelled(tmp_path):
    from webtester.models import tester_label
    from webtester.settings import Settings
    from webtester.testers import make_tester

    assert make_tester("llm", settings=Settings(), model=f"scripted:{DEMO}").name == "scripted"
    replay = make_tester("llm", settings=Settings(), model=f"replay:{tmp_path}")
    assert replay.name == "replay" and replay.describe()["replayed"] is True
    # the label a run gets before (or without) its tester: the same rule
    assert tester_label("llm", f"scripted:{DEMO}") == "scripted" and tester_label(None, f"replay:{tmp_path}") == "replay"
    assert tester_label(None, "gpt-4o") == "llm:gpt-4o" == make_tester("llm", settings=Settings(api_key="sk-x"), model="gpt-4o").name
    assert tester_label("baseline", None) == "baseline" == make_tester("baseline", settings=Settings()).name


def test_unknown_tester_is_refused():
    from webtester.baseline import BaselineTester
    from webtester.settings import Settings
    from webtester.testers import make_tester

    assert isinstance(make_tester("baseline", settings=Settings()), BaselineTester)
    with pytest.raises(ValueError, match="unknown tester 'nope'"):
        make_tester("nope", settings=Settings())


def _ctrl_c_default() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@pytest.mark.browser
def test_ctrl_c_during_a_slow_structured_model_call_stops_the_run_at_once(tmp_path):
    import signal
    import time

    slow = {"delay": 300, "structured": {"items": []}}  # a CPU model writing a long checklist
    with StubServer(Script.build({"checklist": [slow]})) as stub:
        env = {**os.environ, "OPENAI_BASE_URL": stub.url, "OPENAI_API_KEY": "k"}
        env.pop("WEBTESTER_CONFIG", None)
        proc = subprocess.Popen(
            [sys.executable, "-m", "webtester.cli.main", "test", "portfolio_site", "--out", str(tmp_path / "run"),
             "--trace", "off"], cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            preexec_fn=_ctrl_c_default,
        )
        deadline = time.monotonic() + 120
        while not stub.requests and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.2)
        assert stub.requests, "the checklist request never reached the server"
        time.sleep(1)
        proc.send_signal(signal.SIGINT)
        sent = time.monotonic()
        try:
            out, err = proc.communicate(timeout=60)
        finally:
            proc.kill()
        waited = time.monotonic() - sent
    assert proc.returncode == 130, out + err
    assert waited < 20, f"the run took {waited:.0f} s to stop"
    assert "interrupted" in err and "--out" in err
