"""The baseline's checklist: requirement clauses of the instruction (functionality items) plus the items
the instruction and the app imply (forms -> required fields and invalid input, lists -> search and filter
consistency, create/edit/delete -> persistence after a reload, totals -> arithmetic), and generic
interaction and content items. Deterministic: the same instruction and start page give the same items.

Every item carries a *rule* (what kind of check can decide it) and a *target* (the form, field or filter it
is about); :func:`rules_for_text` gives the rules of any item text (instruction clauses, gold items).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from webtester.baseline.requirements import Requirement, implied_items, requirements
from webtester.models import Dimension, TestItem, number_ids
from webtester.probes.forms import CHANGING
from webtester.probes.lists import search_fields
from webtester.probes.pagemodel import PageModel
from webtester.settings import DEFAULT_MAX_ITEMS

FT, CS, IX, CT = Dimension.functionality, Dimension.constraint, Dimension.interaction, Dimension.content
ORDER = (FT, CS, IX, CT)

PERSIST = re.compile(r"local ?storage|saved in the browser|kept in the browser|in the browser|still there|come back|"
                     r"reload|refresh|survive|persist|between visits|next time|tomorrow", re.IGNORECASE)
CONFIRM = re.compile(r"confirm|toast|thank|notification|message when|so they know", re.IGNORECASE)
DIALOG = re.compile(r"pop-?up|dialog|modal|lightbox|preview|drawer|slide out|opens? (?:its|their|a|the)", re.IGNORECASE)
VOTE = re.compile(r"up-?vote|\bvotes?\b|\blikes? (?:button|count)|\blik(?:e|ing) (?:a |the )?(?:post|photo|entry|comment)",
                  re.IGNORECASE)
TOTALS = re.compile(r"\b(total|subtotal|balance|sum|tax|discount)\b", re.IGNORECASE)
CREATE = re.compile(r"\b(add|create|post|write|record|save|book|register|submit|apply|reply|start a)\b", re.IGNORECASE)
POSTING = re.compile(r"\b(add|post|send|submit|reply|create|book|register|publish|comment)\b", re.IGNORECASE)
DELETE = re.compile(r"\b(delete|remove|cancel)\b", re.IGNORECASE)
DATED = re.compile(r"\b(dates?|deadlines?|due|days?|calendar|schedul\w*|when)\b", re.IGNORECASE)
AHEAD = re.compile(r"\b(deadline|due date|booking|reservation|appointment|event|meeting|interview|check-?in|expiration)s?\b",
                   re.IGNORECASE)
BEHIND = re.compile(r"\b(transaction|expense|workout|exercise|income|purchase|reimbursement|completion|activity log)s?\b",
                    re.IGNORECASE)
DATE_RANGE = re.compile(r"\bstart (?:date|time)|\bend date|date range|check-?in[^.]*check-?out|\bfrom [^.]{0,30}\bto\b[^.]{0,20}\bdates?",
                        re.IGNORECASE)
#: a date field (by its label, else its form's name) about what lies ahead, where a past date is wrong, or about
#: what already happened, where a future date is wrong
AHEAD_FIELD = re.compile(r"\b(start\w*|deadlines?|due|expir\w*|events?|appointments?|bookings?|reserv\w*|check-?in|"
                         r"meetings?|interviews?|launch\w*|departure|deliver\w*|trips?)\b", re.IGNORECASE)
BEHIND_FIELD = re.compile(r"\b(applied|complet\w*|transactions?|expenses?|purchase\w*|paid|payments?|joined|birth\w*|"
                          r"recorded|logged|workouts?|incurred|spent|occurred|income)\b", re.IGNORECASE)
#: the leading words of a form's name that say what it does rather than what it holds ("Add New", "Request to")
FORM_VERBS = re.compile(r"^(?:(?:add|create|new|submit|send|post|save|confirm|request|make|log|record|register|write|"
                        r"upload|get|start|book|configure|manage|set up|define|an?|the|to|your|my)\s+)+", re.IGNORECASE)

#: what the exploration met: the rule, form and field of each of its findings and coverage records ("" when none)
Met = tuple[str, str, str]

#: the requirement verbs whose object names what an explored edit, deletion or repeated submission is about
EDIT_VERBS = ("edit", "update", "modify", "rename")
DELETE_VERBS = ("delete", "remove")
CREATE_VERBS = ("create", "add", "post", "submit", "register", "record", "log", "book", "write", "upload")
_NOT_AN_OBJECT = re.compile(r"^(?:up|down|out|off|on|in|into|to|from|between|with|by|for|at|about|it|them|this|that)\b",
                            re.IGNORECASE)


#: the priority of checks about the whole app that take a place only when the requirements leave one
FILLER = 6
_OWN_ACCOUNT = re.compile(r"\b(?:accounts?|profiles?|logins?|passwords?|sign-?ups?)$", re.IGNORECASE)


@dataclass
class Planned:
    """An item before numbering, with the rule that can decide it."""

    dimension: Dimension
    description: str
    action: str
    expected: str
    rule: str | None
    target: str | None = None
    priority: int = 3


# -- instruction clauses ---------------------------------------------------------------------------------

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z'\"(])")
_CLAUSE = re.compile(r";\s+|,\s+(?:and|plus|but)\s+(?=[a-z])|\s+and\s+(?=(?:I|we|they|let|show|keep|see|users?|visitors?|"
                     r"people|members?|readers?|customers?|job seekers?)\b)")
_CUE = re.compile(r"\b(can|should|must|need|needs|want|let|allow|able|show|shows|list|lists|display|keep|kept|add|edit|delete|"
                  r"remove|filter|search|sort|pick|choose|enter|type|save|open|opens|switch|confirm|validate|required|may|"
                  r"never|cannot|can't|has|have|get|gets|give|accept|ask|asks|take|move|mark|highlight|compare|update|find)\b",
                  re.IGNORECASE)
_INTRO = re.compile(r"^(?:I(?:'d| would)? (?:like|want|need)|Build|Create|Make)\b[^.]*?(?:\b(?:where|in which|so that)\s+(?:I|we|users?)\s+can\s+(.*))?$",
                    re.IGNORECASE)
_PRONOUNS = [
    (r"\bI'm\b", "the user is"), (r"\bI've\b", "the user has"), (r"\bI'd\b", "the user would"), (r"\bI\b", "the user"),
    (r"\bme\b", "the user"), (r"\bmy\b", "the user's"), (r"\bmine\b", "the user's"), (r"\bwe\b", "the owner"),
    (r"\bWe\b", "The owner"), (r"\bour\b", "the"), (r"\bOur\b", "The"), (r"\bus\b", "the owner"),
]
_IMPERATIVE = re.compile(r"^(?:please\s+)?(show|keep|add|give|let|accept|display|list|confirm|validate|make|use|provide|allow)\b",
                         re.IGNORECASE)


def _tidy(clause: str) -> str:
    text = clause.strip().strip(",;:").strip()
    text = re.sub(r"^(?:also|then|and|plus)\s+", "", text, flags=re.IGNORECASE)
    text = re.sub(r"^(?:I|we)(?:'d| would)? (?:also )?(?:like|want|need) (?:to be able )?to ", "users can ", text, flags=re.IGNORECASE)
    text = re.sub(r"^let (?:me|us|people|visitors|users) ", "users can ", text, flags=re.IGNORECASE)
    if _IMPERATIVE.match(text):
        text = re.sub(r"^please\s+", "", text, flags=re.IGNORECASE)
        text = "the app should " + text[:1].lower() + text[1:]
    for pattern, repl in _PRONOUNS:
        text = re.sub(pattern, repl, text)
    text = re.sub(r"\s+", " ", text).strip()
    if len(text) > 230:
        text = text[:230].rsplit(" ", 1)[0] + " …"
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "…", "!", "?")) else text + "."


def instruction_clauses(instruction: str) -> list[str]:
    """Requirement clauses of the instruction, rewritten in the third person, in instruction order."""
    clauses: list[str] = []
    for n, sentence in enumerate(_SENTENCE.split(instruction.strip())):
        sentence = sentence.strip()
        if not sentence:
            continue
        if n == 0:
            intro = _INTRO.match(sentence.rstrip("."))
            if intro:
                if not intro.group(1):
                    continue  # "Build me a X called Y." says what the app is, not what it must do
                sentence = "users can " + intro.group(1)
        parts = _CLAUSE.split(sentence) if len(sentence) > 140 else [sentence]
        for part in parts:
            part = part.strip()
            if len(part.split()) < 5 or not _CUE.search(part):
                continue
            text = _tidy(part)
            if text not in clauses:
                clauses.append(text)
    return clauses


# -- rules of an item text --------------------------------------------------------------------------------

_RULE_PATTERNS: list[tuple[str, str]] = [
    ("search", r"\bsearch|keyword"),
    ("filter", r"\bfilter|only (?:its|their|those|that|the)\b|shows? only|lists? only|category lists"),
    ("filter-views", r"stays? applied|when switching|switch(?:es|ing)? between .*(?:filter|keeps?)|filter[^.]*(?:kept|keeps|remains)"),
    ("filter-combined", r"(?:filter|search)\w*[^.]*\b(?:both|all of them|combined|together)\b|ticking several|several (?:of these )?filters"),
    ("empty-state", r"empty[- ]state|no (?:\w+ )?(?:found|match|results?)|nothing (?:matches|found)|when (?:\w+ )?(?:the )?\w+ is empty|"
                    r"empty (?:cart|column|list|category)|(?:when|if) (?:nothing|no \w+) match"),
    ("count", r"\bcounts?\b|how many (?:\w+ )?(?:are|were|is) (?:shown|found|listed)|how many \w+ (?:match|are in each|it holds|each)|"
              r"showing \w+ \w+|number of \w+ (?:shown|listed|found|displayed)"),
    ("summary-update", r"(?:statistic|summar|totals?\b|overview|dashboard|metric|figures|balance|(?:available|remaining) "
                       r"(?:seats|spots|places)|number of (?:available|remaining))\w*[^.]{0,80}?\b(?:updat|chang|reflect|"
                       r"real[- ]time|immediate|automatic|synchron|recalculat|increment|decrement|reduc|increas)|"
                       r"(?:updat|synchron|recalculat)\w*[^.]{0,60}?\b(?:statistic|summar|totals?\b|overview|dashboard|"
                       r"metric|balance|progress)"),
    ("placeholder", r"placeholder|lorem|real (?:text|content|copy)"),
    ("images", r"\b(?:images?|photos?|portrait|pictures?|cover(?! note))\b"),
    ("currency", r"currenc|dollars?|euros?|\bpounds?\b|[$€£]"),
    ("dialog-close", r"\bclose (?:button|it|the|without|again|control)|\bclos(?:es|ing) (?:the|it|with|when)|escape|dismiss|×"),
    ("feedback", r"toast|thank|confirmation (?:message|toast|is shown)|show\w* a (?:short |small )?confirmation|"
                 r"confirms? (?:when|posts|the|actions|it)|gets? a confirmation"),
    ("form-cleared", r"\bclear(?:ed)?\b[^.]*\b(?:form|field|box|input)|(?:form|field|box)[^.]*\bclear(?:ed)?\b"),
    ("stays-disabled", r"\bdisabled|enabled again|stays? (?:usable|enabled)"),
    ("vote", r"one (?:up)?vote|(?:up)?vot(?:e|es|ing)\b[^.]*(?:again|only once|twice|takes? (?:it|the vote) back|toggle|remove)|"
             r"clicking (?:it )?again"),
    ("persist-create", r"reload|refresh|local ?storage|still (?:there|listed|shown)|persist|survive|kept in|saved in the browser"),
    ("edit", r"\b(?:edit(?:s|ed|ing)?|modif(?:y|ies|ied|ying)|renam(?:e|es|ed|ing))\b"),
    ("persist-delete", r"(?:delet|remov)\w*[^.]*(?:reload|refresh|stays? deleted|come back|still gone)"),
    ("delete-confirm", r"(?:delet|remov)\w*[^.]{0,80}?\b(?:confirm\w*|are you sure)\b(?!\s+(?:message|toast|notification|email))|"
                       r"\bconfirm\w*\b(?!\s+(?:message|toast|notification|email))[^.]{0,40}\b(?:delet|remov)"),
    ("required", r"required|cannot be (?:saved|submitted|placed|posted|sent)|can't (?:save|submit)|incomplete|missing|"
                 r"(?:submitted|submitting|left) (?:it )?(?:empty|blank)|empty (?:form|field|submission)|at least \d+ characters|"
                 r"\b(?:must|have to|has to|need to|needs to) (?:enter|fill in|fill out|provide|specify)\b|(?:is|are) (?:left )?empty\b|"
                 r"without (?:any |entering (?:any )?)?(?:input|content|text|data|information)|"
                 r"\b(?:add|create|save|submit|publish|post)\w* (?:an? )?(?:empty|blank) \w+"),
    ("blank-input", r"only (?:spaces|whitespace|blanks)|whitespace|spaces? only|(?:blank|empty) spaces"),
    ("required-choice", r"without (?:a |choosing )?(?:star |a )?(?:rating|choice|selection)|rating is required|picking \d+ to \d+ stars"),
    ("invalid-input", r"invalid|reject|negative|positive number|zero|format|nonsense|out[- ]of[- ]range|sensible ranges?|"
                      r"validat|look valid"),
    ("unavailable-option", r"sold[- ]out|unavailable|not available"),
    ("past-date", r"(?:cannot|can't|not|no|prevent\w*|reject\w*|disabl\w*|unable|never)\b[^.]{0,50}\bpast (?:\w+ )?(?:dates?|times?|days?|"
                  r"deadlines?)|(?:must|should) be (?:a |an )?(?:valid )?(?:future|upcoming)|future (?:date )?or (?:the )?current|"
                  r"already passed|before today"),
    ("future-date", r"(?:cannot|can't|not|no|prevent\w*|reject\w*|disallow\w*|unable|never)\b[^.]{0,50}\bfuture\b(?! date or)|"
                    r"(?:date|time)s? (?:is |are )?(?:later|after) (?:than )?(?:today|now|the current)"),
    ("date-order", r"start\w*[^.]{0,40}\b(?:earlier|before|prior)\b[^.]{0,40}\bend|\bend\w*[^.]{0,40}\b(?:later|after)\b[^.]{0,40}\bstart|"
                   r"start (?:date|time)s? (?:is |are )?later than|valid time ?frame|valid (?:date|time) (?:range|period)"),
    ("duplicate", r"duplicat|same name|(?:must|should) be unique|unique (?:names?|titles?)|uniqueness|\brepetition\b|"
                  r"\btwice\b|repeated(?:ly)? (?:submi|post|creat|add|book|send)|"
                  r"(?:submi|post|book|regist|appl|send|publish|leav)\w* [^.]{0,30}"
                  r"(?:repeatedly|more than once|multiple times)|multiple (?:\w+ ){1,2}for the same|same contact information|"
                  r"double[- ]book|booked repeatedly|(?:cannot|can't|not|no|prevent\w*)\b[^.]{0,60}\bsame time ?slot|"
                  r"\bonly (?:one|a single)\b[^.]{0,40}\b(?:for|per|on) the same\b|"
                  r"conflict (?:detection|check)|(?:check|detect)\w*\b[^.]{0,80}\bconflict|if there is a conflict|already occupied"),
    ("dead-control", r"every (?:button|control|link)|buttons? (?:and links )?respond"),
    ("errors", r"console|script errors?"),
    ("layout", r"horizontal scroll|overflow|fits? the (?:window|viewport|screen)"),
]
_COMPILED = [(rule, re.compile(p, re.IGNORECASE)) for rule, p in _RULE_PATTERNS]


def rules_for_text(text: str) -> list[str]:
    """The rules whose findings can decide an item with this text (in a fixed order)."""
    return [rule for rule, pattern in _COMPILED if pattern.search(text)]


# -- implied items ------------------------------------------------------------------------------------------


def _short(text: str, n: int = 40) -> str:
    text = re.sub(r"\s*\(.*?\)\s*", " ", text).strip()
    return text if len(text) <= n else text[:n].rsplit(" ", 1)[0]


def _implied(instruction: str, model: PageModel | None, exercised: Collection[str] = (),
             met: Sequence[Met] = ()) -> list[Planned]:
    out: list[Planned] = []
    add = out.append
    reqs = requirements(instruction)  # their objects name what the exploration's edits, deletions and repeats are about
    forms = [f for f in (model.forms if model else []) if f.submit and f.role != "search"
             and not any(x.type == "search" for x in f.fields)][:3]
    for form in forms:
        name = _short(form.name or form.submit_text or "entry")
        add(Planned(CS, f"The {name} form cannot be submitted with its required fields empty: an error is shown for each "
                        "missing field and nothing is saved.",
                    f"Open the {name} form, leave the fields empty and press {form.submit_text or 'submit'}.",
                    "The submission is rejected with a message per missing field.", "required", name, 2))
        for f in [x for x in form.fields if x.kind == "number" and not x.optional][:2]:
            label = _short(f.label)
            subject, negative = (label, f"a negative {label.lower()}") if label else ("value", "a negative number")
            add(Planned(CS, f"The {subject} must be a positive number: {negative} is rejected with a validation "
                            "error instead of being accepted.",
                        f"Fill the {name} form with valid data but {negative}, then submit.",
                        f"An error about the {subject} is shown and nothing is saved or calculated.", "invalid-input",
                        label or name, 1))
        for f in [x for x in form.fields if x.kind == "email"][:1]:
            label = _short(f.label) or "email"
            add(Planned(CS, f"The {label} field rejects an address with an invalid format (for example 'name.example.com') "
                            "with an error.",
                        f"Fill the {name} form with valid data but an email without @, then submit.",
                        "The email is rejected with an error and nothing is sent or saved.", "invalid-input", label, 1))
        groups = [g for g, radios in form.radio_groups().items() if not any(r.checked for r in radios)]
        if groups:
            add(Planned(CS, f"A choice is required in the {name} form: submitting without one shows an error.",
                        "Fill everything except the choice and submit.", "The submission is rejected.", "required-choice", name, 1))
        for f in form.fields:
            bad = [o["text"] for o in f.options if re.search(r"sold[- ]?out|unavailable", o["text"], re.I)]
            if bad:
                add(Planned(CS, f"An option marked sold out ({bad[0]}) cannot be chosen or registered in the {name} form.",
                            f"Choose {bad[0]} and submit the form with otherwise valid data.",
                            "The option is disabled or the submission is rejected.", "unavailable-option", name, 1))
                break
        if any(x.kind == "number" for x in form.fields):
            add(Planned(IX, f"After an invalid value in the {name} form is corrected, the {form.submit_text or 'submit'} button "
                            "works again.", "Enter an invalid number, then correct it.", "The button is enabled and works.",
                        "stays-disabled", name, 3))
        if not form.in_dialog and POSTING.search(form.submit_text or form.name):
            add(Planned(IX, f"After a successful submission the {name} form's fields are cleared.",
                        "Submit the form with valid data.", "The fields are empty again.", "form-cleared", name, 3))
    if forms and CONFIRM.search(instruction):
        name = _short(forms[0].name or forms[0].submit_text or "entry")
        add(Planned(IX, f"Submitting the {name} form successfully shows a confirmation message.",
                    "Submit the form with valid data.", "A confirmation (message or toast) appears.", "feedback", name, 2))
    if not forms and re.search(r"validat|required|at least \d+|must", instruction, re.I):
        add(Planned(CS, "Incomplete or invalid input is rejected with a clear error message and nothing is saved.",
                    "Submit the app's forms empty and with invalid values.", "Each submission is rejected with a message.",
                    "required", None, 2))
        if CONFIRM.search(instruction):
            add(Planned(IX, "Submitting a form successfully shows a confirmation message so the user knows it went through.",
                        "Submit a form with valid data.", "A confirmation (message or toast) appears.", "feedback", None, 2))

    searches = model.search_boxes() if model else []
    selects = model.filter_selects() if model else []
    boxes = model.filter_checkboxes() if model else []
    if searches:
        fields = [f for f in search_fields(instruction) if f not in ("name", "names", "title", "titles")]
        add(Planned(FT, "Searching for an entry's name lists that entry.", f"Type an entry's name into {searches[0].label or 'the search box'}.",
                    "The entry is in the results.", "search", "name", 2))
        for field_name in fields[:2]:
            add(Planned(FT, f"Searching by {field_name} finds the entries whose {field_name} contains the keyword.",
                        f"Type a word of an entry's {field_name} into {searches[0].label or 'the search box'}.",
                        "The entry is in the results.", "search", field_name, 1))
    if searches or selects or boxes or re.search(r"\b(search|filter)", instruction, re.I):
        add(Planned(IX, "When nothing matches the search or the filters, a clear 'nothing found' message is shown instead of an "
                        "empty list.", "Search for a word no entry contains.", "An empty-state message is shown.",
                    "empty-state", None, 2))
    for f in selects[:2]:
        label = _short(f.label)
        example = next((f" (e.g. {o['text']})" for o in f.options if o["value"]), "")
        add(Planned(FT, f"Filtering by {label.lower()}{example} shows only the entries of that {label.lower()}.",
                    f"Choose each {label} option in turn.", f"Every listed entry belongs to the chosen {label.lower()}.",
                    "filter", label, 1))
    if searches and selects:
        label = _short(selects[0].label)
        add(Planned(FT, f"Searching while a {label.lower()} filter is set shows only entries that match both the keyword and the "
                        f"{label.lower()}.", f"Choose a {label}, then type a keyword.", "Only entries matching both are listed.",
                    "filter-combined", label, 2))
    if boxes:
        add(Planned(FT, f"Switching on the '{boxes[0].label}' filter shows only entries that are {boxes[0].label.lower()}.",
                    f"Tick {boxes[0].label}.", "Every listed entry matches it.", "filter", boxes[0].label, 1))
        if len(boxes) >= 2:
            add(Planned(FT, f"Ticking several filters together (e.g. {boxes[0].label} and {boxes[1].label}) shows only entries "
                            "that meet all of them.",
                        f"Tick {boxes[0].label} and {boxes[1].label}.", "Every listed entry meets both.", "filter-combined",
                        boxes[0].label, 1))
    tabs = [g for g in (model.button_groups if model else []) if g.get("tabs")]
    if selects and tabs:
        label = _short(selects[0].label)
        names = " and ".join(b["text"].split(" ")[0] + (" " + b["text"].split(" ")[1] if len(b["text"].split(" ")) > 1 else "")
                             for b in tabs[0]["buttons"][:2])
        add(Planned(FT, f"The chosen {label.lower()} filter stays applied when switching between {names}.",
                    f"Choose a {label}, then switch views.", f"Only entries of that {label.lower()} are listed in every view.",
                    "filter-views", label, 1))
    if model and model.badges:
        add(Planned(CT, "The count shown in each list's header (e.g. the number of cards in a column) matches the entries listed.",
                    "Compare each header's number with its list.", "Every count equals the entries shown.", "count", None, 1))
    for group in [g for g in (model.button_groups if model else []) if not g.get("tabs")][:1]:
        texts = [b["text"] for b in group["buttons"]]
        add(Planned(FT, f"Choosing a category filter (e.g. {texts[1] if len(texts) > 1 else texts[0]}) shows only the entries "
                        "of that category.", f"Click the {', '.join(texts[:4])} filters in turn.",
                    "Every listed entry belongs to the chosen category.", "filter", "/".join(texts[:4]), 1))
    if model and model.counts:
        add(Planned(CT, "The number of entries the page says it shows (e.g. 'Showing N ...') always matches the entries listed, "
                        "also after filtering.", "Change the filters and compare the count with the list.",
                    "The count equals the number of entries shown.", "count", None, 1))
    if PERSIST.search(instruction):
        add(Planned(FT, "Newly added entries are still listed after the page is reloaded.",
                    "Add an entry, then reload the page.", "The entry is still there.", "persist-create", None, 2))
        if DELETE.search(instruction):
            add(Planned(FT, "A deleted entry stays deleted after the page is reloaded.",
                        "Delete an entry, confirm, then reload the page.", "The entry does not come back.",
                        "persist-delete", None, 2))
    if "delete-confirm" in exercised:  # the exploration met a Delete control on a listed entry
        deleted = _object_of(reqs, DELETE_VERBS) or "an entry"
        add(Planned(IX, f"Deleting {deleted} asks for confirmation first (or offers an undo), so one accidental click does not "
                        "remove it.", "Click the Delete control of a listed entry.",
                    "A confirmation is asked for before the entry disappears, or an undo is offered.",
                    "delete-confirm", None, 2))
    if "edit" in exercised:  # the exploration changed a created entry through its Edit control
        edited = _object_of(reqs, EDIT_VERBS) or "an entry"
        add(Planned(FT, f"Editing {edited} saves the change: after saving, the list shows the edited text, also after the "
                        "page is reloaded.", "Open a listed entry's Edit control, change its name and save; then reload.",
                    "The entry shows the new name, before and after the reload.", "edit", None, 2))
    created = _object_of(reqs, CREATE_VERBS)
    # what users create, they expect to remove (the commonest feature generated apps leave out); an edit item of the
    # same kind was tried and not kept: generated apps often edit entries in place (rows of fields), with no control
    if created and not DELETE.search(instruction) and "delete-confirm" not in exercised:
        add(Planned(FT, f"Users can delete {_bare(created)}.", "Delete an existing entry.",
                    "The entry is removed from the list.", "delete", None, 3))
    if "summary-update" in exercised:  # the exploration saw totals or counts beside a form that adds entries
        add(Planned(IX, "The summary figures shown with the entries (totals, counts, what is left) update as soon as a new "
                        "entry is added.", "Note the totals, add an entry, and compare the totals again.",
                    "The totals and counts change to include the new entry.", "summary-update", None, 2))
    if DIALOG.search(instruction) or (model and model.dialogs):
        add(Planned(IX, "Dialogs and pop-ups close with their close (×) button and with the Escape key.",
                    "Open each dialog and close it with its close button, then with Escape.", "The dialog closes each time.",
                    "dialog-close", None, 1))
    dated = _date_items(instruction, exercised)
    out += dated + _field_date_items(instruction, met, {p.rule for p in dated})
    if CREATE.search(instruction) or "duplicate" in exercised:
        created = _object_of(reqs, CREATE_VERBS)
        entry = _met_noun(met, "duplicate", instruction) or (singular(_bare(created)) if created else "entry")
        add(Planned(CS, f"Submitting the same {entry} twice does not create a duplicate: the repeated submission (same name "
                        "and details) is rejected or warned about.", "Submit a form with valid data, then submit the same data again.",
                    "The second submission is rejected or a duplicate warning is shown; only one entry exists.",
                    "duplicate", None, 3))
    if VOTE.search(instruction):
        add(Planned(CS, "Each user has one vote per entry: clicking the vote button again takes the vote back.",
                    "Click a vote button twice.", "The count goes up once and back down.", "vote", None, 1))
    add(Planned(CT, "All text is real content: no placeholder text such as lorem ipsum, TODO, undefined or NaN appears anywhere.",
                "Look at every page and view.", "No placeholder text is shown.", "placeholder", None, 1))
    currency = _currency_phrase(instruction)
    if currency or (model and model.currencies()):
        phrase = currency or "one currency with its symbol"
        add(Planned(CT, f"All prices and amounts are shown in {phrase}, consistently everywhere.",
                    "Compare the amounts shown on every view.", f"Every amount uses {phrase}.", "currency", None, 1))
    if TOTALS.search(instruction):
        add(Planned(CT, "Totals are arithmetically right: each total equals the sum of its parts (e.g. subtotal minus discount "
                        "plus tax or shipping).", "Compare the totals with their parts.", "The figures add up.", None, None, 3))
    if (model and model.images) or re.search(r"\b(image|photo|portrait|picture|cover)", instruction, re.I):
        add(Planned(CT, "Every image loads; no image is broken or missing.", "Look at every page.", "All images show.",
                    "images", None, 2))
    add(Planned(IX, "Every button and link responds when clicked (no control does nothing).", "Click each control.",
                "Each click has a visible effect.", "dead-control", None, 4))
    add(Planned(CT, "The layout fits the 1280-pixel wide window without horizontal scrolling or content sticking out.",
                "Look at the start page.", "Nothing overflows the window.", "layout", None, FILLER))
    add(Planned(FT, "The app runs without script errors or failed requests in the browser console.",
                "Use the app with the console open.", "No errors are reported.", "errors", None, FILLER))
    return out


def _object_of(reqs: list[Requirement], verbs: Collection[str]) -> str | None:
    """The object of the first requirement with one of ``verbs`` ("tags" of "users can delete tags"); a user's own
    account or profile is not one of the app's entries."""
    return next((r.obj for r in reqs if r.verb in verbs and r.obj and not _NOT_AN_OBJECT.match(r.obj)
                 and not _OWN_ACCOUNT.search(r.obj)), None)


def _bare(noun: str) -> str:
    """``noun`` without a leading article, owner, quantity ("as many") or 'new', and without a dangling last word
    ("notes and proposed") or a pointing phrase ("replies below it")."""
    noun = re.sub(r"^(?:(?:the|a|an)\s+)?(?:(?:the )?user's\s+)?(?:own\s+)?(?:new\s+)?", "", noun, flags=re.IGNORECASE)
    noun = re.sub(r"^(?:as many|any|all|multiple|several|some|a few|few|one or more)\s+", "", noun, flags=re.IGNORECASE)
    noun = re.sub(r"\s+(?:below|above|under|to|for|in|on|of|from|with)\s+(?:it|them|this|that)$", "", noun, flags=re.IGNORECASE)
    return re.sub(r"\s+(?:and|or)\s+\S+$", "", noun)


def singular(noun: str) -> str:
    """``noun`` with its head word in the singular ("employee profiles" -> "employee profile"; "categories of
    items" -> "category of items")."""
    cut = re.search(r"\s+(?:of|for|with|in|on|by|to|from|about)\s+", noun)
    head, tail = (noun[:cut.start()], noun[cut.start():]) if cut else (noun, "")
    word = head.rsplit(" ", 1)[-1]
    if re.search(r"ies$", word):
        one = word[:-3] + "y"
    elif re.search(r"(?:ss|us|is)$", word) or not word.endswith("s"):
        one = word
    elif re.search(r"(?:ches|shes|sses|xes)$", word):
        one = word[:-2]
    else:
        one = word[:-1]
    return head[: len(head) - len(word)] + one + tail


def _date_items(instruction: str, exercised: Collection[str] = ()) -> list[Planned]:
    """Date limits a QA engineer checks for what the instruction schedules (no past deadline or booking), records
    (no future expense or workout) and spans (no end before the start), when the instruction speaks of dates or
    the exploration met a date field."""
    out: list[Planned] = []
    if not DATED.search(instruction) and not {"past-date", "future-date"} & set(exercised):
        return out
    ahead, behind = AHEAD.search(instruction), BEHIND.search(instruction)
    if ahead:
        thing = ahead.group(1).lower()
        out.append(Planned(CS, f"{_a(thing).capitalize()} cannot be set to a date in the past: a past date is rejected with an error.",
                           f"Enter {_a(thing)} with a date in the past and submit.", "The past date is rejected; nothing is saved.",
                           "past-date", _named_date(thing, instruction), 1))
    if behind:
        thing = behind.group(1).lower()
        out.append(Planned(CS, f"{_a(thing).capitalize()} cannot be recorded with a future date: a date after today is rejected.",
                           f"Record {_a(thing)} dated years ahead and submit.", "The future date is rejected; nothing is saved.",
                           "future-date", None, 1))
    if DATE_RANGE.search(instruction):
        out.append(Planned(CS, "The start date must be earlier than the end date: an end date before the start is rejected.",
                           "Enter an end date a week before the start date and submit.", "The dates are rejected with an error.",
                           "date-order", None, 1))
    return out


def _named_date(thing: str, instruction: str) -> str | None:
    """The field an item about ``thing`` ("due date") is decided on, when the instruction names other dates beside
    it ("set the issue date and due date"): the one named so ("due"); None (any date field) otherwise."""
    if not thing.endswith(" date"):
        return None
    word = thing.split()[0]
    others = {w.lower() for w in re.findall(r"\b([a-z]+) dates?\b", instruction, re.IGNORECASE)} - {word, "the", "a", "any"}
    return word if others else None


def _field_date_items(instruction: str, met: Sequence[Met], planned: set[str | None]) -> list[Planned]:
    """Date limits for the date fields the exploration tried (when the instruction's own date items leave the
    limit out): no past date in a field about what lies ahead ("Start Date" of "Create New Project"), no future
    date in one about what already happened ("Date Applied")."""
    out: list[Planned] = []
    for rule, form, field in met:
        if rule not in ("past-date", "future-date") or not field:
            continue
        about = field if AHEAD_FIELD.search(field) or BEHIND_FIELD.search(field) else form
        ahead, behind = bool(AHEAD_FIELD.search(about)), bool(BEHIND_FIELD.search(about))
        limit = "past-date" if ahead and not behind else "future-date" if behind and not ahead else None
        if limit is None or limit in planned:
            continue
        planned.add(limit)
        noun = form_noun(form, instruction)
        what = f"the {field.lower()}" + (f" of {_a(noun)}" if noun else "")
        if limit == "past-date":
            out.append(Planned(CS, f"{what[0].upper()}{what[1:]} cannot be set in the past: a past date is rejected with an error.",
                               f"Enter a date in the past as the {field} and submit.",
                               "The past date is rejected; nothing is saved.", "past-date", None, 1))
        else:
            out.append(Planned(CS, f"{what[0].upper()}{what[1:]} cannot be a future date: a date after today is rejected.",
                               f"Enter a date years ahead as the {field} and submit.",
                               "The future date is rejected; nothing is saved.", "future-date", None, 1))
    return out


def form_noun(form: str, instruction: str) -> str | None:
    """What a form creates, by its name ("New Folder" -> "folder"), when the instruction speaks of it, every word
    (None otherwise: a form may be named after the entry it books, "Skyline Conference Room")."""
    noun = FORM_VERBS.sub("", form.strip() + " ").strip().lower()
    if not re.fullmatch(r"[a-z]+(?: [a-z]+){0,2}", noun) or CREATE.fullmatch(noun):
        return None
    noun = singular(noun)
    spoken = all(re.search(rf"\b{re.escape(word)}", instruction, re.IGNORECASE) for word in noun.split())
    return noun if spoken else None


def _met_noun(met: Sequence[Met], rule: str, instruction: str) -> str | None:
    """What the first creating form the exploration tried ``rule`` on creates (see :func:`form_noun`)."""
    for record_rule, form, _ in met:
        if record_rule == rule and form and not CHANGING.search(form):
            noun = form_noun(form, instruction)
            if noun:
                return noun
    return None


def _a(noun: str) -> str:
    """``noun`` with its indefinite article."""
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def _currency_phrase(instruction: str) -> str | None:
    if re.search(r"US dollars?|USD|\$\d", instruction):
        return "US dollars ($)"
    if re.search(r"\beuros?\b|€", instruction, re.I):
        return "euros (€)"
    if re.search(r"\bpounds?\b|£", instruction, re.I):
        return "pounds (£)"
    return None


# -- the checklist ---------------------------------------------------------------------------------------------


def _requirement_items(instruction: str) -> list[Planned]:
    """The instruction's requirements and the checks they imply (:mod:`webtester.baseline.requirements`), or its
    clauses when no requirement could be cut out of it."""
    reqs = requirements(instruction)
    if not reqs:
        return [Planned(FT, c, "Exercise this requirement in the app.", c, None, None, 5) for c in instruction_clauses(instruction)]
    items = [Planned(FT, r.text, "Exercise this requirement in the app.", r.text, None, None, 5) for r in reqs]
    items += [Planned(dim, text, action, expected, rule, None, 5) for dim, text, action, expected, rule in implied_items(reqs)]
    return items


def plan_checklist(instruction: str, model: PageModel | None, max_items: int = DEFAULT_MAX_ITEMS,
                   exercised: Collection[str] = (), met: Sequence[Met] = ()) -> list[Planned]:
    """The planned items (at most ``max_items``), in dimension order (FT, CS, IX, CT); ``exercised``: the rules the
    app's exploration exercised, which call for items the instruction does not ask for (a Delete control met);
    ``met``: where it exercised them (findings first), which names what such an item is about (the form's entry, the
    date field)."""
    everything = _implied(instruction, model, exercised, met)
    implied = [p for p in everything if p.priority != FILLER]
    clauses = _requirement_items(instruction)
    keep_clauses = min(len(clauses), max(max_items * 2 // 5, max_items - len(implied)))
    room = max_items - keep_clauses
    chosen: list[Planned] = []
    for dim in ORDER:  # the best item of every dimension first
        best = sorted((p for p in implied if p.dimension is dim), key=lambda p: p.priority)
        if best and len(chosen) < room:
            chosen.append(best[0])
    for p in sorted(implied, key=lambda p: p.priority):
        if len(chosen) >= room:
            break
        if p not in chosen:
            chosen.append(p)
    chosen += clauses[: max_items - len(chosen)]
    chosen += [p for p in everything if p.priority == FILLER][: max(max_items - len(chosen), 0)]
    if any(p.rule == "delete-confirm" for p in chosen if p in clauses):  # a requirement's own delete item names its object
        chosen = [p for p in chosen if p in clauses or p.rule != "delete-confirm"]
    ranked = {id(p): i for i, p in enumerate(everything + clauses)}
    chosen.sort(key=lambda p: (ORDER.index(p.dimension), p.priority == 5, ranked[id(p)]))
    return chosen[:max_items]


def number_items(planned: list[Planned]) -> list[TestItem]:
    """Test items with WebTestBench ids (FT-01, CS-01, ...) in the given order."""
    ids = number_ids(p.dimension for p in planned)
    return [TestItem(id=i, dimension=p.dimension, description=p.description, action=p.action, expected=p.expected)
            for i, p in zip(ids, planned)]
