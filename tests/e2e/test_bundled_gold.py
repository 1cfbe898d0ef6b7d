"""Gold labels of the bundled apps are verified by executable checks in a real browser."""

from __future__ import annotations

import re

import pytest

from webtester.bundled import apps_root, load_bundled, run_checks, serve_app

INSTANCES = load_bundled()
IDS = [i.index for i in INSTANCES]


@pytest.mark.browser
@pytest.mark.parametrize("inst", INSTANCES, ids=IDS)
def test_shipped_build_matches_gold(inst, browser, tmp_path_factory):
    with serve_app(inst, "shipped") as server:
        _screenshot_start_page(browser, server.url, tmp_path_factory.getbasetemp() / "app-screenshots" / f"{inst.index}.png")
        outcomes = run_checks(inst, server.url, browser)
    wrong = [
        f"item {i.id} ({i.defect or 'no defect'}): gold pass={i.passed}, check={outcomes[i.id].passed} {outcomes[i.id].message}"
        for i in inst.checklist
        if outcomes[i.id].passed != i.passed
    ]
    assert not wrong, "\n".join(wrong)


def _screenshot_start_page(browser, url, path):
    """Save the start page as a person sees it, and check that it is a styled product page."""
    from webtester.browser.chromium import VIEWPORT

    context = browser.new_context(viewport=VIEWPORT)
    try:
        page = context.new_page()
        page.goto(url)
        path.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path))
        style = page.evaluate(
            """() => ({sheets: [...document.styleSheets].reduce((n, s) => n + s.cssRules.length, 0),
                      font: getComputedStyle(document.body).fontFamily,
                      headings: document.querySelectorAll('h1, h2').length,
                      buttons: document.querySelectorAll('button, a[href]').length})"""
        )
    finally:
        context.close()
    assert path.stat().st_size > 20_000, "start page screenshot is nearly empty"
    assert style["sheets"] >= 20 and "Times" not in style["font"], f"start page looks unstyled: {style}"
    assert style["headings"] >= 1 and style["buttons"] >= 3, f"start page has no product structure: {style}"


@pytest.mark.browser
@pytest.mark.parametrize("inst", INSTANCES, ids=IDS)
def test_clean_build_passes_the_checks_its_shipped_defects_fail(inst, browser):
    """Without its shipped defects the app passes the checks those defects fail (so each such check tells a
    defect from its absence). Every other check is already shown to pass with the shipped defects on
    (``test_shipped_build_matches_gold``), so it is not run again here."""
    shipped = set(inst.shipped_defects())
    items = [i.id for i in inst.checklist if i.defect in shipped]
    assert items, "no gold item depends on a shipped defect"
    with serve_app(inst, "clean") as server:
        outcomes = run_checks(inst, server.url, browser, items)
    assert sorted(outcomes) == sorted(items)
    failed = [f"item {k}: {o.message}" for k, o in outcomes.items() if not o.passed]
    assert not failed, "\n".join(failed)


@pytest.mark.browser
@pytest.mark.parametrize("inst", INSTANCES, ids=IDS)
def test_each_latent_defect_is_detected_by_its_items(inst, browser):
    """With only latent defect d on, every item that depends on d fails (so its check tells the builds apart).

    Items of shipped defects are told apart by the two tests above: they fail in
    the shipped build and pass in the clean one.
    """
    problems = []
    for defect in inst.defects or []:
        if defect.shipped:
            if not any(i.defect == defect.id for i in inst.checklist):
                problems.append(f"defect {defect.id} has no gold item depending on it")
            continue
        items = [i.id for i in inst.checklist if i.defect == defect.id]
        if not items:
            problems.append(f"defect {defect.id} has no gold item depending on it")
            continue
        with serve_app(inst, [defect.id]) as server:
            outcomes = run_checks(inst, server.url, browser, items)
        problems += [f"defect {defect.id}: item {k} still passes" for k, o in outcomes.items() if o.passed]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("inst", INSTANCES, ids=IDS)
def test_gold_record_is_consistent(inst):
    assert 15 <= len(inst.checklist) <= 22
    assert {i.dimension for i in inst.checklist} == {"functionality", "constraint", "interaction", "content"}
    defects = {d.id: d for d in inst.defects or []}
    assert len(defects) >= 4
    assert sum(d.shipped for d in defects.values()) >= 3
    for item in inst.checklist:
        if item.defect is not None:
            assert item.defect in defects, f"item {item.id} names unknown defect {item.defect}"
        shipped_defect = item.defect is not None and defects[item.defect].shipped
        assert item.passed == (not shipped_defect), f"item {item.id}: pass label disagrees with its defect"
        assert (item.bug is not None) == (not item.passed), f"item {item.id}: bug text iff failing"
    on_disk = (apps_root() / inst.index / "defects.js").read_text()
    assert sorted(re.findall(r'"([^"]+)"', on_disk)) == sorted(inst.shipped_defects())


def test_benchmark_size():
    assert len(INSTANCES) == 14
    assert sum(len(i.defects or []) for i in INSTANCES) >= 60
    from collections import Counter

    assert set(Counter(i.category.value for i in INSTANCES).values()) == {2}


@pytest.mark.browser
def test_each_check_starts_as_a_new_visitor(browser, monkeypatch, tmp_path):
    """The checks of one build share a browser context, but nothing a check leaves behind (cookies, local and session
    storage, IndexedDB) reaches the next one."""
    from types import SimpleNamespace

    import webtester.bundled as bundled
    from webtester.browser.static_server import StaticServer
    from webtester.models import Category, GoldItem, Instance

    (tmp_path / "index.html").write_text("<!doctype html><title>Site</title><h1>Site</h1>", encoding="utf-8")
    leave = """() => new Promise(done => { localStorage.setItem('k', '1'); sessionStorage.setItem('k', '1');
        document.cookie = 'k=1; max-age=3600'; const req = indexedDB.open('db', 1);
        req.onupgradeneeded = () => req.result.createObjectStore('s'); req.onsuccess = () => { req.result.close(); done(); }; })"""
    left = """() => new Promise(done => indexedDB.databases().then(dbs => done({local: localStorage.length,
        session: sessionStorage.length, cookie: document.cookie, dbs: dbs.length})))"""

    def item_1(page, url):
        page.evaluate(leave)
        return page.evaluate(left) == {"local": 1, "session": 1, "cookie": "k=1", "dbs": 1}

    def item_2(page, url):
        return page.evaluate(left) == {"local": 0, "session": 0, "cookie": "", "dbs": 0}

    monkeypatch.setattr(bundled, "load_checks", lambda index: SimpleNamespace(item_1=item_1, item_2=item_2))
    inst = Instance(index="site", instruction="A site.", category=Category("Tool"), checklist=[
        GoldItem(id=n, content=f"item {n}", dimension="content", passed=True) for n in (1, 2)])
    with StaticServer(tmp_path) as server:
        outcomes = bundled.run_checks(inst, server.url, browser)
    assert {k: (o.passed, o.message) for k, o in outcomes.items()} == {1: (True, ""), 2: (True, "")}
