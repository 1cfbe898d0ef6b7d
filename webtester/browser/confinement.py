"""Keep a browser context on the app's origin, and apply the network policy to third-party subresources.

The agent and its tools never leave the app's origin: a top-level navigation to
another origin is answered with a local page saying it was blocked (so the agent
sees where the link led and can go back), web sockets to other hosts are closed,
and every such block is recorded in ``blocked_requests``.

The app's own third-party subresources (images, fonts, stylesheets, scripts,
media the page loads from other hosts) follow the network policy
(:data:`NETWORK_POLICIES`):

* ``offline`` (default): every third-party request is aborted in the browser;
* ``allow-subresources``: third-party ``GET`` requests for images, fonts,
  stylesheets, scripts and media go to the network; every other third-party
  request (fetch / XHR, POST, beacons...) is still aborted.

Under the ``offline`` policy the routes are backed by the network itself: the context's proxy is a local
port nobody listens on, and only the app's own ``host:port`` bypasses it, so what the browser fetches
outside the routing (a shared worker's requests, ``<link rel=preconnect>``, a background tab, a favicon)
cannot reach another host or port either. Service workers are refused (their requests would bypass the
routes). :meth:`Confinement.new_context` is the one way a context is made.

Whatever the policy blocked, and whatever it let through that could not reach
its host (DNS failure, no route, refused connection, timeout), is recorded as an
*environment event* (``EvidenceLog.environment``), separate from the app's failed
requests: it says nothing about the app. Only requests matching the "other
origin" pattern are intercepted (the pattern is evaluated inside the browser),
so the app's own requests are not slowed down.
"""

from __future__ import annotations

import html
import re
import socket
from typing import Any
from urllib.parse import urlsplit

from webtester.browser.evidence import EvidenceLog

BLOCKED_TITLE = "Blocked: outside the app under test"
OFFLINE = "offline"
ALLOW_SUBRESOURCES = "allow-subresources"
#: The network policies for the app's third-party subresources; the first is the default.
NETWORK_POLICIES = (OFFLINE, ALLOW_SUBRESOURCES)
SUBRESOURCE_TYPES = frozenset({"image", "font", "stylesheet", "script", "media"})
#: Chromium's network errors that mean "this environment cannot reach the host", not "the app is wrong".
UNREACHABLE_ERRORS = (
    "ERR_NAME_NOT_RESOLVED", "ERR_NAME_RESOLUTION_FAILED", "ERR_INTERNET_DISCONNECTED", "ERR_ADDRESS_UNREACHABLE",
    "ERR_CONNECTION_REFUSED", "ERR_CONNECTION_TIMED_OUT", "ERR_CONNECTION_RESET", "ERR_CONNECTION_CLOSED",
    "ERR_CONNECTION_FAILED", "ERR_NETWORK_CHANGED", "ERR_TIMED_OUT", "ERR_PROXY_CONNECTION_FAILED",
    "ERR_TUNNEL_CONNECTION_FAILED", "ERR_SSL_PROTOCOL_ERROR", "ERR_CERT_", "ERR_NETWORK_ACCESS_DENIED",
    "ERR_BLOCKED_BY_CLIENT",
)


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


def check_network_policy(network: str) -> str:
    """``network`` when it names a policy of :data:`NETWORK_POLICIES`; raises ``ValueError`` otherwise."""
    if network not in NETWORK_POLICIES:
        raise ValueError(f"unknown network policy {network!r} (choose from {', '.join(NETWORK_POLICIES)})")
    return network


def is_unreachable(failure: str) -> bool:
    """True when a request failure text (``net::ERR_...``) means the host could not be reached or the
    request never left the browser."""
    return any(code in failure for code in UNREACHABLE_ERRORS)


def blocked_page(url: str) -> str:
    """The page shown instead of a navigation to another origin (with an inline icon: the browser does not
    fetch that origin's ``favicon.ico`` for it)."""
    safe = html.escape(url)
    return (
        f'<!doctype html><html><head><title>{BLOCKED_TITLE}</title><link rel="icon" href="data:,"></head><body>'
        f"<h1>{BLOCKED_TITLE}</h1><p>The browser was asked to open <code>{safe}</code>, which is not part of the "
        f"app under test, so it was not loaded. Go back to continue testing.</p></body></html>"
    )


_NOWHERE: socket.socket | None = None


def nowhere_proxy() -> str:
    """``http://127.0.0.1:PORT`` of a port this process holds without listening: every connection to it is
    refused at once, and no other program can listen there."""
    global _NOWHERE
    if _NOWHERE is None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        _NOWHERE = sock
    return f"http://127.0.0.1:{_NOWHERE.getsockname()[1]}"


class Confinement:
    """Installs the routes that keep ``context`` on ``origin`` and logs what they block.

    ``network`` is the policy for the app's third-party subresources (see the module docstring).
    """

    def __init__(self, base_url: str, log: EvidenceLog, network: str = OFFLINE) -> None:
        self.origin = origin_of(base_url)
        self.log = log
        self.network = check_network_policy(network)
        host = urlsplit(self.origin).netloc
        # everything that does not start with our origin (JavaScript regex syntax, evaluated by the browser)
        self.http_pattern = re.compile("^(?!" + re.escape(self.origin) + "(?:[/?#]|$))")
        self.ws_pattern = re.compile("^(?!wss?://" + re.escape(host) + "(?:[/?#]|$))")

    def context_options(self) -> dict[str, Any]:
        """The options of a confined context: no service workers; under ``offline``, the proxy to nowhere with
        only the app's ``host:port`` bypassing it (``<-loopback>`` first: other local ports are proxied too)."""
        options: dict[str, Any] = {"service_workers": "block"}
        if self.network == OFFLINE:
            parts = urlsplit(self.origin)
            port = parts.port or (443 if parts.scheme == "https" else 80)
            host = f"[{parts.hostname}]" if ":" in (parts.hostname or "") else parts.hostname
            options["proxy"] = {"server": nowhere_proxy(), "bypass": f"<-loopback>,{host}:{port}"}
        return options

    def new_context(self, browser, **options: Any):
        """A new context of ``browser`` with ``options``, confined (see the module docstring)."""
        context = browser.new_context(**{**options, **self.context_options()})
        try:
            self.install(context)
        except BaseException:
            context.close()
            raise
        return context

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
        if self.network == ALLOW_SUBRESOURCES and request.method == "GET" and request.resource_type in SUBRESOURCE_TYPES:
            route.fallback()  # a failure to reach the host is recorded by :meth:`third_party_failed`
            return
        self.log.add_environment(
            url, f"{request.method} {url} ({request.resource_type}): blocked by the network policy '{self.network}'"
        )
        route.abort("blockedbyclient")

    def third_party_failed(self, request) -> bool:
        """Record a failed request as an environment event when it went to a third-party host that could not
        be reached (or was blocked); True when it did, so the caller does not count it as the app's."""
        url = request.url
        if same_origin(url, self.origin):
            return False
        failure = request.failure or ""
        if self.log.is_environment(url) and "ERR_BLOCKED_BY_CLIENT" in failure:
            return True  # already recorded when the route blocked it
        if not is_unreachable(failure) and "ERR_ABORTED" not in failure:
            return False
        self.log.add_environment(url, f"{request.method} {url} ({request.resource_type}): host unreachable ({failure})")
        return True

    def _on_websocket(self, ws) -> None:
        self.log.add("blocked_requests", f"web socket {ws.url}")
        ws.close(code=1008, reason="outside the app under test")
