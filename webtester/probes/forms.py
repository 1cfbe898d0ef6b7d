"""Form probes: empty and valid submissions, text fields holding only spaces, invalid values, dates in the past or
the future and end dates before start dates, unset required choices, unavailable options, buttons that stay
disabled, feedback, clearing, the same data submitted twice, whether created or deleted entries survive a reload, and
whether an edit of a created entry is saved (:mod:`webtester.probes.editing`). The steps of a wizard are
filled one after another, so that a page that goes blank on a later step is seen.

Fields with no ``<form>`` element (``FormModel.loose``) get the same battery, with two cautions: new text alone
after their button is not taken as a sign that the data was saved, and the same data saved twice counts only when
two entries with it are listed.

Each probe reopens the form through a caller-supplied ``reopen()`` (which navigates to the form and clicks
whatever opens it) so every submission starts from the same state. The second of two equal submissions reopens
it in place when the caller supplies ``reopen_here()`` (the form as it is on the page, or opened again from
there, without loading the page): an app that keeps its entries only in memory then still lists the first. A
value counts as accepted only when the submission shows the same kind of success as a valid one and no error;
anything unclear is not a finding.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from webtester.browser.session import ACTION_TIMEOUT_MS
from webtester.browser.watchdog import bounded, evaluate, matches
from webtester.models import ActionRecord
from webtester.probes import widgets
from webtester.probes.editing import form_name, probe_edit
from webtester.probes.entries import ENTRY_CONTROL_JS
from webtester.probes.figures import compare_figures
from webtester.probes.interactive import PageState, _fill_value
from webtester.probes.journal import css, stable_line
from webtester.probes.pagemodel import DATE_ASKED, Field, FormModel, read_model
from webtester.probes.session import CLICK_TIMEOUT_MS, ERROR_WORDS, SUCCESS_WORDS, ProbeSession
from webtester.probes.steps import STEP_WORDS, take_choice_steps

UNAVAILABLE = re.compile(r"sold[ -]?out|unavailable|not available|fully booked|\bfull\b(?![- ]time)|waitlist", re.IGNORECASE)
CONSENT = re.compile(r"agree|accept|terms|consent|code of conduct|i confirm|privacy", re.IGNORECASE)
DELETE_WORDS = re.compile(r"\b(delete|remove|trash|discard)\b", re.IGNORECASE)
CONFIRM_WORDS = re.compile(r"\b(delete|remove|yes|confirm|ok|continue)\b", re.IGNORECASE)
DATE_KINDS = ("date", "datetime-local")
START_LABEL = re.compile(r"\b(start|from|begin|begins|check[- ]?in|departure|opens?)\b", re.IGNORECASE)
END_LABEL = re.compile(r"\b(end|ends|to|until|finish|check[- ]?out|return|closes?|due)\b", re.IGNORECASE)
PAST_DAYS, FUTURE_DAYS = 400, 5 * 365  # clearly in the past / far in the future, whatever today's date
#: a date field about what already happened (a visit reviewed, a birth, a purchase): a past date is its normal value
RETROSPECTIVE = re.compile(r"\b(visit(?:ed)?|birth\w*|born|dob|purchased?|incurred|occurred|happened)\b", re.IGNORECASE)
#: forms that create nothing: sending the same data again is no duplicate
NOT_CREATING = re.compile(r"\b(sign ?in|log ?in|login|password|subscribe|newsletter|search|filter)\b", re.IGNORECASE)
#: words of changing what exists (an edit, an update, settings, preferences) rather than creating an entry
CHANGING = re.compile(r"\b(?:edit|updat|modif|chang|renam|setting|preference)\w*", re.IGNORECASE)
#: a name (a form's, a button's) that starts with creating an entry of the app's own data (add, create, new, post ...),
#: after any icon or "+" before it
CREATING = re.compile(r"^\W*(add|create|new|post|log|submit|book|reserve|schedule|apply|publish|send|write|"
                      r"upload|register|make|start|plan|save|confirm)\b", re.IGNORECASE)

#: signs that a submission was taken: strong ones name what was saved, weak ones only show that the page changed
STRONG_SIGNS = frozenset({"message", "list-grew", "entry-shown", "field-added"})
WEAK_SIGNS = frozenset({"form-closed", "navigated", "new-text"})
#: what shows a submission was taken, beyond new text on the page
CLEAR_SIGNS = STRONG_SIGNS | (WEAK_SIGNS - {"new-text"})

#: fields chosen by a click rather than typed into: custom selects and date pickers, and the native choices
WIDGET_KINDS = ("combobox", "datepicker", "rating")
CHOICE_KINDS = ("select", "radio", "checkbox", *WIDGET_KINDS)
#: the token of the empty submission: no data of its own to look for
NO_TOKEN = "\u0000none"

Reopen = Callable[[], "FormModel | None"]

_FORM_STATE_JS = r"""([formSel, submitSel]) => {
  const form = document.querySelector(formSel);
  const submit = submitSel && document.querySelector(submitSel);
  const vis = el => !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  if (!form) return {present: false};
  // custom selects and date pickers asking for a choice (their placeholder is no message)
  const asks = el => el.matches('[data-placeholder]') || new RegExp(DATE_ASKED, 'i').test(el.innerText.trim());
  const invalid = [...form.querySelectorAll('[aria-invalid=true]')].filter(vis).length;
  const alerts = [...form.querySelectorAll('[role=alert], .error, .field-error, .invalid-feedback, .error-message')]
    .filter(el => vis(el) && el.innerText.trim()).map(el => el.innerText.trim());
  return {present: true, visible: vis(form), valid: form.tagName !== 'FORM' || form.noValidate ? true : form.checkValidity(),
          invalid, alerts, disabled: !!(submit && submit.disabled),
          placeholders: [...form.querySelectorAll('button[role=combobox], button[aria-haspopup=dialog]')].filter(asks).map(el => el.innerText.trim()),
          values: [...form.querySelectorAll('input, textarea')].filter(e => !['checkbox', 'radio', 'hidden'].includes(e.type)).map(e => e.value)};
}""".replace("DATE_ASKED", json.dumps(DATE_ASKED))


#: the visible text fields outside the form (a list of editable entries beside it), and whether one holds the token
_FIELDS_OUTSIDE_JS = r"""([formSel, ownSels, token]) => {
  const vis = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const form = document.querySelector(formSel);
  const own = new Set(ownSels.map(s => document.querySelector(s)).filter(Boolean));
  const outside = [...document.querySelectorAll('input:not([type=hidden]):not([type=checkbox]):not([type=radio]), textarea')]
    .filter(e => vis(e) && !own.has(e) && !(form && form.tagName === 'FORM' && form.contains(e)) && !e.closest('[role=dialog]'));
  return {count: outside.length, holds: !!token && outside.some(e => e.value.includes(token))};
}"""


@dataclass
class Submission:
    """What one submission did."""

    before: PageState
    after: PageState
    form_after: dict
    token: str
    token_shown: bool
    entry_listed: bool = False
    #: text fields outside the form before and after (an entry added as an editable row grows them)
    fields_before: int = 0
    fields_after: int = 0
    #: the values of the form's text fields when it was submitted
    values_before: list[str] = field(default_factory=list)

    @property
    def new_lines(self) -> list[str]:
        """Lines the submission brought, less the placeholders of custom selects that a reset form shows again
        ("Select a category" is no error message)."""
        placeholders = [p for p in self.form_after.get("placeholders") or [] if p]
        out = []
        for line in self.after.new_lines(self.before):
            for p in placeholders:
                line = line.replace(p, " ")
            if line.strip():
                out.append(" ".join(line.split()))
        return out

    @property
    def closed_with_success(self) -> bool:
        """The form went away and a success message came (the error words of the next view's own text, such as
        "Select a resource", are then no rejection)."""
        fa = self.form_after
        gone = fa.get("present") is False or not fa.get("visible", True)
        return gone and not fa.get("alerts") and any(SUCCESS_WORDS.search(line) for line in self.new_lines)

    @property
    def reset(self) -> bool:
        """The form emptied a field that held a value when it was submitted: it took the data (a form that refuses
        its data keeps it), and its required fields are empty again."""
        after = self.form_after.get("values") or []
        return len(after) == len(self.values_before) and any(b and not a for b, a in zip(self.values_before, after))

    @property
    def rejected(self) -> bool:
        fa = self.form_after
        if self.closed_with_success:
            return False
        # a form that was reset is invalid again because its required fields are empty, not because it refused
        refused = fa.get("invalid") or fa.get("alerts") or not (fa.get("valid", True) or self.reset)
        return bool(any(ERROR_WORDS.search(line) for line in self.new_lines)
                    or (fa.get("present") and fa.get("visible") and refused))

    @property
    def success_signs(self) -> set[str]:
        signs = set()
        if any(SUCCESS_WORDS.search(line) for line in self.new_lines):
            signs.add("message")
        if self.after.list_items > self.before.list_items:
            signs.add("list-grew")
        if self.token_shown:
            signs.add("entry-shown")
        if self.fields_after > self.fields_before and self.form_after.get("visible"):
            signs.add("field-added")  # a row of fields beside a form that stays (steps of an editor), not a wizard's next step
        if self.form_after.get("present") is False or not self.form_after.get("visible", True):
            signs.add("form-closed")
        if self.new_lines:
            signs.add("new-text")
        if self.after.url != self.before.url:
            signs.add("navigated")
        return signs

    def accepted_like(self, valid: "Submission") -> bool:
        """Accepted, judged against what a valid submission of the same form did."""
        if self.rejected:
            return False
        strong = STRONG_SIGNS & valid.success_signs
        if strong:
            return bool(strong & self.success_signs)
        weak = WEAK_SIGNS & valid.success_signs
        return bool(weak) and weak <= self.success_signs


def fill_value(f: Field, token: str) -> str | None:
    """A plausible valid value for a field, containing ``token`` where the field takes free text.

    A number, date or time the app filled in itself is kept (its defaults are the likeliest valid values)."""
    attrs = {"min": f.min, "max": f.max}
    if f.value and f.kind in ("number", "range", "date", "month", "time", "datetime-local", "week"):
        return f.value
    if f.kind == "date":
        today = date.today().isoformat()
        return f.min if f.min and f.min > today else today
    if f.kind == "month":
        return date.today().strftime("%Y-%m")
    if f.kind == "textarea":
        return f"QA note {token}: a longer message written for testing, with enough words to pass length checks."
    value = _fill_value(f.kind, f.label, token, attrs)
    if f.kind in ("text", "search", "") and value is not None:
        value = f"QA {f.label[:24].strip() or 'entry'} {token}" if len(value) < 12 else value
    if f.kind == "email" or "email" in f.label.lower():
        value = f"qa.{token}@example.com"
    return value


def fill_form(sess: ProbeSession, form: FormModel, token: str, *, skip: frozenset[str] | set[str] = frozenset(),
              choose: dict[str, str] | None = None) -> int:
    """Fill ``form`` with valid data (``skip``: field selectors / radio group names left alone;
    ``choose``: select selector -> option value to pick). Returns the number of fields set.

    When a choice moves the fields after it (an item chosen adds its card before them), their paths as read lead
    nowhere: the form is read again once, ``form``'s fields and button are brought up to date in place (what the
    caller submits next), and the fields not handled yet are filled by their label."""
    filled, moved, handled = _fill_fields(sess, form, form.fields, token, skip, choose)
    fresh = _read_again(sess, form) if moved else None
    if fresh is not None:
        left_alone = {(f.label, f.kind) for f in form.fields if f.sel in skip}
        rest = [f for f in fresh.fields if (f.label, f.kind) not in handled | left_alone]
        form.fields, form.submit = fresh.fields, fresh.submit
        filled += _fill_fields(sess, form, rest, token, skip, None)[0]
    sess.spend()
    return filled


def _read_again(sess: ProbeSession, form: FormModel) -> FormModel | None:
    """``form`` as the page shows it now: the form at the same path, else the one of the same name and button."""
    try:
        forms = read_model(sess.page).forms
    except Exception:
        return None
    return next((f for f in forms if f.sel == form.sel), None) or \
        next((f for f in forms if (f.name, f.submit_text) == (form.name, form.submit_text)), None)


def _fill_fields(sess: ProbeSession, form: FormModel, fields: list[Field], token: str, skip: frozenset[str] | set[str],
                 choose: dict[str, str] | None) -> tuple[int, bool, set[tuple[str, str]]]:
    """Fill ``fields`` of ``form`` (see :func:`fill_form`): how many were set, whether one's path led nowhere, and
    the (label, kind) of those whose path still led to them."""
    page = sess.page
    filled, moved = 0, False
    handled: set[tuple[str, str]] = set()
    radios_done: set[str] = set()
    for f in fields:
        if f.sel in skip or (f.kind == "radio" and (f.name or f.sel) in skip) or f.disabled or not f.visible:
            continue
        # a rating's star is found by its path only while the path still leads to a star
        loc = page.locator(f.sel + (':has(svg[class*="lucide-star"])' if f.kind == "rating" else "")).first
        try:
            if not matches(loc):
                moved = True
                continue  # the form changed under the field's path (a choice before it added a block): no wait for it
            handled.add((f.label, f.kind))
            if f.kind == "select":
                wanted = (choose or {}).get(f.sel)
                options = [o for o in f.options if o["value"] and not o["disabled"] and not UNAVAILABLE.search(o["text"])]
                current = next((o["value"] for o in options if o.get("selected")), None)
                value = wanted or current or (options[0]["value"] if options else None)
                if value is not None:
                    label = next((o["text"] for o in f.options if o["value"] == value), value)
                    with sess.journal.act("select", loc, label, key=f.sel):
                        loc.select_option(value, timeout=ACTION_TIMEOUT_MS)
                    filled += 1
            elif f.kind == "combobox":
                wanted = (choose or {}).get(f.sel)
                if (f.value and not wanted) or widgets.choose(sess, f, wanted, avoid=UNAVAILABLE):
                    filled += 1
            elif f.kind == "datepicker":
                if f.value or widgets.pick_day(sess, f):
                    filled += 1
            elif f.kind == "rating":
                with sess.journal.act("click", loc, key=f.sel):
                    loc.click(timeout=CLICK_TIMEOUT_MS)
                filled += 1
            elif f.kind == "radio":
                group = f.name or f.sel
                if group not in radios_done:
                    radios_done.add(group)
                    if not any(x.checked for x in form.fields if x.kind == "radio" and (x.name or x.sel) == group):
                        with sess.journal.act("check", loc, key=f.sel):
                            loc.check(timeout=ACTION_TIMEOUT_MS, force=True)
                    filled += 1
            elif f.kind == "checkbox":
                if CONSENT.search(f.label):
                    with sess.journal.act("check", loc, key=f.sel):
                        loc.check(timeout=ACTION_TIMEOUT_MS, force=True)
                    filled += 1
            else:
                value = fill_value(f, token)
                if value is not None:
                    with sess.journal.act("fill", loc, value, key=f.sel):
                        loc.fill(value, timeout=ACTION_TIMEOUT_MS)
                    filled += 1
        except Exception:
            continue
    return filled, moved, handled


def form_state(sess: ProbeSession, form: FormModel) -> dict:
    return evaluate(sess.page, _FORM_STATE_JS, [form.sel, form.submit])


def submit(sess: ProbeSession, form: FormModel, token: str) -> Submission | None:
    """Click the form's submit button and describe what happened (None when it cannot be clicked)."""
    if not form.submit:
        return None
    if form.signature in sess.one_part_forms and token != NO_TOKEN:
        _add_one_part(sess, form, token)
    sess.spend()
    before = sess.state()
    values_before = form_state(sess, form).get("values") or []
    own = [f.sel for f in form.fields]
    fields_before = evaluate(sess.page, _FIELDS_OUTSIDE_JS, [form.sel, own, ""]) or {}
    mark = sess.before_action()
    button = sess.page.locator(form.submit).first
    try:
        if not matches(button) or button.is_disabled():
            return None
        with sess.journal.act("click", button, key=form.submit):
            _click_even_if_covered(button)
    except Exception:
        return None
    sess.settle(250)
    sess.wait_while_busy(form.submit)
    sess.check_blank(f'form "{form.name or form.submit_text or "form"}"', "submitting", mark)
    after = sess.state()
    fields_after = evaluate(sess.page, _FIELDS_OUTSIDE_JS, [form.sel, own, token]) or {}
    shown = sess.shows(token) or bool(fields_after.get("holds"))  # also as the value of an editable row
    return Submission(before, after, form_state(sess, form), token, shown, shown and sess.shows(token, in_list=True),
                      int(fields_before.get("count") or 0), int(fields_after.get("count") or 0), values_before)


def _click_even_if_covered(button: Any) -> None:
    """Click ``button``; when the click cannot reach it but it is shown and enabled, a notice laid over it (the
    toast of the submission before, which stays for seconds) takes the click: the button gets its own click event,
    as it would once the notice is gone."""
    try:
        button.click(timeout=CLICK_TIMEOUT_MS)
    except Exception:
        if not (button.is_visible() and button.is_enabled(timeout=500)):
            raise
        button.dispatch_event("click", timeout=1000)


def _set_value(sess: ProbeSession, f: Field, value: str, *, timeout_ms: float = ACTION_TIMEOUT_MS) -> None:
    loc = sess.page.locator(f.sel).first
    with sess.journal.act("fill", loc, value, key=f.sel):
        loc.fill(value, timeout=timeout_ms)
    loc.dispatch_event("change")
    loc.blur()
    sess.settle(60)


def probe_form(sess: ProbeSession, name: str, reopen: Reopen, *, max_fields: int = 3,
               reopen_here: Reopen | None = None, list_pages: Sequence[str] = ()) -> None:
    """Run the whole battery on the form that ``reopen()`` opens (see the module docstring); ``list_pages``: the
    pages where what the form creates may be listed (the page it is opened from, the start page)."""
    form = reopen()
    if form is None or not form.submit:
        return
    where = f'form "{name}"'

    # 1. empty submission (cleared in the page, as a user could: not read-only fields; a replay empties the
    # fields it can see one by one)
    typed = [f for f in form.fields if f.visible and not f.disabled and f.kind not in CHOICE_KINDS]
    read_only = evaluate(sess.page, "(sels) => sels.map(s => !!(document.querySelector(s) || {}).readOnly)",
                         [f.sel for f in typed]) or []
    for f, fixed in zip(typed, read_only):
        if not fixed:
            with sess.journal.act("fill", sess.page.locator(f.sel).first, "", key=f.sel):
                pass
    evaluate(
        sess.page, """(sel) => document.querySelector(sel).querySelectorAll('input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([readonly]), textarea:not([readonly])')
             .forEach(e => { e.value = ''; e.dispatchEvent(new Event('input', {bubbles: true})); })""", form.sel)
    sess.settle(60)
    empty_blocked = bool(form_state(sess, form).get("disabled"))
    empty = None if empty_blocked else submit(sess, form, NO_TOKEN)
    empty_checks, empty_steps = _checks(sess, form, empty), sess.journal.slice()
    sess.step(f"{where}: submitted empty")
    if form.loose and empty is not None and not empty.rejected and "field-added" in empty.success_signs:
        # "Add experience" in a resume editor: the button adds a block of fields to fill in, it saves nothing
        sess.step(f"{where}: its button added a row of fields to fill in, with the fields empty: an editor's list, "
                  "not a submission; no further form probes")
        return

    # 2. a valid submission (the reference for what 'accepted' looks like)
    form = reopen()
    if form is None:
        return
    token = sess.token()
    fill_form(sess, form, token)
    valid = submit(sess, form, token)
    sess.step(f"{where}: submitted valid data ({token})")
    if _asks_for_one_part(sess, form, valid) and _add_one_part(sess, form, token):
        valid = submit(sess, form, token)
        sess.one_part_forms.add(form.signature)  # every later submission adds it too, so it is not what is refused
        sess.step(f"{where}: added one part of its list (or ticked its first choice) and submitted again ({token})")
    if form.loose and STEP_WORDS.match(form.submit_text) and valid is not None and not valid.rejected:
        walk_steps(sess, where, form)
    if valid is not None and not valid.rejected and not valid.success_signs and _vary(sess, form):
        # the defaults were already calculated: a changed value shows whether submitting does anything
        valid = submit(sess, form, token)
        sess.step(f"{where}: submitted valid data with a changed number ({token})")
    if valid is None or valid.rejected or not valid.success_signs or (form.loose and not CLEAR_SIGNS & valid.success_signs):
        # fields outside a <form> may sit beside a button that only opens or steps something: new text alone is
        # not taken as their being saved
        sess.step(f"{where}: the valid submission was not clearly accepted; no further form probes")
        return
    if empty_blocked:
        sess.ok("required", where, "the submit button cannot be pressed while the form is empty")
    elif empty is not None:
        if empty.accepted_like(valid) and not empty.rejected:
            sess.found("empty-form-accepted", where, "submitting the form with every field empty was accepted (no validation message)",
                       full=True, expect=[empty_checks[1]], steps=empty_steps, new_text=empty.new_lines[:5])
        elif empty.rejected:
            sess.ok("required", where, "an empty submission was rejected with a message", expect=[empty_checks[0]], steps=empty_steps)
    _after_valid(sess, form, where, valid)

    # 3. invalid values, one field at a time; 4. dates far in the past or the future, and an end date before its
    # start date
    if not _invalid_value_probes(sess, form, where, valid, reopen, max_fields) or \
            not _date_probes(sess, form, where, valid, reopen):
        return
    # 5. the same data submitted twice (not for forms that create nothing, e.g. signing in): on real apps the
    # battery's most frequent true finding, so it comes before the checks an app at its time limit may go without
    if not NOT_CREATING.search(f"{name} {form.submit_text}"):
        _duplicate_probe(sess, where, valid, reopen, reopen_here, list_pages)
    # 6. a form that refuses to be empty (with a message, a disabled button, or by doing nothing at all) must refuse
    # text fields holding only spaces
    refuses_empty = empty_blocked or (empty is not None and (empty.rejected or not empty.success_signs))
    if refuses_empty and not _blank_probe(sess, where, valid, reopen):
        return
    # 7. a required choice left unset, 8. options marked unavailable
    if not _required_choice_probe(sess, form, where, valid, reopen) or \
            not _unavailable_option_probe(sess, form, where, valid, reopen):
        return
    # 9. a form that refuses to be empty, filled in only in its first text field: which other fields it requires
    if refuses_empty:
        _partial_probe(sess, where, valid, reopen)


def _required_choice_probe(sess: ProbeSession, form: FormModel, where: str, valid: Submission, reopen: Reopen) -> bool:
    """A required choice (a radio group or a custom select with nothing chosen by default) left unset: a finding
    when the form accepts it like the valid submission. False when the form could not be opened again."""
    for group, choice in unset_choices(form)[:1]:
        now = reopen()
        if now is None:
            return False
        token = sess.token()
        fill_form(sess, now, token, skip={group})
        result = submit(sess, now, token)
        label = f'choice "{choice}" of {where}'
        sess.step(f"{label}: submitted without choosing")
        rejected, accepted = _checks(sess, now, result)
        if result is not None and result.accepted_like(valid):
            sess.found("required-field-not-enforced", label, f"the form was accepted without a choice for \"{choice}\"",
                       full=True, expect=[accepted], field=choice)
        elif result is not None and result.rejected:
            sess.ok("required-choice", label, "submitting without a choice was rejected", expect=[rejected])
    return True


def _unavailable_option_probe(sess: ProbeSession, form: FormModel, where: str, valid: Submission, reopen: Reopen) -> bool:
    """The first option marked unavailable (sold out, full ...) of a select, chosen: a finding when the form accepts it
    like the valid submission. False when the form could not be opened again."""
    for f in form.fields:
        if f.kind != "select":
            continue
        marked = [o for o in f.options if o["value"] and UNAVAILABLE.search(o["text"])]
        if not marked:
            continue
        unavailable = marked[0]
        label = f'option "{unavailable["text"]}" of {where}'
        if unavailable["disabled"]:
            sess.ok("unavailable-option", label, "the option is disabled")
            continue
        now = reopen()
        if now is None:
            return False
        token = sess.token()
        fill_form(sess, now, token, choose={f.sel: unavailable["value"]})
        result = submit(sess, now, token)
        sess.step(f"{label}: submitted with this option")
        rejected, accepted = _checks(sess, now, result)
        if result is not None and result.accepted_like(valid):
            sess.found("unavailable-option-accepted", label, f"choosing \"{unavailable['text']}\" was accepted", full=True,
                       expect=[accepted], field=f.label, option=unavailable["text"])
        elif result is not None and result.rejected:
            sess.ok("unavailable-option", label, "choosing it was rejected", expect=[rejected])
        break
    return True


def _invalid_value_probes(sess: ProbeSession, form: FormModel, where: str, valid: Submission, reopen: Reopen,
                          max_fields: int) -> bool:
    """Invalid values (a negative number, an e-mail address without @), one field at a time, in the first
    ``max_fields`` fields that can hold one: a finding when one is accepted like the valid submission. False when
    the form could not be opened again."""
    probes: list[tuple[Field, str, str]] = []
    for f in form.fields:
        if f.optional or not f.visible or f.disabled:
            continue
        if f.kind == "number" and ((low := None if f.min is None else _num(f.min)) is None or low >= 0):
            probes.append((f, "-5", "a negative number"))
        elif f.kind == "email" or (f.kind == "text" and re.search(r"e-?mail", f.label, re.I)):
            probes.append((f, "name.example.com", "an email address without @"))
    for f, bad, what in probes[:max_fields]:
        now = reopen()
        if now is None:
            return False
        f = next((x for x in now.fields if x.sel == f.sel), f)
        token = sess.token()
        fill_form(sess, now, token)
        _set_value(sess, f, bad)
        disabled = form_state(sess, now).get("disabled")
        label = f'field "{f.label}" of {where}'
        if disabled:
            _corrected(sess, now, f, token, label, bad, f"after {what} was corrected")
            sess.ok("invalid-input", label, f"{what} ({bad!r}) disabled the submit button")
            continue
        result = submit(sess, now, token)
        sess.step(f"{label}: submitted {what} ({bad!r})")
        if result is None:
            continue
        found = ("invalid-input-accepted", f"{what} ({bad!r}) in \"{f.label}\" was accepted without an error")
        refused = _refusal_outcome(sess, now, result, valid, label, found, ("invalid-input", f"{what} ({bad!r}) was rejected"),
                                   field=f.label, value=bad, new_text=result.new_lines[:5])
        if refused and result.form_after.get("visible"):
            _corrected(sess, now, f, token, label, bad, "after a rejected submission and a corrected value")
    return True


#: a rejection asking for one part of a list inside the form ("Please add at least one role")
AT_LEAST_ONE = re.compile(r"\bat least (?:one|1)\b", re.IGNORECASE)
_ADD_ONE_JS = r"""([formSel, submitSel]) => {
  const vis = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const form = document.querySelector(formSel);
  const submit = document.querySelector(submitSel);
  if (!form) return null;
  const box = [...form.querySelectorAll('input[type=checkbox], [role=checkbox]')]
    .find(el => vis(el) && !el.disabled && !el.checked && el.getAttribute('aria-checked') !== 'true');
  const add = [...form.querySelectorAll('button')]
    .find(b => vis(b) && b !== submit && !b.disabled && /^\s*\+?\s*(add|select)\b/i.test(b.innerText || b.getAttribute('aria-label') || ''));
  const target = add || box;
  if (!target) return null;
  target.setAttribute('data-wt-one', '1');
  return (target.innerText || target.getAttribute('aria-label') || target.tagName).trim().slice(0, 40);
}"""


def _asks_for_one_part(sess: ProbeSession, form: FormModel, valid: Submission | None) -> bool:
    """The valid submission was refused with a message asking for at least one part of a list, or it did nothing
    at all (no message, no change): a form whose handler returns silently while none of its boxes is ticked (the
    days of a schedule) shows no more than that; or it could not be sent, its button staying disabled with every
    field filled (an employee's skills, none ticked)."""
    if valid is None:
        return bool(form_state(sess, form).get("disabled"))
    if valid.rejected:
        return any(AT_LEAST_ONE.search(line) for line in valid.new_lines)
    return not valid.success_signs


def _add_one_part(sess: ProbeSession, form: FormModel, token: str) -> bool:
    """Add one part to the list inside the form (a role, a product) with the form's own "Add ..." button, or tick
    its first choice; False when the form offers neither."""
    if not evaluate(sess.page, _ADD_ONE_JS, [form.sel, form.submit or ""]):
        return False
    try:
        target = sess.page.locator('[data-wt-one="1"]').first
        with sess.journal.act("click", target, key=f"one part {token}"):
            target.click(timeout=2000)
    except Exception:
        return False
    sess.settle(150)
    return True


def _blank_probe(sess: ProbeSession, where: str, valid: Submission, reopen: Reopen) -> bool:
    """The form refuses to be empty: its required text fields holding only spaces must be refused too (a finding
    when that is accepted like the valid data). False when the form could not be opened again."""
    form = reopen()
    if form is None:
        return False
    texts = [f for f in form.fields if f.kind in ("text", "textarea") and f.visible and not f.disabled and not f.optional][:3]
    if not texts:
        return True
    token = sess.token()
    fill_form(sess, form, token)
    spaced = []
    for f in texts:
        try:
            _set_value(sess, f, "   ", timeout_ms=1500)
        except Exception:  # a field that takes no typing (read-only, covered): left as filled
            continue
        spaced.append(f)
    if not spaced:
        return True
    label = f'{where} with {", ".join(repr(f.label) for f in spaced if f.label) or "its text fields"} holding only spaces'
    if form_state(sess, form).get("disabled"):
        sess.ok("blank-input", label, "text fields holding only spaces keep the submit button disabled")
        return True
    result = submit(sess, form, token)
    sess.step(f"{where}: submitted with only spaces in the required text fields")
    if result is not None:
        _refusal_outcome(sess, form, result, valid, label,
                         ("blank-input-accepted", "text fields holding only spaces were accepted like real values"),
                         ("blank-input", "text fields holding only spaces were rejected"), new_text=result.new_lines[:5])
    return True


#: typed fields a user can leave empty (not chosen by a click, not a slider or a colour)
_LEAVABLE = frozenset({"text", "textarea", "email", "tel", "url", "number", "date", "time", "datetime-local", "month", ""})


def _partial_probe(sess: ProbeSession, where: str, valid: Submission, reopen: Reopen, max_fields: int = 4) -> None:
    """The form refuses to be empty: filled in with valid data but only in its first text field, with its other
    typed fields (not marked optional, not filled in by the app) left empty. When that is accepted like the valid
    data, each field left empty is a finding about that field; a rejection is coverage."""
    form = reopen()
    if form is None:
        return
    typed = [f for f in form.fields if f.kind in _LEAVABLE and f.visible and not f.disabled and not f.optional and not f.value]
    first = next((f for f in typed if f.kind in ("text", "textarea", "")), None)
    left = [f for f in typed if f is not first and f.label][:max_fields]
    if first is None or not left:
        return
    token = sess.token()
    fill_form(sess, form, token, skip={f.sel for f in left})
    names = ", ".join(repr(f.label) for f in left)
    label = f"{where} with {names} left empty"
    if form_state(sess, form).get("disabled"):
        sess.ok("required", label, f"the submit button cannot be pressed while {names} are empty")
        return
    result = submit(sess, form, token)
    sess.step(f"{where}: submitted with only {first.label!r} of its text fields filled in, {names} left empty")
    if result is None:
        return
    rejected, accepted = _checks(sess, form, result)
    if result.accepted_like(valid):
        for f in left:
            sess.found("empty-field-accepted", f'field "{f.label}" of {where}',
                       f'the form was accepted with "{f.label}" left empty (only "{first.label}" of its text fields filled in)',
                       full=True, expect=[accepted], field=f.label, filled=first.label)
    elif result.rejected:
        sess.ok("required", label, "submitting with these fields empty was rejected", expect=[rejected])


def walk_steps(sess: ProbeSession, where: str, first: FormModel, max_steps: int = 4) -> None:
    """Fill and submit the steps that follow ``first`` in a wizard (fields outside a ``<form>`` with a "Next" or
    "Continue" button), so that a page that goes blank on a later step is seen; stops at a step that did not
    advance, a blank page, or a step whose button is not a step button (the last one)."""
    seen = {first.signature}
    for n in range(2, max_steps + 2):
        if sess.is_blank():
            return
        steps = [f for f in read_model(sess.page).forms if f.loose and f.visible and f.submit and f.signature not in seen]
        # a step's own "Next" / "Continue" before a button that adds something within the step ("Add participant")
        step = next((f for f in steps if STEP_WORDS.match(f.submit_text)), None)
        if step is None:  # a step with no field of its own ahead of its "Next" (optional entries, a review)
            advanced = _next_step_button(sess, where, n)
            if advanced is False:
                return
            if advanced:
                continue
            if not steps and take_choice_steps(sess.page, click=sess.click, settle=sess.settle, max_steps=1):
                sess.step(f"{where}: step {n} asks for a choice first: chose and went on")
                continue
            step = steps[0] if steps else None
        if step is None:
            sess.step(f"{where}: no further step")
            return
        seen.add(step.signature)
        token = sess.token()
        fill_form(sess, step, token)
        result = submit(sess, step, token)
        sess.step(f"{where}: step {n} ({step.name}) filled and submitted with {step.submit_text!r}")
        if result is None or result.rejected or not STEP_WORDS.match(step.submit_text):
            return


def _next_step_button(sess: ProbeSession, where: str, n: int) -> bool | None:
    """Click the wizard's visible "Next" / "Continue" button that belongs to no form; None when there is none,
    else whether the page changed (a blank page after it is a finding)."""
    try:
        with bounded(sess.page):  # count, is_visible and is_enabled have no time limit of their own
            buttons = sess.page.get_by_role("button", name=STEP_WORDS).all()[:4]
            button = next((b for b in buttons if b.is_visible() and b.is_enabled()), None)
            name = (button.inner_text() or "Next").strip()[:40] if button is not None else ""
    except Exception:  # a page that changed under the query or stopped answering: no step button seen
        return None
    if button is None:
        return None
    sess.spend()
    before, mark = sess.state(), sess.before_action()
    try:
        with sess.journal.act("click", button, what=f"button {name!r}"):
            button.click(timeout=2000)
    except Exception:
        return False
    sess.settle(250)
    sess.step(f"{where}: step {n} has no field of its own: clicked {name!r}")
    if sess.check_blank(f"{where}, its {name} button", "clicking", mark):  # the form's name is the subject
        return False
    return not sess.state().same_as(before)


def date_value(kind: str, days: int) -> str:
    """A value for a date (``kind`` 'date') or date-time field ``days`` from today (negative: in the past)."""
    day = (date.today() + timedelta(days=days)).isoformat()
    return day + "T10:00" if kind == "datetime-local" else day


def _date_fields(fields: list[Field]) -> list[Field]:
    """The date and date-time fields a user can fill."""
    return [f for f in fields if f.kind in DATE_KINDS and f.visible and not f.disabled]


def date_pair(fields: list[Field]) -> tuple[Field, Field] | None:
    """The start and end date fields of a form (by their labels), when it has both."""
    dates = _date_fields(fields)
    start = next((f for f in dates if START_LABEL.search(f.label) and not END_LABEL.search(f.label)), None)
    end = next((f for f in dates if f is not start and END_LABEL.search(f.label) and not START_LABEL.search(f.label)), None)
    return (start, end) if start and end else None


def date_cases(fields: list[Field]) -> list[tuple[str, dict[str, str], str, Field]]:
    """The date submissions to try: (finding probe, field selector -> value, what was entered, field concerned):
    the first date field far in the past (when it sets no ``min`` and is not :data:`RETROSPECTIVE`) and far in the
    future (no ``max``), and for a start / end pair an end date a week before its start."""
    cases: list[tuple[str, dict[str, str], str, Field]] = []
    pair = date_pair(fields)
    first = next((f for f in _date_fields(fields) if not f.optional), None)
    if first is not None and not first.min and not RETROSPECTIVE.search(first.label):
        value = date_value(first.kind, -PAST_DAYS)
        cases.append(("past-date-accepted", {first.sel: value}, f"a date in the past ({value})", first))
    if first is not None and not first.max:
        value = date_value(first.kind, FUTURE_DAYS)
        cases.append(("future-date-accepted", {first.sel: value}, f"a date years ahead ({value})", first))
    if pair is not None:
        start, end = pair
        values = {start.sel: date_value(start.kind, 14), end.sel: date_value(end.kind, 7)}
        cases.append(("end-before-start-accepted", values, f"an end date a week before the start ({values[end.sel]} < "
                                                           f"{values[start.sel]})", end))
    return cases


_OK_PROBE = {"past-date-accepted": "past-date", "future-date-accepted": "future-date", "end-before-start-accepted": "date-order"}


def _date_probes(sess: ProbeSession, form: FormModel, where: str, valid: Submission, reopen: Reopen) -> bool:
    """Submit the form with each of :func:`date_cases` (otherwise valid data); False when the form could not be
    opened again."""
    for probe, values, what, concerned in date_cases(form.fields):
        form_now = reopen()
        if form_now is None:
            return False
        token = sess.token()
        fill_form(sess, form_now, token)
        for f in form_now.fields:
            if f.sel in values:
                _set_value(sess, f, values[f.sel])
        label = f'field "{concerned.label}" of {where}'
        result = submit(sess, form_now, token)
        sess.step(f"{label}: submitted {what}")
        if result is None:
            continue
        _refusal_outcome(sess, form_now, result, valid, label,
                         (probe, f"{what} in \"{concerned.label}\" was accepted without an error"),
                         (_OK_PROBE[probe], f"{what} was rejected"), field=concerned.label, value=", ".join(values.values()))
    picker = next((f for f in form.fields if f.kind == "datepicker" and f.visible and not f.disabled), None)
    if picker is not None and not _date_fields(form.fields):
        return _past_day_probe(sess, form, picker, where, valid, reopen)
    return True


def _past_day_probe(sess: ProbeSession, form: FormModel, picker: Field, where: str, valid: Submission,
                    reopen: Reopen) -> bool:
    """The form submitted with a day before today chosen in its date picker (a calendar popup): a finding when it is
    accepted like the valid submission; coverage when the calendar lets no such day be chosen or the form refuses
    it. False when the form could not be opened again."""
    form_now = reopen()
    if form_now is None:
        return False
    token = sess.token()
    fill_form(sess, form_now, token)
    label = f'field "{picker.label or "date"}" of {where}'
    now = next((f for f in form_now.fields if f.sel == picker.sel), None)
    day = widgets.pick_past_day(sess, now) if now is not None else None
    if day == "":
        sess.ok("past-date", label, "the date picker lets no day before today be chosen")
        return True
    if day is None:
        return True
    result = submit(sess, form_now, token)
    sess.step(f"{label}: submitted with a day before today ({day}) chosen in the date picker")
    if result is not None:
        _refusal_outcome(sess, form_now, result, valid, label,
                         ("past-date-accepted", f"a day before today ({day}) chosen in \"{picker.label or 'date'}\" was "
                                                "accepted without an error"),
                         ("past-date", "a day before today was rejected"), field=picker.label, value=day)
    return True


def _refusal_outcome(sess: ProbeSession, form: FormModel, result: Submission, valid: Submission, label: str,
                     found: tuple[str, str], ok: tuple[str, str], **details: Any) -> bool:
    """Record a submission of a value the form should refuse: a finding (``found``: probe, note) when it was
    accepted like the valid submission, coverage (``ok``) when it was rejected. True when it was rejected."""
    rejected, accepted = _checks(sess, form, result)
    if result.accepted_like(valid):
        sess.found(found[0], label, found[1], full=True, expect=[accepted], **details)
        return False
    if result.rejected:
        sess.ok(ok[0], label, ok[1], expect=[rejected])
        return True
    return False


_COUNT_JS = r"""(token) => {
  const vis = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const entries = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || ['SCRIPT', 'STYLE', 'OPTION', 'TEXTAREA'].includes(el.tagName) || !n.textContent.includes(token) || !vis(el)) continue;
    const entry = el.closest('li, tr, article, [role=listitem], [role=row], [class*=card], [class*=item], [class*=entry]');
    if (entry && !el.closest('form')) entries.add(entry);
  }
  return [...entries].filter(e => ![...entries].some(o => o !== e && e.contains(o))).length;
}"""


def entries_showing(sess: ProbeSession, token: str) -> int:
    """How many distinct list entries (rows, cards, list items) on the page show ``token``."""
    return int(evaluate(sess.page, _COUNT_JS, token) or 0)


def _submit_same(sess: ProbeSession, where: str, token: str, attempt: str,
                 reopen: Reopen) -> tuple[FormModel, Submission] | None:
    """Open the form again and submit it filled with the data of ``token`` (None when that was not possible)."""
    form = reopen()
    if form is None:
        return None
    fill_form(sess, form, token)
    result = submit(sess, form, token)
    sess.step(f"{where}: submitted the same data ({token}), {attempt} time")
    return None if result is None else (form, result)


#: a warning that the data entered is already there, shown while the fields are filled in or after submitting
DUPLICATE_WARNING = re.compile(r"\b(?:duplicates?|already (?:exists?|registered|taken|in use|added|booked|listed)|"
                               r"similar (?:entry|entries|records?))\b", re.IGNORECASE)


def duplicate_warning(valid: Submission, first: Submission, second: Submission) -> str | None:
    """A line warning of a duplicate that the page showed around the two submissions of the same data (while their
    fields were filled in, or after them) and not around the valid submission that repeated nothing: the app
    noticed, even if it let it through. (The first of the two may already repeat a field the probes fill the same
    way every time, such as a phone number, and be warned of.)"""
    seen = {line for line in valid.before.text_lines + valid.after.text_lines if DUPLICATE_WARNING.search(line)}
    return next((line for sub in (second, first) for line in sub.before.text_lines + sub.after.text_lines
                 if DUPLICATE_WARNING.search(line) and line not in seen), None)


def _duplicate_probe(sess: ProbeSession, where: str, valid: Submission, reopen: Reopen,
                     reopen_here: Reopen | None = None, list_pages: Sequence[str] = ()) -> None:
    """Submit the same data twice (the second time in place when the first entry is listed and ``reopen_here`` finds
    the form, so entries kept only in memory are still listed): a second entry with it listed beside the first, or
    the same success again with no warning when the first entry is not listed (and the form is a ``<form>``), is a
    finding; so are two entries with it listed on one of ``list_pages`` when the page the form left shows neither
    (the app went on to another view); a rejected second submission, or one the page warned of
    (:func:`duplicate_warning`), is coverage."""
    token = sess.token()
    first = _submit_same(sess, where, token, "first", reopen)
    if first is None or not first[1].accepted_like(valid):
        return
    # in place only where the first entry is listed (a list kept in memory) or the app went on to the new entry's
    # own view; elsewhere the page is loaded again, so the success message of the second submission is new on the
    # page as the valid one's was
    moved_on = went_on_to_the_entry(first[1])
    here = reopen_here if first[1].entry_listed or moved_on else None  # None: the second one is not made in place
    second = _submit_same(sess, where, token, "second", here) if here else None
    if second is None:
        here = None
        second = _submit_same(sess, where, token, "second", reopen)
    if second is None:
        return
    form, result = second
    warning = duplicate_warning(valid, first[1], result)
    if warning is not None:
        sess.ok("duplicate", where, f"the page warned of the same data submitted again: {warning[:120]!r}")
        return
    rejected, accepted = _checks(sess, form, result)
    listed = entries_showing(sess, token)
    if listed < 2 and (first[1].entry_listed or form.loose) and result.accepted_like(valid):
        if not (moved_on and here and _duplicates_back_in_place(sess, where, token, here)):
            _duplicates_listed(sess, where, token, list_pages)
        return
    # fields outside a <form> are often settings saved again and again: for them only two listed entries count
    if result.accepted_like(valid) and (listed >= 2 or not (first[1].entry_listed or form.loose)):
        how = f"{listed} entries with it are listed" if listed >= 2 else "it was accepted again like the first time"
        sess.found("duplicate-accepted", where, f"the same data ({token}) submitted twice: {how}, with no duplicate warning",
                   full=True, expect=[accepted], value=token, entries=listed)
    elif result.rejected:
        sess.ok("duplicate", where, "submitting the same data again was rejected", expect=[rejected])


def went_on_to_the_entry(sub: Submission) -> bool:
    """The submission closed the form and the app went on, at the same address, to a view of the new entry (its
    data shown, not as a list entry): an editor or detail view the app holds in memory."""
    return {"form-closed", "entry-shown"} <= sub.success_signs and not sub.entry_listed and sub.after.url == sub.before.url


def _duplicates_back_in_place(sess: ProbeSession, where: str, token: str, reopen_here: Reopen) -> bool:
    """After the same data was accepted twice, each time going on to the new entry's view: go back to the list the
    form is opened from without loading the page (``reopen_here``, through the app's own navigation) and count the
    entries with it there (two is a finding, one is coverage). False when the list could not be reached or shows
    none of them."""
    if reopen_here() is None:
        return False
    listed = entries_showing(sess, token)
    if not listed:
        return False
    shown = sess.journal.expect("expect_text", "held", value=token)
    if listed >= 2:
        sess.found("duplicate-accepted", where, f"the same data ({token}) submitted twice: {listed} entries with it are "
                   "listed, with no duplicate warning", full=True, expect=[shown], value=token, entries=listed)
    else:
        sess.ok("duplicate", where, f"submitted twice, the same data ({token}) is listed once", expect=[shown])
    return True


def _duplicates_listed(sess: ProbeSession, where: str, token: str, list_pages: Sequence[str]) -> None:
    """After the same data was accepted twice where neither entry shows: look for its entries on ``list_pages``
    (two of them listed is a finding, one is coverage; none says nothing, e.g. entries kept only in memory)."""
    for url in list_pages:
        sess.goto(url)
        listed = entries_showing(sess, token)
        if not listed:
            continue
        shown, page = sess.journal.expect("expect_text", "held", value=token), sess.journal.relative(url)
        if listed >= 2:
            sess.found("duplicate-accepted", where, f"the same data ({token}) submitted twice: {listed} entries with it "
                       f"are listed on {page}, with no duplicate warning", full=True, expect=[shown], value=token,
                       entries=listed)
        else:
            sess.ok("duplicate", where, f"submitted twice, the same data ({token}) is listed once on {page}", expect=[shown])
        return


def _checks(sess: ProbeSession, form: FormModel, sub: Submission | None) -> tuple[ActionRecord | None, ActionRecord | None]:
    """What a replay of the submission ``sub`` asserts, checked on the page as it is now: that it was rejected (an
    error line, or fields the browser finds invalid: held when it was) and that it was not accepted (its success
    line is not shown: failed when it was)."""
    if sub is None:
        return None, None
    journal = sess.journal
    rejected = None
    line = stable_line(sub.new_lines, ERROR_WORDS) or stable_line(sub.form_after.get("alerts") or [])
    if line:
        rejected = journal.expect("expect_text", "held", value=line)
    elif sub.form_after.get("visible") and not sub.form_after.get("valid", True):
        invalid = css(f"{form.sel} :invalid")
        try:
            count = invalid.locator(sess.page).count()
        except Exception:
            count = 0
        rejected = journal.expect("expect_count", "held", reusable=invalid, count=count) if count else None
    shown = stable_line(sub.new_lines, SUCCESS_WORDS) or stable_line(sub.new_lines)
    return rejected, journal.expect("expect_no_text", "failed", value=shown) if shown else None


def _corrected(sess: ProbeSession, form: FormModel, f: Field, token: str, label: str, bad: str, when: str) -> None:
    """Put a valid value back into ``f``: the submit button must be usable again."""
    _set_value(sess, f, fill_value(f, token) or "1")
    if form_state(sess, form).get("disabled"):
        sess.found("submit-stays-disabled", label, f"{when}, the {form.submit_text or 'submit'} button stays disabled",
                   shot_of=form.sel, value=bad)
    else:
        sess.ok("stays-disabled", label, f"{when}, the submit button could be used again")


def _vary(sess: ProbeSession, form: FormModel) -> bool:
    """Change the first number the app filled in to another valid-looking value (double it, within its max)."""
    for f in form.fields:
        value = _num(f.value) if f.kind == "number" else None
        if value:
            new = value * 2
            top = _num(f.max)
            if top is not None and new > top:
                new = (value + top) / 2
            _set_value(sess, f, f"{new:g}")
            return True
    return False


def _group_label(radios: list[Field]) -> str:
    return radios[0].name or radios[0].label


def unset_choices(form: FormModel) -> list[tuple[str, str]]:
    """(what ``fill_form`` skips, its name) for each choice the form leaves unset: radio groups with no option
    checked, and custom selects and date pickers asking for a choice that are not marked optional."""
    out = [(group, _group_label(radios)) for group, radios in form.radio_groups().items() if not any(r.checked for r in radios)]
    out += [(f.sel, f.label or "choice") for f in form.fields
            if f.kind in WIDGET_KINDS and not f.value and not f.optional and f.visible and not f.disabled]
    return out


def _num(text: str | None) -> float | None:
    try:
        return float(text) if text not in (None, "") else None
    except ValueError:
        return None


def _after_valid(sess: ProbeSession, form: FormModel, where: str, valid: Submission) -> None:
    """Feedback, clearing, and persistence of what a valid submission created (and of its deletion)."""
    signs = valid.success_signs
    if not valid.new_lines and "list-grew" not in signs and "navigated" not in signs:
        sess.found("no-submit-feedback", where, "a valid submission showed nothing new: no message, no new entry, no result",
                   full=True)
    else:
        line = stable_line(valid.new_lines, SUCCESS_WORDS) or stable_line(valid.new_lines)
        seen = sess.journal.expect("expect_text", "held", value=line) if line else None
        if seen is None and "navigated" in signs:
            seen = sess.journal.expect("expect_url", "held", value=sess.journal.relative(valid.after.url))
        sess.ok("feedback", where, "; ".join(valid.new_lines[:2]) or "the page changed", expect=[seen])
    _figures_after(sess, where, valid)
    if not valid.entry_listed:
        return
    if valid.form_after.get("visible") and any(valid.token in v for v in valid.form_after.get("values", [])):
        sess.found("form-not-cleared", where, "after the entry was created, the form still holds the text that was just submitted",
                   shot_of=form.sel)
    elif valid.form_after.get("visible"):
        sess.ok("form-cleared", where, "the fields were emptied after the submission")
    edit = probe_edit(sess, where, valid.token)  # the entry's marker, changed when an edit was saved
    sess.reload()
    token = next((m for m in edit.markers() if sess.shows(m, in_list=True)), None)
    if token is None:
        if edit.marker != valid.token and sess.shows(valid.token, in_list=True):
            sess.found("edit-lost-on-reload", where, f"the entry edited from {valid.token} to {edit.marker} shows "
                       f"{valid.token} again after a reload", full=True, field=form_name(where),
                       expect=[sess.journal.expect("expect_text", "failed", value=edit.marker)])
            return
        sess.found("state-lost-on-reload", where, f"the entry created through this form ({edit.marker}) is gone after a "
                   "reload", full=True, expect=[sess.journal.expect("expect_text", "failed", value=edit.marker)])
        return
    sess.ok("persist-create", where, f"the new entry ({token}) was still shown after a reload",
            expect=[sess.journal.expect("expect_text", "held", value=token)])
    _delete_and_reload(sess, where, token)


def _figures_after(sess: ProbeSession, where: str, valid: Submission) -> None:
    """The page's summary figures (totals, counts, seats left) after data it accepted
    (:mod:`webtester.probes.figures`): figures that moved are the summary checked; figures that did not move are
    only noted (on real apps they were mostly figures the entry does not count in: a percentage that stays 100%,
    vote totals beside a comment, a profile's budget)."""
    if NOT_CREATING.search(where) or not (valid.entry_listed or {"list-grew", "message"} & valid.success_signs):
        return
    outcome, figures = compare_figures(valid.before, valid.after)
    shown = ", ".join(f"'{f}'" for f in figures[:3])
    if outcome == "unchanged":
        sess.step(f"{where}: the page's summary figures did not change after the new entry ({valid.token}): {shown}")
    elif outcome == "changed":
        sess.ok("summary-update", where, f"the summary figures ({shown}) changed after the new entry ({valid.token}) was listed")


def _delete_and_reload(sess: ProbeSession, where: str, token: str) -> None:
    page = sess.page
    if not evaluate(page, ENTRY_CONTROL_JS, [token, "delete", "data-wt-delete"]):
        return
    sess.spend()
    before = sess.state()
    try:
        delete = page.locator(f'[data-wt-delete="{token}"]').first
        with sess.journal.act("click", delete, key=f"delete {token}"):
            delete.click(timeout=2000)
    except Exception:
        return
    sess.settle(200)
    # an in-page confirmation dialog: press its confirming button
    confirm = evaluate(
        page, r"""() => {
          const vis = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
          const box = [...document.querySelectorAll('dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true]')].find(vis);
          if (!box) return false;
          const btn = [...box.querySelectorAll('button')].find(b => vis(b) && /\b(delete|remove|yes|confirm|ok|continue)\b/i.test(b.innerText) && !/cancel|keep/i.test(b.innerText));
          if (!btn) return false;
          btn.setAttribute('data-wt-confirm', '1');
          return true;
        }""")
    if confirm:
        try:
            button = page.locator('[data-wt-confirm="1"]').first
            with sess.journal.act("click", button, key=f"confirm {token}"):
                button.click(timeout=2000)
        except Exception:
            return
        sess.settle(200)
    if sess.shows(token):
        sess.step(f"{where}: deleting the entry {token} did not remove it from view; not judged")
        return
    del before
    sess.reload()
    if sess.shows(token):
        sess.found("deleted-entry-returns", where, f"an entry deleted through its Delete control ({token}) is back after a reload",
                   full=True, expect=[sess.journal.expect("expect_no_text", "failed", value=token)])
    else:
        sess.ok("persist-delete", where, f"the deleted entry ({token}) stayed deleted after a reload",
                expect=[sess.journal.expect("expect_no_text", "held", value=token)])
