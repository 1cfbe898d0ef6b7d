"""Shared fixtures (one Chromium per test process) and the markers of the three test layers.

- ``tests/unit``: no browser, no npm; pure functions, the graph with fake testers, the judges, the statistics;
- ``tests/browser``: one page or one app in a real Chromium (tools, probes, launcher, real apps);
- ``tests/e2e``: whole runs (workflow, CLI, bench, demo, gold checks of the bundled apps, the notebook).

Each test gets its folder's marker, so ``pytest -m unit`` or ``pytest -m "not e2e"`` select a layer.
``scripts/test.sh`` runs three pytest-xdist workers that take whole files (``--dist loadfile``), so a module's
expensive fixture (a baseline run, a trained judge) is built once.
"""

from __future__ import annotations

from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SHARED = PROJECT_ROOT.parent / "shared"
WEBTESTBENCH = SHARED / "datasets" / "webtestbench" / "WebTestBench.jsonl"


LAYERS = ("unit", "browser", "e2e")


def pytest_collection_modifyitems(config, items):
    """Mark each test with the layer its folder stands for (and ``browser`` for every e2e test)."""
    for item in items:
        layer = next((p for p in Path(str(item.path)).relative_to(PROJECT_ROOT / "tests").parts if p in LAYERS), None)
        if layer is None:
            continue
        item.add_marker(getattr(pytest.mark, layer))
        if layer == "e2e":
            item.add_marker(pytest.mark.browser)


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
