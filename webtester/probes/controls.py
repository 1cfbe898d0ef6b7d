"""Control probes: click every control (a few of each repeated kind), report the ones that change nothing (unless
they are the current choice of their group, which responds once another choice is clicked), check that the dialogs
they open close with their close button and with Escape (once per kind of dialog), and that a vote button takes the
vote back on a second click."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Collection

from playwright.sync_api import Page

from webtester.browser.locators import Reusable
from webtester.browser.watchdog import PageUnresponsive, bounded, dismiss, evaluate, matches
from webtester.models import ActionRecord
from webtester.probes.findings import describe_element
from webtester.probes.forms import CREATING
from webtester.probes.journal import Outcome, css
from webtester.probes.scan import SELECTOR_JS
from webtester.probes.session import BudgetExceeded, ProbeSession

SKIP_TEXT = re.compile(r"^\s*(reset|clear|today|cancel|close|×|✕|skip to)|\b(delete|remove|sign out|log out)\b", re.IGNORECASE)

_CONTROLS_JS = r"""([limit, perGroup, first, known]) => {
  const vis = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  // the highlighted one of a group of like controls (a tab bar, filter chips): the only one with an accent colour
  const ACCENT = /^(?:bg|text|border)-(?:primary|accent|secondary)(?:-foreground)?(?:\/\d+)?$/;
  const tokens = el => new Set((typeof el.className === 'string' ? el.className : '').split(/\s+/));
  const highlighted = el => {
    const peers = el.parentElement ? [...el.parentElement.children].filter(o => o !== el && o.tagName === el.tagName) : [];
    if (peers.length < 2) return false;
    const theirs = new Set(peers.flatMap(o => [...tokens(o)]));
    return [...tokens(el)].some(t => ACCENT.test(t) && !theirs.has(t));
  };
  const active = el => el.getAttribute('aria-selected') === 'true' || el.getAttribute('aria-pressed') === 'true' ||
    !!el.getAttribute('aria-current') || ['active', 'on', 'checked'].includes(el.getAttribute('data-state')) ||
    /\b(active|selected|current|is-active)\b/.test(el.className || '') || highlighted(el);
  // a drag handle (dnd-kit's "sortable") rightly does nothing on a click
  const handle = el => /sortable|draggable/i.test(el.getAttribute('aria-roledescription') || '');
  const all = [...document.querySelectorAll('button, a[href], [role=button], [role=tab], [role=link]')].filter(el =>
    !el.closest('form') && !el.disabled && vis(el) && !active(el) && !handle(el) && !el.hasAttribute('download'));
  // like controls share a key: their tag path up to the nearest id the app chose itself (ids a framework generates,
  // such as React's ":r3:" behind every row's menu button, differ from row to row and are skipped)
  const groupKey = el => {
    const parts = [];
    for (let n = el; n && n.nodeType === 1 && n !== document.body; n = n.parentElement) {
      if (n.id && !n.id.includes(':')) { parts.unshift('#' + n.id); break; }
      parts.unshift(n.tagName.toLowerCase());
    }
    return parts.join('>');
  };
  const groups = {}; const out = [];
  for (const el of all) {
    const link = el.closest('a[href]');  // the link itself, or the link a button sits in
    if (link) {
      const href = link.getAttribute('href') || '';
      if (/^(mailto:|tel:|javascript:)/i.test(href)) continue;
      try { if (new URL(link.href).origin !== location.origin) continue; } catch (e) { continue; }
      const target = link.href.replace(/\/$/, '');
      // a link to the page already shown (the brand logo at home, the current menu entry) rightly changes nothing;
      // a link to a page the exploration opened already: where it leads was seen there
      if (!href.startsWith('#') && (target === location.href.replace(/\/$/, '') || known.includes(target))) continue;
    }
    const sel = window.__wtSelector(el);
    const key = groupKey(el);
    groups[key] = (groups[key] || 0) + 1;
    if (groups[key] > perGroup) continue;
    out.push({sel, text: (el.innerText || el.getAttribute('aria-label') || '').trim().slice(0, 60)});
  }
  // the controls whose name matches ``first`` come first, then the others (the sort is stable: page order within each)
  const firstRe = first ? new RegExp(first, 'i') : null;
  const ahead = c => firstRe && firstRe.test(c.text) ? 0 : 1;
  return out.sort((a, b) => ahead(a) - ahead(b)).slice(0, limit);
}"""

_FINGERPRINT_JS = r"""() => {
  const vis = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const body = document.body ? document.body.innerHTML : '';
  const values = [...document.querySelectorAll('input, select, textarea')].map(e => e.type === 'checkbox' || e.type === 'radio' ? e.checked : e.value).join('|');
  const dialogs = [...document.querySelectorAll('dialog, [role=dialog], [role=alertdialog], [aria-modal=true]')].filter(vis).map(d => window.__wtSelector(d));
  const focus = document.activeElement && document.activeElement !== document.body ? window.__wtSelector(document.activeElement) : '';
  let h = 0; const s = body + values;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
  return {url: location.href, hash: h, scroll: Math.round(window.scrollY), dialogs, focus};
}"""

_CLOSE_JS = r"""(dialogSel) => {
  const vis = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const box = document.querySelector(dialogSel);
  if (!box) return null;
  const ctl = [...box.querySelectorAll('button, [role=button], a')].find(b => vis(b) &&
    (/\bclose\b|\bdismiss\b/i.test((b.getAttribute('aria-label') || '') + ' ' + (b.title || '') + ' ' + b.innerText) ||
     /^\s*[×✕✖xX]\s*$/.test(b.innerText)));
  return ctl ? window.__wtSelector(ctl) : null;
}"""

#: a look-alike of the control ``sel`` in its group (a sibling of the same kind, or the same control in a sibling
#: of one of its three nearest ancestors): another tab of its tab bar, another entry of its menu; null when none
_PEER_JS = r"""([sel, skip]) => {
  const vis = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const el = document.querySelector(sel);
  if (!el) return null;
  const skipRe = new RegExp(skip, 'i');
  const text = e => (e.innerText || e.getAttribute('aria-label') || '').trim();
  // another choice: named otherwise, or, for a bar of icons (grid / list view), drawn otherwise
  const usable = c => c && c !== el && vis(c) && !c.disabled && !c.closest('form') && !skipRe.test(text(c)) &&
    (text(el) ? text(c) && text(c) !== text(el) : !text(c) && c.innerHTML !== el.innerHTML);
  let n = el;
  for (let level = 0; level < 4 && n && n.parentElement; level++, n = n.parentElement) {
    for (const sib of n.parentElement.children) {
      if (sib === n || sib.tagName !== n.tagName) continue;
      const c = level === 0 ? sib : (sib.matches(el.tagName) ? sib : sib.querySelector(el.tagName));
      if (usable(c)) return window.__wtSelector(c);
    }
  }
  return null;
}"""

#: the dialog is shown and not on its way out (a closing Radix dialog keeps data-state="closed" while it fades)
_VISIBLE_JS = ("(sel) => { const el = document.querySelector(sel); return !!el && el.getClientRects().length > 0 && "
               "getComputedStyle(el).visibility !== 'hidden' && el.getAttribute('data-state') !== 'closed'; }")
#: how long a dialog may take to close (its exit animation) before it counts as left open
CLOSE_WAIT_MS = 1500


def _stays_open(page: Page, dialog_sel: str) -> bool:
    """The dialog is still shown ``CLOSE_WAIT_MS`` after it was asked to close (it may animate out first)."""
    deadline = time.monotonic() + CLOSE_WAIT_MS / 1000
    while evaluate(page, _VISIBLE_JS, dialog_sel):
        if time.monotonic() >= deadline:
            return True
        page.wait_for_timeout(100)
    return False

OnChange = Callable[[str, dict], None]


def fingerprint(sess: ProbeSession) -> dict:
    evaluate(sess.page, SELECTOR_JS)
    return evaluate(sess.page, _FINGERPRINT_JS)


def _unchanged(before: dict, after: dict) -> bool:
    """The click had no visible effect: only the focus may have moved (a focused button has not responded)."""
    return {k: v for k, v in before.items() if k != "focus"} == {k: v for k, v in after.items() if k != "focus"}


def probe_controls(sess: ProbeSession, *, max_controls: int = 20, per_group: int = 2,
                   on_change: OnChange | None = None, first: re.Pattern[str] | None = CREATING,
                   known: Collection[str] = ()) -> None:
    """Click the controls of the page the session is on (see the module docstring): those whose name ``first``
    matches (default: the ones that create an entry, whose forms the form probes need) before the others, in case
    the time runs out. Links to ``known`` pages (opened already) are not clicked."""
    page = sess.page
    url = page.url
    evaluate(page, SELECTOR_JS)
    here = url.split("#")[0].rstrip("/")
    visited = sorted({u.split("#")[0].rstrip("/") for u in known} - {here})
    controls = evaluate(page, _CONTROLS_JS, [max_controls, per_group, first.pattern if first else None, visited])
    dialogs_seen: set[str] = set()
    for control in controls:
        if SKIP_TEXT.search(control["text"]):
            continue
        loc = page.locator(control["sel"])
        if not matches(loc):
            continue
        sess.spend()
        before = fingerprint(sess)
        native = len(sess.dialogs)
        shown, mark = describe_element(page, control["sel"]), sess.before_action()
        try:
            sess.click(control["sel"])
        except Exception:  # covered, detached or moving: not evidence of anything
            dismiss(page)  # a layer left open (a select's option list) would take the next clicks too
            continue
        sess.settle()
        if sess.check_blank(shown, "clicking", mark):
            sess.goto(url)
            continue
        after = fingerprint(sess)
        element = describe_element(page, control["sel"])
        sess.step(f"clicked {element}")
        if _unchanged(before, after) and len(sess.dialogs) == native:
            if _current_choice(sess, control["sel"], url):
                sess.ok("dead-control", element, "the current choice of its group: it changes nothing until another one "
                                                  "is chosen, and then it responds")
                continue
            sess.found("dead-control", element,
                       "clicking this control changes nothing on the page (no navigation, no content change, no dialog, no scroll)",
                       shot_of=control["sel"])
            continue
        opened = [d for d in after["dialogs"] if d not in before["dialogs"]]
        if after["url"] != before["url"]:
            seen = sess.journal.expect("expect_url", "held", value=sess.journal.relative(after["url"]))
        else:
            seen = sess.journal.expect("expect_visible", "held", reusable=css(opened[0])) if opened else None
        sess.ok("dead-control", element, "responded", expect=[seen])
        if on_change is not None:
            on_change(control["sel"], after)
        if opened:
            kind = _dialog_kind(sess, opened[0])
            if kind in dialogs_seen:  # another row's "Edit Task" dialog: the same component closes the same way
                sess.step(f"a dialog like {kind!r} opened again: its closing was checked on the first one")
            else:
                dialogs_seen.add(kind)
                probe_dialog(sess, opened[0], control["sel"], element)
        sess.goto(url)


def _dialog_kind(sess: ProbeSession, dialog_sel: str) -> str:
    """What a dialog is, by the first words it shows ("Edit Task Title"): dialogs that open with the same words are
    one component."""
    text = evaluate(sess.page, "(sel) => { const d = document.querySelector(sel); return d ? d.innerText : ''; }", dialog_sel)
    return " ".join(str(text or "").split()[:3]).lower()


def _current_choice(sess: ProbeSession, sel: str, url: str) -> bool:
    """The control ``sel``, whose click changed nothing, is its group's current choice (the tab or filter shown):
    after one of its look-alikes is clicked, clicking it changes the page. The page is opened again afterwards."""
    page = sess.page
    peer = evaluate(page, _PEER_JS, [sel, SKIP_TEXT.pattern])
    if not peer:
        return False
    other = describe_element(page, peer)
    try:
        sess.spend(2)
        sess.click(peer)
        sess.settle()
        chosen = fingerprint(sess)
        sess.click(sel)
        sess.settle()
        changed = not _unchanged(chosen, fingerprint(sess))
    except (BudgetExceeded, PageUnresponsive):  # the time is up (TimeUp is a BudgetExceeded), or the page hangs
        raise
    except Exception:  # the look-alike took the control away (another route without it): nothing learned
        changed = False
    sess.step(f"clicked {other}, then the control again: "
              + ("it responded" if changed else "it still changed nothing"))
    sess.goto(url)
    return changed


def probe_dialog(sess: ProbeSession, dialog_sel: str, opener_sel: str, opener: str) -> None:
    """The dialog ``dialog_sel`` (just opened by ``opener_sel``) closes with its close control and with Escape."""
    page = sess.page
    name = describe_element(page, dialog_sel)
    dialog = sess.journal.locate(page.locator(dialog_sel).first, dialog_sel)
    close_sel = evaluate(page, _CLOSE_JS, dialog_sel)
    if close_sel:
        sess.spend()
        close = describe_element(page, close_sel)
        try:
            sess.click(close_sel)
        except Exception:
            close_sel = None
        else:
            sess.settle()
            sess.step(f"clicked {close} in dialog {name}")
            if _stays_open(page, dialog_sel):
                sess.found("close-control-broken", f"{close} in dialog {name}",
                           "clicking the dialog's close control leaves the dialog open", full=True,
                           expect=[_hidden(sess, dialog, "failed")], opener=opener)
                sess.goto()
            else:
                sess.ok("dialog-close", f"{close} in dialog {name}", "closed the dialog", expect=[_hidden(sess, dialog, "held")])
    # reopen and press Escape
    try:
        if not matches(page.locator(opener_sel)):
            return
        sess.spend(2)
        sess.click(opener_sel)
        sess.settle()
        if not evaluate(page, _VISIBLE_JS, dialog_sel):
            return
        with bounded(page), sess.journal.act("press", value="Escape"):
            page.keyboard.press("Escape")
        sess.settle()
    except Exception:
        return
    sess.step(f"pressed Escape in dialog {name}")
    if _stays_open(page, dialog_sel):
        sess.found("escape-does-not-close", f"dialog {name}", "pressing Escape leaves the dialog open", full=True,
                   expect=[_hidden(sess, dialog, "failed")], opener=opener)
    else:
        sess.ok("dialog-close", f"Escape in dialog {name}", "closed the dialog", expect=[_hidden(sess, dialog, "held")])


def _hidden(sess: ProbeSession, dialog: Reusable | None, want: Outcome) -> ActionRecord | None:
    """The expectation that the dialog is hidden, with outcome ``want``."""
    return sess.journal.expect("expect_hidden", want, reusable=dialog) if dialog else None


_VOTE_JS = r"""() => {
  const vis = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const btn = [...document.querySelectorAll('button, [role=button]')].find(b => vis(b) && !b.closest('form') &&
    /\b(up-?vote|vote|like)\b|▲|👍/i.test((b.getAttribute('aria-label') || '') + ' ' + (b.title || '') + ' ' + b.innerText));
  return btn ? window.__wtSelector(btn) : null;
}"""

_NUMBER_NEAR_JS = r"""(sel) => {
  const b = document.querySelector(sel);
  if (!b) return null;
  for (const t of [b.innerText, b.parentElement ? b.parentElement.innerText : '']) {
    const m = /(-?\d+)/.exec(t || '');
    if (m) return parseInt(m[1], 10);
  }
  return null;
}"""


def probe_vote(sess: ProbeSession) -> None:
    """A vote button clicked twice should not count two votes from one person."""
    page = sess.page
    evaluate(page, SELECTOR_JS)
    sel = evaluate(page, _VOTE_JS)
    if not sel:
        return
    start = evaluate(page, _NUMBER_NEAR_JS, sel)
    if start is None:
        return
    element = describe_element(page, sel)
    counts = [start]
    for _ in range(2):
        sess.spend()
        try:
            sess.click(sel)
        except Exception:
            return
        sess.settle()
        counts.append(evaluate(page, _NUMBER_NEAR_JS, sel))
    sess.step(f"clicked {element} twice: counts {counts}")
    if None in counts or counts[1] == counts[0]:
        return
    if counts[2] - counts[0] >= 2:
        sess.found("repeat-vote", element, f"clicking the vote control twice counted two votes ({counts[0]} -> {counts[2]})",
                   shot_of=sel, counts=counts)
    elif counts[2] == counts[0]:
        sess.ok("vote", element, f"the second click took the vote back ({counts[0]} -> {counts[1]} -> {counts[2]})")
    sess.goto(page.url)
