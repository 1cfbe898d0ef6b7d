"""Custom selects: a button with role=combobox whose options open in a listbox elsewhere on the page (as Radix /
shadcn, Headless UI and most React component kits render a select). They take no ``select_option``: a user opens
them and clicks an option, and so do the probes, each step recorded in the session's journal."""

from __future__ import annotations

from webtester.browser.session import ACTION_TIMEOUT_MS
from webtester.probes.pagemodel import Field
from webtester.probes.session import ProbeSession

__all__ = ["OPTIONS_CSS", "choose", "read_options"]

#: the options of an open custom select that can be chosen
OPTIONS_CSS = "[role=listbox] [role=option]:not([aria-disabled=true]):not([data-disabled])"
_ALL_OPTIONS_CSS = "[role=listbox] [role=option]"
_OPEN_WAIT_MS = 1500


def _open(sess: ProbeSession, f: Field) -> list[str]:
    """Click ``f`` open and return the texts of its options that can be chosen ([] when no list opened)."""
    trigger = sess.page.locator(f.sel).first
    with sess.journal.act("click", trigger, key=f.sel):
        trigger.click(timeout=ACTION_TIMEOUT_MS)
    options = sess.page.locator(OPTIONS_CSS)
    try:
        options.first.wait_for(state="visible", timeout=_OPEN_WAIT_MS)
        return [" ".join(t.split()) for t in options.all_inner_texts()]
    except Exception:
        return []


def _close(sess: ProbeSession) -> None:
    with sess.journal.act("press", value="Escape"):
        sess.page.keyboard.press("Escape")
    sess.settle(60)


def read_options(sess: ProbeSession, f: Field) -> list[dict]:
    """The options of the custom select ``f`` as the page model gives a native select's (``value`` is the text),
    read by opening it and closing it again."""
    try:
        texts = _open(sess, f)
        every = sess.page.locator(_ALL_OPTIONS_CSS)
        disabled = [" ".join(t.split()) for t in every.all_inner_texts() if " ".join(t.split()) not in texts]
    except Exception:
        return []
    finally:
        _close(sess)
    return ([{"value": t, "text": t, "disabled": False, "selected": t == f.value} for t in texts if t]
            + [{"value": t, "text": t, "disabled": True, "selected": False} for t in disabled if t])


def choose(sess: ProbeSession, f: Field, text: str | None = None, *, avoid=None) -> str | None:
    """Open the custom select ``f`` and click the option showing ``text`` (default: the first one that ``avoid``,
    a pattern, does not match). Returns the option chosen; None (the list closed again) when there is none."""
    try:
        texts = _open(sess, f)
    except Exception:
        return None
    if text is not None:
        pick = next((i for i, t in enumerate(texts) if t == text), None)
    else:
        pick = next((i for i, t in enumerate(texts) if t and not (avoid and avoid.search(t))), None)
    if pick is None:
        _close(sess)
        return None
    option = sess.page.locator(OPTIONS_CSS).nth(pick)
    with sess.journal.act("click", option, key=f"{f.sel} option {texts[pick]}"):
        option.click(timeout=ACTION_TIMEOUT_MS)
    sess.settle(60)
    return texts[pick]
