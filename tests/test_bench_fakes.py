"""A stand-in for ``webtester.runner.run_instance`` used by the bench tests (imported by worker processes).

Its behaviour depends on the instance index: ``ok*`` writes a result like the
real runner, ``raise*`` raises, ``crash*`` kills its own process, ``hang*``
sleeps until the time limit, ``slow*`` finishes after a few seconds. Every call
is logged to ``RUN_DIR/calls.log``.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from webtester.artifacts import write_json
from webtester.models import InstanceResult, Status, TestItem, Verdict


def run_instance(instance, *, mode, tester, out_dir, apps_root=None, build="shipped", settings=None, thread_id=None):
    out_dir = Path(out_dir)
    with open(out_dir / "calls.log", "a", encoding="utf-8") as fh:
        fh.write(f"{instance.index} {os.getpid()}\n")
    name = instance.index
    if name.startswith("raise"):
        raise RuntimeError("the app did not start: npm exited with code 1")
    if name.startswith("crash"):
        os.kill(os.getpid(), signal.SIGKILL)
    if name.startswith("hang"):
        time.sleep(120)
    if name.startswith("slow"):
        time.sleep(4)
    items = [TestItem(id="FT-01", dimension="functionality", description=instance.checklist[0].content)]
    result = InstanceResult(index=name, tester=tester.name, checklist=items,
                            verdicts=[Verdict(item_id="FT-01", status=Status.passed)])
    write_json(out_dir / name / "result.json", result.model_dump(mode="json"))
    return result
