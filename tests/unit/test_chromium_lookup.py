"""Chromium is found where Playwright installs it, newest revision first; the error lists what was tried."""

from __future__ import annotations

from pathlib import Path

import pytest

from webtester.browser import chromium


def _fake_browser(folder: Path, relative: str) -> Path:
    path = folder / relative
    path.parent.mkdir(parents=True)
    path.write_text("#!/bin/sh\n")
    return path


@pytest.fixture
def no_system_chromium(monkeypatch):
    monkeypatch.setattr(chromium, "_CANDIDATES", [])
    monkeypatch.setattr(chromium.shutil, "which", lambda name: None)
    monkeypatch.delenv("WEBTESTER_BROWSER", raising=False)
    monkeypatch.delenv("PLAYWRIGHT_BROWSERS_PATH", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)


def test_the_newest_playwright_chromium_is_found(tmp_path, monkeypatch, no_system_chromium):
    _fake_browser(tmp_path, "chromium-999/chrome-linux/chrome")
    newest = _fake_browser(tmp_path, "chromium-1200/chrome-linux64/chrome")
    _fake_browser(tmp_path, "chromium-1100/chrome-linux/chrome")
    _fake_browser(tmp_path, "firefox-1400/firefox/firefox")
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path))
    assert chromium.playwright_chromiums() == [str(newest), str(tmp_path / "chromium-1100/chrome-linux/chrome"),
                                                str(tmp_path / "chromium-999/chrome-linux/chrome")]
    assert chromium.find_chromium() == str(newest)


def test_playwright_default_folder_is_in_the_user_cache(tmp_path, monkeypatch, no_system_chromium):
    monkeypatch.setenv("HOME", str(tmp_path))
    found = _fake_browser(tmp_path, ".cache/ms-playwright/chromium-1161/chrome-linux/chrome")
    assert chromium.find_chromium() == str(found)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "elsewhere"))
    assert chromium.playwright_browsers_folder() == tmp_path / "elsewhere" / "ms-playwright"


def test_an_explicit_browser_wins_over_playwright(tmp_path, monkeypatch, no_system_chromium):
    _fake_browser(tmp_path, "chromium-1200/chrome-linux64/chrome")
    mine = _fake_browser(tmp_path, "mine/chrome")
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path))
    monkeypatch.setenv("WEBTESTER_BROWSER", str(mine))
    assert chromium.find_chromium() == str(mine)


def test_the_error_lists_every_place_tried(tmp_path, monkeypatch, no_system_chromium):
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path / "browsers"))
    monkeypatch.setenv("WEBTESTER_BROWSER", str(tmp_path / "gone" / "chrome"))
    with pytest.raises(FileNotFoundError) as caught:
        chromium.find_chromium()
    message = str(caught.value)
    assert str(tmp_path / "gone" / "chrome") in message
    assert str(tmp_path / "browsers" / "chromium-*/chrome-linux64/chrome") in message
    assert str(tmp_path / "browsers" / "chromium-*/chrome-linux/chrome") in message
    assert "playwright install chromium" in message
