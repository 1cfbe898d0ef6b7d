"""Hostile pages against both testers: nothing a page asks for reaches another port of the machine (TCP or
UDP), a page whose script never ends cannot hang a run, and a huge page is read within a bound."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import pytest

from webtester.agents.base import InstanceBudget, ItemBudget
from webtester.agents.llm_tester import LLMTester
from webtester.baseline import BaselineTester
from webtester.baseline.survey import survey
from webtester.browser import watchdog
from webtester.browser.session import NAVIGATION_TIMEOUT_MS, ItemPage
from webtester.browser.static_server import StaticServer
from webtester.browser.watchdog import PageUnresponsive, evaluate, navigate
from webtester.llm.scripted import Script, ScriptedChatModel
from webtester.models import Dimension, Status, TestItem

PAGES = Path(__file__).resolve().parents[1] / "fixtures" / "hostile_pages"
ITEM = TestItem(id="FT-01", dimension=Dimension.functionality, description="The page shows its heading")
pytestmark = pytest.mark.browser


class Listener:
    """A TCP server and a UDP socket on other local ports, counting what reaches them."""

    def __init__(self) -> None:
        self.tcp = socket.create_server(("127.0.0.1", 0))
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", 0))
        self.connections: list[bytes] = []
        self.packets = 0
        self.origin = f"http://127.0.0.1:{self.tcp.getsockname()[1]}"
        self.udp_port = self.udp.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()
        threading.Thread(target=self._receive, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.tcp.accept()
            except OSError:
                return
            conn.settimeout(1)
            try:
                self.connections.append(conn.recv(2000).split(b"\r\n")[0] or b"(no request)")
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            except OSError:
                self.connections.append(b"(no request)")
            conn.close()

    def _receive(self) -> None:
        while True:
            try:
                self.udp.recvfrom(4096)
            except OSError:
                return
            self.packets += 1

    def hits(self) -> tuple[list[bytes], int]:
        time.sleep(1.0)  # what was on its way arrives
        return list(self.connections), self.packets

    def close(self) -> None:
        self.tcp.close()
        self.udp.close()


@pytest.fixture(scope="module")
def listener():
    ears = Listener()
    yield ears
    ears.close()


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory, listener):
    """The hostile page (every kind of request to the listener) and the busy and huge pages."""
    site = tmp_path_factory.mktemp("hostile")
    for source in PAGES.iterdir():
        text = source.read_text().replace("OTHER", listener.origin).replace("UDP_PORT", str(listener.udp_port))
        (site / source.name).write_text(text)
    with StaticServer(site) as server:
        yield server


class Pages:
    """The opener the workflow hands a tester: a fresh confined item page of the run's browser."""

    def __init__(self, browser) -> None:
        self.browser = browser

    def new_page(self, base_url: str, *, trace_name: str | None = None) -> ItemPage:
        return ItemPage(self.browser, base_url)


def test_the_baseline_preparation_sends_nothing_outside_the_app(browser, hostile_site, listener, tmp_path):
    tester = BaselineTester(max_actions=40, time_limit=12.0, crawl_actions=10, crawl_time=6.0, absence_model=None)
    tester.start_instance("hostile", tmp_path / "hostile")
    before = len(listener.connections), listener.packets
    tester.prepare(hostile_site.url, Pages(browser), instruction="A page with a heading and links.")
    connections, packets = listener.hits()
    assert (connections[before[0]:], packets - before[1]) == ([], 0)
    # the preparation did look at the page: the survey read it, the crawl and the probes visited it
    assert "model" in tester._start_page and tester._graph.routes and tester._exploration.pages


def test_the_llm_testers_item_page_sends_nothing_outside_the_app(browser, hostile_site, listener):
    script = Script.build({"items": {"*": [
        {"tool_calls": [{"name": "click", "args": {"ref": {"$match": r'link "another site" \[(\w+)\]'}}}]},
        {"tool_calls": [{"name": "wait_for", "args": {"seconds": 2}}]},
        {"verdict": {"status": "pass", "reason": "the heading is shown"}},
    ]}})
    model = ScriptedChatModel(script=script)
    tester = LLMTester(model, model, name="scripted", record=False)
    before = len(listener.connections), listener.packets
    page = ItemPage(browser, hostile_site.url)
    try:
        verdict = tester.detect(ITEM, page, ItemBudget(10, InstanceBudget(50)))
        assert verdict.status is Status.passed
        assert any("navigation to " + listener.origin + "/away" in b for b in page.evidence.blocked_requests)
        assert page.evidence.popups  # the page's window.open and its target=_blank click were seen and closed
    finally:
        page.close()
    connections, packets = listener.hits()
    assert (connections[before[0]:], packets - before[1]) == ([], 0)


def test_a_page_whose_script_never_ends_is_recorded_not_waited_for(browser, hostile_site, monkeypatch):
    monkeypatch.setattr(watchdog, "SCRIPT_LIMIT_S", 3.0)
    page = ItemPage(browser, hostile_site.url + "busy.html")
    try:
        time.sleep(2.0)  # the script has started
        started = time.monotonic()
        page.settle()
        assert time.monotonic() - started < 3.0 + 1.5 + 5.0  # the limit plus the settle's own wait, and some slack
        assert page.evidence.page_errors == ["the page stopped responding: its script ran for more than 4.5 s"]
        started = time.monotonic()
        with pytest.raises(PageUnresponsive, match="stopped responding"):
            evaluate(page.page, "() => document.title")  # a frozen page answers at once from now on
        with pytest.raises(PageUnresponsive):
            watchdog.matches(page.page.locator("button"))
        assert time.monotonic() - started < 1.0
    finally:
        page.close()


def test_a_navigation_that_a_frozen_page_holds_up_says_the_page_stopped_responding(browser, hostile_site,
                                                                                   monkeypatch):
    monkeypatch.setattr(watchdog, "SCRIPT_LIMIT_S", 3.0)
    page = ItemPage(browser, hostile_site.url + "leaving.html")
    try:
        started = time.monotonic()
        # the page answers before the navigation and freezes during it (its beforeunload never ends)
        with pytest.raises(PageUnresponsive, match="stopped responding"):
            navigate(page.page, hostile_site.url + "index.html", wait_until="load", timeout=5_000)
        assert time.monotonic() - started < 5.0 + 3.0 + 5.0  # the navigation's timeout, the limit, some slack
    finally:
        page.close()


def test_a_page_that_holds_up_its_closing_is_crashed_and_the_closing_stays_bounded(browser, hostile_site,
                                                                                  monkeypatch):
    monkeypatch.setattr(watchdog, "CLOSE_LIMIT_S", 1.0)
    page = ItemPage(browser, hostile_site.url + "index.html")
    held = browser.new_page()  # a wait of Playwright's own stands in for a closing the page never lets end
    context = page.context
    closing = context.close
    crashed: list[bool] = []
    page.page.on("crash", lambda _: crashed.append(True))
    monkeypatch.setattr(context, "close", lambda: held.wait_for_timeout(60_000))
    try:
        started = time.monotonic()
        page.close()
        assert time.monotonic() - started < 2 * 1.0 + 5.0  # two waits of the limit, the crash, some slack
        assert "the browser context did not close within 2 s" in " ".join(page.evidence.page_errors)
        held.wait_for_timeout(200)
        assert crashed, "the page holding up the closing was not crashed"
    finally:
        closing()
        held.close()


def test_the_baseline_on_a_page_whose_script_never_ends_finishes_and_says_why(browser, hostile_site, monkeypatch,
                                                                              tmp_path):
    monkeypatch.setattr(watchdog, "SCRIPT_LIMIT_S", 3.0)
    tester = BaselineTester(max_actions=40, time_limit=30.0, crawl_actions=10, crawl_time=30.0, absence_model=None)
    tester.start_instance("busy", tmp_path / "busy")
    started = time.monotonic()
    tester.prepare(hostile_site.url + "busy.html", Pages(browser), instruction="A page with a button.")
    assert time.monotonic() - started < 60
    # the crawl of this one-button page is over before the script starts; the exploration is stopped by it
    assert "stopped responding" in (tester._exploration.stopped or ""), tester._exploration.notes


def test_the_survey_of_a_huge_page_finishes_within_a_bound(browser, hostile_site):
    # The bound is the one the code promises (one navigation, then three page scripts under the watchdog),
    # not a speed figure: a loaded machine may be slow, but no read of the page may run past its limit.
    bound = NAVIGATION_TIMEOUT_MS / 1000 + 3 * watchdog.SCRIPT_LIMIT_S
    started = time.monotonic()
    model = survey(hostile_site.url + "huge.html", Pages(browser))
    assert time.monotonic() - started < bound
    # and the read is whole: the form, the title and the 20,000 entries' list
    assert model.forms and model.title == "Huge page" and model.list_count == 20000


def test_the_llm_tester_ends_an_item_in_a_frozen_page_with_the_reason(browser, hostile_site, monkeypatch):
    monkeypatch.setattr(watchdog, "SCRIPT_LIMIT_S", 3.0)
    script = Script.build({"items": {"*": [
        {"tool_calls": [{"name": "wait_for", "args": {"seconds": 4}}]},
        {"tool_calls": [{"name": "click", "args": {"ref": {"$match": r'button "Click me" \[(\w+)\]'}}}]},
        {"verdict": {"status": "pass", "reason": "the button answers"}},
    ]}})
    model = ScriptedChatModel(script=script)
    tester = LLMTester(model, model, name="scripted", record=False)
    page = ItemPage(browser, hostile_site.url + "busy_later.html")  # observed first, frozen 3 s after load
    started = time.monotonic()
    try:
        verdict = tester.detect(ITEM, page, ItemBudget(10, InstanceBudget(50)))
    finally:
        page.close()
    assert time.monotonic() - started < 40
    assert verdict.status is Status.error and "stopped responding" in verdict.evidence.notes, verdict.evidence
