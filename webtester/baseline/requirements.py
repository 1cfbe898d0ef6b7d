"""Requirements of an instruction as a QA engineer would list them.

Each sentence is cut into its actor ("employers", "job seekers"; "I" becomes "users") and the things the
actor can do; coordinated verbs are separated and share their object ("create, edit and tag product
entries" gives three requirements about product entries), pronouns take the object they stand for. Each
requirement becomes one functionality item in whole words. What a requirement implies is added as the
items a careful tester would write for it: creating something must reject missing or invalid input and
confirm success; deleting asks for confirmation; filtering, sorting and searching must show only matching
results and update at once; what is listed or shown must display complete information.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from webtester.models import Dimension

FT, CS, IX, CT = Dimension.functionality, Dimension.constraint, Dimension.interaction, Dimension.content

CREATE = {"create", "add", "post", "submit", "upload", "book", "register", "write", "record", "log", "schedule",
          "publish", "enter", "apply", "save", "reserve", "invite", "send", "comment", "rate", "review", "share",
          "import", "input", "set", "define", "build", "compose", "draft", "plan", "organize", "curate", "assign"}
EDIT = {"edit", "update", "modify", "change", "rename", "adjust", "customize", "configure", "reorder", "move", "drag", "mark",
        "tag", "label", "categorize", "approve", "reject", "complete", "toggle", "switch", "rearrange", "manage"}
DELETE = {"delete", "remove", "cancel", "archive", "clear", "discard"}
FIND = {"filter", "sort", "search", "find", "browse", "group", "compare", "query", "look"}
SHOW = {"view", "see", "display", "show", "list", "track", "monitor", "read", "preview", "check", "get", "receive",
        "download", "export", "print", "generate", "calculate", "visualize", "access", "explore", "open", "watch",
        "select", "choose", "pick", "navigate", "highlight", "feature", "bookmark", "favorite", "save", "follow",
        "join", "vote", "like", "reply", "respond", "contact", "message", "pay", "checkout", "order", "purchase", "buy"}
ENABLERS = {"allow", "let", "enable", "help"}
VERBS = CREATE | EDIT | DELETE | FIND | SHOW | ENABLERS
MODAL = re.compile(r"^(?P<subject>.*?)\s*\b(?:can|should|must|could|will|may|need to|needs to|want to|wants to|"
                   r"(?:is|are) able to|would like to|shall)\s+(?:also\s+|easily\s+|quickly\s+)?(?:be able to\s+)?"
                   r"(?P<rest>.+)$", re.IGNORECASE)
WHERE = re.compile(r"\b(?:where|so that|in which|that lets|which lets|that allows|which allows|that enables|which enables|"
                   r"allowing|letting|enabling)\s+(?P<rest>.+)$",
                   re.IGNORECASE)
THERE = re.compile(r"^there\s+(?:should|must|will|needs? to)\s+(?:also\s+)?be\s+(?P<rest>.+)$", re.IGNORECASE)
SPLIT = re.compile(r"(,\s*(?:and\s+|or\s+|as well as\s+)?|\s+(?:and|or|as well as|plus)\s+)")
PREPOSITION = re.compile(r"\s*,.*$|\s+(?:by|with|for|from|to|in|on|at|into|like|such as|including|based on|via|using|so|that|"
                         r"which|when|while|through|under|around|of their|across|as|after|before|if|showing|displaying|"
                         r"containing|where|without)\b.*$", re.IGNORECASE)
LEADING_PREPOSITION = re.compile(r"^(?:by|with|for|from|in|on|at|into|through|using|via)\b", re.IGNORECASE)
ENABLING = re.compile(r"^(?P<who>[\w' -]+?)\s+to\s+(?P<rest>(?P<verb>\w+)\b.*)$")
# also "deadline.It supports" and a quotation or parenthesis that ends the sentence ('a week." The site')
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|(?<=[.!?][\"”’')])\s+(?=[A-Z])|(?<=[a-z][.!?])(?=[A-Z])")
#: a second requirement with its own subject inside one sentence (", and users should be able to ...")
SECOND_SUBJECT = re.compile(r"(?:,\s*|\s+)(?:and|while|but)\s+(?=(?:(?!(?:so|that|which|who|where|when|if|because|as)\b)"
                            r"\w+\s+){1,3}?(?:can|should|must|could|will|may|(?:is|are) able to|need to|needs to)\b)",
                            re.IGNORECASE)
#: the first sentence's list of features ("a page for X, featuring A, B and C")
FEATURING = re.compile(r"\b(?:featuring|with features? (?:like|such as|including)|offering features? (?:like|such as))\s+"
                       r"(?P<rest>.+)$", re.IGNORECASE)
#: "where users register, log in and ...": the subject and the first verb of a clause without a modal
SUBJECT_VERB = re.compile(r"^(?P<who>(?:the\s+)?[\w'-]+(?:\s+[\w'-]+)?)\s+(?P<rest>(?P<verb>[a-z]+)\b.*)$", re.IGNORECASE)
SUBJECT_VERB_SHORT = re.compile(r"^(?P<who>(?:the\s+)?[\w'-]+s)\s+(?P<rest>(?P<verb>[a-z]+)\b.*)$", re.IGNORECASE)
#: "a web page for team leads to manage ...", "a webpage for managing ...", "a webpage to manage ..."
PURPOSE = re.compile(r"\b(?:web ?page|web ?site|web app|app|page|site|tool|platform|portal|dashboard)\s+"
                     r"(?:for\s+(?:an?\s+|the\s+)?(?P<who>[\w'-]+(?:\s+[\w'-]+){0,2}?)\s+to\s+|for\s+|to\s+)"
                     r"(?P<rest>[a-z]+\b.*)$", re.IGNORECASE)
#: an object's examples, whose commas do not start a new verb phrase
EXAMPLES = re.compile(r"\b(?:such as|including|like|e\.g\.)\s", re.IGNORECASE)
STATE = "state"  # the verb of a requirement stated as a whole sentence
#: verbs that make a requirement on their own ("users register, log in and ...")
STANDALONE = {"register", "subscribe", "enroll", "rsvp", "vote", "checkout"}
FEATURE_LEAD = re.compile(r"^(?:(?:new|additional|other) features?:?\s*)?(?:\d+[.)]\s*)?", re.IGNORECASE)
PARTICIPLE = {"log": "logged", "plan": "planned", "set": "set", "submit": "submitted", "drag": "dragged",
              "write": "written", "send": "sent", "build": "built", "pay": "paid", "buy": "bought", "get": "received"}


@dataclass
class Requirement:
    """One thing an actor can do: ``verb`` + ``obj`` (+ the rest of the phrase)."""

    actor: str
    verb: str
    phrase: str  # the verb phrase as written, pronouns resolved
    obj: str  # the object's head words ("product entries"), may be empty

    @property
    def text(self) -> str:
        if self.verb == STATE:  # a sentence that states a feature without "can" / "should", kept whole
            return _sentence(self.phrase)
        if self.verb == "have":  # "Each product should have a page" states what the app has
            rest = self.phrase.split(" ", 1)[1] if " " in self.phrase else ""
            plural = re.search(r"(?<!s)s$", self.actor.split(" ")[-1]) and not self.actor.lower().startswith(("each", "every"))
            return _sentence(f"{self.actor} {'have' if plural else 'has'} {rest}")
        return _sentence(f"{self.actor} can {self.phrase}")


def _sentence(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip().rstrip(",;:")
    if len(text) > 220:
        text = text[:220].rsplit(" ", 1)[0] + " …"
    text = text[:1].upper() + text[1:]
    return text if re.search(r"[.…!?][\"”’')]?$", text) else text + "."


def _actor(subject: str) -> str:
    subject = re.sub(r"^(?:and|also|then)\s+", "", subject.strip(), flags=re.IGNORECASE)
    subject = re.sub(r"\s+(?:also|then|easily)$", "", subject, flags=re.IGNORECASE)  # "The user also can ..."
    subject = re.sub(r"^(?:for|on|in|from|after|when)\b[^,]*,\s*", "", subject, flags=re.IGNORECASE)
    if not subject or re.fullmatch(r"(?:I|we|you|me|us|one|they|the user)", subject, re.IGNORECASE):
        return "Users"
    if re.match(r"(?:it|this|the (?:app|site|website|platform|system|page|tool|dashboard))\b", subject, re.IGNORECASE):
        return ""  # the app itself: the phrase is stated as what the app does
    return subject


def _base_verb(word: str) -> str | None:
    """The verb a word is, as a gerund ("setting" -> "set", "managing" -> "manage") or as it is."""
    word = word.lower()
    if word in VERBS:
        return word
    if word.endswith("ing"):
        stem = word[:-3]
        return next((v for v in (stem, stem + "e", stem[:-1]) if v in VERBS), None)
    return None


def _purpose(sentence: str) -> str | None:
    """What the first sentence says the app is for, as a requirement sentence ("Team leads can manage internal
    projects"), when it names its users and their action ("a web page for team leads to manage ...") or only the
    action ("a webpage for managing X", "to record and manage Y"); None when it only says what the app is."""
    found = PURPOSE.search(sentence)
    if not found:
        return None
    who, rest = found.group("who"), found.group("rest")
    if not _base_verb(rest.split(" ", 1)[0]):
        return None
    return f"{who} can {rest}" if who else _gerunds_as_verbs(f"users can {rest}")


def _gerunds_as_verbs(sentence: str) -> str:
    """"users can submitting X, viewing Y, and selecting Z" -> "users can submit X, view Y, and select Z"."""
    for gerund in re.findall(r"(?:\bcan\s+|,\s*(?:and\s+)?|\s+and\s+)(\w+ing)\b", sentence):
        verb = _base_verb(gerund)
        if verb and verb != gerund.lower():
            sentence = re.sub(rf"\b{gerund}\b", verb, sentence, count=1)
    return sentence


def _subject_verb(clause: str) -> list[re.Match[str] | None]:
    """The subject and first verb of a clause without a modal, its subject one word ("students create accounts")
    or two ("job seekers apply")."""
    return [SUBJECT_VERB_SHORT.match(clause), SUBJECT_VERB.match(clause)]


def _pronouns(text: str) -> str:
    for pattern, repl in ((r"\bI'm\b", "the user is"), (r"\bI\b", "the user"), (r"\bme\b", "the user"),
                          (r"\bmy\b", "the user's"), (r"\bmine\b", "the user's"), (r"\bwe\b", "the owner"),
                          (r"\bour\b", "the"), (r"\bus\b", "the owner")):
        text = re.sub(pattern, repl, text)
    return text


def _head(phrase_rest: str) -> str:
    """The object's head words: the phrase after its verb, up to the first preposition or clause."""
    obj = PREPOSITION.sub("", re.sub(r"\s*\([^)]*\)?", "", phrase_rest)).strip()  # "(such as ...)" is no object
    obj = re.sub(r"^(?:up|down|out)\s+", "", obj, flags=re.IGNORECASE)  # the particle of "set up profiles"
    obj = re.sub(r"^(?:a|an|the|their|his|her|its|your|all|any|each|every|new|existing|own|certain|multiple)\s+", "", obj,
                 flags=re.IGNORECASE)
    return " ".join(obj.split()[:4])


def _in_examples(phrase: str) -> bool:
    """Whether ``phrase`` ends inside a list of examples it opened ("fields such as name") that neither a closing
    parenthesis nor an "and" / "or" has ended."""
    starts = [m.end() for m in EXAMPLES.finditer(phrase)]
    if not starts:
        return False
    after = phrase[starts[-1]:]
    return ")" not in after and not re.search(r"\s(?:and|or)\s", after)


def _verb_phrases(rest: str) -> list[str]:
    """``rest`` cut at the separators that start a new verb ("browse X, filter them by Y, and search Z")."""
    parts = SPLIT.split(rest)
    phrases: list[str] = [parts[0]]
    for sep, part in zip(parts[1::2], parts[2::2]):
        part = re.sub(r"^\s*(?:then|also)\s+", "", part)
        first = part.strip().split(" ", 1)[0].lower() if part.strip() else ""
        listing = _in_examples(phrases[-1]) and len(part.split()) <= 3  # "fields such as name, contact information"
        if first in VERBS and phrases[-1].count("(") <= phrases[-1].count(")") and not listing:  # not inside parentheses
            phrases.append(part)
        else:
            phrases[-1] += sep + part
    return [p.strip() for p in phrases if p.strip()]


def _enabled(tail: str) -> tuple[str, str] | None:
    """(who, what they can do) of an enabler's complement: "users to create X" or "the user create X"."""
    to_form = ENABLING.match(tail)
    if to_form and to_form.group("verb").lower() in VERBS:
        return to_form.group("who"), to_form.group("rest")
    words = tail.split()
    for i, word in enumerate(words[1:5], start=1):  # "let the user assign ...", "help them see ..."
        if word.lower() in VERBS:
            return " ".join(words[:i]), " ".join(words[i:])
    return None


def sentence_requirements(sentence: str, first: bool) -> list[Requirement]:
    """The requirements of one sentence of the instruction."""
    sentence = sentence.strip().rstrip(".!")
    whole = sentence
    there = THERE.match(sentence)
    if there:
        return [Requirement("The app", "have", "have " + _pronouns(there.group("rest")), _head(there.group("rest")))]
    where = WHERE.search(sentence)
    featuring = FEATURING.search(sentence) if first else None
    if featuring and not (where and where.start() < featuring.start()):
        return listed_features(featuring.group("rest"))
    if first and where:
        clause = where.group("rest")
        sentence = clause
        if not MODAL.match(clause):  # "that allows the user to define ...", "where users register, log in and ..."
            lead = next((m for m in (ENABLING.match(clause), *_subject_verb(clause))
                         if m and m.group("verb").lower() in VERBS), None)
            if lead:
                sentence = f"{lead.group('who')} can {lead.group('rest')}"
            elif clause.split(" ", 1)[0].lower().endswith("ing") and _base_verb(clause.split(" ", 1)[0]):
                sentence = _gerunds_as_verbs(f"users can {clause}")  # "that allows setting up a workflow"
            else:  # "a webpage to manage parameter sets, where each set contains ...": what it is for
                sentence = _purpose(whole[: where.start()]) or clause
    elif first and re.match(r"^(?:I(?:'d| would)? (?:like|want|need)|Build|Create|Make|Design|Develop)\b", sentence, re.I):
        purpose = _purpose(sentence)  # "a web page for team leads to manage projects", "a webpage for managing X"
        if purpose is None:
            return []  # what the app is, not what it must do
        sentence = purpose
    modal = MODAL.match(sentence)
    if not modal:
        return []
    actor = _actor(modal.group("subject"))
    actor = _pronouns(actor) if actor != "Users" else actor
    rest = _pronouns(modal.group("rest"))
    phrases = _verb_phrases(rest)
    out: list[Requirement] = []
    pending: list[str] = []
    first_object = ""
    enabled_who = ""
    doer = actor or "The app"  # an actor the app enables keeps its own name
    for phrase in phrases:
        verb, _, tail = phrase.partition(" ")
        verb_l = verb.lower()
        if not tail.strip() and verb_l in VERBS:
            pending.append(verb_l)  # "create, edit, ... and tag X": the verb shares the next object
            continue
        enabled = _enabled(tail.strip()) if verb_l in ENABLERS else None
        if enabled:  # "allow job seekers to submit a form", "let me assign ...": the enabled actor's requirement
            who, what = enabled
            if re.fullmatch(r"(?:them|him|her)", who, re.IGNORECASE):
                who = enabled_who or "users"
            enabled_who = who
            out += sentence_requirements(f"{who} can {what}", False)
            continue
        if first_object and re.match(r"^(?:them|it|these|those)\b", tail.strip(), re.IGNORECASE):
            tail = re.sub(r"^(?:them|it|these|those)\b", first_object, tail.strip(), flags=re.IGNORECASE)
        lead = LEADING_PREPOSITION.match(tail.strip())
        if lead is None:
            obj = _head(tail)
        else:  # "search through the stored documents", "search by keyword" (the criterion: the sentence's object)
            obj = first_object if lead.group(0).lower() == "by" else _head(tail.strip()[lead.end():].strip())
        first_object = first_object or obj
        for shared in pending:
            out.append(Requirement(doer, shared, f"{shared} {obj}" if obj else shared, obj))
        pending = []
        out.append(Requirement(doer, verb_l, f"{verb} {tail}".strip(), obj))
    for shared in pending:
        out.append(Requirement(doer, shared, shared, ""))
    return out


def listed_features(text: str) -> list[Requirement]:
    """One requirement per feature of a list the first sentence gives ("featuring topic pages, review browsing and
    liking/saving"), in the list's own words; commas inside parentheses do not cut a feature."""
    pieces = re.split(r"(,\s*(?:and\s+|or\s+)?|\s+and\s+)", text.strip().rstrip(".;:!"))
    parts = [pieces[0]]
    for sep, piece in zip(pieces[1::2], pieces[2::2]):
        if parts[-1].count("(") > parts[-1].count(")"):  # inside parentheses, as in _verb_phrases
            parts[-1] += sep + piece
        else:
            parts.append(piece)
    return [Requirement("The app", STATE, f"The app offers {_pronouns(p.strip())}", "") for p in parts
            if re.search(r"[A-Za-z]{3,}", p)]


def statement_requirement(sentence: str) -> Requirement | None:
    """A feature the instruction states without a modal verb ("It supports binding tasks to tasks.", "Support for
    template favorites, with a favorites list;"), as one requirement in the sentence's own words; None for
    fragments (list numbers, clauses of fewer than five words)."""
    text = FEATURE_LEAD.sub("", sentence.strip()).strip().rstrip(".;:!")
    if len(re.findall(r"[A-Za-z]{2,}", text)) < 5 or not text[:1].isalpha():
        return None
    text = re.sub(r"^(?:it|this (?:page|app|site|website|system|tool))\s+", "The app ", text, flags=re.IGNORECASE)
    text = re.sub(r"^support(?:s)? for\s+", "The app supports ", text, flags=re.IGNORECASE)
    text = re.sub(r"^I(?:['’]d| would)? (?:also )?(?:like|want|need|hope) (?:the ability )?to\s+", "Users can ", text,
                  flags=re.IGNORECASE)
    text = re.sub(r"^I (?:also )?(?:need|want)\s+", "The app provides ", text, flags=re.IGNORECASE)
    return Requirement("The app", STATE, _pronouns(text), "")


def _clauses(sentence: str) -> list[str]:
    """``sentence`` cut before each further subject with its own modal verb (", and users should be able to ..."),
    only where the part before has a modal verb too (else the cut would leave a fragment)."""
    out, start = [], 0
    for cut in SECOND_SUBJECT.finditer(sentence):
        if MODAL.match(sentence[start:cut.start()]):
            out.append(sentence[start:cut.start()])
            start = cut.end()
    return [*out, sentence[start:]]


def requirements(instruction: str) -> list[Requirement]:
    """Every requirement of the instruction, in its order, without repeats."""
    found: list[Requirement] = []
    seen: set[str] = set()
    sentences = [s for s in _SENTENCE.split(instruction.strip()) if s.strip()]
    for n, whole in enumerate(sentences):
        reqs = []
        for k, sentence in enumerate(_clauses(whole) if n > 0 else [whole]):
            part = sentence_requirements(sentence, n == 0 and k == 0)
            if not part and n > 0:
                stated = statement_requirement(sentence)
                part = [stated] if stated else []
            reqs += part
        for req in reqs:
            key = req.text.lower()
            if key not in seen and (len(req.phrase.split()) >= 2 or req.phrase.lower() in STANDALONE):
                seen.add(key)
                found.append(req)
    return found


def _be(obj: str) -> str:
    """'are' when the head noun of ``obj`` is plural ("the list of assets" is; "data assets assigned" are)."""
    head = re.split(r"\s+(?:of|for|with|in|on|by|to|from|that|which|who)\s+", obj.strip(), maxsplit=1)[0].split()
    while len(head) > 1 and head[-1].endswith("ed"):
        head.pop()  # a trailing participle: "assets assigned"
    return "are" if head and re.search(r"(?<![siu])s$", head[-1]) else "is"


def _participle(verb: str) -> str:
    if verb in PARTICIPLE:
        return PARTICIPLE[verb]
    if verb.endswith("e"):
        return verb + "d"
    if re.search(r"[^aeiou]y$", verb):
        return verb[:-1] + "ied"
    return verb + "ed"


def implied_items(reqs: list[Requirement]) -> list[tuple[Dimension, str, str, str, str | None]]:
    """(dimension, description, action, expected, probe rule) of the checks each kind of requirement calls for, once per kind
    and object, in requirement order."""
    out: list[tuple[Dimension, str, str, str, str | None]] = []
    done: set[tuple[str, str]] = set()

    def add(kind: str, obj: str, item: tuple[Dimension, str, str, str, str | None]) -> None:
        if (kind, obj) not in done and sum(k == kind for k, _ in done) < 2:
            done.add((kind, obj))
            out.append(item)

    for r in reqs:
        obj = r.obj or "entry"
        if r.verb in CREATE:
            pp = _participle(r.verb)
            add("create-invalid", obj, (CS, _sentence(f"{obj} cannot be {pp} with required information missing, empty or "
                                                      "invalid; a clear error message is shown"),
                                        f"Try to {r.verb} {obj} with empty and invalid fields.",
                                        "The attempt is rejected with a message and nothing is saved.", "required"))
            appears = "they appear" if _be(obj) == "are" else "it appears"
            add("create-feedback", obj, (IX, _sentence(f"After {obj} {_be(obj)} {pp}, {appears} right away and a confirmation "
                                                       "message is shown"),
                                         f"{r.verb.capitalize()} {obj} with valid data.",
                                         "The new entry is shown at once with a confirmation.", "feedback"))
        elif r.verb in DELETE:
            add("delete-confirm", obj, (IX, _sentence(f"Deleting {obj} asks for confirmation first, and afterwards it is "
                                                      "no longer listed"),
                                        f"Delete {obj}.", "A confirmation is asked for; the entry disappears.", "delete-confirm"))
        elif r.verb in EDIT:
            add("edit-shown", obj, (IX, _sentence(f"After {obj} {_be(obj)} {_participle(r.verb)}, the change is shown immediately "
                                                  "everywhere it appears"),
                                    f"{r.verb.capitalize()} {obj}.", "The change shows at once.", None))
        elif r.verb in FIND:
            add("find-match", "", (CS, _sentence(f"After applying search, filter or sort criteria to {obj}, the results "
                                                 "strictly match the selected criteria"),
                                   f"{r.verb.capitalize()} {obj}.", "Only matching results are shown, in the chosen order.", "filter"))
            add("find-update", "", (IX, _sentence(f"After switching the criteria, the {obj} shown update in real time"),
                                    "Change the criteria several times.", "The list updates at once.", None))
        elif r.verb in SHOW:
            bare = re.sub(r"^(?:the|a|an)\s+", "", obj, flags=re.IGNORECASE)
            shows = "display" if _be(bare) == "are" else "displays"
            add("show-complete", obj, (CT, _sentence(f"The {bare} shown {shows} complete, clear and relevant information"),
                                       f"Look at the {obj}.", "Every entry shows its information completely.", None))
    return out
