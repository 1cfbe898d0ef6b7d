"""Launching Debian's Chromium through Playwright with the flags this tool relies on."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from playwright.sync_api import Browser, Playwright

CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    # WebRTC sends UDP (STUN, ICE) outside the request routing and the proxy: only proxied traffic is allowed,
    # and a confined context's proxy leads nowhere
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
]
VIEWPORT = {"width": 1280, "height": 720}
_CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]


def find_chromium(explicit: str | None = None) -> str:
    """Path of the Chromium executable: ``explicit``, ``$WEBTESTER_BROWSER``, or a known location."""
    for candidate in [explicit, os.environ.get("WEBTESTER_BROWSER"), *_CANDIDATES, shutil.which("chromium")]:
        if candidate and Path(candidate).exists():
            return str(candidate)
    raise FileNotFoundError(
        "Chromium not found: install it with `apt-get install -y chromium` "
        "or set WEBTESTER_BROWSER to its path"
    )


def launch_chromium(playwright: Playwright, executable: str | None = None, headless: bool = True) -> Browser:
    """Start headless Chromium with the project's flags."""
    return playwright.chromium.launch(executable_path=find_chromium(executable), headless=headless, args=CHROMIUM_FLAGS)
