"""Summary figures after an action: a page that shows totals, counts or seats left beside what a form adds to
must show other figures once the form's data was accepted ("Total expenses $1,200" -> "$1,250", "12 of 30
seats available" -> "11 of 30").

A figure is a short line with a number whose label (the line itself with its numbers left out, or the
neighbouring line of a bare number) speaks of an amount: total, count, number, seats, left, remaining,
balance, spent, ... Figures are compared by label between the page just before the submission and just
after it, on the same route; when every figure the page showed both times is unchanged, the page's summary
did not take the new data in. At least one of the figures compared must be labelled as a total, a count,
a number of, seats or places left, a balance or a sum.
"""

from __future__ import annotations

import re

from webtester.probes.interactive import PageState

__all__ = ["STRONG_LABEL", "SUMMARY_LABEL", "compare_figures", "summary_figures", "unchanged_figures"]

NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
BARE = re.compile(r"[$€£¥₹]?\s?-?\d[\d,]*(?:\.\d+)?\s?(?:%|[kKmM]\b)?")
#: labels of figures that sum up entries: they move when an entry is added
SUMMARY_LABEL = re.compile(r"\b(totals?|count|number of|seats?|spots?|places|left|remaining|available|balance|spent|"
                           r"expenses?|income|budget|sum|entries|records|items|tasks|orders|registrations?|"
                           r"enrolled|registered|booked|claims?|transactions?)\b", re.IGNORECASE)
#: labels that make a page's figures a summary worth comparing (one of them must be among the figures compared)
STRONG_LABEL = re.compile(r"\b(totals?|count|number of|seats?|spots?|places|left|remaining|balance|spent|sum)\b",
                          re.IGNORECASE)
MAX_LINE = 48


def summary_figures(lines: list[str]) -> dict[str, list[str]]:
    """The summary figures among a page's text lines, by label: ``{"Total Expenses: #": ["$1,200"], "# of #
    seats available": ["12 of 30 seats available", ...]}`` (a label shown several times keeps every value)."""
    out: dict[str, list[str]] = {}
    for i, line in enumerate(lines):
        if len(line) > MAX_LINE or "\t" in line or not NUMBER.search(line):
            continue  # a table row (its cells joined by tabs) is an entry, not a summary
        if BARE.fullmatch(line):
            near = [lines[j] for j in (i - 1, i + 1) if 0 <= j < len(lines)]
            label = next((n for n in near if len(n) <= MAX_LINE and not NUMBER.search(n)), None)
            if label is None:
                continue
            key = f"{label}: #"
        else:
            key = NUMBER.sub("#", line)
        if SUMMARY_LABEL.search(key):
            out.setdefault(key, []).append(line)
    return out


def compare_figures(before: PageState, after: PageState) -> tuple[str, list[str]]:
    """How an action moved the page's summary figures: ``("unchanged", figures)`` when every figure shown both
    times stayed as it was (examples ``"Total Expenses: $1,200"``), ``("changed", figures)`` when one moved, and
    ``("none", [])`` when there is nothing to compare (no summary figure shown both times, or the action left
    the route: the summary may live on another page)."""
    if before.url.split("#")[0] != after.url.split("#")[0]:
        return "none", []
    old, new = summary_figures(before.text_lines), summary_figures(after.text_lines)
    common = [k for k in old if k in new]
    if not any(STRONG_LABEL.search(k) for k in common):
        return "none", []
    shown = [k.replace("#", old[k][0]) if k.endswith(": #") else old[k][0] for k in common]
    if any(sorted(old[k]) != sorted(new[k]) for k in common):
        return "changed", shown
    return "unchanged", shown


def unchanged_figures(before: PageState, after: PageState) -> list[str] | None:
    """The figures of :func:`compare_figures` when none of them moved, else None."""
    outcome, shown = compare_figures(before, after)
    return shown if outcome == "unchanged" else None
