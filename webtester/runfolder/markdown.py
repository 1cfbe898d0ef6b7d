"""The markdown files of an instance folder besides the WebTestBench formats: the run label, bugs.md."""

from __future__ import annotations

import os
from collections.abc import Iterable

from webtester.models import Status, TestItem, Verdict
from webtester.runfolder.bugtext import clean_verdict


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


def is_not_checked(verdict: Verdict) -> bool:
    """True for an ``error`` verdict that records an item the tester did not check (its notes say so)."""
    return verdict.status is Status.error and verdict.evidence.notes.lstrip().lower().startswith("not checked")


def render_bug_reports(index: str, items: list[TestItem], verdicts: list[Verdict], *, failure: str | None = None) -> str:
    """Markdown of an instance's problems: the bug reports (Fail verdicts) with screenshots, trace, console errors
    and the steps taken; then the items that could not be executed; then, one line each, the items not checked.
    ``failure``: why the instance's run failed, said first (its missing verdicts are not a clean bill)."""
    by_id = {i.id: i for i in items}
    verdicts = [clean_verdict(v) for v in verdicts]
    failed = [v for v in verdicts if v.status is Status.failed]
    not_checked = [v for v in verdicts if is_not_checked(v)]
    errors = [v for v in verdicts if v.status is Status.error and not is_not_checked(v)]
    lines = [f"# Bug reports: {index}", "",
             f"> {len(failed)} failed, {len(errors)} could not be executed, {len(not_checked)} not checked", ""]
    if failure:
        unjudged = len(items) - len(verdicts)
        lines += [f"**The run of this instance failed:** {failure}", ""]
        if not items:
            lines += ["No checklist was made: the app was not tested.", ""]
        elif unjudged > 0:
            lines += [f"{unjudged} of {len(items)} items got no verdict: the app was not fully tested.", ""]
    elif not failed:
        lines += ["No failures were recorded.", ""]
    lines += [line for v in failed for line in _bug_report(v, by_id.get(v.item_id), index)]
    if errors:
        lines += [f"# Could not be executed: {index}", ""]
        lines += [line for v in errors for line in _bug_report(v, by_id.get(v.item_id), index)]
    if not_checked:
        lines += [f"# Not checked: {index}", ""]
        for v in not_checked:
            item = by_id.get(v.item_id)
            reason = v.evidence.notes.strip().split("\n", 1)[0].partition(":")[2].strip()
            lines.append(f"- **{v.item_id}**" + (f" {item.description}" if item else "") + (f" — {reason}" if reason else ""))
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _bug_report(v: Verdict, item: TestItem | None, index: str) -> list[str]:
    """The markdown section of one verdict."""
    lines = [f"## {v.item_id} ({v.status.value})" + (f": {item.description}" if item else ""), ""]
    if v.bug_report:
        lines += [f"- **Issue:** {_breaks(v.bug_report.issue)}", f"- **Actual:** {_breaks(v.bug_report.actual) or '(not given)'}"]
    if item and item.expected:
        lines.append(f"- **Expected:** {_breaks(item.expected)}")
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
        lines += ["", "Steps:", "", *[f"{n}. `{' '.join(s.split()).replace('`', chr(39))}`" for n, s in enumerate(ev.steps, 1)]]
    return [*lines, ""]


def _breaks(text: str) -> str:
    """Text with line breaks for a markdown list item: a hard break (two spaces) and an indent per line."""
    return "  \n  ".join(line.strip() for line in text.strip().splitlines() if line.strip())


def _local(path: str, index: str) -> str:
    """A run-folder-relative path as seen from the instance folder."""
    return os.path.relpath(path, index) if path.startswith(f"{index}/") else path
