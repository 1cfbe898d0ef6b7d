"""Keep a browser context on the app's origin.

Requests to other origins never leave the browser: a top-level navigation is
answered with a local page saying it was blocked (so the agent sees where the
link led and can go back), every other request (images, scripts, fonts, XHR,
web sockets) is aborted. Each blocked request is recorded as evidence: many
generated apps load images from the internet, and that is worth reporting,
not a reason to crash. Only requests that match the "other origin" pattern are
intercepted (the pattern is evaluated inside the browser), so the app's own
requests are not slowed down.
"""

from __future__ import annotations

import html
import re
from urllib.parse import urlsplit

from webtester.browser.evidence import EvidenceLog

BLOCKED_TITLE = "Blocked: outside the app under test"


def origin_of(url: str) -> str:
    """``scheme://host:port`` of an http(s) URL; raises ``ValueError`` otherwise."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"not an http(s) URL: {url!r}")
    return f"{parts.scheme}://{parts.netloc}"


def same_origin(url: str, origin: str) -> bool:
    """True when ``url`` belongs to ``origin`` (``scheme://host:port``)."""
    try:
        return origin_of(url) == origin
    except ValueError:
        return False


def blocked_page(url: str) -> str:
    """The page shown instead of a navigation to another origin."""
    safe = html.escape(url)
    return (
        f"<!doctype html><html><head><title>{BLOCKED_TITLE}</title></head><body>"
        f"<h1>{BLOCKED_TITLE}</h1><p>The browser was asked to open <code>{safe}</code>, which is not part of the "
        f"app under test, so it was not loaded. Go back to continue testing.</p></body></html>"
    )


class Confinement:
    """Installs the routes that keep ``context`` on ``origin`` and logs what they block."""

    def __init__(self, base_url: str, log: EvidenceLog) -> None:
        self.origin = origin_of(base_url)
        self.log = log
        host = urlsplit(self.origin).netloc
        # everything that does not start with our origin (JavaScript regex syntax, evaluated by the browser)
        self.http_pattern = re.compile("^(?!" + re.escape(self.origin) + "(?:[/?#]|$))")
        self.ws_pattern = re.compile("^(?!wss?://" + re.escape(host) + "(?:[/?#]|$))")

    def install(self, context) -> None:
        """Route ``context``'s requests through the confinement rules."""
        context.route(self.http_pattern, self._on_request)
        context.route_web_socket(self.ws_pattern, self._on_websocket)

    def _on_request(self, route) -> None:
        request = route.request
        url = request.url
        if same_origin(url, self.origin):  # the pattern is a prefilter; be exact here
            route.fallback()
            return
        if request.is_navigation_request():
            self.log.add("blocked_requests", f"navigation to {url}")
            route.fulfill(status=200, content_type="text/html; charset=utf-8", body=blocked_page(url))
            return
        self.log.add("blocked_requests", f"{request.method} {url} ({request.resource_type})")
        route.abort("blockedbyclient")

    def _on_websocket(self, ws) -> None:
        self.log.add("blocked_requests", f"web socket {ws.url}")
        ws.close(code=1008, reason="outside the app under test")
