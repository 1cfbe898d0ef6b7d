"""From the exploration to one verdict per item.

An item is decided by the findings and the coverage of its rules (see
:mod:`webtester.baseline.checklist`):

* ``fail`` only when a finding of one of its rules concerns it (same target, or for items without a target a
  finding of a rule that needs none), or when the page went blank after a click or a submission in the flow the
  item needs (:func:`blocks`); the bug report quotes the finding and its screenshot is the evidence;
* ``pass`` only for an item the baseline planned itself, when the exploration exercised its rule on its
  target without a problem (an item of other origin, e.g. a gold item in oracle mode, is never passed);
* otherwise ``error`` with a note saying it was not checked and why (the metrics count it like Pass; reports
  show it as not checked).
"""

from __future__ import annotations

import re

from webtester.baseline.absence import AbsenceModel, AppVocabulary, offered_controls, search_item, terms
from webtester.baseline.checklist import rules_for_text
from webtester.baseline.explore import Exploration
from webtester.models import ActionRecord, BugReport, Evidence, Status, TestItem, Verdict
from webtester.probes.forms import CHANGING

#: finding probe -> the rules it can decide
PROBE_RULES: dict[str, tuple[str, ...]] = {
    "empty-form-accepted": ("required",),
    "blank-input-accepted": ("blank-input",),
    "required-field-not-enforced": ("required-choice", "required"),
    "empty-field-accepted": ("required",),
    "invalid-input-accepted": ("invalid-input",),
    "unavailable-option-accepted": ("unavailable-option",),
    "past-date-accepted": ("past-date",),
    "future-date-accepted": ("future-date",),
    "end-before-start-accepted": ("date-order",),
    "duplicate-accepted": ("duplicate",),
    "submit-stays-disabled": ("stays-disabled",),
    "form-not-cleared": ("form-cleared",),
    "no-submit-feedback": ("feedback",),
    "state-lost-on-reload": ("persist-create",),
    "deleted-entry-returns": ("persist-delete",),
    "delete-unconfirmed": ("delete-confirm",),
    "edit-not-saved": ("edit",),
    "edit-lost-on-reload": ("edit",),
    "search-misses-entry": ("search",),
    "filter-shows-other": ("filter",),
    "filter-lost-on-switch": ("filter-views",),
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
SINGLE_CLAIM = 120  # characters: an item text this short is taken to make one claim
_GENERIC = {"form", "field", "filter", "filters", "search", "box", "button", "option", "choice", "dialog", "text", "count",
            "the", "and", "with", "your", "new", "add", "for", "of", "in", "entry", "entries"}


def _words(text: str) -> set[str]:
    return {_stem(w) for w in re.findall(r"[a-z]{3,}", text.lower()) if w not in _GENERIC}


def _stem(word: str) -> str:
    return re.sub(r"(?:ies|es|s)$", "", word)


def _within(part: str, whole: str) -> bool:
    """Every significant word of ``part`` occurs in ``whole`` (False when ``part`` has none)."""
    words = _words(part)
    return bool(words) and words <= _words(whole)


FORM_RULES = frozenset({"required", "required-choice", "unavailable-option", "feedback", "form-cleared", "stays-disabled",
                        "summary-update",
                        "persist-create", "persist-delete", "past-date", "future-date", "date-order", "duplicate",
                        "blank-input", "edit"})
#: rules narrow enough that their records concern any item with the rule (what a date or a repeated submission is
#: about rarely names the form's field the way the item does)
SPECIFIC_RULES = frozenset({"past-date", "future-date", "date-order", "duplicate", "delete-confirm", "blank-input",
                            "summary-update"})
#: repeats a form submission does not exercise (a like, a bookmark, a request)
NOT_SUBMITTED = re.compile(r"\b(?:likes?|liked|favou?rites?|bookmark\w*|vot\w+|debounc\w*|requests?)\b", re.IGNORECASE)
#: findings that concern only an item naming their field, also an item the baseline planned itself
FIELD_NAMED = frozenset({"empty-field-accepted"})
#: rules a record of which concerns an item only when the record names what the item is about
TARGETED_RULES = frozenset({"required", "required-choice", "invalid-input", "unavailable-option", "stays-disabled",
                            "form-cleared", "search", "filter", "filter-combined", "filter-views", "edit"})


def _subject(record: dict) -> str:
    """What a finding or coverage record is about: its field or option, else the first label quoted in its element."""
    details = record.get("details") or {}
    if details.get("field"):
        return str(details["field"])
    quoted = re.findall(r'"([^"]+)"', record.get("element", ""))
    return quoted[0] if quoted else record.get("element", "")


def _form(record: dict) -> str:
    quoted = re.findall(r'"([^"]+)"', record.get("element", ""))
    return quoted[-1] if quoted else ""


def record_place(record: dict) -> tuple[str, str]:
    """The form and the field a finding or coverage record is about ("" for what it does not name)."""
    element = record.get("element", "")
    named = (record.get("details") or {}).get("field") or element.startswith("field ")
    return _form(record) if " form " in f" {element}" else "", _subject(record) if named else ""


#: a form that changes what exists (an entry's edit form, the app's settings) rather than creating an entry
CHANGING_FORM = re.compile(r"^(?:edit|update|modify|change|rename|settings|preferences|save changes)\b", re.IGNORECASE)


def _other_flow(record: dict, record_rule: str, item_text: str) -> bool:
    """A form record from an edit or settings form, for an item that is not about changing anything."""
    return (record_rule in FORM_RULES | {"invalid-input"} and bool(CHANGING_FORM.search(_form(record)))
            and not CHANGING.search(item_text))


def _concerns(record: dict, record_rule: str, item_rules: list[str], item_text: str, target: str | None,
              planned: bool, single_claim: bool = False) -> bool:
    """Whether a finding/coverage record of ``record_rule`` concerns the item.

    A planned item names its target (None: any record of its rule concerns it; else every word of the target
    must occur in what the record is about). Any other item (an instruction clause, a gold item) must name
    what a targeted record is about, and is concerned by other records only when that rule is its only one. A
    form record of an edit or settings form concerns only an item about changing something.
    """
    if record_rule not in item_rules or _other_flow(record, record_rule, item_text):
        return False
    if record.get("probe") in FIELD_NAMED and not _within(_subject(record), item_text):
        return False  # a field the app accepts empty may be optional: only an item naming it says it is required
    if planned:
        if target is None or record_rule in GLOBAL_RULES:
            return True
        about = _subject(record)
        if record_rule in FORM_RULES:
            about += " " + _form(record)
        return _within(target, about)
    if record_rule in TARGETED_RULES:
        return _within(_subject(record), item_text)
    if record_rule in SPECIFIC_RULES:
        return not (record_rule == "duplicate" and NOT_SUBMITTED.search(item_text))
    # other records only for a short item about that one thing (a long clause may mention it in passing)
    return single_claim and len(item_rules) == 1 and (record_rule not in GLOBAL_RULES or record_rule == "placeholder")


#: words of a control or form label that name the step, not the feature it belongs to
FLOW_WORDS = terms("next continue proceed submit save confirm add create new edit update open start go done step "
                   "button form request send apply")
#: an item that asks for a user action (a flow that a blank page stops), not only for something to be shown
USER_ACTION = re.compile(r"\b(creat|add|new|edit|modif|updat|chang|submit|book|reserv|sav|fill|select|choos|enter|input|"
                         r"next|checkout|check out|pay|apply|upload|cancel|configur|assign|filter|sort|rate|rating|review|"
                         r"comment|post|regist|sign|complet|order|purchas|buy)\w*", re.IGNORECASE)


#: the words of an item that asks to do what a ``control-covered`` record's action is
COVERED_ACTIONS = {"edit": re.compile(r"\b(edit|modif|renam|chang|updat)\w*", re.IGNORECASE),
                   "delete": re.compile(r"\b(delet|remov)\w*", re.IGNORECASE)}


def blocks(record: dict, item_text: str) -> bool:
    """Whether a record stops the flow an item needs.

    * ``blank-after-action``: the item asks for a user action and names what the control or form is about (its
      label without the step words, else the page's first heading);
    * ``control-covered`` (an Edit or Delete control no click reaches): the item asks for that action and names
      the form or list the control belongs to."""
    if record.get("probe") == "control-covered":
        details = record.get("details") or {}
        asked = COVERED_ACTIONS.get(str(details.get("action")))
        subject = terms(str(details.get("subject") or ""), behaviour=False) - FLOW_WORDS
        return bool(asked and asked.search(item_text) and subject & terms(item_text))
    if record.get("probe") != "blank-after-action" or not USER_ACTION.search(item_text):
        return False
    quoted = re.findall(r'"([^"]+)"', record.get("element", ""))
    subject = terms(quoted[0] if quoted else "", behaviour=False) - FLOW_WORDS
    if not subject:
        context = str((record.get("details") or {}).get("context") or "")
        subject = terms(context.split(" / ")[0], behaviour=False) - FLOW_WORDS
    return bool(subject & terms(item_text))


def decide(item: TestItem, exploration: Exploration, *, rule: str | None = None, target: str | None = None,
           planned: bool = False) -> Verdict:
    """The verdict for ``item``.

    A planned item (``planned``) with a ``rule`` is decided by that rule on its ``target`` (any target when
    None); any other item by the rules of its text, on what its text names (see :func:`_concerns`), and is
    never passed: its text may ask for more than the probes exercised."""
    text = " ".join([item.description, item.action, item.expected])
    own = planned and rule is not None
    rules: list[str] = [rule] if planned and rule is not None else rules_for_text(text)
    blank = [f for f in exploration.findings if blocks(f, text)]
    if blank:  # the page went blank in the flow this item needs, or its control takes no click: none of it can work
        return _fail(item, blank, exploration)
    if not rules:
        return _not_checked(item, exploration, "the baseline has no check for this item")

    def concerns(record: dict, record_rule: str) -> bool:
        return _concerns(record, record_rule, rules, text, target if own else None, own, len(item.description) <= SINGLE_CLAIM)

    failing = [f for f in exploration.findings if any(concerns(f, r) for r in PROBE_RULES.get(f["probe"], ()))]
    if failing:
        return _fail(item, named_first(failing, text), exploration)
    covered = [c for c in exploration.covered if concerns(c, c["probe"])]
    lines = [f"- {c['probe']}: {c['element']}: {c['note']}" for c in covered[:6]]
    if covered and own:
        return Verdict(item_id=item.id, status=Status.passed, evidence=Evidence(
            steps=_steps(exploration, covered), actions=replay(covered),
            notes="\n".join(["checked by the exploration, no problem seen:", *lines])))
    if covered:  # an item the baseline did not write may be about more than its probes exercised: no pass claimed
        reason = "the probes exercised only part of this item, without a problem:\n" + "\n".join(lines)
    else:
        reason = f"the exploration did not exercise what this item is about (rules: {', '.join(rules)})"
    return _not_checked(item, exploration, reason)


def named_first(records: list[dict], item_text: str) -> list[dict]:
    """``records`` with those about a form or field the item names first (otherwise in their order)."""
    return sorted(records, key=lambda r: not (_within(_form(r), item_text) or _within(_subject(r), item_text)))


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
        evidence=Evidence(steps=_steps(exploration, failing), screenshots=shots, console_errors=errors, notes=notes,
                          actions=replay(failing[:1])),
    )


def replay(records: list[dict]) -> list[ActionRecord]:
    """The recorded steps of the first of ``records`` whose steps end in an expectation (else of the first that
    has steps): what a replay of the verdict runs and asserts."""
    steps = [[ActionRecord.model_validate(a) for a in r.get("actions") or []] for r in records]
    return next((s for s in steps if any(a.is_expectation() for a in s)), next((s for s in steps if s), []))


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


def search_text(item: TestItem) -> str:
    """The words of an item the feature search looks for: what it is about and what it expects."""
    return " ".join(filter(None, [item.description, item.expected]))


def fail_probability(item: TestItem, vocab: AppVocabulary, model: AbsenceModel) -> float:
    """The model's probability that ``item`` fails on the app ``vocab`` describes."""
    return model.probability(search_item(search_text(item), item.dimension, vocab).features)


def with_feature_search(verdict: Verdict, item: TestItem, vocab: AppVocabulary, model: AbsenceModel, *,
                        flagged: bool | None = None) -> Verdict:
    """``verdict`` (from the probes) completed by the feature search: a Fail when the model's rule flags the item
    (``flagged``, decided over all items of the app; None: the item's probability alone against the threshold);
    otherwise the search's result is added to the verdict's notes. A probe's Fail is kept as it is."""
    if verdict.status is Status.failed:
        return verdict
    search = search_item(search_text(item), item.dimension, vocab)
    p = model.probability(search.features)
    if flagged is None:
        flagged = p >= model.threshold
    graph = vocab.graph
    missing = ", ".join(sorted(search.missing)) or "none"
    found = f"{len(search.item_terms) - len(search.missing)} of {len(search.item_terms)} words of the item shown by the app"
    summary = f"feature search over {len(graph.states)} states ({len(graph.routes)} routes): {found}; never shown: {missing}"
    rule = f"threshold {model.threshold:.2f}" + (f", or among the app's {model.top_k} most probable items with at least "
                                                 f"{model.rank_floor:.2f}" if model.top_k else "")
    if not flagged:
        notes = "\n".join(filter(None, [verdict.evidence.notes, f"{summary} (fail probability {p:.2f}; fails at {rule})"]))
        return verdict.model_copy(update={"evidence": verdict.evidence.model_copy(update={"notes": notes})})
    best = graph.state(search.best_state) if search.best_state else None
    where = f"; the closest view is {best.url} ({', '.join(best.headings[:3]) or best.title})" if best else ""
    issue = (f"The app does not appear to offer what this item needs: across {len(graph.states)} explored views it never "
             f"shows {missing}{where}.")
    shots = [best.screenshot] if best is not None and best.screenshot else []
    steps = graph.path_to(best.id) if best is not None else [f"open {r}" for r in graph.routes[:8]]
    return Verdict(
        item_id=item.id, status=Status.failed,
        bug_report=BugReport(issue=issue[:600], actual=("Searched views: " + "; ".join(graph.routes[:10]))[:800]),
        evidence=Evidence(steps=steps[:12], screenshots=shots, notes=(
            f"{summary}; fail probability {p:.2f} (feature-search model; fails at {rule})"
            + (f"\nprobes: {verdict.evidence.notes}" if verdict.evidence.notes else ""))),
    )


#: the rules of the baseline's own items that ask whether the app offers an action at all ("Users can delete tags"),
#: named as the action (a key of :data:`~webtester.baseline.absence.ACTIONS`)
ACTION_RULES = frozenset({"delete"})


#: an item that only says some user can edit or delete something ("Homeowners can delete property listings."), maybe
#: with what that means in brackets ("Users can edit existing parameter sets (modify set names, add variables).")
SIMPLE_ACTION = re.compile(r"^(?:\w+\s){1,3}can\s(?:also\s)?(edit|modify|delete|remove)\b[^,;:.(]*(?:\([^)]*\))?\.?$",
                           re.IGNORECASE)


def asked_action(text: str) -> str | None:
    """The action (edit, delete) that an item of one short claim asks the app to offer, if that is all it asks."""
    match = SIMPLE_ACTION.match(text.strip())
    if not match:
        return None
    return "edit" if match.group(1).lower() in ("edit", "modify") else "delete"


def without_action(verdict: Verdict, item: TestItem, vocab: AppVocabulary, action: str) -> Verdict:
    """``verdict``, or a Fail when the probes left it unchecked, the crawl explored the app to its end (not cut short
    by its limits) and no control it met offers ``action`` (a key of :data:`~webtester.baseline.absence.ACTIONS`):
    none is named, labelled or drawn (its icon) for it, and no menu button ("...") may hide it."""
    graph = vocab.graph
    if verdict.status is not Status.error or graph.stopped or not graph.states or vocab.menus \
            or action not in vocab.actions_without_control(item.description):
        return verdict
    controls = sum(len(offered_controls(state)) for state in graph.states)
    issue = (f"No control of the app offers to {action}: across {len(graph.states)} explored views ({controls} controls) "
             f"none is named, labelled or drawn for it.")
    return Verdict(
        item_id=item.id, status=Status.failed,
        bug_report=BugReport(issue=issue, actual=("Searched views: " + "; ".join(graph.routes[:10]))[:800]),
        evidence=Evidence(steps=[f"open {r}" for r in graph.routes[:8]], notes="\n".join(filter(None, [
            f"the crawl met {controls} controls in {len(graph.states)} views and finished before its limits",
            verdict.evidence.notes]))),
    )
