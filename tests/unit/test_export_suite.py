"""`webtester export` on hand-made run folders: which items become tests, the code they replay, the files of the
suite, and the output folder rules."""

from __future__ import annotations

import ast
import json
import urllib.request
from pathlib import Path

import pytest
from typer.testing import CliRunner

from webtester.cli.main import app
from webtester.export import ExportError, export_run
from webtester.export.render import function_name
from webtester.export.target import ExportTargetError, start_spec, target_spec
from webtester.models import ActionRecord, BugReport, Evidence, InstanceResult, Status, TestItem, Verdict
from webtester.runfolder import InstanceFolder, update_manifest

BUTTON = 'page.get_by_role("button", name="Save", exact=True)'
FIELD = 'page.get_by_label("Email", exact=True)'


def rec(action: str, outcome: str, locator: str | None = None, value: str | None = None, **kw) -> ActionRecord:
    return ActionRecord(step=f"{action} {locator or 'page'}", action=action, locator=locator,
                        target={"x": "y"} if locator else None, value=value, outcome=outcome, **kw)


ITEMS = [
    TestItem(id="FT-01", dimension="functionality", description='Saving a "draft" keeps it — héllo', action="Click Save",
             expected="Saved is shown"),
    TestItem(id="CS-01", dimension="constraint", description="A bad email is refused"),
    TestItem(id="IX-01", dimension="interaction", description="Passes without a check"),
    TestItem(id="CT-01", dimension="content", description="Could not run"),
    TestItem(id="CT-02", dimension="content", description="Never checked"),
    TestItem(id="FT-02", dimension="functionality", description="Failed from the page alone"),
    TestItem(id="FT-03", dimension="functionality", description="Clicked by reference only"),
]
VERDICTS = [
    Verdict(item_id="FT-01", status=Status.passed, evidence=Evidence(actions=[
        rec("goto", "done", value="/#/drafts"), rec("fill", "done", FIELD, "a@b.c"), rec("click", "error", BUTTON),
        rec("click", "done", BUTTON), rec("expect_text", "failed", value="Oops"),
        rec("expect_text", "held", value="Saved"), rec("expect_count", "held", 'page.get_by_text("Draft")', count=2),
        rec("expect_url", "held", value="#/drafts"), rec("press", "done", value="Escape"),
    ])),
    Verdict(item_id="CS-01", status=Status.failed, bug_report=BugReport(issue='The "bad" email is accepted'),
            evidence=Evidence(actions=[rec("fill", "done", FIELD, "bad"), rec("expect_visible", "held", BUTTON),
                                       rec("expect_text", "failed", 'page.get_by_role("alert")', "not valid")])),
    Verdict(item_id="IX-01", status=Status.passed, evidence=Evidence(actions=[rec("click", "done", BUTTON)])),
    Verdict(item_id="CT-01", status=Status.error, evidence=Evidence(notes="page crashed")),
    Verdict(item_id="CT-02", status=Status.error, evidence=Evidence(notes="not checked: out of budget")),
    Verdict(item_id="FT-02", status=Status.failed, bug_report=BugReport(issue="Broken"),
            evidence=Evidence(actions=[rec("click", "done", BUTTON), rec("expect_text", "held", value="x")])),
    Verdict(item_id="FT-03", status=Status.passed, evidence=Evidence(actions=[
        rec("click", "done"), rec("expect_text", "held", value="x")])),
]


def make_run(root: Path, target: str = "portfolio_site") -> Path:
    run = root / "run"
    result = InstanceResult(index="portfolio_site", tester="scripted", checklist=ITEMS, verdicts=VERDICTS)
    InstanceFolder(run, "portfolio_site").write_result(result)
    update_manifest(run, run={"tester": "scripted", "settings": {"serve": "dev"}}, index="portfolio_site",
                    entry={"status": "ok", "target": target, "build": "shipped"})
    return run


@pytest.fixture
def suite(tmp_path):
    run = make_run(tmp_path)
    export = export_run(run, tmp_path / "suite")
    return tmp_path / "suite", export, (tmp_path / "suite" / "test_portfolio_site.py").read_text()


def _tests(source: str) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)}


def test_which_items_become_tests_and_why_the_others_do_not(suite):
    _, export, source = suite
    (inst,) = export.instances
    assert [p.item.id for p in inst.exported] == ["FT-01", "CS-01"]
    assert inst.left_out() == {"no check of the outcome": 1, "error": 1, "not checked": 1, "no failed check": 1,
                               "no reusable locator": 1}
    assert "# IX-01 left out: no recorded check of the expected outcome" in source
    assert "# CT-01 left out: error verdict" in source and "# CT-02 left out: not checked" in source
    assert "# FT-02 left out: no recorded check of the expected outcome failed" in source
    assert "# FT-03 left out: step 1 (click page) reached its element by its page-view reference only" in source


def test_the_tests_replay_the_steps_and_assert_the_expectations(suite):
    _, _, source = suite
    tests = _tests(source)
    ft = next(t for n, t in tests.items() if n.startswith("test_ft_01"))
    body = ast.get_source_segment(source, ft)
    assert body is not None
    assert [ast.get_source_segment(source, s) for s in ft.body[1:]] == [
        "page.goto(app_url)",
        'page.goto(urljoin(app_url, "/#/drafts"))',
        f'act(2, "fill", {FIELD}, "a@b.c")',
        f'act(4, "click", {BUTTON})',  # step 3 ended in an error in the run: not replayed
        'expect(page.locator("body")).to_contain_text("Saved", use_inner_text=True)',
        'expect(page.get_by_text("Draft")).to_have_count(2)',
        'expect(page).to_have_url(re.compile(re.escape("#/drafts")))',
        'page.keyboard.press("Escape")',
    ]
    assert "# step 3 not replayed (ended in an error in the run)" in body
    assert "# step 5 not replayed (failed in the run (the item passed))" in body
    cs = next(t for n, t in tests.items() if n.startswith("test_cs_01"))
    assert ast.get_source_segment(source, cs.body[-1]) == (
        'expect(page.get_by_role("alert")).to_contain_text("not valid", use_inner_text=True)')  # the failed check
    assert f"expect({BUTTON}).to_be_visible()" in ast.get_source_segment(source, cs)


def test_names_docstrings_markers_and_header(suite):
    folder, _, source = suite
    tests = _tests(source)
    assert set(tests) == {"test_ft_01_saving_a_draft_keeps_it_hello", "test_cs_01_a_bad_email_is_refused"}
    ft = tests["test_ft_01_saving_a_draft_keeps_it_hello"]
    assert ast.get_docstring(ft) == ('FT-01: Saving a "draft" keeps it — héllo\n\nAction: Click Save\n'
                                     "Expected: Saved is shown\nVerdict in the run: pass")
    assert [ast.unparse(d) for d in ft.decorator_list] == ["pytest.mark.functionality"]
    assert [ast.unparse(d) for d in tests["test_cs_01_a_bad_email_is_refused"].decorator_list] == [
        "pytest.mark.constraint"]
    assert source.startswith(f"# Generated by `webtester export` from run folder {folder.parent / 'run'} "
                             "(tester: scripted) on ")
    ini = (folder / "pytest.ini").read_text()
    assert all(f"    {d}: " in ini for d in ("functionality", "constraint", "interaction", "content"))
    conftest = (folder / "conftest.py").read_text()
    compile(conftest, "conftest.py", "exec")
    assert "def app_url(" in conftest and "def browser_type_launch_args(" in conftest
    record = json.loads((folder / "export.json").read_text())
    assert record["apps"] == {"portfolio_site": {"kind": "bundled", "app": "portfolio_site", "build": "shipped"}}
    # every test names the item and the verdict it replays, as pytest names the test
    assert record["tests"] == {
        "test_portfolio_site.py::test_ft_01_saving_a_draft_keeps_it_hello":
            {"instance": "portfolio_site", "item": "FT-01", "verdict": "pass"},
        "test_portfolio_site.py::test_cs_01_a_bad_email_is_refused":
            {"instance": "portfolio_site", "item": "CS-01", "verdict": "fail"}}


def test_xfail_marks_the_tests_of_fail_verdicts(tmp_path):
    export_run(make_run(tmp_path), tmp_path / "suite", xfail=True)
    source = (tmp_path / "suite" / "test_portfolio_site.py").read_text()
    decorators = [ast.unparse(d) for d in _tests(source)["test_cs_01_a_bad_email_is_refused"].decorator_list]
    assert decorators == ["pytest.mark.constraint",
                          "pytest.mark.xfail(strict=True, reason='The \"bad\" email is accepted', raises=AssertionError)"]
    assert len(_tests(source)["test_ft_01_saving_a_draft_keeps_it_hello"].decorator_list) == 1


def test_function_names_are_identifiers_cut_at_a_word_and_unique():
    taken: set[str] = set()
    long = function_name("FT-01", "word " * 40, taken)
    assert long.isidentifier() and len(long) <= 72 and long.endswith("_word")
    assert function_name("FT-01", "word " * 40, taken) == long + "_2"
    assert function_name("7", "¿Qué? 100% ✓", taken) == "test_7_que_100"


def test_the_output_folder_rules(tmp_path):
    run = make_run(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    with pytest.raises(ExportError, match=r"other: the folder is not empty and holds no previous export"):
        export_run(run, other)
    export_run(run, other, force=True)
    assert (other / "notes.txt").read_text() == "mine" and (other / "test_portfolio_site.py").exists()
    export_run(run, tmp_path / "suite")
    (tmp_path / "suite" / "test_portfolio_site.py").write_text("stale")
    export_run(run, tmp_path / "suite")  # a previous export is written over
    assert "def test_ft_01" in (tmp_path / "suite" / "test_portfolio_site.py").read_text()
    with pytest.raises(ExportError, match="not a run folder"):
        export_run(tmp_path / "other", tmp_path / "x")
    with pytest.raises(ExportError, match="inside the run folder"):
        export_run(run, run / "suite")


def test_the_command_prints_what_it_wrote_and_exits_like_the_others(tmp_path):
    run = make_run(tmp_path)
    runner = CliRunner()
    ok = runner.invoke(app, ["export", str(run)], env={"COLUMNS": "200"})
    assert ok.exit_code == 0, ok.output
    assert (tmp_path / "run-suite" / "test_portfolio_site.py").exists()
    assert "portfolio_site" in ok.output and "1 no check of the outcome" in ok.output
    assert f"run them with: cd {tmp_path / 'run-suite'} && pytest" in ok.output
    bad = runner.invoke(app, ["export", str(tmp_path / "nowhere")])
    assert bad.exit_code == 2 and "no such run folder" in bad.output


def test_targets_are_recorded_and_started_as_the_run_did(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    assert target_spec("http://127.0.0.1:9/") == {"kind": "url", "url": "http://127.0.0.1:9/"}
    assert target_spec("site", base=tmp_path, serve="build") == {"kind": "folder", "path": str(site), "serve": "build"}
    with pytest.raises(ExportTargetError, match="'gone' is not a URL, a folder here or a bundled app"):
        target_spec("gone", base=tmp_path)
    spec = target_spec("portfolio_site", build="shipped")
    for build, defects in ((None, "contact-email-unvalidated"), ("clean", "[]")):
        served = start_spec(spec, build=build)
        try:
            with urllib.request.urlopen(served.url + "defects.js", timeout=30) as reply:
                assert defects in reply.read().decode()
        finally:
            served.stop()


def test_the_suite_starts_chromium_with_one_features_switch_holding_the_user_s_features_too():
    """Chromium keeps only the last --disable-features switch: the suite's switch merges the user's features with
    the ones Playwright and webtester turn off, so none of them is turned back on."""
    from webtester.browser.chromium import DISABLED_FEATURES, PLAYWRIGHT_DISABLED_FEATURES
    from webtester.export.suite_conftest import chromium_launch_args

    given = {"headless": True, "args": ["--disable-features=Translate,MediaRouter", "--lang=en"]}
    launch = chromium_launch_args(given, "/usr/bin/chromium")
    switches = [a for a in launch["args"] if a.startswith("--disable-features=")]
    assert len(switches) == 1 and launch["args"][-1] == switches[0]
    features = switches[0].split("=", 1)[1].split(",")
    assert set(features) == {*PLAYWRIGHT_DISABLED_FEATURES, *DISABLED_FEATURES, "Translate"}
    assert len(features) == len(set(features))
    assert "--lang=en" in launch["args"] and "--no-sandbox" in launch["args"]
    assert launch["executable_path"] == "/usr/bin/chromium" and launch["headless"] is True
