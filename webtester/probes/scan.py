"""Probes that read the page as it is: broken images, placeholder text, overflow, errors seen.

Nothing the environment caused (a third-party host blocked or unreachable) becomes a finding.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page

from webtester.browser.watchdog import evaluate
from webtester.probes.findings import Finding, ScreenshotTaker, describe_element

#: A script defining ``window.__wtSelector(el)``: a short, unique CSS selector for an element, and
#: ``window.__wtStableSelector(el)``, the same without the ids React generates (they change on every opening).
SELECTOR_JS = """() => {
const path = (el, usable) => {
  const parts = [];
  for (let node = el; node && node.nodeType === 1 && node !== document.documentElement; node = node.parentElement) {
    if (node.id && usable(node.id) && document.querySelectorAll('#' + CSS.escape(node.id)).length === 1) {
      parts.unshift('#' + CSS.escape(node.id));
      break;
    }
    let part = node.tagName.toLowerCase();
    const same = node.parentElement ? [...node.parentElement.children].filter(c => c.tagName === node.tagName) : [];
    if (same.length > 1) part += `:nth-of-type(${same.indexOf(node) + 1})`;
    parts.unshift(part);
  }
  return parts.join(' > ');
};
window.__wtSelector = window.__wtSelector || (el => path(el, () => true));
// a selector a later visit finds again: React's generated ids (":r3:") change from one opening to the next
window.__wtStableSelector = window.__wtStableSelector || (el => path(el, id => !id.includes(':')));
}"""

PLACEHOLDER_PATTERNS = [
    r"\blorem ipsum\b",
    r"\bdolor sit amet\b",
    r"(?-i:\bTODO\b)",  # upper case only: "a todo app" or "Todo list" is a word, not a marker left behind
    r"(?-i:\bFIXME\b)",
    r"\bplaceholder text\b",
    r"\bsample text\b",
    r"\binsert (?:text|content|image) here\b",
    r"\[object Object\]",
    r"\bundefined\b",
    r"(?-i:\bNaN\b)",
    r"\{\{\s*[\w.]+\s*\}\}",
]
_PLACEHOLDER = PLACEHOLDER = re.compile("|".join(PLACEHOLDER_PATTERNS), re.IGNORECASE)
#: a page that speaks about program errors, where "undefined" is a word of its subject, not a value left empty
CODE_TALK = re.compile(r"\b(?:TypeError|ReferenceError|SyntaxError|cannot read propert(?:y|ies)|is not a function|"
                       r"undefined or null|null or undefined|stack trace)\b", re.IGNORECASE)
#: texts the patterns above find, as a replay can look for them in the page's text
PLACEHOLDER_WORDS = ("lorem ipsum", "dolor sit amet", "TODO", "FIXME", "placeholder text", "sample text", "[object Object]",
                     "undefined", "NaN")


def _selector_ready(page: Page) -> None:
    evaluate(page, SELECTOR_JS)


_IMAGES_JS = """() => [...document.images]
    .filter(img => img.complete && (img.currentSrc || img.src))
    .map(img => ({sel: window.__wtSelector(img), src: img.currentSrc || img.src, alt: img.alt || '',
                  loaded: img.naturalWidth > 0,
                  own: (() => { try { const u = new URL(img.currentSrc || img.src, location.href);
                                      return ['data:', 'blob:'].includes(u.protocol) || u.origin === location.origin; }
                                catch (e) { return true; } })()}))"""


def _images(page: Page) -> list[dict]:
    _selector_ready(page)
    return evaluate(page, _IMAGES_JS)


def broken_images(page: Page, shots: ScreenshotTaker) -> list[Finding]:
    """Images of the app's own origin (or inline data) that finished loading with no pixels.

    A third-party image that did not load is not checked here: this environment
    may block or be unable to reach its host (see :func:`external_images`); a
    third-party host that answered with an error status shows up as the app's
    failed request instead (:func:`reported_errors`), so the two never disagree.
    """
    return [
        Finding(
            probe="broken-image",
            page_url=page.url,
            element=describe_element(page, f["sel"]),
            message=f"image does not load: {f['src'][:120]}",
            screenshot=shots.take(page, "broken-image", page.locator(f["sel"])),
            details={"src": f["src"], "alt": f["alt"]},
        )
        for f in _images(page)
        if f["own"] and not f["loaded"]
    ]


def external_images(page: Page) -> list[str]:
    """Sources of third-party images that did not load: not checked, they depend on an external resource
    that this environment may not reach."""
    return [f["src"] for f in _images(page) if not f["own"] and not f["loaded"]]


def checked_image_count(page: Page) -> int:
    """How many images on the page could be checked: the app's own, and third-party ones that loaded."""
    return sum(1 for f in _images(page) if f["own"] or f["loaded"])


def placeholder_text(page: Page, shots: ScreenshotTaker) -> list[Finding]:
    """Visible text that looks like a template left unfinished (lorem ipsum, TODO, undefined, NaN...); "undefined" not on a
    page that speaks about program errors (a developers' forum quoting "Cannot read properties of undefined")."""
    _selector_ready(page)
    blocks = evaluate(
        page, """() => {
            const out = [];
            const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
            for (let n = walker.nextNode(); n; n = walker.nextNode()) {
                const el = n.parentElement;
                if (!el || ['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(el.tagName)) continue;
                const t = n.textContent.trim();
                if (!t || el.getClientRects().length === 0) continue;
                out.push({sel: window.__wtSelector(el), text: t.slice(0, 300)});
            }
            for (const el of document.querySelectorAll('input[value], textarea')) {
                if (el.value && el.getClientRects().length) out.push({sel: window.__wtSelector(el), text: el.value.slice(0, 300)});
            }
            return out;
        }"""
    )
    findings: list[Finding] = []
    seen: set[str] = set()
    about_code = bool(CODE_TALK.search(" ".join(b["text"] for b in blocks)))
    for block in blocks:
        match = next((m for m in _PLACEHOLDER.finditer(block["text"])
                      if not (about_code and m.group(0).lower() == "undefined")), None)
        if not match or block["sel"] in seen:
            continue
        seen.add(block["sel"])
        findings.append(
            Finding(
                probe="placeholder-text",
                page_url=page.url,
                element=describe_element(page, block["sel"]),
                message=f"placeholder-like text {match.group(0)!r} in: {block['text'][:100]!r}",
                screenshot=shots.take(page, "placeholder-text", page.locator(block["sel"])),
            )
        )
    return findings


def viewport_overflow(page: Page, shots: ScreenshotTaker) -> list[Finding]:
    """Elements that stick out past the right edge of the viewport (horizontal overflow)."""
    _selector_ready(page)
    found = evaluate(
        page, """() => {
            const width = document.documentElement.clientWidth;
            const out = [];
            for (const el of document.body.querySelectorAll('*')) {
                const r = el.getBoundingClientRect();
                if (r.width === 0 || r.height === 0 || r.right <= width + 1) continue;
                const style = getComputedStyle(el);
                if (style.position === 'fixed' && r.left >= width) continue;  // off-canvas drawers
                let clipped = false;
                for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
                    const ps = getComputedStyle(p);
                    if (['hidden', 'auto', 'scroll', 'clip'].includes(ps.overflowX)) { clipped = true; break; }
                }
                if (clipped) continue;
                // report the outermost overflowing element only
                if (out.some(o => o.el.contains(el))) continue;
                out.push({el, sel: window.__wtSelector(el), right: Math.round(r.right), width});
            }
            return out.map(({sel, right, width}) => ({sel, right, width}));
        }"""
    )
    return [
        Finding(
            probe="viewport-overflow",
            page_url=page.url,
            element=describe_element(page, f["sel"]),
            message=f"element extends to x={f['right']}px, past the {f['width']}px viewport",
            screenshot=shots.take(page, "viewport-overflow", page.locator(f["sel"])),
            details={"right": f["right"], "viewport_width": f["width"]},
        )
        for f in found
    ]


def reported_errors(
    page_url: str,
    console_errors: list[str],
    page_errors: list[str],
    failed_requests: list[str],
) -> list[Finding]:
    """Turn what the browser reported (console errors, uncaught exceptions, failed requests) into findings.

    ``failed_requests`` are the app's own (``EvidenceLog.failed_requests``):
    third-party requests that were blocked or could not reach their host are
    environment events, kept out of that list by the item page, and never a
    finding. Chromium's own "Failed to load resource" console lines repeat a
    failed request and are left to the failed-request finding; the browser's
    automatic favicon request is not the app's.
    """
    console_errors = [e for e in console_errors if not e.startswith("Failed to load resource")]
    failed_requests = [r for r in failed_requests if not r.split("?")[0].endswith("/favicon.ico")]
    findings = [Finding("console-error", page_url, "console", f"console error: {e[:200]}") for e in console_errors]
    findings += [Finding("page-error", page_url, "window", f"uncaught exception: {e[:200]}") for e in page_errors]
    findings += [Finding("failed-request", page_url, "network", f"request failed: {r[:200]}") for r in failed_requests]
    return findings
