"""A stand-in runner for the crash-recovery tests (imported by bench worker processes).

``tree*`` instances start what a real instance starts and then wait: an npm dev server through the real
launcher (its own process group) and a real Chromium through the browser session, stopped by the same
cleanups as the workflow's (``finally``). It writes ``RUN_DIR/<index>/tree.json`` with the PIDs once all is
up. ``reenter*`` instances take the run folder's lock again, as the workflow does in a bench worker, and then
behave like ``ok``. Every other index behaves as in :mod:`bench_fakes`.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import bench_fakes

from webtester.browser.launcher import start_app
from webtester.browser.session import BrowserSession
from webtester.runfolder import InstanceFolder, hold_run_folder, write_json

NPM_STUB = Path(__file__).resolve().parents[1] / "fixtures" / "npm_stub"


def run_instance(instance, *, out_dir, **kwargs):
    if instance.index.startswith("reenter"):
        with hold_run_folder(Path(out_dir)):  # the worker shares the bench's hold: no deadlock, no error
            return bench_fakes.run_instance(instance, out_dir=out_dir, **kwargs)
    if not instance.index.startswith("tree"):
        return bench_fakes.run_instance(instance, out_dir=out_dir, **kwargs)
    folder = InstanceFolder(Path(out_dir), instance.index)
    project = folder.root / "app"
    shutil.copytree(NPM_STUB, project, dirs_exist_ok=True)
    app = start_app(project, log_path=folder.root / "app.log")
    try:
        session = BrowserSession()
        session.start()
        try:
            page = session.new_item_page(app.url)
            write_json(folder.root / "tree.json", {"worker": os.getpid(), "app": app.pid, "url": app.url})
            time.sleep(600)
            page.close()
        finally:
            session.close()
    finally:
        app.stop()
    raise AssertionError("a tree instance is only ever killed")
