"""A stand-in for the workflow's ``run_instance`` used by the bench tests (imported by worker processes).

Its behaviour depends on the instance index: ``ok*`` writes a result like the
real runner, ``raise*`` raises, ``crash*`` kills its own process, ``hang*``
sleeps until the time limit, ``slow*`` finishes after a few seconds,
``badresult*`` writes a result file that is not JSON and returns a good result.
Every call is logged to ``RUN_DIR/calls.log``; the settings the worker received
go to ``RUN_DIR/<index>/seen_settings.json``; progress events are sent like the
real workflow's.
"""

from __future__ import annotations

import hashlib
import os
import signal
import time
from pathlib import Path

from webtester.models import InstanceResult, Status, TestItem, Verdict
from webtester.runfolder import InstanceFolder, write_json


def run_instance(instance, *, mode, tester, out_dir, apps_root=None, build="shipped", settings=None, thread_id=None,
                 on_event=None):
    out_dir = Path(out_dir)
    emit = on_event or (lambda event, data: None)
    with open(out_dir / "calls.log", "a", encoding="utf-8") as fh:
        fh.write(f"{instance.index} {os.getpid()}\n")
    name = instance.index
    folder = InstanceFolder(out_dir, name)
    write_json(folder.root / "seen_settings.json", {
        "max_items": settings.max_items, "model": settings.model, "checklist_model": settings.checklist_model,
        # a digest, not the key: run-folder writes redact registered secrets
        "api_key_sha256": hashlib.sha256(settings.api_key.get_secret_value().encode()).hexdigest() if settings.api_key else None,
        "tester": tester.name, "trace": settings.trace,
    })
    emit("app_started", {"url": "http://127.0.0.1:1/"})
    if name.startswith("raise"):
        raise RuntimeError("the app did not start: npm exited with code 1")
    if name.startswith("crash"):
        os.kill(os.getpid(), signal.SIGKILL)
    if name.startswith("hang"):
        time.sleep(120)
    if name.startswith("slow"):
        time.sleep(4)
    items = [TestItem(id="FT-01", dimension="functionality", description=instance.checklist[0].content)]
    emit("checklist", {"items": len(items), "notes": ["x" * 10_000]})
    emit("item_started", {"item": "FT-01", "description": items[0].description})
    result = InstanceResult(index=name, tester=tester.name, checklist=items,
                            verdicts=[Verdict(item_id="FT-01", status=Status.passed)])
    emit("item_done", {"item": "FT-01", "status": "pass", "cost": {"tool_calls": 0}})
    if name.startswith("badresult"):
        folder.result_path.write_text('{"index": "' + name + '", "status": ', encoding="utf-8")
        return result
    folder.write_result(result)
    return result
