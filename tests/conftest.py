"""Shared fixtures: one Chromium per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SHARED = PROJECT_ROOT.parent / "shared"
WEBTESTBENCH = SHARED / "datasets" / "webtestbench" / "WebTestBench.jsonl"


@pytest.fixture(scope="session")
def playwright_instance():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser(playwright_instance):
    from webtester.browser.chromium import launch_chromium

    b = launch_chromium(playwright_instance)
    yield b
    b.close()


@pytest.fixture(scope="session")
def webtestbench_path() -> Path:
    if not WEBTESTBENCH.exists():
        pytest.fail(f"WebTestBench dataset missing at {WEBTESTBENCH}")
    return WEBTESTBENCH
