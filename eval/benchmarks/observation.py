"""Observation size and action round-trip benchmark (figures printed, not a test).

For every app (the bundled apps under apps/, the static fixture and the
WebTestBench-style Vite + React fixture under tests/fixtures/), the script
visits the start page and the pages reached by clicking each navigation link
or tab of the start page, and compares for each page:

* our observation (``webtester.browser.observe``), exactly as the agent gets it;
* Playwright MCP's ``browser_snapshot`` answer for the same page, reproduced by
  ``webtester.browser.mcp_format``: ``### Page state``, ``- Page URL:``,
  ``- Page Title:``, ``- Page Snapshot:`` and the AI-mode aria snapshot with
  ``[ref=eN]`` markers in a YAML fence (``page.aria_snapshot(mode="ai")``, the
  public name of the ``_snapshotForAI`` call MCP makes);

and checks that every interactive element of MCP's snapshot (an element with
an interactive role or a pointer cursor) is addressable in ours: its reference
printed, or inside an element whose reference is printed, or listed by the
expansion (``observe ref=...``) that a fold line names; and that the reference
resolves to exactly one element.

Then it measures the round trip of one action plus observation (the ``click``
tool: click, settle, observe, diff) over 100 actions, and a bare ``observe``.

Usage: python -m webtester.eval.benchmarks.observation [--no-npm] [--actions 100] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from webtester.browser.aria import parse_aria_snapshot
from webtester.browser.confinement import origin_of, same_origin
from webtester.browser.launcher import start_app
from webtester.browser.mcp_format import mcp_format
from webtester.browser.observe import INTERACTIVE_ROLES, build_observation
from webtester.browser.session import BrowserSession
from webtester.browser.tools import make_browser_tools
from webtester.bundled import load_bundled, serve_app
from webtester.data_root import CHECKOUT_ROOT

FIXTURES = CHECKOUT_ROOT / "tests" / "fixtures"
NAV_ROLES = ("link", "tab")
MAX_PAGES_PER_APP = 6


def mcp_interactive(raw: str) -> list[str]:
    """References MCP's snapshot gives to interactive elements (interactive role or pointer cursor)."""
    tree = parse_aria_snapshot(raw)
    return [n.ref for n in tree.walk() if n.ref and (n.role in INTERACTIVE_ROLES or n.pointer)]


def _printed(obs) -> set[str]:
    return {r for r in obs.refs if f"[{r}]" in obs.text}


def addressable(page, raw: str, url: str, title: str) -> dict:
    """How many of MCP's interactive elements our view makes reachable, and how.

    Reachable: the reference is printed; or listed by the expansion a fold line names; or the element
    sits inside a printed control (a pointer-cursor span in a link); or it is a pointer-cursor label
    around exactly one printed control (clicking the control does what clicking the label does).
    """
    obs = build_observation(raw, url, title)
    printed = _printed(obs)
    expandable: set[str] = set()
    for line in obs.lines:
        if "observe ref=" in line:
            container = line.split("observe ref=")[1].split()[0]
            expandable |= _printed(build_observation(raw, url, title, ref=container))
        elif "observe with full=true" in line:
            expandable |= _printed(build_observation(raw, url, title, full=True))
    reachable_controls = printed | expandable
    covered: set[str] = set()  # inside a printed control (e.g. a pointer-cursor span in a link): reached through it

    def visit(node, inside: bool) -> None:
        if inside and node.ref:
            covered.add(node.ref)
        is_control = node.ref in reachable_controls and (node.role in INTERACTIVE_ROLES or node.pointer)
        for child in node.children:
            visit(child, inside or is_control)

    tree = parse_aria_snapshot(raw)
    visit(tree, False)
    for node in tree.walk():  # a pointer-cursor <label> around one printed control is reached through it
        if node.ref and node.pointer and node.role not in INTERACTIVE_ROLES:
            inner = [n.ref for n in node.walk() if n is not node and n.ref and n.role in INTERACTIVE_ROLES]
            if len(inner) == 1 and inner[0] in reachable_controls:
                covered.add(node.ref)
    wanted = mcp_interactive(raw)
    reach = [r for r in wanted if r in reachable_controls or r in covered]
    resolvable = sum(1 for r in wanted if page.locator(f"aria-ref={r}").count() == 1)
    return {
        "interactive": len(wanted), "printed": sum(1 for r in wanted if r in printed), "reachable": len(reach),
        "resolvable": resolvable, "missing": [r for r in wanted if r not in reach][:10],
    }


def measure_page(page) -> dict:
    raw = page.aria_snapshot(mode="ai")
    url, title = page.url, page.title()
    obs = build_observation(raw, url, title)
    theirs = mcp_format(url, title, raw)
    row = {"url": url, "title": title, "ours": len(obs.text), "mcp": len(theirs), "ratio": len(obs.text) / len(theirs),
           "folded": obs.folded, "raw": raw}
    row.update(addressable(page, raw, url, title))
    return row


def nav_targets(page) -> list[tuple[str, str]]:
    """(role, name) of the start page's navigation links and tabs, in order, without duplicates."""
    raw = page.aria_snapshot(mode="ai")
    seen, out = set(), []
    for node in parse_aria_snapshot(raw).walk():
        if node.role in NAV_ROLES and node.name and node.ref and (node.role, node.name) not in seen:
            url = node.props.get("url", "")
            if node.role == "link" and ":" in url.split("/")[0] and not same_origin(url, origin_of(page.url)):
                continue  # another origin, mailto:, tel: ...
            seen.add((node.role, node.name))
            out.append((node.role, node.name))
    return out


def _same_page(a: dict, b: dict) -> bool:
    """Same document and nearly the same snapshot (in-page anchors change only the URL's fragment)."""
    return a["url"].split("#")[0] == b["url"].split("#")[0] and abs(a["mcp"] - b["mcp"]) <= 0.05 * a["mcp"] and (
        "#/" not in a["url"] + b["url"] or a["url"] == b["url"]
    )


def bench_app(session, name: str, url: str) -> list[dict]:
    rows = []
    item = session.new_item_page(url)
    try:
        item.page.wait_for_load_state("networkidle", timeout=5_000)
        rows.append({"app": name, "page": "start", **measure_page(item.page)})
        for role, label in nav_targets(item.page):
            if len(rows) >= MAX_PAGES_PER_APP:
                break
            try:
                item.page.goto(url, wait_until="domcontentloaded")
                item.page.get_by_role(role, name=label, exact=True).first.click(timeout=3_000)
                item.settle()
                item.page.wait_for_load_state("networkidle", timeout=3_000)
            except Exception:
                continue
            row = measure_page(item.page)
            if any(_same_page(r, row) for r in rows):
                continue  # the same page again (an in-page anchor, or the start page)
            rows.append({"app": name, "page": f"{role} {label!r}", **row})
    finally:
        item.close()
    return rows


def bench_round_trip(session, url: str, button: str, actions: int) -> dict:
    """Median milliseconds of the click tool (action + settle + observe + diff) and of a bare observe."""
    item = session.new_item_page(url)
    try:
        tools = {t.name: t for t in make_browser_tools(item)}
        tools["observe"].invoke({})
        ref = next(r for r, info in item.last_observation.refs.items() if info.name == button)
        click, obs_times, answers, mcp_answers = [], [], [], []
        for _ in range(actions):
            t = time.perf_counter()
            out = tools["click"].invoke({"ref": ref})
            click.append((time.perf_counter() - t) * 1000)
            if out.startswith("Error"):
                raise RuntimeError(out)
            answers.append(len(out))
            # Playwright MCP answers every action with the page state: the full snapshot after it
            mcp_answers.append(len(mcp_format(item.page.url, item.page.title(), item.last_observation.raw)))
        for _ in range(actions):
            t = time.perf_counter()
            item.observe()
            obs_times.append((time.perf_counter() - t) * 1000)
        return {
            "url": url, "button": button, "actions": actions,
            "click_round_trip_ms_median": statistics.median(click),
            "click_round_trip_ms_p90": sorted(click)[int(0.9 * len(click)) - 1],
            "observe_ms_median": statistics.median(obs_times),
            "answer_chars_mean": statistics.mean(answers),
            "mcp_answer_chars_mean": statistics.mean(mcp_answers),
        }
    finally:
        item.close()


def main(argv: list[str] | None = None) -> int:
    """Run both benchmarks and print their tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-npm", action="store_true", help="skip the Vite + React fixture")
    parser.add_argument("--actions", type=int, default=100)
    parser.add_argument("--json", type=Path, help="also write all figures to this file")
    args = parser.parse_args(argv)
    console = Console()
    apps: list[tuple[str, object]] = []
    for inst in load_bundled():
        try:
            apps.append((inst.index, serve_app(inst, "shipped")))
        except Exception as exc:  # an app still being written
            console.print(f"[yellow]skipping {inst.index}: {exc}[/yellow]")
    apps.append(("fixture:static_site", start_app(FIXTURES / "static_site")))
    if not args.no_npm:
        console.print("starting the Vite + React fixture (npm install on first use) …")
        apps.append(("fixture:vite_app (WebTestBench-style)", start_app(FIXTURES / "vite_app", timeout=180)))
    rows: list[dict] = []
    try:
        with BrowserSession() as session:
            for name, running in apps:
                rows.extend(bench_app(session, name, running.url))
            rt = [bench_round_trip(session, dict(apps)["fixture:static_site"].url, "Increment", args.actions)]
            if not args.no_npm:
                vite_url = dict(apps)["fixture:vite_app (WebTestBench-style)"].url + "products"
                rt.append(bench_round_trip(session, vite_url, "Add to cart", args.actions))
    finally:
        for _, running in apps:
            running.stop()

    table = Table("app", "page", "ours", "MCP", "ratio", "folded", "interactive", "printed", "reachable", "resolvable")
    for r in rows:
        table.add_row(r["app"], r["page"], str(r["ours"]), str(r["mcp"]), f"{r['ratio']:.3f}", str(r["folded"]),
                      str(r["interactive"]), str(r["printed"]), str(r["reachable"]), str(r["resolvable"]))
    console.print(table)
    ratios = [r["ratio"] for r in rows]
    total_i = sum(r["interactive"] for r in rows)
    summary = {
        "pages": len(rows),
        "median_ratio": statistics.median(ratios),
        "mean_ratio": statistics.mean(ratios),
        "max_ratio": max(ratios),
        "total_chars_ours": sum(r["ours"] for r in rows),
        "total_chars_mcp": sum(r["mcp"] for r in rows),
        "interactive_elements": total_i,
        "printed_share": sum(r["printed"] for r in rows) / total_i,
        "reachable_share": sum(r["reachable"] for r in rows) / total_i,
        "resolvable_share": sum(r["resolvable"] for r in rows) / total_i,
    }
    console.print(
        f"pages: {summary['pages']}  median size ratio ours/MCP: [bold]{summary['median_ratio']:.3f}x[/bold] "
        f"(mean {summary['mean_ratio']:.3f}, max {summary['max_ratio']:.3f}; total {summary['total_chars_ours']} vs "
        f"{summary['total_chars_mcp']} chars)"
    )
    console.print(
        f"interactive elements of MCP's snapshots: {total_i}; reference printed {summary['printed_share']:.1%}, "
        f"addressable (printed, inside a printed control, or listed by a named expansion) {summary['reachable_share']:.1%}, "
        f"resolvable to exactly one element {summary['resolvable_share']:.1%}"
    )
    for r in rt:
        console.print(
            f"round trip on {r['url']} clicking {r['button']!r} x{r['actions']}: median "
            f"[bold]{r['click_round_trip_ms_median']:.1f} ms[/bold] (p90 {r['click_round_trip_ms_p90']:.1f} ms); "
            f"bare observe median {r['observe_ms_median']:.1f} ms; answer per action {r['answer_chars_mean']:.0f} chars "
            f"vs {r['mcp_answer_chars_mean']:.0f} for MCP's snapshot after each action "
            f"({r['answer_chars_mean'] / r['mcp_answer_chars_mean']:.3f}x)"
        )
    if args.json:  # with each page's aria snapshot, so that the rendering can be studied offline
        args.json.write_text(json.dumps({"pages": rows, "summary": summary, "round_trips": rt}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
