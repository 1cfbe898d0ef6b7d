"""The markdown files of an instance folder besides the WebTestBench formats: the run label, bugs.md."""

from __future__ import annotations

import os
from collections.abc import Iterable

from webtester.models import Status, TestItem, Verdict


def run_label(tester: str, replayed: bool) -> str:
    """The sentence that says what produced a run, for markdown headers."""
    if replayed or tester.startswith("replay"):
        return "Replayed run: verdicts reproduced from recorded model exchanges, not a fresh model result."
    if tester.startswith("scripted"):
        return "Scripted run: replies came from a script, not from a model."
    return f"Tester: {tester}."


def summary_counts(verdicts: Iterable[Verdict]) -> dict[str, int]:
    """Number of verdicts per status value (``pass``, ``fail``, ``error``)."""
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
                               ("Failed requests", ev.failed_requests),
                               ("Environment (third-party requests blocked or unreachable here; not the app's defect)",
                                ev.environment)):
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
