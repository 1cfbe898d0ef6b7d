"""Delete probe: removing a listed entry through its own Delete control asks for confirmation first.

On each page given, the probe looks for a visible delete control that belongs to one entry (a button or link
whose text, label or title says delete / remove / trash, an icon-only button drawing a trash can, or the Delete
item of the menu an entry's "..." button opens), notes a text of the entry that nothing else on the page shows,
and clicks the control once. Then:

* a confirm() dialog, an in-page dialog or alert dialog, or an "Undo" offer counts as a confirmation
  (``delete-confirm`` covered; an in-page dialog is dismissed with its Cancel button or Escape);
* the entry's text gone from the page with none of these is a ``delete-unconfirmed`` finding;
* the delete control (or the menu holding it) covered by another element, so that no click reaches it: a
  ``control-covered`` finding (:func:`webtester.probes.reach.click_reachable`);
* anything else (nothing changed, the control opened another view) is left unjudged.

The probe is destructive, so the site's local storage is saved before and put back after it, and the page
is opened again. One judged deletion is enough: the probe stops at the first (a deletion that left the entry in
view is not judged, and the next page is tried).
"""

from __future__ import annotations

from webtester.browser.watchdog import PageUnresponsive, dismiss, evaluate
from webtester.probes.entries import LIST_HEADING_JS
from webtester.probes.reach import click_reachable
from webtester.probes.session import BudgetExceeded, ProbeSession

#: marks (``data-wt-del``) the first visible delete control of an entry, or with ``menu`` the first button of an entry
#: that opens a menu (``data-wt-menu``, a row's "..." whose menu may hold Delete); returns the control's label, a
#: text of its entry that nothing else on the page shows, and ``menu``
_FIND_JS = r"""(menu) => {
  const vis = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const said = el => ((el.innerText || '') + ' ' + (el.getAttribute('aria-label') || '') + ' ' + (el.title || '')).trim();
  const trashIcon = el => [...el.querySelectorAll('svg')].some(s => /\btrash|lucide-trash|delete/i.test(s.getAttribute('class') || '') ||
    /trash|delete/i.test(s.getAttribute('data-icon') || ''));
  const isDelete = el => /\b(delete|remove|trash)\b/i.test(said(el)) && !/\b(filter|filters|all|selected|cart|from cart|account|search)\b/i.test(said(el))
    || (!(el.innerText || '').trim() && trashIcon(el));
  const opensMenu = el => /^(menu|true)$/.test(el.getAttribute('aria-haspopup') || '') && !(el.innerText || '').trim().match(/\w{3,}.*\w{3,}/) &&
    !el.matches('[role=combobox]');
  const body = document.body ? document.body.innerText : '';
  const count = line => body.split(line).length - 1;
  const attr = menu ? 'data-wt-menu' : 'data-wt-del';
  const controls = [...document.querySelectorAll('button, [role=button], a')].filter(el =>
    vis(el) && !el.disabled && !el.closest('form, dialog, [role=dialog], [role=alertdialog], [role=menu], nav, header') &&
    (menu ? opensMenu(el) : isDelete(el)));
  for (const ctl of controls) {
    let box = ctl.parentElement;
    for (let depth = 0; box && box !== document.body && depth < 6; depth++, box = box.parentElement) {
      if ((box.innerText || '').length > 600) break;
      const lines = [];
      const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const l = n.textContent.trim();
        if (l.length >= 4 && l.length <= 80 && vis(n.parentElement) && !/^\d[\d\s.,:%$€£\/-]*$/.test(l) && count(l) === 1 &&
            !/\b(delete|remove|edit)\b/i.test(l)) lines.push(l);
      }
      if (lines.length) {
        document.querySelectorAll('[' + attr + ']').forEach(el => el.removeAttribute(attr));
        ctl.setAttribute(attr, '1');
        lines.sort((a, b) => b.length - a.length);
        const name = (ctl.innerText || '').trim() || ctl.getAttribute('aria-label') || ctl.title || (menu ? 'menu button' : 'trash icon');
        return {label: name.replace(/\s+/g, ' ').slice(0, 60), entry: lines[0], menu};
      }
    }
  }
  return null;
}"""
#: marks the Delete item of the menu that is open
_MENU_ITEM_JS = r"""() => {
  const item = [...document.querySelectorAll('[role=menuitem]')].find(el => el.getClientRects().length > 0 &&
    /\b(delete|remove)\b/i.test(el.innerText || el.getAttribute('aria-label') || ''));
  if (!item) return null;
  item.setAttribute('data-wt-del', '1');
  return (item.innerText || item.getAttribute('aria-label') || '').replace(/\s+/g, ' ').trim().slice(0, 60);
}"""
_DIALOG_JS = r"""() => {
  const vis = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden' && el.getAttribute('data-state') !== 'closed';
  const box = [...document.querySelectorAll('dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true]')].find(vis);
  if (!box) return null;
  const cancel = [...box.querySelectorAll('button')].find(b => vis(b) && /\b(cancel|no|keep|close)\b/i.test(b.innerText || b.getAttribute('aria-label') || ''));
  if (cancel) cancel.setAttribute('data-wt-cancel', '1');
  return (box.innerText || '').replace(/\s+/g, ' ').trim().slice(0, 160);
}"""
_UNDO_JS = r"""() => [...document.querySelectorAll('button, [role=button], a, [role=status], [role=alert], li, div')]
  .some(el => el.children.length <= 3 && el.getClientRects().length > 0 && /^\s*undo\b/i.test(el.innerText || ''))"""
_SAVE_STORAGE_JS = "() => JSON.stringify(Object.entries(localStorage))"
_RESTORE_STORAGE_JS = "(saved) => { localStorage.clear(); for (const [k, v] of JSON.parse(saved)) localStorage.setItem(k, v); }"


def probe_delete_confirmation(sess: ProbeSession, pages: list[str]) -> bool:
    """Click the delete control of one listed entry on each of ``pages`` in turn until a deletion is judged, and
    record whether it asked for confirmation (see the module docstring); True when one was judged."""
    for url in pages:
        sess.goto(url)
        try:
            target = evaluate(sess.page, _FIND_JS, False) or evaluate(sess.page, _FIND_JS, True)
            saved = evaluate(sess.page, _SAVE_STORAGE_JS) if target else None
        except (BudgetExceeded, PageUnresponsive):
            raise
        except Exception:
            continue
        if not target:
            continue
        try:
            label = _open_menu(sess, target["entry"]) if target["menu"] else target["label"]
            if label is not None and _judge(sess, label, target["entry"]):
                return True
        except (BudgetExceeded, PageUnresponsive):
            raise
        except Exception as exc:  # the page changed under the probe: nothing judged, the other probes go on
            sess.step(f"delete probe on {url}: stopped by {type(exc).__name__}; not judged")
        finally:
            _restore(sess, saved, url)
    return False


def _open_menu(sess: ProbeSession, entry: str) -> str | None:
    """Open the entry's menu (marked by :data:`_FIND_JS`); the label of its Delete item, or None (menu closed again)
    when it has none."""
    sess.spend()
    trigger = sess.page.locator('[data-wt-menu="1"]').first
    with sess.journal.act("click", trigger, key=f"menu of {entry}"):
        reached = click_reachable(sess, trigger, f'menu control of the entry "{entry}"', action="delete",
                                  subject=_list_subject(sess, '[data-wt-menu="1"]'))
    if not reached:
        return None
    sess.settle(250)
    label = evaluate(sess.page, _MENU_ITEM_JS)
    if not label:
        dismiss(sess.page)
        sess.step(f"the menu of the entry {entry!r} has no Delete item")
    return label


def _list_subject(sess: ProbeSession, selector: str) -> str:
    """What the entries whose control ``selector`` marks are: the heading above their list, else the page's first."""
    heading = str(evaluate(sess.page, LIST_HEADING_JS, [selector, True]) or "")
    headings = sess.before_action().headings
    return heading or (headings[0] if headings else "")


def _judge(sess: ProbeSession, label: str, entry: str) -> bool:
    element = f'delete control "{label}" of the entry "{entry}"'
    dialogs = len(sess.dialogs)
    sess.spend()
    control = sess.page.locator('[data-wt-del="1"]').first
    try:
        with sess.journal.act("click", control, key=f"delete {entry}"):
            reached = click_reachable(sess, control, element, action="delete", subject=_list_subject(sess, '[data-wt-del="1"]'))
    except Exception:
        sess.step(f"{element}: could not be clicked; not judged")
        return False
    if not reached:
        return True
    sess.settle(400)
    if len(sess.dialogs) > dialogs:
        sess.ok("delete-confirm", element, f"the browser asked for confirmation: {sess.dialogs[-1][:120]!r}")
        return True
    shown = evaluate(sess.page, _DIALOG_JS)
    if shown:
        sess.ok("delete-confirm", element, f"a confirmation dialog opened: {shown!r}")
        _dismiss(sess)
        return True
    if evaluate(sess.page, _UNDO_JS):
        sess.ok("delete-confirm", element, "the deletion offered an Undo")
        return True
    if sess.shows(entry):
        sess.step(f"{element}: clicking it left the entry in view; not judged")
        return False
    sess.found("delete-unconfirmed", element,
               f"clicking {label!r} removed the entry {entry!r} at once: no confirmation was asked and no undo offered",
               full=True, expect=[sess.journal.expect("expect_no_text", "held", value=entry)], entry=entry)
    return True


def _dismiss(sess: ProbeSession) -> None:
    """Close a confirmation dialog without confirming: its Cancel button, else Escape."""
    try:
        cancel = sess.page.locator('[data-wt-cancel="1"]').first
        if cancel.count():
            cancel.click(timeout=1500)
        else:
            dismiss(sess.page)
    except Exception:
        pass
    sess.settle(200)


def _restore(sess: ProbeSession, saved: str | None, url: str) -> None:
    """Put the site's local storage back as it was before the deletion and open ``url`` again."""
    if saved is not None:
        try:
            evaluate(sess.page, _RESTORE_STORAGE_JS, saved)
        except Exception:
            pass
    sess.goto(url)
