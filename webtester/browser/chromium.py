"""Launching Debian's Chromium through Playwright with the flags this tool relies on."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from playwright.sync_api import Browser, Playwright

#: The features Playwright (1.65) turns off itself. Chromium keeps only the last ``--disable-features`` switch on its
#: command line, so the one this tool adds repeats them (a test compares them with the list Playwright passes).
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding", "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect", "TcpPortRandomizationWin", "OptimizationHints", "NetworkTimeServiceQuerying",
    "AimEnabled", "PreconnectToSearch", "msForceBrowserSignIn", "msEdgeUpdateLaunchServicesPreferredVersion",
)
#: The features this tool turns off as well: every window (Playwright opens one per page) preloads the address
#: bar's two WebUI popups, each in a renderer process of its own, which nobody uses in a headless browser and which
#: took about half the CPU of a series of page checks.
DISABLED_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
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
    "--disable-features=" + ",".join(PLAYWRIGHT_DISABLED_FEATURES + DISABLED_FEATURES),
]
VIEWPORT = {"width": 1280, "height": 720}
_CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
#: Where ``playwright install chromium`` puts the executable, inside the browsers folder.
_PLAYWRIGHT_EXECUTABLES = ("chromium-*/chrome-linux64/chrome", "chromium-*/chrome-linux/chrome")


def playwright_browsers_folder() -> Path:
    """Where Playwright installs browsers: ``$PLAYWRIGHT_BROWSERS_PATH`` (``0``: inside the playwright
    package), else ``$XDG_CACHE_HOME/ms-playwright`` or ``~/.cache/ms-playwright``."""
    chosen = os.environ.get("PLAYWRIGHT_BROWSERS_PATH")
    if chosen == "0":
        import playwright

        return Path(playwright.__file__).parent / "driver" / "package" / ".local-browsers"
    if chosen:
        return Path(chosen).expanduser()
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache").expanduser() / "ms-playwright"


def _revision(path: Path) -> int:
    """The revision in a ``chromium-<revision>`` folder name (-1 when there is none)."""
    tail = path.parent.parent.name.rpartition("-")[2]
    return int(tail) if tail.isdigit() else -1


def playwright_chromiums(folder: Path | None = None) -> list[str]:
    """The Chromium executables Playwright installed in ``folder`` (default: its browsers folder), newest first."""
    folder = folder if folder is not None else playwright_browsers_folder()
    found = [p for pattern in _PLAYWRIGHT_EXECUTABLES for p in folder.glob(pattern)]
    return [str(p) for p in sorted(found, key=_revision, reverse=True)]


def find_chromium(explicit: str | None = None) -> str:
    """Path of the Chromium executable: ``explicit``, ``$WEBTESTER_BROWSER``, a system location, or one that
    ``playwright install chromium`` installed (newest first). The error lists every place tried."""
    system = [explicit, os.environ.get("WEBTESTER_BROWSER"), *_CANDIDATES, shutil.which("chromium")]
    for candidate in system + playwright_chromiums():
        if candidate and Path(candidate).exists():
            return str(candidate)
    tried = [c for c in system if c]
    for pattern in _PLAYWRIGHT_EXECUTABLES:
        tried.append(str(playwright_browsers_folder() / pattern))
    raise FileNotFoundError(
        "Chromium not found: install it with `apt-get install -y chromium` or `playwright install chromium`, "
        "or set WEBTESTER_BROWSER to its path; tried " + ", ".join(tried)
    )


def launch_chromium(playwright: Playwright, executable: str | None = None, headless: bool = True) -> Browser:
    """Start headless Chromium with the project's flags."""
    return playwright.chromium.launch(executable_path=find_chromium(executable), headless=headless, args=CHROMIUM_FLAGS)
