"""Form widgets that are not form elements, as React component kits (Radix / shadcn, Headless UI, react-day-picker)
render them, used the way a user does, each step recorded in the session's journal:

- custom selects: a button with role=combobox whose options open in a listbox elsewhere on the page;
- date pickers: a button that opens a calendar in a popup, whose days are buttons.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from playwright.sync_api import Locator

from webtester.browser.session import ACTION_TIMEOUT_MS
from webtester.browser.watchdog import evaluate
from webtester.probes.pagemodel import Field

if TYPE_CHECKING:  # the session imports the sign-in, which goes through choice steps with these widgets' popups
    from webtester.probes.session import ProbeSession

__all__ = ["DAYS_CSS", "OPTIONS_CSS", "choose", "pick_day", "pick_past_day", "read_options"]

#: the options of an open custom select that can be chosen
OPTIONS_CSS = "[role=listbox] [role=option]:not([aria-disabled=true]):not([data-disabled])"
_ALL_OPTIONS_CSS = "[role=listbox] [role=option]"
#: the days of an open calendar that can be chosen (react-day-picker 8 and 9, and grids of day buttons)
DAYS_CSS = ("[role=dialog] button[name=day]:not([disabled]):not([aria-disabled=true]), "
            "[role=dialog] [role=gridcell]:not([aria-disabled=true]) > button:not([disabled])")
_TODAY_CSS = "[aria-current=date], .rdp-day_today, [data-today], .rdp-today"
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


def _open_calendar(sess: ProbeSession, f: Field, shown_css: str) -> None:
    """Click the date picker ``f`` open and wait until ``shown_css`` (its days) shows; raises when it does not."""
    trigger = sess.page.locator(f.sel).first
    with sess.journal.act("click", trigger, key=f.sel):
        trigger.click(timeout=ACTION_TIMEOUT_MS)
    sess.page.locator(shown_css).first.wait_for(state="visible", timeout=_OPEN_WAIT_MS)


def _click_day(sess: ProbeSession, day: Locator, key: str) -> None:
    """Click a day of the open calendar, and close the popup if it stays open."""
    with sess.journal.act("click", day, key=key):
        day.click(timeout=ACTION_TIMEOUT_MS)
    sess.settle(60)
    if sess.page.locator(DAYS_CSS).first.is_visible():
        _close(sess)


def pick_day(sess: ProbeSession, f: Field) -> str | None:
    """Open the date picker ``f``, click today when it can be chosen (else the first day that can), and close the
    popup if it stays open. Returns the day's text; None (the popup closed again) when no day shows."""
    try:
        _open_calendar(sess, f, DAYS_CSS)
        days = sess.page.locator(DAYS_CSS)
        today = days.and_(sess.page.locator(f"{_TODAY_CSS}, :is({_TODAY_CSS}) > button"))
        day = today.first if today.count() else days.first
        text = day.inner_text().strip()
    except Exception:
        _close(sess)
        return None
    _click_day(sess, day, f"{f.sel} day {text}")
    return text


_PAST_DAY_JS = r"""(today) => {
  const vis = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const popup = [...document.querySelectorAll('[role=dialog]')].filter(vis).pop();
  if (!popup) return null;
  const days = [...popup.querySelectorAll('button[name=day], [role=gridcell] > button, button[role=gridcell]')].filter(vis);
  const at = days.findIndex(b => b.matches(today) || b.closest(today));
  let before = days.slice(0, Math.max(at, 0));
  if (at < 0) {
    // no today marker (a kit's own class names replace it): the days of this month before today's number, when
    // the calendar shows this month ("December 2026"), days of other months ("outside") left out
    const now = new Date();
    const month = now.toLocaleString('en-US', {month: 'long'}) + ' ' + now.getFullYear();
    if (!popup.innerText.includes(month)) return null;
    const outside = b => [...b.classList].some(c => /outside$/.test(c)) || !!b.closest('[data-outside]');
    before = days.filter(b => !outside(b) && /^\d{1,2}$/.test(b.innerText.trim()) && Number(b.innerText.trim()) < now.getDate());
  }
  if (!before.length) return null;
  const open = before.filter(b => !b.disabled && b.getAttribute('aria-disabled') !== 'true' && !b.closest('[aria-disabled=true]'));
  if (!open.length) return '';
  const day = open[open.length - 1];
  day.setAttribute('data-wt-past', '1');
  return day.innerText.trim() || day.getAttribute('aria-label') || '?';
}"""


def pick_past_day(sess: ProbeSession, f: Field) -> str | None:
    """Open the date picker ``f`` and click the last day before today that it lets be chosen (the days shown before
    today's in its calendar are past days, also the previous month's; without a today marker, the days of the
    current month numbered before today). Returns the day's text; '' when every day before today is disabled;
    None when the calendar shows no day before today or did not open."""
    try:
        _open_calendar(sess, f, "[role=dialog] :is(button[name=day], [role=gridcell])")  # disabled days too
        text = evaluate(sess.page, _PAST_DAY_JS, _TODAY_CSS)
    except Exception:
        _close(sess)
        return None
    if not text:
        _close(sess)
        return text
    try:
        _click_day(sess, sess.page.locator('[data-wt-past="1"]').first, f"{f.sel} past day {text}")
    except Exception:
        _close(sess)
        return None
    return text
