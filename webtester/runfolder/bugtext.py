"""Bug text as people read it in the run folder's reports (``result.md``, ``bugs.md``, ``report.html``).

Two things make recorded text hard to read once the run is over:

* texts quoted with ``repr()`` (a list entry's text, a finding's details) carry literal ``\\n`` escapes: they
  become line breaks again;
* URLs of the app as it was served for the run (``http://127.0.0.1:41234/cart``) point at a server that no
  longer runs: they become the app-relative path (``/cart``).
"""

from __future__ import annotations

import re

from webtester.models import BugReport, Verdict

#: an origin on the loopback interface with a port: the app's server for the run, stopped since
_LOCAL_ORIGIN = re.compile(r"https?://(?:127(?:\.\d{1,3}){3}|localhost|0\.0\.0\.0|\[::1\]):\d{1,5}/?", re.IGNORECASE)
_ESCAPED_BREAKS = re.compile(r"(?:\\r\\n|\\n|\\r)+")  # a run of them (a blank line in a card's text) is one break


def app_path(text: str) -> str:
    """``text`` with every loopback URL (``http://127.0.0.1:PORT/x``) replaced by its app-relative path (``/x``)."""
    return _LOCAL_ORIGIN.sub("/", text)


def clean_text(text: str) -> str:
    """Readable bug text: literal ``\\n`` escapes as line breaks, the stopped app's URLs as app paths."""
    return app_path(_ESCAPED_BREAKS.sub("\n", text))


def clean_verdict(verdict: Verdict) -> Verdict:
    """A copy of ``verdict`` whose bug report, notes and steps read as :func:`clean_text` makes them."""
    bug = verdict.bug_report
    ev = verdict.evidence
    evidence = ev.model_copy(update={"notes": clean_text(ev.notes), "steps": [clean_text(s) for s in ev.steps]})
    return verdict.model_copy(update={
        "bug_report": BugReport(issue=clean_text(bug.issue), actual=clean_text(bug.actual)) if bug else None,
        "evidence": evidence,
    })
