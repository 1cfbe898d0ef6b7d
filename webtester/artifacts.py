"""Writing a run folder (the contract between tester, scorer and reports).

::

    RUN_DIR/manifest.json          run level: tester, models, prompts, settings (no secrets), timings, tokens
    RUN_DIR/checkpoints.sqlite     workflow checkpoints (resume)
    RUN_DIR/<index>/result.json    InstanceResult
    RUN_DIR/<index>/checklist.json|.md
    RUN_DIR/<index>/result.md      WebTestBench markdown results
    RUN_DIR/<index>/bugs.md        bug reports with screenshots and steps
    RUN_DIR/<index>/verdicts.jsonl each verdict as it is recorded
    RUN_DIR/<index>/screenshots/, traces/, exchanges.jsonl, log.txt

Files are written atomically (temporary file, then rename).
"""

from __future__ import annotations

import datetime as _dt
import fcntl
import json
import os
from collections.abc import Iterable
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from webtester.models import InstanceResult, Status, TestItem, Verdict

MANIFEST = "manifest.json"
CHECKPOINTS = "checkpoints.sqlite"


def now_iso() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def write_text(path: Path, text: str) -> None:
    """Write ``text`` atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def write_json(path: Path, data: Any) -> None:
    write_text(path, json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")


def run_label(tester: str, replayed: bool) -> str:
    """The sentence that says what produced a run, for markdown headers."""
    if replayed or tester.startswith("replay"):
        return "Replayed run: verdicts reproduced from recorded model exchanges, not a fresh model result."
    if tester.startswith("scripted"):
        return "Scripted run: replies came from a script, not from a model."
    return f"Tester: {tester}."


class InstanceFolder:
    """``RUN_DIR/<index>/`` and the files in it."""

    def __init__(self, run_dir: Path, index: str) -> None:
        self.run_dir = Path(run_dir)
        self.index = index
        self.root = self.run_dir / index
        self.root.mkdir(parents=True, exist_ok=True)

    screenshots = property(lambda self: self.root / "screenshots")
    traces = property(lambda self: self.root / "traces")
    exchanges = property(lambda self: self.root / "exchanges.jsonl")
    log_path = property(lambda self: self.root / "log.txt")
    verdict_log = property(lambda self: self.root / "verdicts.jsonl")
    result_path = property(lambda self: self.root / "result.json")

    def log(self, message: str) -> None:
        """Append a timestamped line to ``log.txt``."""
        with self.log_path.open("a", encoding="utf-8") as fh:
            fh.write(f"{now_iso()} {message}\n")

    def write_checklist(self, items: list[TestItem]) -> None:
        from webtester.datasets.markdown import render_checklist

        write_json(self.root / "checklist.json", [i.model_dump(mode="json") for i in items])
        write_text(self.root / "checklist.md", render_checklist(items, title=f"Test Checklist: {self.index}"))

    def append_verdict(self, verdict: Verdict) -> None:
        """Log a verdict the moment it is recorded (survives any later crash)."""
        with self.verdict_log.open("a", encoding="utf-8") as fh:
            fh.write(verdict.model_dump_json() + "\n")

    def write_result(self, result: InstanceResult, *, replayed: bool = False) -> None:
        from webtester.datasets.markdown import render_results

        write_json(self.result_path, {**result.model_dump(mode="json"), "replayed": replayed})
        body = render_results(result.checklist, result.verdicts, title=f"Test Results: {self.index}")
        title, _, rest = body.partition("\n")
        counts = summary_counts(result.verdicts)
        preamble = [
            f"> {run_label(result.tester, replayed)}",
            ">",
            f"> {counts['pass']} passed, {counts['fail']} failed, {counts['error']} errors"
            + (f"; instance failed: {result.reason}" if result.status == "failed" else ""),
        ]
        write_text(self.root / "result.md", "\n".join([title, "", *preamble, rest]))
        write_text(self.root / "bugs.md", render_bug_reports(self.index, result.checklist, result.verdicts))


def summary_counts(verdicts: Iterable[Verdict]) -> dict[str, int]:
    counts = {s.value: 0 for s in Status}
    for v in verdicts:
        counts[v.status.value] += 1
    return counts


def render_bug_reports(index: str, items: list[TestItem], verdicts: list[Verdict]) -> str:
    """Markdown bug reports (and errors) with screenshots, console errors and the steps taken."""
    by_id = {i.id: i for i in items}
    lines = [f"# Bug reports: {index}", ""]
    shown = [v for v in verdicts if v.status is not Status.passed]
    if not shown:
        lines.append("No failures or errors were recorded.")
    for v in shown:
        item = by_id.get(v.item_id)
        head = f"## {v.item_id} ({v.status.value})" + (f": {item.description}" if item else "")
        lines += [head, ""]
        if v.bug_report:
            lines += [f"- **Issue:** {v.bug_report.issue}", f"- **Actual:** {v.bug_report.actual or '(not given)'}"]
        if item and item.expected:
            lines.append(f"- **Expected:** {item.expected}")
        ev = v.evidence
        for shot in ev.screenshots:
            lines += ["", f"![{v.item_id} screenshot]({_local(shot, index)})"]
        if ev.trace:
            lines += ["", f"Trace: [{_local(ev.trace, index)}]({_local(ev.trace, index)}) (open with `playwright show-trace`)"]
        for title, entries in (("Console errors", ev.console_errors), ("Page errors", ev.page_errors),
                               ("Failed requests", ev.failed_requests)):
            if entries:
                lines += ["", f"{title}:", *[f"- `{e}`" for e in entries[:20]]]
        if ev.notes:
            lines += ["", "Notes:", "", "```text", ev.notes.strip(), "```"]
        if ev.steps:
            lines += ["", "Steps:", "", *[f"{n}. `{s.replace('`', chr(39))}`" for n, s in enumerate(ev.steps, 1)]]
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _local(path: str, index: str) -> str:
    """A run-folder-relative path as seen from the instance folder."""
    return os.path.relpath(path, index) if path.startswith(f"{index}/") else path


@contextmanager
def _locked(path: Path):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def update_manifest(run_dir: Path, *, run: dict[str, Any], index: str, entry: dict[str, Any]) -> dict[str, Any]:
    """Merge one instance's entry into ``RUN_DIR/manifest.json`` and recompute the totals."""
    path = Path(run_dir) / MANIFEST
    with _locked(path):
        data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"created": now_iso()}
        data.update(run)
        data["updated"] = now_iso()
        instances = data.setdefault("instances", {})
        instances[index] = entry
        keys = ("model_calls", "tool_calls", "input_tokens", "output_tokens", "seconds")
        data["totals"] = {k: round(sum(e.get("cost", {}).get(k, 0) for e in instances.values()), 3) for k in keys}
        data["totals"]["instances"] = len(instances)
        data["totals"]["failed_instances"] = sum(e.get("status") == "failed" for e in instances.values())
        write_json(path, data)
    return data
