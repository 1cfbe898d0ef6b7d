"""Turn exceptions from Playwright into one or two lines a model can act on."""

from __future__ import annotations

import re

_HINTS = (
    ("intercepts pointer events", "another element covers it (e.g. an open dialog or overlay); close that first"),
    ("element is not visible", "the element is not visible; scroll to it or open the part of the page that shows it"),
    ("element is not enabled", "the element is disabled"),
    ("element is not editable", "the element is not editable"),
    ("not an <input>, <textarea>, <select>", "the element is not a form field; fill only textboxes"),
    ("is not a <select> element", "the element is not a native select; click it and then click the option"),
    ("did not find some options", "no such option; use an option label shown in the page view"),
    ("Not a checkbox or radio button", "the element is not a checkbox or radio button"),
    ("Clicking the checkbox did not change its state", "clicking did not change the checkbox's state"),
    ("net::ERR_BLOCKED_BY_CLIENT", "the request was blocked: it leaves the app under test"),
    ("Target page, context or browser has been closed", "the page was closed"),
    ("Execution context was destroyed", "the page navigated while the action ran; observe the page again"),
)
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def describe_error(exc: BaseException) -> str:
    """A short explanation of ``exc``: its first line, plus the most telling line of Playwright's call log."""
    text = _ANSI.sub("", str(exc)).strip()
    if not text:
        return type(exc).__name__
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    first = re.sub(r"^(Locator|Page|Frame|Keyboard|Mouse|ElementHandle)\.\w+: ", "", lines[0])
    first = first.replace("Error: ", "", 1) if first.startswith("Error: ") else first
    for needle, hint in _HINTS:
        if needle in text:
            return f"{first} — {hint}" if needle not in first else f"{first} ({hint})"
    log = [ln.lstrip("- ") for ln in lines[1:] if ln.startswith("-")]
    if log:
        return f"{first} (last step: {log[-1][:200]})"
    return first[:400]
