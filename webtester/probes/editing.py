"""Edit probe: an entry the form probes created, changed through its own Edit control, shows the change.

Run on the entry a valid submission listed, before the page is reloaded. The probe looks
for a visible edit control belonging to the entry (a button or link whose text, label or title says edit /
modify / rename, or an icon-only button drawing a pencil), clicks it, and expects the fields that hold the
entry's text (its marker) to be editable. It replaces the marker in each of them with a new one and presses
the edit form's Save / Update button (else Enter in the first field). Then:

* the new marker shown and the old one gone: the edit was saved (``edit`` covered); whether it survives a
  reload is the form probes' check (``edit-lost-on-reload``);
* the old marker still shown and the new one nowhere, with the edit form closed: an ``edit-not-saved`` finding;
* the page blank after Save: a ``blank-after-action`` finding (:meth:`ProbeSession.check_blank`);
* the edit control covered by another element, so that no click reaches it: a ``control-covered`` finding
  (:func:`webtester.probes.reach.click_reachable`);
* anything else (no edit control, no field holding the marker, the form still open, both markers shown) is
  left unjudged, with a step saying why.

Returns the marker the entry now shows and the one typed, so that the reload check and the deletion find it.

:func:`probe_listed_edit` does the same for an entry the app listed itself (its title is the marker), so that
an edit of existing data is tried where no form of the app created an entry.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from webtester.browser.watchdog import PageUnresponsive, dismiss, evaluate
from webtester.probes.entries import ENTRY_CONTROL_JS, LIST_HEADING_JS
from webtester.probes.lists import ENTRY_FIELDS_JS
from webtester.probes.pagemodel import PageModel
from webtester.probes.reach import click_reachable
from webtester.probes.session import BudgetExceeded, ProbeSession

#: with ``before``: marks (``data-wt-held``) the fields that hold the marker before the edit control is clicked (the
#: creating form kept its text). Else marks (``data-wt-edit-field``) the visible editable fields whose value holds
#: the marker, other than those, and (``data-wt-edit-save``) the Save button of the form or dialog around the first;
#: returns their count and the button's label
_EDIT_FORM_JS = r"""([token, before]) => {
  const vis = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const holding = [...document.querySelectorAll('input, textarea')].filter(e => vis(e) && !e.disabled && !e.readOnly &&
    !['hidden', 'checkbox', 'radio', 'submit', 'button'].includes(e.type) && (e.value || '').includes(token));
  if (before) { holding.forEach(e => e.setAttribute('data-wt-held', '1')); return null; }
  const fields = holding.filter(e => !e.hasAttribute('data-wt-held'));
  document.querySelectorAll('[data-wt-edit-field], [data-wt-edit-save]').forEach(el => {
    el.removeAttribute('data-wt-edit-field'); el.removeAttribute('data-wt-edit-save'); });
  if (!fields.length) return null;
  fields.forEach((e, i) => e.setAttribute('data-wt-edit-field', String(i)));
  const label = b => ((b.innerText || b.value || '') + ' ' + (b.getAttribute('aria-label') || '') + ' ' + (b.title || '')).replace(/\s+/g, ' ').trim();
  const saves = b => vis(b) && !b.disabled && /\b(save|update|confirm|done|apply|submit|ok)\b/i.test(label(b)) &&
    !/\b(cancel|discard|delete|remove|close)\b/i.test(label(b));
  let box = fields[0].closest('form, dialog, [role=dialog], [role=alertdialog]');
  let save = box && [...box.querySelectorAll('button, [role=button], input[type=submit]')].find(saves);
  if (!save && box && box.tagName === 'FORM') save = [...box.querySelectorAll('[type=submit]')].find(vis);
  for (let up = fields[0].parentElement, depth = 0; !save && up && up !== document.body && depth < 5; depth++, up = up.parentElement)
    save = [...up.querySelectorAll('button, [role=button]')].find(saves);
  if (save) save.setAttribute('data-wt-edit-save', '1');
  return {fields: fields.length, save: save ? (label(save) || 'save').slice(0, 60) : null};
}"""
_STILL_OPEN_JS = r"""() => [...document.querySelectorAll('[data-wt-edit-field]')].some(e => e.getClientRects().length > 0)"""


def form_name(where: str) -> str:
    """The form's name in a probe's ``where`` ('form "Add task"' -> 'Add task')."""
    names = re.findall(r'"([^"]+)"', where)
    return names[0] if names else where


@dataclass(frozen=True)
class Edit:
    """What an edit left: the marker the entry shows (``marker``), and the one typed into its fields (``typed``,
    None when nothing was typed), which a save the page did not show may still have stored."""

    marker: str
    typed: str | None = None

    def markers(self) -> list[str]:
        """The markers the entry may carry after a reload, the one it showed first."""
        return [self.marker] + ([self.typed] if self.typed and self.typed != self.marker else [])


def probe_edit(sess: ProbeSession, where: str, token: str) -> Edit:
    """Change the listed entry that shows ``token`` through its edit control (see the module docstring)."""
    try:
        return _edit(sess, where, token)
    except (BudgetExceeded, PageUnresponsive):
        raise
    except Exception as exc:  # the page changed under the probe: nothing judged
        sess.step(f"{where}: editing the entry {token} stopped by {type(exc).__name__}; not judged")
        return Edit(token)


def probe_listed_edit(sess: ProbeSession, model: PageModel) -> bool:
    """Edit the first (else the last) entry of the page's list whose title the page shows once and which has its
    own edit control, as :func:`probe_edit` does with a created entry; True when such an entry was found."""
    if not model.list_sel or not model.list_key:
        return False
    page = sess.page
    for at in (0, -1):
        entry = evaluate(page, ENTRY_FIELDS_JS, [model.list_sel, model.list_key, at]) or {}
        title = str(entry.get("title") or "").strip()
        if len(title) < 4 or sess.times_shown(title) != 1:
            continue
        if not evaluate(page, ENTRY_CONTROL_JS, [title, "edit", "data-wt-edit"]):
            continue
        heading = str(evaluate(page, LIST_HEADING_JS, [model.list_sel, False]) or "") or title
        sess.step(f'list "{heading}": editing the listed entry {title!r}')
        probe_edit(sess, f'list "{heading}"', title)
        return True
    return False


def _edit(sess: ProbeSession, where: str, token: str) -> Edit:
    page = sess.page
    evaluate(page, _EDIT_FORM_JS, [token, True])
    label = evaluate(page, ENTRY_CONTROL_JS, [token, "edit", "data-wt-edit"])
    if not label:
        return Edit(token)
    element = f'edit control "{label}" of the entry "{token}" ({where})'
    subject = form_name(where)  # what the findings are about: the form that created the entry
    sess.spend()
    control = page.locator(f"[data-wt-edit={json.dumps(token)}]").first
    opening = sess.before_action()
    with sess.journal.act("click", control, key=f"edit {token}"):
        reached = click_reachable(sess, control, element, action="edit", subject=subject)
    if not reached:
        return Edit(token)
    sess.settle(300)
    if sess.check_blank(element, "clicking", opening):
        return Edit(token)
    form = evaluate(page, _EDIT_FORM_JS, [token, False])
    if not form:
        sess.step(f"{element}: no editable field holding the entry's text opened; not judged")
        return Edit(token)
    new = sess.token()
    for i in range(min(int(form["fields"]), 4)):
        sess.spend()
        box = page.locator(f'[data-wt-edit-field="{i}"]').first
        value = box.input_value(timeout=2000).replace(token, new)
        with sess.journal.act("fill", box, value, key=f"edit field {i}"):
            box.fill(value, timeout=2000)
    before = sess.before_action()
    sess.spend()
    if form["save"]:
        save = page.locator('[data-wt-edit-save="1"]').first
        with sess.journal.act("click", save, key=f"save {new}"):
            save.click(timeout=2000)
    else:
        first = page.locator('[data-wt-edit-field="0"]').first
        with sess.journal.act("press", first, "Enter", key=f"save {new}"):
            first.press("Enter", timeout=2000)
    sess.settle(500)
    sess.wait_while_busy('[data-wt-edit-save="1"]' if form["save"] else None)
    saved_with = f"{form['save']!r}" if form["save"] else "Enter"
    if sess.check_blank(element, f"saving with {saved_with}", before):
        return Edit(token, new)
    old_shown, new_shown = sess.shows(token), sess.shows(new)
    if (old_shown or not new_shown) and evaluate(page, _STILL_OPEN_JS):  # (a form that is always shown may stay)
        sess.step(f"{element}: the edit form stayed open after {saved_with}; not judged")
        dismiss(page)
        return Edit(token, new)
    if old_shown and not new_shown:
        sess.found("edit-not-saved", element,
                   f"the entry's text was changed from {token} to {new} in its edit form and saved with {saved_with}, "
                   f"but the entry still shows {token}", full=True, field=subject,
                   expect=[sess.journal.expect("expect_text", "failed", value=new)])
        return Edit(token, new)
    if not new_shown or old_shown:
        sess.step(f"{element}: after the edit the page shows {'both markers' if old_shown else 'neither marker'}; not judged")
        return Edit(new if new_shown else token, new)
    sess.ok("edit", element, f"the entry's text changed from {token} to {new} after {saved_with}",
            expect=[sess.journal.expect("expect_text", "held", value=new)])
    return Edit(new, new)
