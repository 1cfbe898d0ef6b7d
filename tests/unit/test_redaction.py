"""The redaction layer: registered secrets and URL credentials removed at every sink."""

from __future__ import annotations

import io
import json
import logging
import sqlite3
import uuid

import pytest
from langchain_core.messages import HumanMessage
from rich.table import Table

from webtester import redact as redaction
from webtester.graphs.checkpoints import RedactingSerializer, sqlite_checkpointer
from webtester.llm.factory import chat_model_for
from webtester.llm.recording import ExchangeRecorder
from webtester.models import Evidence, Status, Verdict
from webtester.runfolder import InstanceFolder, write_json, write_text
from webtester.settings import Settings

KEY = "sk-live-abcdef0123456789"
JUDGE_KEY = "judge-key-9876543210"


@pytest.fixture(autouse=True)
def empty_registry():
    redaction.clear()
    yield
    redaction.clear()


def test_registered_secrets_and_url_credentials_are_masked():
    redaction.register(KEY, "short", None)
    text = f"401: bad key {KEY}; endpoint https://bob:hunter2@api.example/v1 and http://plain.example/x@y"
    assert redaction.redact(text) == (
        "401: bad key ***; endpoint https://***@api.example/v1 and http://plain.example/x@y"
    )
    assert "short" not in redaction.registered()  # a short word would be masked everywhere
    data = {"notes": [f"key={KEY}", ("t", KEY)], KEY: 3, "n": 1}
    assert redaction.redact_data(data) == {"notes": ["key=***", ("t", "***")], "***": 3, "n": 1}
    assert data["notes"][0] == f"key={KEY}"  # the original is not modified


def test_settings_register_their_keys_and_url_credentials_and_hide_them_from_public_dict():
    settings = Settings(api_key=KEY, base_url="http://alice:pa%2Fss-0123456789@127.0.0.1:9/v1",
                        judge={"api_key": JUDGE_KEY, "base_url": "https://tok-0123456789abc:x-secret-99@judge/v1"})
    public = settings.public_dict()
    assert public["base_url"] == "http://***@127.0.0.1:9/v1"
    assert public["judge"]["base_url"] == "https://***@judge/v1"
    assert KEY not in json.dumps(public) and JUDGE_KEY not in json.dumps(public)
    redaction.register_settings(settings)
    for secret in (KEY, JUDGE_KEY, "pa%2Fss-0123456789", "pa/ss-0123456789", "tok-0123456789abc"):
        assert secret in redaction.registered(), secret
    assert redaction.redact("Basic YWxpY2U6cGEvc3MtMDEyMzQ1Njc4OQ==") == "Basic ***"  # alice:pa/ss-0123456789


def test_a_model_made_from_settings_registers_its_key():
    chat_model_for(Settings(api_key=KEY, base_url="http://127.0.0.1:9/v1"), "detection")
    assert redaction.redact(f"echo {KEY}") == "echo ***"


def test_run_folder_writes_redact(tmp_path):
    redaction.register(KEY)
    folder = InstanceFolder(tmp_path, "app")
    write_text(tmp_path / "report.html", f"<p>{KEY}</p>")
    write_json(tmp_path / "manifest.json", {"reason": f"401 {KEY}", "url": "http://u:p@h/"})
    folder.log(f"checklist_failed {{'error': '{KEY}'}}")
    folder.append_verdict(Verdict(item_id="FT-01", status=Status.error, evidence=Evidence(notes=f"failed: {KEY}")))
    recorder = ExchangeRecorder(folder.exchanges)
    run = uuid.uuid4()
    recorder.on_chat_model_start({}, [[HumanMessage(content=f"Test item id: FT-01\nkey {KEY}")]], run_id=run)
    recorder.on_llm_error(RuntimeError(f"401 Incorrect API key provided: {KEY}"), run_id=run)
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert KEY.encode() not in path.read_bytes(), path
    assert json.loads((tmp_path / "manifest.json").read_text()) == {"reason": "401 ***", "url": "http://***@h/"}
    assert folder.read_verdicts()[0].evidence.notes == "failed: ***"


def test_checkpoints_hold_no_secret(tmp_path):
    redaction.register(KEY)
    serde = RedactingSerializer()
    kind, blob = serde.dumps_typed({"verdicts": [{"notes": f"model call failed: {KEY}"}], "n": 2})
    assert KEY.encode() not in blob
    assert serde.loads_typed((kind, blob)) == {"verdicts": [{"notes": "model call failed: ***"}], "n": 2}
    conn = sqlite3.connect(tmp_path / "checkpoints.sqlite")
    assert isinstance(sqlite_checkpointer(conn).serde, RedactingSerializer)
    conn.close()


def test_log_records_are_redacted_whoever_handles_them():
    redaction.register(KEY)
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    logger = logging.getLogger("webtester.test.redaction")
    logger.addHandler(handler)
    try:
        logger.warning("retrying with key %s", KEY)
        try:
            raise RuntimeError(f"401 {KEY}")
        except RuntimeError:
            logger.exception("call failed")
    finally:
        logger.removeHandler(handler)
    assert KEY not in stream.getvalue() and "retrying with key ***" in stream.getvalue()
    assert "RuntimeError: 401 ***" in stream.getvalue()


def test_the_terminal_console_redacts_before_wrapping():
    redaction.register(KEY)
    out = io.StringIO()
    console = redaction.redacting_console(file=out, width=24, force_terminal=False)
    table = Table("item", "notes")
    table.add_row("FT-01", f"model call failed: {KEY}")
    console.print(table)
    console.print(f"instance failed: {KEY}", soft_wrap=True)
    printed = out.getvalue()
    assert "***" in printed
    assert KEY[:10] not in printed and KEY[-10:] not in "".join(printed.split())
