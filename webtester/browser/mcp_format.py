"""Playwright MCP's ``browser_snapshot`` answer, reproduced for size comparisons.

Playwright MCP answers ``browser_snapshot`` (and, by default, every action)
with a markdown block: a ``### Page state`` heading, the page URL and title,
and the page's AI-mode aria snapshot (``Page._snapshotForAI()`` in its source,
public in Playwright for Python as ``page.aria_snapshot(mode="ai")``) in a YAML
code fence. This module builds exactly that text; MCP's own extras (tab list,
console messages, the code it ran) are left out, which favours MCP in the
comparison.
"""

from __future__ import annotations

from webtester.browser.observe import aria_snapshot, page_title


def mcp_format(url: str, title: str, snapshot: str) -> str:
    """The ``### Page state`` block Playwright MCP returns for a snapshot."""
    return "\n".join(
        ["### Page state", f"- Page URL: {url}", f"- Page Title: {title}", "- Page Snapshot:", "```yaml", snapshot, "```"]
    )


def mcp_snapshot(page) -> str:
    """Playwright MCP's ``browser_snapshot`` text for ``page`` as it is now."""
    return mcp_format(page.url, page_title(page), aria_snapshot(page))
