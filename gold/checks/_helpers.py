"""Helpers shared by the gold check modules of the bundled apps."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from playwright.sync_api import Locator, Page, expect


def holds(assertion: Callable[[], object]) -> bool:
    """True if an expect-style assertion passes (it polls until its own timeout), False if it raises AssertionError."""
    try:
        assertion()
    except AssertionError:
        return False
    return True


def eventually(predicate: Callable[[], bool], timeout: float = 1.5, interval: float = 0.05) -> bool:
    """Poll ``predicate`` until it returns True or ``timeout`` seconds pass; the last result is returned."""
    deadline = time.monotonic() + timeout
    while True:
        if predicate():
            return True
        if time.monotonic() >= deadline:
            return bool(predicate())
        time.sleep(interval)


# ---- page reading helpers ----

PLACEHOLDER_RE = re.compile(
    r"lorem ipsum|dolor sit amet|consectetur adipiscing|\bTODO\b|\bFIXME\b|your text here|sample text"
    r"|\bundefined\b|\bNaN\b|\[object Object\]|\{\{|\}\}",
    re.IGNORECASE,
)


def texts(locator: Locator) -> list[str]:
    """The stripped inner texts of every element ``locator`` matches, in document order."""
    return [t.strip() for t in locator.all_inner_texts()]


def first_int(text: str) -> int | None:
    """The first whole number in ``text`` (thousands separators allowed), or None."""
    m = re.search(r"\d[\d,]*", text)
    return int(m.group().replace(",", "")) if m else None


def placeholder_hits(text: str) -> list[str]:
    """Placeholder or template leftovers in visible ``text``: lorem ipsum, TODO, undefined, NaN, {{ }} ..."""
    return [m.group() for m in PLACEHOLDER_RE.finditer(text)]


def image_loaded(image: Locator, timeout_ms: int = 2000) -> bool:
    """True when the image has finished loading with real pixels (a broken image has naturalWidth 0)."""
    handle = image.element_handle(timeout=timeout_ms)
    image.page.wait_for_function("img => img.complete", arg=handle, timeout=timeout_ms)
    return bool(image.evaluate("img => img.naturalWidth > 0"))


def money(text: str) -> float:
    """The amount in a displayed price such as ``$1,234.50``, ``-€3.00`` or ``(£2.10)``; ValueError if there is none."""
    m = re.search(r"(-|\()?\s*[^\d\s-]{0,3}\s*(-)?(\d[\d,]*(?:\.\d+)?)", text)
    if not m:
        raise ValueError(f"no amount in {text!r}")
    value = float(m.group(3).replace(",", ""))
    return -value if (m.group(1) or m.group(2)) else value


def alert_shown(page: Page, text: str, timeout_ms: int = 2000) -> bool:
    """True once an element with role ``alert`` (e.g. a form field's error message) containing ``text`` is visible."""
    return holds(lambda: expect(page.get_by_role("alert").filter(has_text=text).first).to_be_visible(timeout=timeout_ms))


def dismisses(dialog: Locator, open_dialog: Callable[[], object], close_button: str | None = None, timeout_ms: int = 1000) -> bool:
    """Open ``dialog`` with ``open_dialog()``, then close it with the button named ``close_button`` (Escape when None).

    True if the dialog is hidden afterwards.
    """
    from playwright.sync_api import expect

    open_dialog()
    expect(dialog).to_be_visible()
    if close_button is None:
        dialog.page.keyboard.press("Escape")
    else:
        dialog.get_by_role("button", name=close_button).click()
    return holds(lambda: expect(dialog).to_be_hidden(timeout=timeout_ms))
