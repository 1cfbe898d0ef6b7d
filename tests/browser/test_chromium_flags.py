"""The Chromium this tool launches: the features it turns off, on top of Playwright's own."""

from __future__ import annotations

import os

import psutil

from webtester.browser.chromium import DISABLED_FEATURES, PLAYWRIGHT_DISABLED_FEATURES, find_chromium, launch_chromium


def _browser_processes() -> dict[int, list[str]]:
    """The command lines of the Chromium browser processes (not their helpers) started under this test process."""
    found = {}
    for proc in psutil.Process(os.getpid()).children(recursive=True):
        try:
            args = proc.cmdline()
        except psutil.Error:
            continue
        if args and "chrom" in os.path.basename(args[0]) and not any(a.startswith("--type=") for a in args):
            found[proc.pid] = args
    return found


def _effective_disabled_features(launch) -> set[str]:
    """The features the browser started by ``launch()`` turns off: Chromium keeps the last ``--disable-features``."""
    before = _browser_processes()
    browser = launch()
    try:
        started = [args for pid, args in _browser_processes().items() if pid not in before]
        assert len(started) == 1, started
        switches = [a.partition("=")[2] for a in started[0] if a.startswith("--disable-features=")]
        assert switches, "no --disable-features switch"
        return set(switches[-1].split(","))
    finally:
        browser.close()


def test_the_features_playwright_turns_off_stay_off_with_the_tools_own(playwright_instance):
    playwrights = _effective_disabled_features(lambda: playwright_instance.chromium.launch(
        executable_path=find_chromium(), headless=True))
    assert playwrights <= set(PLAYWRIGHT_DISABLED_FEATURES), (
        f"Playwright now turns off {sorted(playwrights - set(PLAYWRIGHT_DISABLED_FEATURES))} too: add them to "
        "PLAYWRIGHT_DISABLED_FEATURES")
    ours = _effective_disabled_features(lambda: launch_chromium(playwright_instance))
    assert ours == set(PLAYWRIGHT_DISABLED_FEATURES) | set(DISABLED_FEATURES)


def test_a_new_page_opens_no_address_bar_popup(browser):
    """Each window would otherwise preload the address bar's WebUI popups, in renderer processes of their own."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto("data:text/html,<h1>Page</h1>")
        session = browser.new_browser_cdp_session()
        try:
            targets = session.send("Target.getTargets", {"filter": [{}]})["targetInfos"]
        finally:
            session.detach()
    finally:
        context.close()
    assert [t["url"] for t in targets if t["type"] == "page"] == ["data:text/html,<h1>Page</h1>"]
    assert not [t["url"] for t in targets if "omnibox" in t["url"]]
