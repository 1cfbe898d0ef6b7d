"""Probes that act on the page: dead controls, forms (empty input, double submission), reload persistence."""

from __future__ import annotations

import hashlib
import re
import uuid
from dataclasses import dataclass, field
from datetime import date, timedelta

from playwright.sync_api import Page

from webtester.browser.session import ACTION_TIMEOUT_MS
from webtester.browser.watchdog import bounded, evaluate, matches, navigate
from webtester.probes.findings import Finding, ScreenshotTaker, describe_element
from webtester.probes.scan import SELECTOR_JS

SUCCESS_WORDS = re.compile(
    r"\b(success|successfully|saved|added|created|booked|thank|thanks|confirmed|posted|submitted|sent|updated|published)\b",
    re.IGNORECASE,
)
ERROR_WORDS = re.compile(
    r"\b(required|invalid|please|must|error|cannot|can't|not allowed|enter an?|is not|too (?:long|short)|at least|conflict)\b",
    re.IGNORECASE,
)
_SETTLE_MS = 250


@dataclass
class PageState:
    """A cheap fingerprint of what a user can see, to tell whether an action changed anything."""

    url: str
    text_lines: list[str]
    dom_hash: str
    list_items: int
    dialogs: int = 0

    def same_as(self, other: "PageState") -> bool:
        return (self.url, self.dom_hash, self.dialogs) == (other.url, other.dom_hash, other.dialogs)

    def new_lines(self, before: "PageState") -> list[str]:
        old = set(before.text_lines)
        return [line for line in self.text_lines if line not in old]


@dataclass
class ProbeContext:
    """What interactive probes share: the start URL, a screenshot taker, and a dialog counter."""

    start_url: str
    shots: ScreenshotTaker
    dialogs: list[str] = field(default_factory=list)
    max_controls: int = 25

    def attach(self, page: Page) -> None:
        """Accept (and count) alert/confirm/prompt dialogs so they never block a probe."""

        def on_dialog(dialog) -> None:
            self.dialogs.append(dialog.message)
            try:
                dialog.accept()
            except Exception:
                pass

        page.on("dialog", on_dialog)


def page_state(page: Page, ctx: ProbeContext) -> PageState:
    """Fingerprint the page: URL, visible text lines, DOM hash, count of list-like items."""
    data = evaluate(
        page, """() => ({
            text: document.body ? document.body.innerText : '',
            html: document.body ? document.body.innerHTML : '',
            values: [...document.querySelectorAll('input, textarea, select')].map(e => e.type === 'checkbox' || e.type === 'radio' ? String(e.checked) : e.value).join('\\u0001'),
            items: document.querySelectorAll('li, tr, article, [role=listitem], [role=row], .card').length,
        })"""
    )
    lines = [line.strip() for line in data["text"].splitlines() if line.strip()]
    digest = hashlib.sha1((data["html"] + data["values"]).encode()).hexdigest()
    return PageState(page.url, lines, digest, data["items"], len(ctx.dialogs))


def _settle(page: Page) -> None:
    try:
        page.wait_for_load_state("domcontentloaded", timeout=2000)
    except Exception:
        pass
    page.wait_for_timeout(_SETTLE_MS)


def _restart(page: Page, ctx: ProbeContext) -> None:
    navigate(page, ctx.start_url)
    _settle(page)


def dead_controls(page: Page, ctx: ProbeContext) -> list[Finding]:
    """Buttons and links outside forms that change nothing visible when clicked."""
    evaluate(page, SELECTOR_JS)
    selectors: list[str] = evaluate(
        page, """(limit) => [...document.querySelectorAll('button, a[href], [role=button], [role=tab], [role=link]')]
            .filter(el => !el.closest('form') && !el.disabled && el.getClientRects().length &&
                          getComputedStyle(el).visibility !== 'hidden')
            .slice(0, limit).map(el => window.__wtSelector(el))""",
        ctx.max_controls,
    )
    findings: list[Finding] = []
    for sel in selectors:
        loc = page.locator(sel)
        if not matches(loc, visible=True):
            continue
        before = page_state(page, ctx)
        try:
            loc.first.click(timeout=ACTION_TIMEOUT_MS)
        except Exception:
            continue  # covered or detached: not evidence of a dead control
        _settle(page)
        after = page_state(page, ctx)
        if after.same_as(before):
            findings.append(
                Finding(
                    probe="dead-control",
                    page_url=before.url,
                    element=describe_element(page, sel),
                    message="clicking this control changes nothing on the page (no navigation, no content change, no dialog)",
                    screenshot=ctx.shots.take(page, "dead-control", page.locator(sel)),
                )
            )
        else:
            _restart(page, ctx)
    return findings


def _fill_value(kind: str, label: str, token: str, attrs: dict) -> str | None:
    kind = (kind or "text").lower()
    low = label.lower()
    if kind == "email" or "email" in low:
        return f"qa.{token}@example.com"
    if kind == "number" or kind == "range":
        lo = attrs.get("min")
        try:
            return str(max(1, int(float(lo)))) if lo not in (None, "") else "1"
        except ValueError:
            return "1"
    if kind == "date":
        return attrs.get("min") or (date.today() + timedelta(days=7)).isoformat()
    if kind == "time":
        return "10:00"
    if kind == "datetime-local":
        return (date.today() + timedelta(days=7)).isoformat() + "T10:00"
    if kind == "tel" or "phone" in low:
        return "5550101"
    if kind == "url" or "website" in low:
        return "https://example.com"
    if kind == "password":
        return "Passw0rd!2024"
    if kind in ("text", "search", "textarea", ""):
        return f"QA {label[:20].strip() or 'entry'} {token}".strip()
    return None


def fill_form_valid(page: Page, form_sel: str, token: str) -> int:
    """Fill every field of a form with plausible valid data containing ``token``; returns fields filled."""
    fields = evaluate(
        page, """(formSel) => {
            const form = document.querySelector(formSel);
            if (!form) return [];
            return [...form.querySelectorAll('input, textarea, select')]
              .filter(el => !el.disabled && el.type !== 'hidden' && el.type !== 'submit' && el.type !== 'button' && el.getClientRects().length)
              .map(el => {
                const label = (el.labels && el.labels[0] ? el.labels[0].innerText : '') || el.getAttribute('aria-label') || el.placeholder || el.name || '';
                return {sel: window.__wtSelector(el), tag: el.tagName.toLowerCase(), type: el.type, label,
                        min: el.getAttribute('min'), max: el.getAttribute('max')};
              });
        }""",
        form_sel,
    )
    filled = 0
    seen_radio: set[str] = set()
    for f in fields:
        loc = page.locator(f["sel"]).first
        try:
            if f["tag"] == "select":
                with bounded(page):
                    options = loc.evaluate("el => [...el.options].filter(o => o.value && !o.disabled).map(o => o.value)")
                if options:
                    loc.select_option(options[0], timeout=ACTION_TIMEOUT_MS)
                    filled += 1
            elif f["type"] == "checkbox":
                continue  # optional toggles stay as the app set them
            elif f["type"] == "radio":
                name = loc.get_attribute("name") or f["sel"]
                if name not in seen_radio:
                    loc.check(timeout=1000)
                    seen_radio.add(name)
                    filled += 1
            else:
                value = _fill_value("textarea" if f["tag"] == "textarea" else f["type"], f["label"], token, f)
                if value is not None:
                    loc.fill(value, timeout=1000)
                    filled += 1
        except Exception:
            continue
    return filled


def _submit_selector(page: Page, form_sel: str) -> str | None:
    return evaluate(
        page, """(formSel) => {
            const form = document.querySelector(formSel);
            const btn = form && (form.querySelector('button[type=submit], input[type=submit]') ||
                                 [...form.querySelectorAll('button')].find(b => b.type !== 'button' && b.type !== 'reset'));
            return btn ? window.__wtSelector(btn) : null;
        }""",
        form_sel,
    )


def _forms(page: Page) -> list[str]:
    evaluate(page, SELECTOR_JS)
    return evaluate(
        page, "() => [...document.forms].filter(f => f.getClientRects().length).map(f => window.__wtSelector(f))"
    )


def _outcome(before: PageState, after: PageState) -> str:
    """'rejected', 'accepted' or 'unclear' from what changed after a submission."""
    new = after.new_lines(before)
    if any(ERROR_WORDS.search(line) for line in new):
        return "rejected"
    if any(SUCCESS_WORDS.search(line) for line in new) or after.list_items > before.list_items:
        return "accepted"
    return "unclear"


def _form_finding(page: Page, ctx: ProbeContext, probe: str, url: str, form: str, message: str, **details) -> Finding:
    """A finding about a whole form, with a screenshot of the page as it is now."""
    return Finding(probe=probe, page_url=url, element=form, message=message,
                   screenshot=ctx.shots.take(page, probe), details=details)


def form_probes(page: Page, ctx: ProbeContext) -> list[Finding]:
    """For every visible form: empty submission, double submission, and whether its data survives a reload."""
    findings: list[Finding] = []
    for index in range(len(_forms(page))):
        forms = _forms(page)
        if index >= len(forms):
            break
        form_sel = forms[index]
        submit = _submit_selector(page, form_sel)
        if submit is None:
            continue
        label = describe_element(page, form_sel)

        # 1. empty submission
        blocked = evaluate(
            page, """(sel) => { const f = document.querySelector(sel);
                 f.querySelectorAll('input:not([type=hidden]):not([type=checkbox]):not([type=radio]), textarea').forEach(e => { e.value = ''; });
                 return !f.checkValidity(); }""",
            form_sel,
        )
        before = page_state(page, ctx)
        try:
            page.locator(submit).first.click(timeout=ACTION_TIMEOUT_MS)
        except Exception:
            continue
        _settle(page)
        after = page_state(page, ctx)
        if not blocked and _outcome(before, after) == "accepted":
            findings.append(_form_finding(
                page, ctx, "empty-form-accepted", before.url, label,
                "submitting the form with every field empty was accepted (no validation message)",
                new_text=after.new_lines(before)[:5],
            ))
        _restart(page, ctx)

        # 2. double submission with valid data
        forms = _forms(page)
        if index >= len(forms):
            break
        form_sel = forms[index]
        submit = _submit_selector(page, form_sel)
        token = "wt" + uuid.uuid4().hex[:6]
        if not submit or not fill_form_valid(page, form_sel, token):
            _restart(page, ctx)
            continue
        before = page_state(page, ctx)
        evaluate(page, "(sel) => { const b = document.querySelector(sel); b.click(); b.click(); }", submit)
        _settle(page)
        copies = evaluate(
            page, """(token) => [...document.body.querySelectorAll('*')].filter(el =>
                   el.children.length === 0 && el.textContent.includes(token)).length""",
            token,
        )
        if copies >= 2:
            findings.append(_form_finding(
                page, ctx, "duplicate-submission", before.url, label,
                f"a quick double click on submit created {copies} copies of the same entry", copies=copies,
            ))

        # 3. does what was just created survive a reload?
        if copies >= 1:
            page.reload()
            _settle(page)
            still = evaluate(page, "(token) => document.body.innerText.includes(token)", token)
            if not still:
                findings.append(_form_finding(
                    page, ctx, "state-lost-on-reload", before.url, label,
                    "an entry created through this form is gone after reloading the page",
                ))
        _restart(page, ctx)
    return findings
