"""Benchmark the real WebTestBench apps as a source: unpack, shared install, boot, render.

For every app in the apps location (a folder of ``WebTestBench_NNNN.zip``), in order:

1. unpack it into the cache (``webtester.apps_source``);
2. install its dependencies in the shared store (a cold install when its dependency set is new, else
   just the links) and time it;
3. start it (``--serve dev``: the Vite dev server; ``build``: a cached production build served
   statically) and time the boot to the first HTTP answer; a second start measures the warm boot
   (everything cached);
4. unless ``--no-render``, open it in Chromium and wait for the React root to show text.

Printed per app and overall: warm boot to first answer (median, max), disk per app beyond the shared
store (the project folder with its links and Vite cache, plus its build), cold install time per distinct
dependency set, how many apps boot and render, and each failure's reason. The 2-core machine is shared:
use ``--limit`` while developing; the full run is ``python scripts/bench_apps.py`` (86 apps).

    python scripts/bench_apps.py --limit 3
    python scripts/bench_apps.py --serve build --json runs/bench_apps.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from webtester.apps_source import AppAbsentError, app_project
from webtester.browser import npm
from webtester.browser.chromium import launch_chromium
from webtester.browser.launcher import AppStartError, build_folder, install_dependencies, start_app
from webtester.browser.session import ItemPage
from webtester.cache import cache_root

DEFAULT_APPS = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "webtestbench" / "apps"
RENDERED_JS = "() => (document.querySelector('#root')?.innerText || '').trim().length > 0"


def disk_usage(path: Path) -> int:
    """Bytes used under ``path`` without following symlinks (a link counts as its own few bytes)."""
    total = 0
    for root, dirs, files in os.walk(path):
        for name in dirs + files:
            try:
                total += os.lstat(Path(root) / name).st_blocks * 512
            except FileNotFoundError:
                pass
    return total


def bench_app(index: str, apps: Path, serve: str, browser, logs: Path) -> dict:
    """Measure one app; never raises (a failure is recorded with its reason)."""
    row: dict = {"index": index, "serve": serve, "ok": False}
    started = time.monotonic()
    try:
        project = app_project(index, apps)
    except AppAbsentError as exc:
        return {**row, "reason": f"app absent: {exc}"}
    row["unpack_s"] = round(time.monotonic() - started, 2)
    log_path = logs / f"{index}.log"
    try:
        key = npm.store_key(project) if npm.lock_file(project) else None
        cold = key is not None and not (npm.store_root() / key / "node_modules").is_dir()
        started = time.monotonic()
        with open(log_path, "a", encoding="utf-8") as log:
            install_dependencies(project, log, "auto")
        row.update(store=key, cold_install=cold, install_s=round(time.monotonic() - started, 1))
        started = time.monotonic()
        start_app(project, serve=serve, log_path=log_path).stop()  # a build runs here once per app source
        row["first_boot_s"] = round(time.monotonic() - started, 2)
        started = time.monotonic()
        app = start_app(project, serve=serve, log_path=log_path)
        row["warm_boot_s"] = round(time.monotonic() - started, 2)
    except (AppStartError, npm.NpmError) as exc:
        return {**row, "reason": " ".join(str(exc).split())[:300]}
    try:
        if browser is not None:
            row.update(render(browser, app.url))
        else:
            row["ok"] = True
    finally:
        app.stop()
    row["disk_mb"] = round(disk_usage(project) / 1e6, 2)
    if serve == "build":
        row["disk_mb"] = round(row["disk_mb"] + disk_usage(build_folder(project)) / 1e6, 2)
    return row


def render(browser, url: str) -> dict:
    """Open ``url`` in a fresh confined context and wait for the React root to show text."""
    started = time.monotonic()
    try:
        item = ItemPage(browser, url)
    except Exception as exc:  # noqa: BLE001 - recorded as the reason
        return {"reason": f"page did not open: {type(exc).__name__}: {str(exc).splitlines()[0][:200]}"}
    try:
        item.page.wait_for_function(RENDERED_JS, timeout=60_000)
        ev = item.evidence
        return {"ok": True, "render_s": round(time.monotonic() - started, 2), "page_errors": len(ev.page_errors),
                "failed_requests": len(ev.failed_requests), "environment_events": len(ev.environment)}
    except Exception:  # noqa: BLE001 - an empty root is the finding
        errors = "; ".join(item.evidence.page_errors[:2]) or "no page error"
        return {"reason": f"nothing rendered within 60 s ({errors})"}
    finally:
        item.close()


def summary(rows: list[dict]) -> list[str]:
    """The overall figures as printable lines."""
    booted = [r for r in rows if r.get("ok")]
    lines = [f"apps: {len(rows)}; booted and rendered: {len(booted)}; failed: {len(rows) - len(booted)}"]
    warm = [r["warm_boot_s"] for r in rows if "warm_boot_s" in r]
    if warm:
        lines.append(f"warm boot to first answer: median {statistics.median(warm):.2f} s, max {max(warm):.2f} s")
    disk = [r["disk_mb"] for r in rows if "disk_mb" in r]
    if disk:
        lines.append(f"disk per app beyond the shared store: median {statistics.median(disk):.2f} MB, "
                     f"max {max(disk):.2f} MB")
    cold = [r["install_s"] for r in rows if r.get("cold_install")]
    if cold:
        lines.append(f"cold installs: {len(cold)} (one per new dependency set), median {statistics.median(cold):.1f} s, "
                     f"max {max(cold):.1f} s")
    stores = {r["store"] for r in rows if r.get("store")}
    store_bytes = sum(disk_usage(npm.store_root() / k) for k in stores)
    lines.append(f"shared store: {len(stores)} dependency sets, {store_bytes / 1e6:.0f} MB")
    lines += [f"FAILED {r['index']}: {r.get('reason', '?')}" for r in rows if not r.get("ok")]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--apps", type=Path, default=DEFAULT_APPS, help="folder of WebTestBench_NNNN.zip")
    parser.add_argument("--limit", type=int, default=None, help="only the first N apps")
    parser.add_argument("--only", nargs="*", default=None, help="these instance ids (e.g. 1 18 WebTestBench_0042)")
    parser.add_argument("--serve", choices=("dev", "build"), default="dev")
    parser.add_argument("--no-render", action="store_true", help="skip the Chromium render check")
    parser.add_argument("--json", type=Path, default=None, help="also write every row to this file")
    args = parser.parse_args(argv)
    indexes = args.only or sorted(p.stem for p in args.apps.glob("WebTestBench_*.zip"))
    if args.limit:
        indexes = indexes[: args.limit]
    logs = cache_root() / "bench-logs"
    logs.mkdir(parents=True, exist_ok=True)
    rows: list[dict] = []
    pw = browser = None
    if not args.no_render:
        pw = sync_playwright().start()
        browser = launch_chromium(pw, None)
    try:
        for index in indexes:
            row = bench_app(index, args.apps, args.serve, browser, logs)
            rows.append(row)
            fields = ", ".join(f"{k} {v}" for k, v in row.items() if k not in ("index", "serve", "store"))
            print(f"{row['index']}: {fields}", flush=True)
    finally:
        if browser is not None:
            browser.close()
        if pw is not None:
            pw.stop()
    print("\n".join(summary(rows)))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0 if all(r.get("ok") for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
