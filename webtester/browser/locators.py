"""Locators a person can reuse, for the element a page-view reference (``aria-ref=e12``) points at.

A reference is valid only for one snapshot of one page. :func:`reusable_locator` looks for a query that
finds that same element alone on the page, in the order Playwright recommends: role and accessible name
(``get_by_role("button", name="Save")``), label, placeholder, test id, text, then CSS (its id, else a path of
``tag:nth-of-type`` steps). Each candidate is verified on the live page: it matches exactly one element, and
that element is the referenced one. The result carries the query as data and as Python code on ``page``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from webtester.browser.watchdog import evaluate
from webtester.models import ActionRecord
from webtester.probes.scan import SELECTOR_JS

#: roles Playwright cannot query an element by in a way a person would reuse
_UNQUERYABLE_ROLES = frozenset({"generic", "none", "presentation", "text", ""})
_TEXT_MAX = 80  # longer visible texts make poor locators

#: what the element offers besides its role and name (after SELECTOR_JS defined ``__wtSelector``)
_ATTRS_JS = """(el) => {
  const text = (s) => (s || "").replace(/\\s+/g, " ").trim();
  return {
    label: el.labels && el.labels.length ? text(el.labels[0].innerText) : "",
    placeholder: el.getAttribute("placeholder") || "", test_id: el.getAttribute("data-testid") || "",
    text: ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName) ? "" : text(el.innerText),
    css: window.__wtSelector(el),
  };
}"""


def _py(text: str) -> str:
    """A Python string literal in double quotes."""
    return json.dumps(text, ensure_ascii=False)


@dataclass(frozen=True)
class Reusable:
    """A query that finds one element: ``target`` as data (``{"role": "button", "name": "Save"}``) and ``code``
    as Playwright Python on ``page``."""

    target: dict[str, str]
    exact: bool = True
    """names and texts match whole (else as a substring, ignoring case)"""
    nth: int | None = None
    """the n-th match (from 0) of a query that matches several"""

    @property
    def code(self) -> str:
        t, exact = self.target, (", exact=True" if self.exact else "")
        if "role" in t:
            code = f"page.get_by_role({_py(t['role'])}" + (f", name={_py(t['name'])}{exact})" if "name" in t else ")")
        else:
            kind, value = next(iter(t.items()))
            if kind == "css":
                code = f"page.locator({_py(value)})"
            else:
                code = f"page.get_by_{kind}({_py(value)}{'' if kind == 'test_id' else exact})"
        return code + (f".nth({self.nth})" if self.nth is not None else "")

    def locator(self, page: Any) -> Any:
        """The Playwright locator of this query on ``page``."""
        t = self.target
        if "role" in t:
            loc = page.get_by_role(t["role"], name=t["name"], exact=self.exact) if "name" in t else page.get_by_role(t["role"])
        else:
            kind, value = next(iter(t.items()))
            if kind == "css":
                loc = page.locator(f"css={value}")
            elif kind == "test_id":
                loc = page.get_by_test_id(value)
            else:
                loc = getattr(page, f"get_by_{kind}")(value, exact=self.exact)
        return loc.nth(self.nth) if self.nth is not None else loc


def _candidates(role: str, name: str, attrs: dict[str, str]) -> list[Reusable]:
    out: list[Reusable] = []
    if role not in _UNQUERYABLE_ROLES and name:
        out.append(Reusable({"role": role, "name": name}))
    for kind in ("label", "placeholder", "test_id"):
        if attrs.get(kind):
            out.append(Reusable({kind: attrs[kind]}))
    if attrs.get("text") and len(attrs["text"]) <= _TEXT_MAX:
        out.append(Reusable({"text": attrs["text"]}))
    if role not in _UNQUERYABLE_ROLES and not name:
        out.append(Reusable({"role": role}))
    if attrs.get("css"):
        out.append(Reusable({"css": attrs["css"]}))
    return out


def reusable_locator(page: Any, element: Any, role: str = "", name: str = "", *, timeout_ms: float = 2_000) -> Reusable | None:
    """The first query (see the module docstring) that finds ``element`` (a locator of one element, e.g. its
    ``aria-ref``) and nothing else on ``page``; ``role`` and ``name`` are the element's in the page view. None
    when no query does, or the page does not answer (the caller then acts through ``element`` itself)."""
    try:
        handle = element.element_handle(timeout=timeout_ms)
        try:
            evaluate(page, SELECTOR_JS)
            attrs = handle.evaluate(_ATTRS_JS)
            for candidate in _candidates(role, name, attrs):
                found = candidate.locator(page)
                if found.count() == 1 and found.evaluate("(el, target) => el === target", handle, timeout=timeout_ms):
                    return candidate
        finally:
            handle.dispose()
    except Exception:  # a page that changed or stopped answering: the reference is used as it is
        return None
    return None


def through_reusable(page: Any, element: Any, info: Any = None) -> tuple[Any, Reusable | None]:
    """``element`` (the locator of a reference; ``info`` its entry in the page view, with ``role`` and ``name``)
    as the reusable locator that finds it alone, and that query; ``(element, None)`` when there is none."""
    reusable = reusable_locator(page, element, info.role if info else "", info.name if info else "")
    return (reusable.locator(page) if reusable else element), reusable


def action_record(step: str, action: str, reusable: Reusable | None, value: str | None = None, *,
                  count: int | None = None) -> ActionRecord:
    """The evidence's record of a step (an action or an expectation), with the reusable locator of its element
    when it has one; its ``outcome`` is set once the step ran."""
    return ActionRecord(step=step, action=action, locator=reusable.code if reusable else None,
                        target=dict(reusable.target) if reusable else None, value=value, count=count)


@contextmanager
def recording(actions: list[ActionRecord], record: ActionRecord, *, failed: type[BaseException] = AssertionError
              ) -> Iterator[ActionRecord]:
    """Append ``record`` to ``actions`` and set its outcome once the block ran: ``done`` (an action) or ``held``
    (an expectation); an expectation that raises ``failed`` ``failed``; any other error ``error``."""
    actions.append(record)
    expectation = record.is_expectation()
    try:
        yield record
    except failed:
        record.outcome = "failed" if expectation else "error"
        raise
    except BaseException:
        record.outcome = "error"
        raise
    record.outcome = "held" if expectation else "done"


#: the element's likely role and accessible name, from its markup (a guess: :func:`reusable_locator` verifies it)
_ROLE_NAME_JS = """(el) => {
  const text = (s) => (s || "").replace(/\\s+/g, " ").trim();
  const tag = el.tagName, type = (el.getAttribute("type") || "").toLowerCase();
  const inputs = {checkbox: "checkbox", radio: "radio", button: "button", submit: "button", reset: "button",
                  range: "slider", number: "spinbutton", search: "searchbox"};
  let role = el.getAttribute("role") || "";
  if (!role && tag === "INPUT") role = inputs[type] || (["", "text", "email", "tel", "url"].includes(type) ? "textbox" : "");
  if (!role) role = {BUTTON: "button", SELECT: el.multiple ? "listbox" : "combobox", TEXTAREA: "textbox",
                     A: el.hasAttribute("href") ? "link" : ""}[tag] || "";
  const labelled = (el.getAttribute("aria-labelledby") || "").split(/\\s+/).filter(Boolean)
    .map((id) => (document.getElementById(id) || {}).innerText || "").join(" ");
  const own = ["BUTTON", "A"].includes(tag) || ["button", "link", "tab", "menuitem"].includes(role) ? el.innerText : "";
  const name = text(el.getAttribute("aria-label")) || text(labelled) ||
    text(el.labels && el.labels.length ? el.labels[0].innerText : "") || text(own) ||
    (["submit", "button", "reset"].includes(type) ? text(el.value) : "") || text(el.getAttribute("title")) ||
    text(el.getAttribute("placeholder"));
  return {role, name};
}"""


def element_reusable(page: Any, element: Any, *, timeout_ms: float = 2_000) -> Reusable | None:
    """:func:`reusable_locator` for an element found without a page view (``element``: a locator of one
    element, e.g. ``page.locator(css).first``): its role and name are read from its markup."""
    try:
        guess = element.evaluate(_ROLE_NAME_JS, timeout=timeout_ms)
    except Exception:  # gone or not answering: no reusable locator
        return None
    return reusable_locator(page, element, guess.get("role", ""), guess.get("name", ""), timeout_ms=timeout_ms)
