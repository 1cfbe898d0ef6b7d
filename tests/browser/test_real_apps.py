"""Real AI-built apps from the shared WebTestBench set: unpacked into the cache, booted on the shared
dependency store, tested under the network policy, watched for health.

The app is WebTestBench_0001 (a Vite + React + shadcn product-review site with
images from images.unsplash.com): the smallest install among the 50 apps that
share the most common dependency set, so its store serves most of the benchmark. The
first run installs that store (about 15-60 s with npm's cache warm or cold);
later runs link it and boot in 1-2 s.
"""

from __future__ import annotations

import os
import shutil
import signal
import zipfile
from pathlib import Path

import pytest

from webtester.apps_source import AppAbsentError, app_project, find_app, instance_name
from webtester.browser import npm
from webtester.browser.launcher import AppDownError, NpmApp, StaticApp, answers, start_app
from webtester.browser.session import ItemPage
from webtester.graphs.context import AppHandle
from webtester.probes.findings import ScreenshotTaker
from webtester.probes.scan import broken_images, external_images
from webtester.probes.tool import page_findings, unchecked_text

APPS = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "webtestbench" / "apps"
INDEX = "WebTestBench_0001"
needs_apps = pytest.mark.skipif(not (APPS / f"{INDEX}.zip").is_file(), reason="the WebTestBench apps are not here")
needs_npm = pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not installed")
_RENDERED = "() => (document.querySelector('#root')?.innerText || '').trim().length > 0"


# -- app source (no install) -------------------------------------------------------------------------------


@needs_apps
def test_an_app_is_unpacked_into_the_cache_once_and_an_absent_one_is_named(tmp_path):
    assert instance_name(1) == INDEX and instance_name("0001") == INDEX
    project = app_project(1, APPS, cache=tmp_path)
    assert project == tmp_path / "apps" / INDEX
    assert (project / "package.json").is_file() and (project / "src").is_dir()
    stamp = (project / "package.json").stat().st_mtime_ns
    assert app_project(INDEX, APPS, cache=tmp_path) == project
    assert (project / "package.json").stat().st_mtime_ns == stamp  # reused, not unpacked again
    # WebTestBench_0004 is reserved for validation: its app is absent, and that is a distinct error
    with pytest.raises(AppAbsentError, match="WebTestBench_0004"):
        app_project(4, APPS, cache=tmp_path)


@needs_apps
def test_an_app_comes_from_one_zip_or_a_folder_of_unpacked_apps(tmp_path):
    unpacked = tmp_path / "unpacked"
    with zipfile.ZipFile(APPS / f"{INDEX}.zip") as zf:
        zf.extractall(unpacked)
    assert find_app(INDEX, unpacked) == unpacked / INDEX
    from_folder = app_project(INDEX, unpacked, cache=tmp_path / "c1")
    from_zip = app_project(INDEX, APPS / f"{INDEX}.zip", cache=tmp_path / "c2")
    assert (from_folder / "src" / "App.tsx").read_bytes() == (from_zip / "src" / "App.tsx").read_bytes()
    assert not (unpacked / INDEX / "node_modules").exists()  # the source is only read


def test_a_zip_member_outside_the_target_is_refused(tmp_path):
    evil = tmp_path / "apps" / "WebTestBench_0999.zip"
    evil.parent.mkdir()
    with zipfile.ZipFile(evil, "w") as zf:
        zf.writestr("WebTestBench_0999/package.json", "{}")
        zf.writestr("../escaped.txt", "x")
    with pytest.raises(AppAbsentError, match="unsafe member path"):
        app_project(999, evil.parent, cache=tmp_path / "cache")
    assert not (tmp_path / "escaped.txt").exists()


# -- booting, network policy, health (real npm, real Chromium) ---------------------------------------------


@pytest.fixture(scope="module")
def project():
    """The app's project in the cache, linked to the shared store (installed on the first run only)."""
    if not (APPS / f"{INDEX}.zip").is_file() or shutil.which("npm") is None:
        pytest.skip("needs the WebTestBench apps and npm")
    return app_project(INDEX, APPS)


@needs_apps
@needs_npm
@pytest.mark.npm
@pytest.mark.browser
@pytest.mark.parametrize("network", ["offline", "allow-subresources"])
def test_a_real_app_boots_from_the_cache_and_unreachable_images_are_environment_events(
    project, browser, tmp_path, network
):
    with start_app(project, log_path=tmp_path / "app.log") as app:
        assert isinstance(app, NpmApp)
        assert npm.linked_key(project) == npm.store_key(project)  # node_modules links the shared store
        assert (project / "node_modules" / "react").is_symlink()
        item = ItemPage(browser, app.url, network=network)
        try:
            item.page.wait_for_function(_RENDERED, timeout=60_000)
            item.page.wait_for_load_state("networkidle", timeout=10_000)
            ev = item.evidence
            assert "Discover Products" in item.observe().text
            unsplash = [e for e in ev.environment if "images.unsplash.com" in e]
            if network == "offline":
                assert unsplash and all("blocked by the network policy 'offline'" in e for e in unsplash)
            if external_images(item.page):  # this environment could not reach the host
                assert unsplash
                assert "Not checked:" in unchecked_text(item) and "not a defect of the app" in unchecked_text(item)
            # no probe and no evidence list calls it the app's failure
            assert broken_images(item.page, ScreenshotTaker(None)) == []
            assert not [f for f in page_findings(item) if "unsplash" in f.message]
            assert not [r for r in ev.failed_requests if "unsplash" in r]
            assert not [e for e in ev.console_errors if "unsplash" in e]
            model = ev.to_model()
            assert model.environment == ev.environment and not [r for r in model.failed_requests if "unsplash" in r]
        finally:
            item.close()


@needs_apps
@needs_npm
@pytest.mark.npm
def test_a_dev_server_killed_mid_run_is_restarted_and_one_that_stays_down_is_reported(project, tmp_path):
    app_dir = tmp_path / INDEX  # a copy, so breaking it leaves the cached project intact
    shutil.copytree(project, app_dir, symlinks=True, ignore=shutil.ignore_patterns(".vite"))
    with start_app(app_dir, log_path=tmp_path / "app.log") as app:
        assert app.check() is None and app.ensure_healthy() == app.url
        os.killpg(os.getpgid(app.pid), signal.SIGKILL)
        app._proc.wait(timeout=10)
        assert "exited with code" in app.check()
        url = app.ensure_healthy()  # restarted once
        # the restarted dev server's first answer may be slow on a loaded machine: as long as its health check
        assert app.restarts == 1 and answers(url, timeout=5.0) and app.check() is None
        assert "restarting the dev server" in app.log_tail(100)

        # now it cannot come back: the config is broken, and the server is killed again
        (app_dir / "vite.config.ts").write_text('throw new Error("config exploded on purpose");\n')
        os.killpg(os.getpgid(app.pid), signal.SIGKILL)
        app._proc.wait(timeout=10)
        handle = AppHandle(lambda: app)
        handle.ensure()  # the first call only starts (here: adopts) the app
        with pytest.raises(AppDownError) as caught:
            app.ensure_healthy(max_restarts=2)
        assert "exited with code" in caught.value.reason and "restart failed" in caught.value.reason
        assert "config exploded on purpose" in caught.value.log_tail
        # the workflow's app handle checks health before each item: it raises too, so the instance fails
        with pytest.raises(AppDownError, match="exited with code"):
            handle.ensure()


@needs_apps
@needs_npm
@pytest.mark.npm
@pytest.mark.browser
def test_a_real_app_served_as_a_cached_production_build_keeps_client_side_routes(project, browser, tmp_path):
    with start_app(project, serve="build", log_path=tmp_path / "build.log", timeout=60) as app:
        assert isinstance(app, StaticApp) and app.kind == "build"
        item = ItemPage(browser, app.url + "products")  # a client-side route: the server answers index.html
        try:
            item.page.wait_for_function(_RENDERED, timeout=30_000)
            assert item.evidence.failed_requests == []
            assert "Products" in item.observe().text
        finally:
            item.close()
        app.stop()
        assert app.check() is not None
        assert app.ensure_healthy() == app.url and app.restarts == 1  # the static server comes back



def test_the_network_policy_is_a_setting_with_an_offline_default():
    from webtester.browser.confinement import NETWORK_POLICIES, check_network_policy
    from webtester.settings import Settings, load_settings

    assert Settings().network == NETWORK_POLICIES[0] == "offline"
    assert load_settings(environ={"WEBTESTER_NETWORK": "allow-subresources"}).network == "allow-subresources"
    with pytest.raises(ValueError, match="unknown network policy"):
        check_network_policy("everything")
