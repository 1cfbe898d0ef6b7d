"""The app launcher: static folders, npm projects, URLs; readiness, errors and teardown."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from webtester.browser import npm
from webtester.browser.launcher import AppDownError, AppStartError, NpmApp, StaticApp, UrlApp, answers, start_app
from webtester.models import AppSpec

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
needs_npm = pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not installed")


@pytest.fixture()
def stub_project(tmp_path) -> Path:
    """A copy of the dependency-free npm fixture (its dev server is a few lines of Node)."""
    dest = tmp_path / "stub"
    shutil.copytree(FIXTURES / "npm_stub", dest)
    return dest


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as r:
        return r.read().decode()


def test_static_folder_is_served_on_a_free_port_and_released():
    with start_app(FIXTURES / "static_site") as app:
        assert isinstance(app, StaticApp) and app.url.startswith("http://127.0.0.1:") and app.url.endswith("/")
        assert "Counter demo" in _get(app.url)
        url = app.url
    assert not answers(url, timeout=1)


def test_overrides_replace_files_in_memory():
    with start_app(FIXTURES / "static_site", overrides={"second.html": b"<title>Replaced</title>"}) as app:
        assert _get(app.url + "second.html") == "<title>Replaced</title>"
    assert "Second page" in (FIXTURES / "static_site" / "second.html").read_text()


def test_url_targets_and_app_specs(tmp_path):
    with start_app(FIXTURES / "static_site") as served:
        app = start_app(served.url.rstrip("/"))
        assert isinstance(app, UrlApp) and app.url == served.url
        spec_app = start_app(AppSpec(kind="url", url=served.url))
        assert spec_app.url == served.url
    shutil.copytree(FIXTURES / "static_site", tmp_path / "apps" / "site")
    with start_app(AppSpec(kind="static", path="site"), apps_root=tmp_path / "apps") as app:
        assert "Counter demo" in _get(app.url)


@pytest.mark.parametrize(
    "target, message",
    [
        ("/definitely/not/here", "not a URL and not a folder"),
        ("ftp://example.org/", "not a URL and not a folder"),
        (AppSpec(kind="static", path="missing"), "app folder not found"),
        (AppSpec(kind="npm"), "has no path"),
    ],
)
def test_bad_targets_raise_a_clear_error(target, message, tmp_path):
    with pytest.raises(AppStartError, match=message):
        start_app(target, apps_root=tmp_path)


def test_a_url_nobody_answers_is_an_error():
    with pytest.raises(AppStartError, match="nothing answers"):
        start_app("http://127.0.0.1:9/", timeout=1)


def test_install_is_skipped_when_node_modules_is_current(tmp_path):
    project = tmp_path / "p"
    project.mkdir()
    (project / "package.json").write_text('{"name": "p", "scripts": {"dev": "vite"}, "dependencies": {"react": "^19"}}')
    assert not npm.install_is_current(project)  # never installed
    marker = project / "node_modules" / ".package-lock.json"
    marker.parent.mkdir()
    marker.write_text("{}")
    past = time.time() - 100
    os.utime(project / "package.json", (past, past))
    assert npm.install_is_current(project)
    (project / "package-lock.json").write_text("{}")  # a newer lock file means dependencies changed
    assert not npm.install_is_current(project)
    (project / "package.json").write_text('{"name": "p", "scripts": {"dev": "x"}}')  # nothing to install
    assert npm.install_is_current(project)
    assert npm.dev_command(project, 4321)[-6:] == ["--", "--port", "4321", "--strictPort", "--host", "127.0.0.1"]
    (project / "package.json").write_text('{"name": "p", "scripts": {"build": "x"}}')
    with pytest.raises(npm.NpmError, match="no 'dev' or 'start' script"):
        npm.dev_script(project)


@needs_npm
def test_npm_project_starts_on_a_forced_port_and_stops_with_its_process_group(stub_project, tmp_path):
    log = tmp_path / "dev.log"
    app = start_app(stub_project, timeout=60, log_path=log)
    try:
        assert isinstance(app, NpmApp)
        assert "Stub app" in _get(app.url)
        assert f"--port {app.port} --strictPort --host 127.0.0.1" in app.log_tail()
        assert "stub dev server ready" in log.read_text()
        pgid = os.getpgid(app.pid)
        assert pgid != os.getpgid(0)  # its own process group
    finally:
        app.stop()
    app.stop()  # idempotent
    assert not answers(app.url, timeout=1)
    assert _group_alive(pgid) == set()  # nothing of the group is left (exited children may linger as zombies)


@needs_npm
def test_a_dev_server_that_died_is_restarted_once_and_one_that_stays_down_is_reported(stub_project, tmp_path,
                                                                                      monkeypatch):
    with start_app(stub_project, timeout=60, log_path=tmp_path / "dev.log") as app:
        assert app.check() is None and app.ensure_healthy() == app.url and app.restarts == 0
        os.killpg(os.getpgid(app.pid), signal.SIGKILL)
        app._proc.wait(timeout=10)
        assert "exited with code" in app.check()
        assert "Stub app" in _get(app.ensure_healthy()) and app.restarts == 1
        # the next start crashes: the app stays down, and the error carries the reason and the log tail
        monkeypatch.setenv("STUB_MODE", "crash")
        os.killpg(os.getpgid(app.pid), signal.SIGKILL)
        app._proc.wait(timeout=10)
        with pytest.raises(AppDownError) as err:
            app.ensure_healthy(max_restarts=2)
        assert "exited with code" in err.value.reason and "the restart failed" in err.value.reason
        assert "Cannot find module 'left-pad' (stub crash)" in err.value.log_tail
        with pytest.raises(AppDownError):  # no restart left
            app.ensure_healthy(max_restarts=2)


@needs_npm
def test_a_dev_server_that_stops_answering_is_restarted(stub_project, tmp_path):
    with start_app(stub_project, timeout=60, log_path=tmp_path / "dev.log") as app:
        pgid = os.getpgid(app.pid)
        os.killpg(pgid, signal.SIGSTOP)  # alive, but it answers nothing
        try:
            assert "stopped answering" in app.check(timeout=1)
            assert "Stub app" in _get(app.ensure_healthy()) and app.restarts == 1
        finally:
            try:
                os.killpg(pgid, signal.SIGCONT)
            except ProcessLookupError:
                pass
    assert _group_alive(pgid) == set()


def test_static_and_url_apps_report_their_health(tmp_path):
    app = start_app(FIXTURES / "static_site")
    try:
        app.stop()
        assert app.check() == "the static server was stopped"
        url = app.ensure_healthy()
        assert app.restarts == 1 and answers(url)
    finally:
        app.stop()
    with start_app(FIXTURES / "static_site") as server:
        remote = UrlApp(server.url)
        assert remote.ensure_healthy() == remote.url
    with pytest.raises(AppDownError, match="nothing answers") as err:
        remote.ensure_healthy()  # the server behind it is gone and the tester cannot restart a URL
    assert "cannot be restarted" in err.value.reason


@needs_npm
def test_a_dev_server_that_exits_raises_with_its_log_tail(stub_project, monkeypatch):
    monkeypatch.setenv("STUB_MODE", "crash")
    with pytest.raises(AppStartError) as err:
        start_app(stub_project, timeout=60)
    assert "exited with code" in str(err.value)
    assert "Cannot find module 'left-pad' (stub crash)" in str(err.value)


@needs_npm
def test_a_log_file_no_caller_asked_for_is_removed_when_the_app_stops_and_kept_when_it_could_not_start(
        stub_project, monkeypatch):
    with start_app(stub_project, timeout=60) as app:
        log = app.log_path
        assert "stub dev server ready" in log.read_text()
    assert not log.exists()
    monkeypatch.setenv("STUB_MODE", "crash")
    with pytest.raises(AppStartError) as err:
        start_app(stub_project, timeout=60)
    kept = Path(str(err.value).split("--- log tail (", 1)[1].split(") ---", 1)[0])
    assert "stub crash" in kept.read_text()
    kept.unlink()


@needs_npm
def test_a_dev_server_that_never_answers_times_out_with_its_log_tail(stub_project, monkeypatch):
    monkeypatch.setenv("STUB_MODE", "silent")
    start = time.monotonic()
    with pytest.raises(AppStartError) as err:
        start_app(stub_project, timeout=6)
    assert time.monotonic() - start < 40
    assert "did not answer" in str(err.value) and "within 6 s" in str(err.value)
    assert "run dev -- --port" in str(err.value)  # the log tail is quoted


def _group_alive(pgid: int, wait: float = 5.0) -> set[int]:
    """Running (not zombie) members of process group ``pgid``, after waiting up to ``wait`` seconds."""
    import psutil

    deadline = time.monotonic() + wait
    while True:
        members = set()
        for p in psutil.process_iter(["status"]):
            try:
                if os.getpgid(p.pid) == pgid and p.info["status"] != psutil.STATUS_ZOMBIE:
                    members.add(p.pid)
            except (ProcessLookupError, psutil.Error):
                pass
        if not members or time.monotonic() > deadline:
            return members
        time.sleep(0.1)


def _descendants() -> set[tuple[int, float]]:
    """This process's live descendants as (pid, start time): a pid alone may be reused by another process."""
    import psutil

    out = set()
    for p in psutil.Process().children(recursive=True):
        try:
            if p.status() != psutil.STATUS_ZOMBIE:
                out.add((p.pid, p.create_time()))
        except psutil.NoSuchProcess:
            pass
    return out


def _started_under(pid: int, before_pids: set[int], roots: set[int]) -> bool:
    """True when the nearest already-running ancestor of ``pid`` is one of ``roots``."""
    import psutil

    try:
        parent = psutil.Process(pid).parent()
        while parent is not None:
            if parent.pid in before_pids or parent.pid == os.getpid():
                return parent.pid in roots
            parent = parent.parent()
    except psutil.NoSuchProcess:
        return False
    return False


def _described(procs) -> list[str]:
    """Each of ``procs`` ((pid, start time) pairs) as ``pid: command line (parent)``, for a failure message."""
    import psutil

    out = []
    for pid, _ in procs:
        try:
            p = psutil.Process(pid)
            out.append(f"{pid}: {' '.join(p.cmdline())[:200]} (parent {p.ppid()}, {p.status()})")
        except psutil.Error:
            out.append(f"{pid}: gone")
    return out


def _alive(procs) -> set[tuple[int, float]]:
    """Those of ``procs`` (pids or (pid, start time) pairs) that still run (zombies count as gone)."""
    import psutil

    alive = set()
    for entry in procs:
        pid, started = entry if isinstance(entry, tuple) else (entry, None)
        try:
            p = psutil.Process(pid)
            if p.status() != psutil.STATUS_ZOMBIE and (started is None or p.create_time() == started):
                alive.add(entry)
        except psutil.NoSuchProcess:
            pass
    return alive


CYCLES = 10


@needs_npm
@pytest.mark.browser
@pytest.mark.slow
def test_no_process_is_left_after_10_start_stop_cycles(stub_project, playwright_instance):
    """Every cycle starts an npm dev server and a Chromium, opens the app, and stops both."""
    import psutil

    from webtester.browser.session import BrowserSession

    before = _descendants()
    before_pids = {pid for pid, _ in before}
    # processes the cycles start hang below this process or below its Playwright driver; new processes
    # below anything else that was already running (e.g. the shared test browser's spare renderers) are not theirs
    roots = {os.getpid()} | {p.pid for p in psutil.Process().children() if p.pid in before_pids}
    seen: set[tuple[int, float]] = set()
    for _ in range(CYCLES):
        with start_app(stub_project, timeout=60) as app, BrowserSession(playwright=playwright_instance) as session:
            item = session.new_item_page(app.url)
            assert "Stub app" in item.observe().text
            seen |= {entry for entry in _descendants() - before if _started_under(entry[0], before_pids, roots)}
            item.close()
    assert len(seen) >= CYCLES * 2  # each cycle ran at least npm/node and Chromium processes
    deadline = time.monotonic() + 20  # a loaded machine may take a while to reap a killed tree
    while _alive(seen) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _alive(seen) == set(), _described(_alive(seen))
    left = {e for e in _descendants() - before if _started_under(e[0], before_pids, roots)}
    assert left == set()


def ctrl_c_default() -> None:
    """``preexec_fn`` for a child a test stops with Ctrl-C: SIGINT's default disposition, unblocked, as in a
    user's shell, whatever the test process inherited (both survive ``exec``)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@needs_npm
def test_ctrl_c_on_apps_start_tears_the_dev_server_down(stub_project):
    import psutil

    proc = subprocess.Popen(
        [sys.executable, "-m", "webtester.cli.main", "apps", "start", str(stub_project)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, preexec_fn=ctrl_c_default,
    )
    try:
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:"), url
        assert "Stub app" in _get(url)
        group = {(p.pid, p.create_time()) for p in psutil.Process(proc.pid).children(recursive=True)}
        assert group
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    assert not answers(url, timeout=1)
    assert _alive(group) == set()


@needs_npm
@pytest.mark.npm
@pytest.mark.browser
def test_vite_react_app_starts_and_is_driven_through_references(browser, tmp_path):
    """The WebTestBench-style fixture: npm install (shared cache), vite dev server, observe, act."""
    from webtester.browser.session import ItemPage
    from webtester.browser.tools import make_browser_tools

    with start_app(FIXTURES / "vite_app", timeout=180, log_path=tmp_path / "vite.log") as app:
        assert "VITE" in app.log_tail(100) or "vite" in app.log_tail(100).lower()
        item = ItemPage(browser, app.url)
        try:
            item.page.wait_for_selector("h1", timeout=30_000)  # first load compiles the modules
            tools = {t.name: t for t in make_browser_tools(item)}
            view = tools["observe"].invoke({})
            assert "h1 Fresh groceries, delivered today" in view and 'link "Cart (0)" [' in view
            products = next(r for r, i in item.last_observation.refs.items() if i.name == "Products" and i.role == "link")
            out = tools["click"].invoke({"ref": products})
            assert "/products" in out and "h1 Products" in out
            search = next(r for r, i in item.last_observation.refs.items() if i.name == "Search products")
            out = tools["fill"].invoke({"ref": search, "text": "berr"})
            assert "3 products" in out and "h3 Strawberries" in out and "Bagels" not in out
            add = next(r for r, i in item.last_observation.refs.items() if i.name == "Add to cart")
            out = tools["click"].invoke({"ref": add})
            assert "Cart (1)" in out and "Added Blueberries to your cart." in out
            # the hero image comes from another origin: blocked and recorded as an environment event, not a crash
            assert any("images.example-cdn.com" in b for b in item.evidence.environment)
            assert not any("images.example-cdn.com" in r for r in item.evidence.failed_requests)
        finally:
            item.close()
        fresh = ItemPage(browser, app.url + "cart")
        try:
            fresh.page.wait_for_selector("h1", timeout=30_000)
            assert "Your cart is empty." in fresh.observe().text  # a new item starts from the default data
        finally:
            fresh.close()
