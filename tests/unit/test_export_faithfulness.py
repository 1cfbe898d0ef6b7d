"""The export-faithfulness benchmark's figures, from a suite's JUnit reports and its export.json."""

from __future__ import annotations

from webtester.eval.benchmarks.export_faithfulness import faithfulness, junit_outcomes

REPORT = """<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest">
<testcase classname="test_shop" name="test_ft_01_adds[chromium]" time="1.0"/>
<testcase classname="test_shop" name="test_cs_01_refuses" time="1.0">
  <failure message="AssertionError: Locator expected to contain text 'invalid'">...</failure></testcase>
<testcase classname="test_shop" name="test_ix_01_moves" time="1.0">
  <failure message="conftest.UIChanged: step 2: page.get_by_role(&quot;button&quot;) finds 0 elements">x</failure>
</testcase>
<testcase classname="test_shop" name="test_ct_01_shows" time="1.0"><error message="fixture failed">x</error></testcase>
<testcase classname="test_shop" name="test_ct_02_xfail" time="1.0"><skipped type="pytest.xfail" message="bug"/></testcase>
</testsuite></testsuites>"""


def test_junit_outcomes_tell_an_assertion_from_the_self_check_and_from_an_error():
    assert junit_outcomes(REPORT) == {
        "test_shop.py::test_ft_01_adds": "passed", "test_shop.py::test_cs_01_refuses": "failed",
        "test_shop.py::test_ix_01_moves": "ui-changed", "test_shop.py::test_ct_01_shows": "error",
        "test_shop.py::test_ct_02_xfail": "skipped"}


def test_a_fail_verdict_is_reproduced_by_an_assertion_failure_and_fixed_when_it_passes_on_the_clean_build():
    tests = {"a.py::t1": {"verdict": "pass"}, "a.py::t2": {"verdict": "fail"}, "a.py::t3": {"verdict": "fail"},
             "a.py::t4": {"verdict": "pass"}}
    shipped = {"a.py::t1": "passed", "a.py::t2": "failed", "a.py::t3": "ui-changed", "a.py::t4": "failed"}
    clean = {"a.py::t1": "passed", "a.py::t2": "passed", "a.py::t3": "failed", "a.py::t4": "passed"}
    figures = faithfulness(tests, shipped, clean, items=10, checked=6)
    assert (figures.exported, figures.reproduced, figures.ui_changed) == (4, 2, 1)
    assert (figures.fail_tests, figures.fixed_on_clean, figures.pass_tests, figures.still_passing_on_clean) == (2, 1, 2, 2)
    assert figures.lines()[1] == "exported: 4/6 (66.7%) of the checked items, 4/10 (40.0%) of all"
