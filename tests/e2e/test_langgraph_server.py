"""LangGraph's own server (``langgraph dev``, started at the repository root with the project's langgraph.json) loads
both graphs with real input and context schemas, and runs an oracle run over HTTP in a real browser: the context
is plain JSON, the graph builds the tester, run folder, app and browser itself, without ``--allow-blocking``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from webtester import bundled
from webtester.browser.launcher import free_port

ROOT = Path(__file__).resolve().parents[2]
LANGGRAPH = Path(sys.executable).parent / "langgraph"
APP = "loan_calculator"  # a small bundled app: the baseline tests its gold checklist in well under a minute


def _call(base: str, path: str, body: dict[str, Any] | None = None, timeout: float = 30) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read())


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``langgraph dev`` at the repository root (its own process group, always killed); yields its base URL."""
    log = tmp_path_factory.mktemp("langgraph") / "server.log"
    port = free_port()
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(LANGGRAPH), "dev", "--no-browser", "--no-reload", "--port", str(port)],
            cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                _call(base, "/ok", timeout=5)
                break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"langgraph dev did not come up:\n{log.read_text()[-3000:]}")
                time.sleep(0.5)
        yield base, log
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=20)


def test_the_server_shows_the_input_and_context_schemas_of_both_graphs(server):
    base, _ = server
    for graph in ("e2e", "oracle"):
        (assistant,) = _call(base, "/assistants/search", {"graph_id": graph})
        schemas = _call(base, f"/assistants/{assistant['assistant_id']}/schemas")
        assert schemas["input_schema"]["required"] == ["index"]
        context = schemas["context_schema"]["properties"]
        assert {"tester", "model", "output_dir", "max_items", "item_time_limit"} <= set(context)
        assert context["max_items"]["anyOf"][0] == {"type": "integer"}


def test_an_oracle_run_over_http_tests_a_bundled_app_and_writes_its_run_folder(server, tmp_path):
    base, log = server
    out = tmp_path / "run"
    body = {"assistant_id": "oracle", "input": {"index": APP},
            "context": {"tester": "baseline", "output_dir": str(out)}}
    values = _call(base, "/runs/wait", body, timeout=240)
    gold = bundled.get_instance(APP).checklist
    assert values.get("failure") is None, values.get("__error__") or values.get("failure")
    verdicts = values["verdicts"]
    assert len(verdicts) == len(gold)
    assert {v["status"] for v in verdicts} <= {"pass", "fail", "error"}
    assert any(v["status"] in ("pass", "fail") for v in verdicts)  # the baseline did decide items in the browser
    result = json.loads((out / APP / "result.json").read_text())
    assert result["status"] == "ok" and len(result["verdicts"]) == len(gold)
    assert len((out / APP / "verdicts.jsonl").read_text().splitlines()) == len(gold)
    assert "BlockingError" not in log.read_text()
    # the run folder is like any other: its manifest names the tester and the gold, so `score` takes it as it is
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["tester"] == "baseline" and manifest["mode"] == "oracle" and manifest["dataset"] == "bundled"
    assert manifest["instances"][APP]["status"] == "ok" and manifest["instances"][APP]["items"] == len(gold)
    scored = subprocess.run([sys.executable, "-m", "webtester.cli.main", "score", str(out), "--judge", "oracle",
                             "--bootstrap", "0", "--json"], capture_output=True, text=True, timeout=300)
    assert scored.returncode == 0, scored.stderr
    assert json.loads(scored.stdout)["scores"]["counts"]["tp"] + json.loads(scored.stdout)["scores"]["counts"]["fn"] == \
        sum(not g.passed for g in gold)
