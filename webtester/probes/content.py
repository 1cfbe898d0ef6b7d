"""Content probes read from the visible text: amounts in a currency other than the expected one."""

from __future__ import annotations

from playwright.sync_api import Page

from webtester.browser.watchdog import evaluate
from webtester.probes.findings import Finding, ScreenshotTaker
from webtester.probes.pagemodel import BADGES_JS, currencies_in
from webtester.probes.scan import SELECTOR_JS

_TEXTS_JS = r"""() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'OPTION'].includes(el.tagName)) continue;
    if (el.getClientRects().length === 0 || getComputedStyle(el).visibility === 'hidden') continue;
    const t = n.textContent.replace(/\s+/g, ' ').trim();
    if (t) out.push(t);
  }
  return out;
}"""


def visible_texts(page: Page) -> list[str]:
    """The visible text nodes of the page, in document order."""
    return evaluate(page, _TEXTS_JS)


def mixed_currency(page: Page, shots: ScreenshotTaker, expected: str | None = None) -> list[Finding]:
    """Amounts shown in another currency than ``expected`` (or, without it, than the one most amounts use).

    Without an expected symbol, a page must show at least three amounts in its main currency before a
    minority currency is reported (a single amount in another currency may be legitimate).
    """
    found = currencies_in(visible_texts(page))
    if not found:
        return []
    if expected is None:
        main = max(found, key=lambda s: len(found[s]))
        if len(found[main]) < 3:
            return []
    else:
        main = expected
    findings = []
    for symbol, texts in sorted(found.items()):
        if symbol == main:
            continue
        findings.append(Finding(
            probe="mixed-currency", page_url=page.url, element=f"text {texts[0]!r}",
            message=f"amount shown in {symbol} while the app's amounts are in {main}: {', '.join(repr(t) for t in texts[:3])}",
            screenshot=shots.take(page, "mixed-currency", page.get_by_text(texts[0], exact=False).first),
            details={"expected": main, "found": symbol, "texts": texts[:5]},
        ))
    return findings


def count_badges(page: Page, shots: ScreenshotTaker) -> tuple[list[Finding], int]:
    """Lists whose header badge (a bare number before the list, e.g. a column's card count) differs from the
    number of entries shown. Returns the findings and how many badges were compared."""
    evaluate(page, SELECTOR_JS)
    pairs = evaluate(page, BADGES_JS)
    findings = [
        Finding(probe="count-mismatch", page_url=page.url, element=f'count badge "{p["badge"]}"',
                message=f"the badge says {p['shown']} but its list shows {p['listed']} entries",
                screenshot=shots.take(page, "count-badge", page.locator(p["badge"]).locator("xpath=../..")),
                details={"shown": p["shown"], "listed": p["listed"], "list": p["list"]})
        for p in pairs if p["shown"] != p["listed"]
    ]
    return findings, len(pairs)
