"""The markdown checklist and result format of the WebTestBench reference prompts.

A checklist groups items under ``## Functionality`` / ``## Constraint`` /
``## Interaction`` / ``## Content`` headings::

    - [ ] FT-01: Users can search recipes by keyword
      - Action: Type "pasta" into the search box and press Enter
      - Expected: Only recipes mentioning pasta are listed

A result marks a passed item ``- [X]`` and a failed one ``- [ ]`` followed by::

      - Bug Report:
        - Issue: Search ignores the keyword
        - Actual: All 24 recipes stay listed

Items that could not be executed (our ``error`` status) are written ``- [-]``
with an ``- Error:`` line; WebTestBench tools that only know ``[X]`` and
``[ ]`` read them as not passed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from webtester.errors import InputError
from webtester.models import BugReport, Dimension, Evidence, Status, TestItem, Verdict


class MarkdownFormatError(InputError):
    """Markdown that does not follow the checklist format; the message gives the line number."""


_HEADING = re.compile(r"^#{1,6}\s*(?P<title>.+?)\s*#*\s*$")
_ITEM = re.compile(
    r"^\s*[-*+]\s*\[(?P<mark>[ xX\-])\]\s*(?:\*\*)?(?P<id>[A-Za-z]{2}-\d+)(?:\*\*)?\s*[:.\-–]\s*(?P<text>.*?)\s*$"
)
_FIELD = re.compile(r"^\s*[-*+]\s*(?:\*\*)?(?P<key>[A-Za-z ]+?)(?:\*\*)?\s*:(?:\*\*)?\s*(?P<value>.*?)\s*$")
_FIELD_KEYS = {"action": "action", "expected": "expected", "bug report": "bug", "issue": "issue", "actual": "actual", "error": "error"}


def _heading_dimension(title: str) -> Dimension | None:
    words = re.sub(r"[^a-z ]", " ", title.lower()).split()
    for dim in Dimension:
        if dim.value in words or dim.prefix.lower() in words:
            return dim
    return None


def render_checklist(items: Iterable[TestItem], title: str = "Test Checklist") -> str:
    """Render items grouped by dimension, in the order FT, CS, IX, CT."""
    return _render(list(items), None, title)


def render_results(items: Iterable[TestItem], verdicts: Iterable[Verdict], title: str = "Test Results") -> str:
    """Render items with their verdicts; an item without a verdict is written as not executed."""
    by_id = {v.item_id: v for v in verdicts}
    return _render(list(items), by_id, title)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _render(items: list[TestItem], verdicts: dict[str, Verdict] | None, title: str) -> str:
    lines = [f"# {title}", ""]
    for dim in Dimension:
        group = [i for i in items if i.dimension is dim]
        if not group:
            continue
        lines += [f"## {dim.title}", ""]
        for item in group:
            mark = " "
            verdict = verdicts.get(item.id) if verdicts is not None else None
            if verdicts is not None:
                status = verdict.status if verdict else Status.error
                mark = {Status.passed: "X", Status.failed: " ", Status.error: "-"}[status]
            lines.append(f"- [{mark}] {item.id}: {_one_line(item.description)}")
            if item.action:
                lines.append(f"  - Action: {_one_line(item.action)}")
            if item.expected:
                lines.append(f"  - Expected: {_one_line(item.expected)}")
            if verdicts is None:
                continue
            if verdict and verdict.status is Status.failed and verdict.bug_report:
                lines += [
                    "  - Bug Report:",
                    f"    - Issue: {_one_line(verdict.bug_report.issue)}",
                    f"    - Actual: {_one_line(verdict.bug_report.actual)}",
                ]
            elif mark == "-":
                reason = verdict.evidence.notes if verdict and verdict.evidence.notes else "not executed"
                lines.append(f"  - Error: {_one_line(reason)}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def parse_checklist(text: str) -> list[TestItem]:
    """Parse a markdown checklist (check marks are ignored)."""
    return [item for item, _ in _parse(text)]


def parse_results(text: str) -> tuple[list[TestItem], list[Verdict]]:
    """Parse a markdown result file into items and one verdict per item."""
    parsed = _parse(text)
    return [i for i, _ in parsed], [v for _, v in parsed]


def _parse(text: str) -> list[tuple[TestItem, Verdict]]:
    out: list[tuple[TestItem, Verdict]] = []
    dimension: Dimension | None = None
    current: dict | None = None
    seen: dict[str, int] = {}

    def close() -> None:
        if current is None:
            return
        item = TestItem(
            id=current["id"], dimension=current["dimension"], description=current["description"],
            action=current.get("action", ""), expected=current.get("expected", ""),
        )
        status = {"X": Status.passed, "x": Status.passed, " ": Status.failed, "-": Status.error}[current["mark"]]
        bug = None
        if status is Status.failed:
            issue = current.get("issue") or "(no bug report given)"
            bug = BugReport(issue=issue, actual=current.get("actual", ""))
        notes = current.get("error", "")
        out.append((item, Verdict(item_id=item.id, status=status, bug_report=bug, evidence=Evidence(notes=notes))))

    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        if m := _HEADING.match(line):
            dim = _heading_dimension(m["title"])
            if dim is not None:
                close()
                current, dimension = None, dim
            continue
        if m := _ITEM.match(line):
            close()
            item_id = m["id"].upper()
            try:
                prefix_dim = Dimension.from_prefix(item_id.split("-")[0])
            except ValueError as exc:
                raise MarkdownFormatError(f"line {lineno}: {exc}") from None
            if item_id in seen:
                raise MarkdownFormatError(f"line {lineno}: duplicate item id {item_id} (first on line {seen[item_id]})")
            seen[item_id] = lineno
            if not m["text"]:
                raise MarkdownFormatError(f"line {lineno}: item {item_id} has no description")
            current = {"id": item_id, "dimension": dimension or prefix_dim, "description": m["text"], "mark": m["mark"]}
            continue
        if current is not None and (m := _FIELD.match(line)):
            key = _FIELD_KEYS.get(m["key"].strip().lower())
            if key and key != "bug":
                current[key] = m["value"]
            elif key is None:
                current["description"] += " " + line.strip(" -*")
            continue
        if current is not None and line.startswith((" ", "\t")):
            current["description"] += " " + line.strip()
    close()
    return out
