"""List probes: search finds what an entry shows, filters show only what they name, filters combine,
an empty result says so, and "showing N ..." counts match the entries listed.

The list is the page model's main list (:mod:`webtester.probes.pagemodel`). Entries are judged by their
visible text only, so a probe speaks up only when the text makes the mistake plain (an entry that shows
another option of the same filter, an entry that disappears when searching for a word it shows).
"""

from __future__ import annotations

import json
import re

from webtester.browser.locators import Reusable
from webtester.browser.session import ACTION_TIMEOUT_MS
from webtester.browser.watchdog import PageUnresponsive, evaluate
from webtester.models import ActionRecord
from webtester.probes import widgets
from webtester.probes.journal import Outcome, css, stable_line
from webtester.probes.pagemodel import SORT_ORDER, Field, PageModel, list_items
from webtester.probes.session import ProbeSession

EMPTY_WORDS = re.compile(r"\b(no|nothing|none|0|zero|empty|not found|couldn't find|could not find|didn't match|try)\b", re.IGNORECASE)
NONSENSE = "zqxjvk"
_STOP = {"with", "from", "this", "that", "your", "have", "more", "only", "show", "shows", "minutes", "hours", "stars",
         "star", "reviews", "review", "view", "details", "add", "tickets", "save", "saved", "apply", "open",
         "ago", "days", "week", "weeks", "month", "year", "years", "replies", "reply", "votes", "upvotes", "people"}
_COUNT = re.compile(r"(\d[\d,]*)")


def norm(text: str) -> str:
    """Lower case, hyphens and dashes as spaces, counts like '(12)' dropped."""
    text = re.sub(r"\(\d+\)|\b\d+\s*$", " ", text)
    return re.sub(r"[\s\-–—_/]+", " ", text.lower()).strip()


def _contains(item: str, label: str) -> bool:
    return norm(label) in norm(item)


def strays_of(shown: list[str], label: str, others: list[str]) -> list[str]:
    """The entries of ``shown`` that belong to another option than ``label``: they name one of ``others`` (longer
    than two characters), not ``label``, and hold more than that name and a count (an empty group's heading, such
    as a board column "In progress 0", belongs to no option)."""
    def other(entry: str, option: str) -> bool:
        return len(option) > 2 and _contains(entry, option) and bool(re.sub(r"[\d\s]+", "", norm(entry).replace(norm(option), " ")))
    return [s for s in shown if not _contains(s, label) and any(other(s, o) for o in others)]


class ListProbe:
    """Probes on the main list of ``model`` (read on the page the session is on)."""

    def __init__(self, sess: ProbeSession, model: PageModel) -> None:
        self.sess = sess
        self.model = model
        self.page = sess.page
        self.url = sess.page.url
        self.count_sel = self._calibrated_count()

    # -- reading the list

    def items(self) -> list[str]:
        found = list_items(self.page, self.model.list_sel, self.model.list_key)
        return found or []

    def entries(self, without: str | None = None) -> Reusable | None:
        """The query of the list's visible entries (``without``: those that do not show this text)."""
        if not self.model.list_sel or not self.model.list_key:
            return None
        tag, _, cls = self.model.list_key.partition(".")
        sel = f"{self.model.list_sel} > {tag.lower()}{'.' + cls if cls else ''}:visible"
        return css(sel + (f":not(:has-text({json.dumps(without)}))" if without is not None else ""))

    def _only(self, label: str, want: Outcome) -> list[ActionRecord | None]:
        """The expectation that no entry listed fails to show ``label``, with outcome ``want``."""
        query = self.entries(without=label)
        return [self.sess.journal.expect("expect_count", want, reusable=query, count=0)] if query else []

    def _count_value(self) -> int | None:
        if not self.count_sel:
            return None
        try:
            text = self.page.locator(self.count_sel).first.inner_text(timeout=1000)
        except Exception:
            return None
        m = _COUNT.search(text)
        return int(m.group(1).replace(",", "")) if m else None

    def _calibrated_count(self) -> str | None:
        """A 'showing N ...' text whose number equals the entries listed now (then it must keep matching)."""
        n = len(self.items())
        for c in self.model.counts:
            m = _COUNT.search(c["text"])
            if m and int(m.group(1).replace(",", "")) == n and n > 0:
                return c["sel"]
        return None

    def check_count(self, after: str) -> None:
        """After a change, compare the calibrated count with the entries listed."""
        value = self._count_value()
        if value is None:
            return
        n = len(self.items())
        label = f'count text "{self.count_sel}"'
        journal, entries = self.sess.journal, self.entries()
        if value != n:
            text = self.page.locator(self.count_sel or "body").first.inner_text(timeout=1000)
            self.sess.found("count-mismatch", label, f"after {after}, the page says {text.strip()!r} but lists {n} entries",
                            full=True, expect=[journal.expect("expect_count", "failed", reusable=entries, count=value)],
                            shown=value, listed=n)
        else:
            self.sess.ok("count", label, f"matched the {n} entries listed after {after}",
                         expect=[journal.expect("expect_count", "held", reusable=entries, count=n)])

    def restart(self) -> None:
        self.sess.goto(self.url)

    # -- filters

    def _changed(self, label: str) -> None:
        self.sess.settle(350)

    def _apply(self, action, what: str, base: list[str]) -> list[str] | None:
        """Do ``action`` (choose a filter; it records itself in the journal), and return the entries then listed;
        None when it failed or did not change the list (then it is not judged: the list may not be the one the
        filter works on)."""
        self.sess.spend()
        try:
            action()
        except Exception:
            return None
        self._changed(what)
        self.sess.step(f"list: {what}")
        shown = self.items()
        if shown == base:
            self.sess.step(f"list: {what} did not change the list; not judged")
            return None
        return shown

    def filter_select(self, f: Field, search: Field | None = None) -> None:
        """The first two options each show only entries naming them; with ``search``, also while searching (once)."""
        if f.kind == "combobox":  # a custom select: its options are read by opening it; "All ..." is no filter
            options = [o for o in widgets.read_options(self.sess, f)
                       if not o["disabled"] and not re.match(r"(all|any)\b", o["text"], re.I)]
        else:
            options = [o for o in f.options if o["value"] and not o["disabled"]]
        if sum(bool(SORT_ORDER.match(o["text"])) for o in options) >= 2:
            self.sess.step(f'list: "{f.label}" orders the list (its options are sort orders); not a filter')
            return
        base = self.items()
        labels = [o["text"] for o in options]
        tabs_checked = combined = False
        for option in options[:2]:
            what = f'filter "{f.label}" = "{option["text"]}"'
            shown = self._apply(lambda option=option: self._select(f, option), what, base)
            if shown is None:
                continue
            self._judge_filter(what, option["text"], [x for x in labels if x != option["text"]], shown, f.label)
            self.check_count(what)
            if not tabs_checked and any(_contains(s, option["text"]) for s in shown):
                tabs_checked = True
                self._across_tabs(f, option["text"], [x for x in labels if x != option["text"]])
            if search is not None and not combined and shown and len(shown) < len(base):
                combined = self._combined(f, option["text"], [x for x in labels if x != option["text"]], base, search)
        self.restart()

    def _judge_filter(self, what: str, label: str, others: list[str], shown: list[str], filter_label: str) -> None:
        if not shown:
            return
        naming = [s for s in shown if _contains(s, label)]
        if not naming:
            return  # entries do not show the option's text: nothing to judge by
        strays = strays_of(shown, label, others)
        if strays:
            self.sess.found("filter-shows-other", f'filter "{filter_label}"',
                            f"with {what}, the list still shows entries of other options, e.g. {strays[0][:100]!r}",
                            full=True, expect=self._only(label, "failed"), option=label, stray=strays[0][:200])
        elif len(naming) == len(shown):
            self.sess.ok("filter", f'filter "{filter_label}"', f"{what}: all {len(shown)} entries name it",
                         expect=self._only(label, "held"))

    def _across_tabs(self, f: Field, label: str, others: list[str]) -> None:
        """With the filter set, switch to each other tab of a tab group: the filter must still apply."""
        for group in self.model.button_groups:
            if not group.get("tabs"):
                continue
            for tab in group["buttons"]:
                if tab["sel"] == group["active"]:
                    continue
                self.sess.spend()
                try:
                    self.sess.click(tab["sel"])
                except Exception:
                    continue
                self._changed(tab["text"])
                shown = self.items()
                what = f'filter "{f.label}" = "{label}", then the tab "{tab["text"]}"'
                self.sess.step(f"list: {what}")
                naming = [s for s in shown if _contains(s, label)]
                strays = strays_of(shown, label, others)
                if strays and naming or strays and len(strays) == len(shown) and len(shown) > 1:
                    self.sess.found("filter-lost-on-switch", f'filter "{f.label}"',
                                    f"after switching to the tab {tab['text']!r}, the {f.label} filter ({label}) no longer applies: "
                                    f"e.g. {strays[0][:100]!r} is listed", full=True, expect=self._only(label, "failed"),
                                    option=label, tab=tab["text"], stray=strays[0][:200])
                elif naming and len(naming) == len(shown):
                    self.sess.ok("filter-views", f'filter "{f.label}"', f"{what}: the filter still applies",
                                 expect=self._only(label, "held"))
                try:  # back to the first tab for the next option
                    self.sess.click(group["active"])
                    self._changed("")
                except Exception:
                    pass
            break

    def _combined(self, f: Field, label: str, others: list[str], base: list[str], search: Field) -> bool:
        """With the filter set, search for a word shared by entries of this and other options; False when there is
        no such word."""
        word = _shared_word(base, label, others)
        if not word:
            return False
        self.sess.spend()
        self._fill(search, word)
        self._changed(word)
        shown = self.items()
        what = f'filter "{f.label}" = "{label}" with the search "{word}"'
        self.sess.step(f"list: {what}")
        strays = strays_of(shown, label, others)
        if strays:
            self.sess.found("filters-combined-wrong", f'filter "{f.label}" with search "{search.label}"',
                            f"with {what}, entries of other options appear, e.g. {strays[0][:100]!r}", full=True,
                            expect=self._only(label, "failed"), option=label, search=word, stray=strays[0][:200])
        elif shown:
            self.sess.ok("filter-combined", f'filter "{f.label}" with search "{search.label}"', what,
                         expect=self._only(label, "held") if all(_contains(x, label) for x in shown) else None)
        self._fill(search, "")
        self._changed("")
        return True

    def filter_checkboxes(self, boxes: list[Field]) -> None:
        """Each checkbox alone shows only entries naming it; two of one group together show entries naming both."""
        base = self.items()
        for f in boxes[:3]:
            key = _keyword(f.label)
            if not key:
                continue
            self.sess.spend()
            if not self._toggle(f, True):
                continue
            self._changed(f.label)
            what = f'"{f.label}" switched on'
            self.sess.step(f"list: {what}")
            shown = self.items()
            if shown == base:
                self.sess.step(f"list: {what} did not change the list; not judged")
                self._toggle(f, False)
                self._changed("")
                continue
            naming = [s for s in shown if _contains(s, key)]
            if shown and naming and len(naming) < len(shown):
                stray = next(s for s in shown if not _contains(s, key))
                self.sess.found("filter-shows-other", f'filter "{f.label}"',
                                f"with {what}, the list shows entries that do not say {key!r}, e.g. {stray[:100]!r}",
                                full=True, expect=self._only(key, "failed"), option=f.label, stray=stray[:200])
            elif shown and naming:
                self.sess.ok("filter", f'filter "{f.label}"', f"{what}: all {len(shown)} entries name it",
                             expect=self._only(key, "held"))
            self.check_count(what)
            self._toggle(f, False)
            self._changed("")
        groups: dict[str, list[Field]] = {}
        for f in boxes:
            groups.setdefault(f.name or "", []).append(f)
        for members in groups.values():
            keys = [(m, _keyword(m.label)) for m in members if _keyword(m.label)]
            if len(keys) < 2:
                continue
            (a, ka), (b, kb) = keys[0], keys[1]
            self.sess.spend(2)
            if not (self._toggle(a, True) and self._toggle(b, True)):
                continue
            self._changed("")
            shown = self.items()
            what = f'"{a.label}" and "{b.label}" switched on together'
            self.sess.step(f"list: {what}")
            labelled = [s for s in shown if _contains(s, ka) or _contains(s, kb)]
            half = [s for s in labelled if not (_contains(s, ka) and _contains(s, kb))]
            if labelled and half:
                self.sess.found("filters-combined-wrong", f'filters "{a.label}" + "{b.label}"',
                                f"with {what}, entries meeting only one of them are listed, e.g. {half[0][:100]!r}",
                                full=True, expect=self._both(ka, kb, "failed"), stray=half[0][:200])
            elif labelled:
                self.sess.ok("filter-combined", f'filters "{a.label}" + "{b.label}"', f"{what}: {len(shown)} entries meet both",
                             expect=self._both(ka, kb, "held") if len(labelled) == len(shown) else None)
            break
        self.restart()

    def _both(self, one: str, other: str, want: Outcome) -> list[ActionRecord | None]:
        """The expectation that every entry listed shows both texts, with outcome ``want``."""
        query = self.entries()
        if query is None:
            return []
        pair = css(f"{query.target['css']}:not(:has-text({json.dumps(one)})), {query.target['css']}:not(:has-text({json.dumps(other)}))")
        return [self.sess.journal.expect("expect_count", want, reusable=pair, count=0)]

    def _toggle(self, f: Field, on: bool) -> bool:
        """Switch a checkbox (an input, or an element with role checkbox/switch) on or off; False (and a step
        saying so) when it could not be switched, which judges nothing."""
        loc = self.page.locator(f.sel).first
        try:
            if f.tag == "input":
                with self.sess.journal.act("check" if on else "uncheck", loc, key=f.sel):
                    loc.set_checked(on, timeout=ACTION_TIMEOUT_MS)
            elif (loc.get_attribute("aria-checked", timeout=ACTION_TIMEOUT_MS) == "true") != on:
                with self.sess.journal.act("click", loc, key=f.sel):
                    loc.click(timeout=ACTION_TIMEOUT_MS)
        except PageUnresponsive:
            raise
        except Exception as exc:
            first = str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__
            self.sess.step(f'list: "{f.label}" could not be switched {"on" if on else "off"} ({first}); not judged')
            return False
        return True

    def filter_buttons(self, group: dict) -> None:
        """A button group (All / Portraits / ...): each button shows only entries naming it; counts follow."""
        buttons = group["buttons"]
        labels = [b["text"] for b in buttons]
        base = self.items()
        for b in buttons[1:4]:
            what = f'filter button "{b["text"]}"'
            shown = self._apply(lambda b=b: self.sess.click(b["sel"]), what, base)
            if shown is None:
                continue
            self._judge_filter(what, b["text"], [x for x in labels if x != b["text"]], shown,
                               group.get("label") or "/".join(labels[:4]))
            self.check_count(what)
        self.restart()

    # -- search

    def search(self, box: Field, fields: list[str] | None = None) -> None:
        """Words an entry shows in its searchable fields find it; nonsense gives a visible empty state.

        ``fields`` names the fields the search should match (e.g. ``["name", "company"]``, from the
        instruction). The first entry is searched by a word of its title and by a word of each text whose markup
        (class, id, label, a preceding <dt>) names one of the fields; the last entry by a word of its title, so a
        search that finds only some entries is caught. Without ``fields`` only titles are searched.
        """
        first = evaluate(self.page, ENTRY_FIELDS_JS, [self.model.list_sel, self.model.list_key, 0])
        if not first or not first.get("title"):
            return
        last = evaluate(self.page, ENTRY_FIELDS_JS, [self.model.list_sel, self.model.list_key, -1])
        searches = [(first["title"], word, field) for word, field in search_words(first, fields or [])]
        if last and last.get("title") and last["title"] != first["title"]:
            searches += [(last["title"], word, field) for word, field in search_words(last, [])[:1]]
        taken: set[str] = set()
        for title, word, shown_in in searches[:5]:
            if word.lower() in taken:
                continue
            taken.add(word.lower())
            self._search_for(box, word)
            shown = self.items()
            what = f'search "{word}"'
            self.sess.step(f"list: {what} (a word of the entry {title!r}, from its {shown_in or 'text'})")
            where = f'field "{shown_in or "text"}" of search box "{box.label}"'
            if not any(title in s for s in shown) and self._on_page(title):
                self.sess.step(f"list: {what} changed the list's markup, and {title!r} is still shown; not judged")
            elif not any(title in s for s in shown):
                self.sess.found("search-misses-entry", where,
                                f"searching for {word!r}, shown in the {shown_in or 'text'} of the entry {title!r}, does not list that entry",
                                full=True, expect=[self.sess.journal.expect("expect_text", "failed", value=title)],
                                word=word, entry=title, field=shown_in)
            else:
                self.sess.ok("search", where, f"{what} found {title!r}",
                             expect=[self.sess.journal.expect("expect_text", "held", value=title)])
            self.check_count(what)
        self._search_for(box, "")
        before = self.sess.state()
        self._search_for(box, NONSENSE)
        shown = self.items()
        after = self.sess.state()
        if not shown:
            news = after.new_lines(before)
            if any(EMPTY_WORDS.search(line) for line in news):
                line = stable_line(news, EMPTY_WORDS)
                self.sess.ok("empty-state", f'search box "{box.label}"', "; ".join(news[:2]),
                             expect=[self.sess.journal.expect("expect_text", "held", value=line) if line else None])
            else:
                self.sess.found("no-empty-state", f'search box "{box.label}"',
                                f"searching for {NONSENSE!r} empties the list without any 'no results' message", full=True)
        self._search_for(box, "")
        self.restart()

    def _on_page(self, text: str) -> bool:
        """The page's visible text shows ``text`` (outside form fields)."""
        try:
            return text in self.page.locator("body").inner_text(timeout=ACTION_TIMEOUT_MS)
        except PageUnresponsive:
            raise
        except Exception:
            return False

    def _search_for(self, box: Field, word: str) -> None:
        self.sess.spend()
        loc = self.page.locator(box.sel).first
        before = self.items()
        self._fill(box, word)
        self._changed(word)
        if self.items() == before and word:
            with self.sess.journal.act("press", loc, "Enter", key=box.sel):
                loc.press("Enter", timeout=ACTION_TIMEOUT_MS)
            self._changed(word)

    def _fill(self, box: Field, text: str) -> None:
        loc = self.page.locator(box.sel).first
        with self.sess.journal.act("fill", loc, text, key=box.sel):
            loc.fill(text, timeout=ACTION_TIMEOUT_MS)

    def _select(self, f: Field, option: dict) -> None:
        if f.kind == "combobox":
            if widgets.choose(self.sess, f, option["text"]) is None:
                raise LookupError(f"no option {option['text']!r} in {f.label!r}")
            return
        loc = self.page.locator(f.sel).first
        with self.sess.journal.act("select", loc, option["text"], key=f.sel):
            loc.select_option(option["value"], timeout=ACTION_TIMEOUT_MS)


ENTRY_FIELDS_JS = r"""([listSel, key, at]) => {
  const vis = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const parent = listSel && document.querySelector(listSel);
  if (!parent) return null;
  const [tag, cls] = key.split('.');
  const items = [...parent.children].filter(c => c.tagName === tag && (!cls || c.classList.contains(cls)) && vis(c));
  const item = items[at < 0 ? items.length + at : at];
  if (!item) return null;
  // the entry's title: the most prominent heading-like text (a post's title, not its author's name above it)
  const size = el => parseFloat(getComputedStyle(el).fontSize) || 0;
  const heading = [...item.querySelectorAll('h1, h2, h3, h4, h5, h6, [class*=title], [class*=name]')]
    .filter(el => vis(el) && el.innerText.trim()).reduce((best, el) => (!best || size(el) > size(best) ? el : best), null);
  const parts = [];
  const walker = document.createTreeWalker(item, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement; const text = n.textContent.trim();
    if (!text || !vis(el) || el.closest('select, label, option')) continue;
    const hints = [];
    for (let a = el; a && a !== item.parentElement; a = a.parentElement) {
      hints.push(a.className && typeof a.className === 'string' ? a.className : '', a.id || '', a.getAttribute('itemprop') || '',
                 a.getAttribute('aria-label') || '', a.getAttribute('data-field') || '');
      if (a.tagName === 'DD' && a.previousElementSibling && a.previousElementSibling.tagName === 'DT') hints.push(a.previousElementSibling.innerText);
      if (a === item) break;
    }
    parts.push({text, hints: hints.join(' ').replace(/\s+/g, ' ').trim().slice(0, 80), heading: !!(heading && heading.contains(el))});
  }
  return {title: heading ? heading.innerText.trim().split('\n')[0] : '', parts};
}"""


def search_words(entry: dict, fields: list[str]) -> list[tuple[str, str]]:
    """The words to search an entry by (read by ``ENTRY_FIELDS_JS``), each with the name of the field it comes
    from: the longest word of the title, then one word of each text whose markup hints name one of ``fields``.

    A field's word is one no other text of the entry shows, so a hit cannot come from another field. A title's
    word is preferably such a word too, but any word of the title will do: whatever field matches, a search for
    a word of the title must list the entry.
    """
    wanted = {_stem(w) for w in fields} | {"name", "title"}
    words: list[tuple[str, str]] = []
    for part in entry["parts"]:
        hints = {_stem(h) for h in re.findall(r"[a-z]+", part["hints"].lower())}
        named = ["title"] if part["heading"] else [f for f in fields if _stem(f) in hints] or sorted(hints & wanted)
        if not named:
            continue
        others = " ".join(p["text"] for p in entry["parts"] if p is not part).lower()
        own = [w for w in re.findall(r"[A-Za-zÀ-ÿ]{4,}", part["text"]) if w.lower() not in _STOP]
        cands = [w for w in own if w.lower() not in others] or (own if part["heading"] else [])
        if cands:
            word = max(cands, key=len)
            if word.lower() not in (w.lower() for w, _ in words):
                words.append((word, named[0]))
    return words[:4]


def _stem(word: str) -> str:
    return re.sub(r"(?:ies|es|s)$", "", word.lower())


def search_fields(instruction: str) -> list[str]:
    """The entry fields a search should match, as the instruction names them (e.g. name, email, company):
    field words among the ten words after each 'search', 'keyword' or 'find'."""
    words = re.findall(r"[a-z]+", instruction.lower())
    fields: list[str] = []
    for i, word in enumerate(words):
        if word in ("search", "searching", "keyword", "find", "finds"):
            for w in words[i + 1:i + 11]:
                if w in ("filter", "sort", "set", "switch", "show", "pick"):
                    break
                if w in FIELD_WORDS and w not in fields:
                    fields.append(w)
    return fields


FIELD_WORDS = {"name", "names", "title", "titles", "email", "emails", "company", "companies", "skill", "skills", "ingredient",
               "ingredients", "description", "descriptions", "tag", "tags", "author", "authors", "location", "city", "venue",
               "artist", "artists", "speaker", "speakers", "phone", "notes", "keywords"}


def _keyword(label: str) -> str:
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z\-]+", label) if w.lower() not in {"only", "show", "include", "hide", "just"}]
    return " ".join(words)


def _words_per_line(text: str) -> list[str]:
    """One distinctive word from each line of an entry's text (the longest word of four letters or more)."""
    words: list[str] = []
    for line in text.splitlines():
        cands = [w for w in re.findall(r"[A-Za-zÀ-ÿ]{4,}", line) if w.lower() not in _STOP]
        if not cands:
            continue
        word = max(cands, key=len)
        if word.lower() not in (w.lower() for w in words):
            words.append(word)
    return words


def _shared_word(entries: list[str], label: str, others: list[str]) -> str | None:
    """A word shown by at least one entry naming ``label`` and one entry naming another option."""
    mine = [e for e in entries if _contains(e, label)]
    theirs = [e for e in entries if not _contains(e, label) and any(_contains(e, o) for o in others)]
    if not mine or not theirs:
        return None
    vocab_theirs = {w.lower() for e in theirs for w in re.findall(r"[A-Za-z]{4,}", e)}
    for e in mine:
        for w in re.findall(r"[A-Za-z]{4,}", e):
            if w.lower() in vocab_theirs and w.lower() not in _STOP and not _contains(w, label) \
                    and not any(_contains(w, o) for o in others):
                return w
    return None
