"""The text of an exported suite's test files: one ``test_<instance>.py`` per instance, one test per exported item.

A test opens the app's start page, replays the recorded steps (actions on elements through the suite's ``act``
fixture, which first checks that the locator still finds one element), then asserts the expectations with
Playwright's ``expect``. Items left out are listed as comments, with why.
"""

from __future__ import annotations

import json
import re
import unicodedata

from webtester.export.plan import ItemPlan, Step
from webtester.models import ActionRecord

NAME_MAX = 72  # characters of a test function's name

#: element actions the ``act`` fixture performs
ELEMENT_ACTIONS = ("click", "dblclick", "fill", "type", "press", "select", "check", "uncheck", "hover",
                   "scroll_into_view")
_TAKES_VALUE = frozenset({"fill", "type", "press", "select"})


def py(text: str) -> str:
    """A Python string literal (double quotes) of ``text``."""
    return json.dumps(text, ensure_ascii=False)


def slug(text: str) -> str:
    """``text`` as lowercase ASCII words joined by ``_`` (possibly empty)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "_", ascii_text.lower()).strip("_")


def function_name(item_id: str, description: str, taken: set[str] | None = None) -> str:
    """``test_<id>_<description>`` as a valid identifier of at most :data:`NAME_MAX` characters (cut at a word),
    made unique among ``taken`` (which it joins)."""
    head = "test_" + (slug(item_id) or "item")
    name = head
    for word in slug(description).split("_"):
        if word and len(name) + 1 + len(word) > NAME_MAX:
            break
        name += f"_{word}" if word else ""
    name = name[:NAME_MAX]
    unique, n = name, 2
    while taken is not None and unique in taken:
        unique, n = f"{name}_{n}", n + 1
    if taken is not None:
        taken.add(unique)
    return unique


def module_name(index: str) -> str:
    """The test file of an instance: ``test_<index>.py``."""
    return f"test_{slug(index) or 'app'}.py"


def _docstring(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')


def _comment(text: str) -> str:
    return " ".join(text.split())


#: the ``expect(...)`` assertion of each expectation: ``{loc}`` its locator (the page body when it has none),
#: ``{value}`` the expected text, ``{count}`` the expected number of matches
_EXPECT = {
    "expect_text": "expect({loc}).to_contain_text({value}, use_inner_text=True)",
    "expect_no_text": "expect({loc}).not_to_contain_text({value}, use_inner_text=True)",
    "expect_url": "expect(page).to_have_url(re.compile(re.escape({value})))",
    "expect_visible": "expect({loc}).to_be_visible()",
    "expect_hidden": "expect({loc}.first).to_be_hidden()",
    "expect_value": "expect({loc}).to_have_value({value})",
    "expect_count": "expect({loc}).to_have_count({count})",
    "expect_checked": "expect({loc}).to_be_checked()",
    "wait_for_text": "expect({loc}.first).to_be_visible()",
    "wait_for_text_gone": "expect({loc}.first).to_be_hidden()",
}


def expectation_code(record: ActionRecord) -> str:
    """The ``expect(...)`` assertion of a recorded expectation (see :data:`webtester.models.EXPECTATIONS`)."""
    if record.action not in _EXPECT:
        raise ValueError(f"not an expectation: {record.action!r}")
    return _EXPECT[record.action].format(loc=record.locator or 'page.locator("body")', value=py(record.value or ""),
                                         count=record.count if record.count is not None else 0)


def step_code(step: Step) -> str:
    """The line that replays one recorded step."""
    r = step.record
    if r.is_expectation():
        return expectation_code(r)
    if r.action == "goto":
        return f"page.goto(urljoin(app_url, {py(r.value or '/')}))"
    if r.action == "go_back":
        return "page.go_back()"
    if r.action == "reload":
        return "page.reload()"
    if r.action == "wait":
        return f"page.wait_for_timeout({round(float(r.value or 0) * 1000)})"
    if r.action == "press" and r.locator is None:
        return f"page.keyboard.press({py(r.value or '')})"
    if r.action not in ELEMENT_ACTIONS:
        raise ValueError(f"step {step.number}: cannot replay {r.action!r}")
    value = f", {py(r.value or '')}" if r.action in _TAKES_VALUE else ""
    return f"act({step.number}, {py(r.action)}, {r.locator}{value})"


def _test(plan: ItemPlan, name: str, xfail: bool) -> list[str]:
    item, verdict = plan.item, plan.verdict
    assert verdict is not None
    lines = ["", "", f"@pytest.mark.{item.dimension.value}"]
    issue = verdict.bug_report.issue if verdict.bug_report else ""
    if plan.expected_to_fail and xfail:
        lines.append(f"@pytest.mark.xfail(strict=True, reason={py(issue)}, raises=AssertionError)")
    lines.append(f"def {name}(page: Page, app_url: str, act) -> None:")
    doc = [f"{item.id}: {item.description}", ""]
    doc += [f"Action: {item.action}"] if item.action else []
    doc += [f"Expected: {item.expected}"] if item.expected else []
    doc.append(f"Verdict in the run: {verdict.status.value}" + (f" ({issue})" if issue else ""))
    text = "\n".join(f"    {_docstring(d)}" if d else "" for d in doc).strip()
    lines.append(f'    """{text}\n    """')
    if plan.expected_to_fail and not xfail:
        lines.append("    # the run found this broken: the test fails until the app is fixed")
    lines.append("    page.goto(app_url)")
    for step in plan.steps:
        if step.replay:
            lines.append(f"    {step_code(step)}")
        else:
            lines.append(f"    # step {step.number} not replayed ({step.why}): {_comment(step.record.step)}")
    return lines


def test_names(plans: list[ItemPlan]) -> dict[str, str]:
    """The test function of each exported item of one instance, by item id (unique within the file)."""
    taken: set[str] = set()
    return {p.item.id: function_name(p.item.id, p.item.description, taken) for p in plans if p.exported}


def render_module(index: str, plans: list[ItemPlan], *, header: list[str], xfail: bool = False) -> str:
    """The test file of one instance; ``header``: the comment lines that open it (what generated it)."""
    names = test_names(plans)
    body: list[str] = []
    for plan in plans:
        if plan.exported:
            body += _test(plan, names[plan.item.id], xfail)
        else:
            body += ["", "", f"# {plan.item.id} left out: {_comment(plan.why)} ({_comment(plan.item.description)})"]
    code = "\n".join(body)
    imports = ["from __future__ import annotations", ""]
    if "re.compile(" in code:
        imports.append("import re")
    if "urljoin(" in code:
        imports.append("from urllib.parse import urljoin")
    if len(imports) > 2:
        imports.append("")
    imports += ["import pytest", "from playwright.sync_api import Page, expect"]
    if not any(p.exported for p in plans):
        imports = ["from __future__ import annotations"]
    lines = [*(f"# {_comment(h)}" for h in header),
             f'"""Regression tests of {_docstring(index)}, replayed from the verdicts of a webtester run."""', "",
             *imports, "", f"INSTANCE = {py(index)}", code]
    return "\n".join(lines).rstrip() + "\n"
