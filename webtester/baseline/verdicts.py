"""From the exploration to one verdict per item.

An item is decided by the findings and the coverage of its rules (see
:mod:`webtester.baseline.checklist`):

* ``fail`` only when a finding of one of its rules concerns it (same target, or for items without a target a
  finding of a rule that needs none); the bug report quotes the finding and its screenshot is the evidence;
* ``pass`` only when the exploration exercised one of its rules on its target without a problem;
* otherwise ``error`` with a note saying it was not checked and why (the metrics count it like Pass; reports
  show it as not checked).
"""

from __future__ import annotations

import re

from webtester.baseline.checklist import rules_for_text
from webtester.baseline.explore import Exploration
from webtester.models import BugReport, Evidence, Status, TestItem, Verdict

#: finding probe -> the rules it can decide
PROBE_RULES: dict[str, tuple[str, ...]] = {
    "empty-form-accepted": ("required",),
    "required-field-not-enforced": ("required-choice", "required"),
    "invalid-input-accepted": ("invalid-input",),
    "unavailable-option-accepted": ("unavailable-option",),
    "submit-stays-disabled": ("stays-disabled",),
    "form-not-cleared": ("form-cleared",),
    "no-submit-feedback": ("feedback",),
    "state-lost-on-reload": ("persist-create",),
    "deleted-entry-returns": ("persist-delete",),
    "search-misses-entry": ("search",),
    "filter-shows-other": ("filter",),
    "filters-combined-wrong": ("filter-combined",),
    "no-empty-state": ("empty-state",),
    "count-mismatch": ("count",),
    "close-control-broken": ("dialog-close",),
    "escape-does-not-close": ("dialog-close",),
    "repeat-vote": ("vote",),
    "placeholder-text": ("placeholder",),
    "broken-image": ("images",),
    "mixed-currency": ("currency",),
    "viewport-overflow": ("layout",),
    "dead-control": ("dead-control",),
    "console-error": ("errors",),
    "page-error": ("errors",),
    "failed-request": ("errors",),
    # the generic form probes of webtester.probes.run_probes, when their findings are given
    "duplicate-submission": ("required",),
}
#: rules about the whole app: any finding or coverage of the rule concerns an item that has it
GLOBAL_RULES = frozenset({"placeholder", "images", "currency", "layout", "errors", "dead-control"})
_GENERIC = {"form", "field", "filter", "filters", "search", "box", "button", "option", "choice", "dialog", "text", "count",
            "the", "and", "with", "your", "new", "add", "for", "of", "in", "entry", "entries"}


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]{3,}", text.lower()) if w not in _GENERIC}


def _stem(word: str) -> str:
    return re.sub(r"(?:ies|es|s)$", "", word)


def _overlap(a: str, b: str) -> bool:
    return bool({_stem(w) for w in _words(a)} & {_stem(w) for w in _words(b)})


FORM_RULES = frozenset({"required", "required-choice", "unavailable-option", "feedback", "form-cleared", "stays-disabled",
                        "persist-create", "persist-delete"})


def _terms(record: dict, rule: str) -> str:
    """What a finding or coverage record is about: its field or option (the first label quoted in its element),
    and for rules about a whole form also the form's name (the last label quoted)."""
    quoted = re.findall(r'"([^"]+)"', record.get("element", ""))
    details = record.get("details") or {}
    terms = [str(details.get("field", "")), str(details.get("option", ""))]
    if quoted:
        terms.append(quoted[0])
        if rule in FORM_RULES:
            terms.append(quoted[-1])
    return " ".join(t for t in terms if t) or record.get("element", "")


def _concerns(record: dict, rules: list[str], rule_of_record: str, item_text: str, target: str | None) -> bool:
    """Whether a finding/coverage record of ``rule_of_record`` concerns the item.

    ``target`` is what a planned item is about (None: any record of its rule); an item the baseline did not
    plan with a target (instruction clauses, gold items) must name what the record is about."""
    if rule_of_record not in rules:
        return False
    if rule_of_record in GLOBAL_RULES:
        return True
    if target is not None:
        return _overlap(target, _terms(record, rule_of_record))
    return True if item_text is None else _overlap(item_text, _terms(record, rule_of_record))


def decide(item: TestItem, exploration: Exploration, *, rule: str | None = None, target: str | None = None,
           planned: bool = False) -> Verdict:
    """The verdict for ``item``.

    A planned item (``planned``) with a ``rule`` is decided by that rule on its ``target`` (any target when
    None); any other item by the rules of its text, on what its text names."""
    text = " ".join([item.description, item.action, item.expected])
    if planned and rule:
        rules, scope = [rule], None
    else:
        rules, scope = rules_for_text(text), text
    if not rules:
        return _not_checked(item, exploration, "the baseline has no check for this item")
    match_text = None if (planned and rule) else scope

    def concerns(record: dict, record_rule: str) -> bool:
        return _concerns(record, rules, record_rule, match_text, target if planned and rule else None)

    failing = [f for f in exploration.findings if any(concerns(f, r) for r in PROBE_RULES.get(f["probe"], ()))]
    if failing:
        return _fail(item, failing, exploration)
    covered = [c for c in exploration.covered if concerns(c, c["probe"])]
    if covered:
        notes = ["checked by the exploration, no problem seen:"] + [f"- {c['probe']}: {c['element']}: {c['note']}" for c in covered[:6]]
        return Verdict(item_id=item.id, status=Status.passed,
                       evidence=Evidence(steps=_steps(exploration, covered), notes="\n".join(notes)))
    reason = f"the exploration did not exercise what this item is about (rules: {', '.join(rules)})"
    return _not_checked(item, exploration, reason)


def _fail(item: TestItem, failing: list[dict], exploration: Exploration) -> Verdict:
    first = failing[0]
    issue = f"{first['message']} [probe {first['probe']} on {first['element']}]"
    actual = f"Seen at {first['page_url']}: {first['message']}."
    if first.get("details"):
        actual += " Details: " + ", ".join(f"{k}={v!r}" for k, v in first["details"].items() if v not in (None, "", []))
    others = [f"- {f['probe']}: {f['element']}: {f['message']}" for f in failing[1:6]]
    notes = "finding of the deterministic probes" + ("; more findings for this item:\n" + "\n".join(others) if others else "")
    shots = [f["screenshot"] for f in failing if f.get("screenshot")][:3]
    errors = [f["message"] for f in failing if f["probe"] in ("console-error", "page-error")]
    return Verdict(
        item_id=item.id, status=Status.failed, bug_report=BugReport(issue=issue[:600], actual=actual[:800]),
        evidence=Evidence(steps=_steps(exploration, failing), screenshots=shots, console_errors=errors, notes=notes),
    )


def _not_checked(item: TestItem, exploration: Exploration, reason: str) -> Verdict:
    note = f"not checked: {reason}"
    if exploration.stopped:
        note += f" (the exploration stopped early: {exploration.stopped})"
    return Verdict(item_id=item.id, status=Status.error, evidence=Evidence(notes=note))


def _steps(exploration: Exploration, records: list[dict]) -> list[str]:
    """The exploration steps that mention what the records are about (at most 12)."""
    keys = {re.sub(r'^.*?"([^"]+)".*$', r"\1", r.get("element", "")) for r in records}
    steps = [s for s in exploration.steps if any(k and k in s for k in keys)]
    return steps[:12]
