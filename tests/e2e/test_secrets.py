"""Secrets never written: a faulty endpoint echoes the credentials it got, and no artifact, checkpoint or output
of `webtester test` holds them."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from webtester.llm.scripted import Script
from webtester.llm.stub_server import StubServer

pytestmark = pytest.mark.browser

KEY = "sk-echoed-0123456789abcdef"
USER, PASSWORD = "alice", "URLPASS-9876543210"
ITEMS = [
    {"dimension": "functionality", "description": "The gallery filter works", "action": "Click Portraits",
     "expected": "Only portraits"},
    {"dimension": "content", "description": "The page names the photographer", "action": "Read the page",
     "expected": "Noor Haddad"},
]
ECHO_401 = {"http_error": 401, "times": 99, "echo_auth": True, "error_message": "Incorrect API key provided:"}


def _run(tmp_path: Path, script: dict, *, base_url_userinfo: str = "") -> tuple[Path, str, list[dict]]:
    out = tmp_path / "run"
    with StubServer(Script.build(script)) as stub:
        base_url = stub.url.replace("http://", f"http://{base_url_userinfo}") if base_url_userinfo else stub.url
        env = {**os.environ, "OPENAI_BASE_URL": base_url, "OPENAI_API_KEY": KEY, "COLUMNS": "250"}
        env.pop("WEBTESTER_CONFIG", None)
        proc = subprocess.run(
            [sys.executable, "-m", "webtester.cli.main", "test", "portfolio_site", "--out", str(out),
             "--model", "stub-model"],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
        )
        requests = list(stub.requests)
    return out, proc.stdout + proc.stderr, requests


def _leaks(out: Path, output: str, secrets: list[str]) -> list[str]:
    """Where any of ``secrets`` appears: run-folder files (bytes, checkpoints included) and the command's output."""
    found = [f"output: {s}" for s in secrets if s in output]
    for path in sorted(out.rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            found += [f"{path.relative_to(out)}: {s}" for s in secrets if s.encode() in data]
    return found


def test_an_api_key_echoed_by_the_endpoint_is_written_nowhere(tmp_path):
    script = {"checklist": [{"structured": {"items": ITEMS}}],
              "items": {"FT-01": [ECHO_401], "CT-01": [{"verdict": {"status": "pass"}}]}}
    out, output, requests = _run(tmp_path, script)
    folder = out / "portfolio_site"
    result = json.loads((folder / "result.json").read_text())
    verdicts = {v["item_id"]: v for v in result["verdicts"]}
    # the echo happened: the item's error names the failed call, with the key masked
    assert verdicts["FT-01"]["status"] == "error", verdicts
    assert "401" in verdicts["FT-01"]["evidence"]["notes"] and "Bearer ***" in verdicts["FT-01"]["evidence"]["notes"]
    assert verdicts["CT-01"]["status"] == "pass"
    assert any(r["messages"] for r in requests)
    written = {p.name for p in out.rglob("*") if p.is_file()}
    assert {"result.json", "result.md", "manifest.json", "log.txt", "exchanges.jsonl", "verdicts.jsonl",
            "checkpoints.sqlite", "report.html", "junit.xml"} <= written, written
    exchanges = [json.loads(line) for line in (folder / "exchanges.jsonl").read_text().splitlines()]
    assert any(e["channel"] == "FT-01" and "401" in e.get("error", "") for e in exchanges), exchanges
    assert _leaks(out, output, [KEY]) == []


def test_credentials_in_the_base_url_are_written_nowhere(tmp_path):
    token = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
    out, output, requests = _run(tmp_path, {"checklist": [ECHO_401]}, base_url_userinfo=f"{USER}:{PASSWORD}@")
    assert requests, "the endpoint was not reached"
    result = json.loads((out / "portfolio_site" / "result.json").read_text())
    assert result["status"] == "failed" and "401" in result["reason"]  # the echoed credentials were in the error
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["settings"]["base_url"].startswith("http://***@127.0.0.1:"), manifest["settings"]
    assert _leaks(out, output, [PASSWORD, token, KEY]) == []
