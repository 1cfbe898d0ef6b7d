"""A structural model of a page for probes that act on it: forms and their fields (also fields with no
``<form>`` element, grouped with the button that saves them), controls outside forms (search boxes, filter
selects, checkboxes, button groups), the main repeated list, open dialogs,
"showing N ..." count texts and the currency symbols in view.

Everything is read by one script in the page; selectors come from ``window.__wtSelector``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Page

from webtester.browser.watchdog import evaluate
from webtester.probes.scan import SELECTOR_JS

#: the text of a date picker that asks for a date ("Pick a date", "Select due date"), as a JavaScript pattern
DATE_ASKED = r"^\s*((pick|select|choose) (a |the )?(\w+ )?date|date)\s*$"

MODEL_JS = r"""() => {
  const vis = el => !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const clean = s => (s || '').replace(/\s+/g, ' ').trim();
  const sel = el => window.__wtSelector(el);
  const ownText = node => {  // a label's text without the options of a select nested in it
    let out = '';
    const w = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (let n = w.nextNode(); n; n = w.nextNode()) if (!n.parentElement.closest('select, textarea, option')) out += ' ' + n.textContent;
    return out;
  };
  // a <label> tied to no control, just before the field or before the box that holds the field alone
  // ("<div><label>Due Date</label><input type=date></div>", as many generated forms write it): it names a field
  // that has no placeholder either
  const nearLabel = el => {
    for (let node = el, i = 0; node && node.parentElement && i < 3; node = node.parentElement, i++) {
      const prev = node.previousElementSibling;
      if (prev && prev.tagName === 'LABEL' && !prev.control) return ownText(prev);
      if (prev || node.parentElement.querySelectorAll('input, textarea, select, button[role=combobox]').length > 1) return '';
    }
    return '';
  };
  const labelOf = el => {
    let t = '';
    if (el.labels && el.labels.length) t = [...el.labels].map(ownText).join(' ');
    if (!t && el.getAttribute('aria-labelledby'))
      t = el.getAttribute('aria-labelledby').split(/\s+/).map(id => (document.getElementById(id) || {}).innerText || '').join(' ');
    if (!t && (el.type === 'radio' || el.type === 'checkbox')) {
      const fs = el.closest('fieldset'); const lg = fs && fs.querySelector('legend');
      if (lg && el.type === 'radio') t = lg.innerText;
    }
    t = t || el.getAttribute('aria-label') || el.placeholder || nearLabel(el) || el.getAttribute('title') || el.name || el.id || '';
    return clean(t);
  };
  const nameOf = (f, saving) => {
    const own = f.getAttribute('aria-label') || (f.getAttribute('aria-labelledby') &&
      ((document.getElementById(f.getAttribute('aria-labelledby')) || {}).innerText));
    if (own) return clean(own);
    const btn = saving || f.querySelector('button[type=submit], input[type=submit]') || f.querySelector('button');
    const box = f.closest('dialog, [role=dialog], section, article, aside');
    const h = box && box.querySelector('h1, h2, h3, h4');
    if (h && !/\d/.test(h.innerText)) return clean(h.innerText);
    const lg = f.querySelector('h1, h2, h3, h4, legend');
    if (lg && !/\d/.test(lg.innerText)) return clean(lg.innerText);
    return clean(btn ? (btn.innerText || btn.value) : (f.id || 'form'));
  };
  // a custom select (a button with role=combobox, e.g. Radix / shadcn): its value is its text unless it shows
  // its placeholder; the options are read when it is opened
  const custom = el => el.tagName === 'BUTTON' && el.getAttribute('role') === 'combobox';
  // a date picker: a button that opens a calendar in a popup and shows the date chosen or asks for one
  const dateShown = /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}(st|nd|rd|th)?\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\/\d{1,2}\/\d{4}\b/i;
  const dateAsked = new RegExp(DATE_ASKED, 'i');
  // (or one that shows a calendar icon: "Select" / "Dec 9" beside lucide's calendar)
  const calendarIcon = el => !!el.querySelector('svg[class*="lucide-calendar"]');
  const datePicker = el => el.tagName === 'BUTTON' && el.getAttribute('aria-haspopup') === 'dialog' &&
    (dateAsked.test(clean(el.innerText)) || dateShown.test(clean(el.innerText)) || calendarIcon(el));
  // what a label marks: "(optional)", or "*" for a required field; the label itself without the marks
  const marked = f => {
    f.optional = /optional/i.test(f.label);
    if (/\*/.test(f.label)) f.required = true;
    f.label = f.label.replace(/\(optional\)|\*/gi, '').trim();
    return f;
  };
  const fieldOf = el => {
    const text = clean(el.innerText);
    const own = labelOf(el), named = own && own !== el.id;  // a generated id names nothing
    const base = {sel: sel(el), visible: vis(el), disabled: !!el.disabled, min: null, max: null, checked: false,
      required: el.getAttribute('aria-required') === 'true'};
    let f;
    if (datePicker(el))  // with no label of its own, what it asks for names it ("Pick a due date" -> "due date")
      f = {...base, tag: 'button', type: 'datepicker', name: '', value: dateShown.test(text) ? text : '',
        label: named ? own : dateAsked.test(text) ? text.replace(/^(pick|select|choose) (a |the )?/i, '') : 'date'};
    else if (custom(el))  // with no label of its own, what it shows names it ("All categories" -> "categories")
      f = {...base, tag: 'button', type: 'combobox', name: el.getAttribute('name') || '',
        value: el.hasAttribute('data-placeholder') ? '' : text,
        label: named ? own : text.replace(/^(all|any|select|choose|pick)\s+(an?\s+)?/i, '')};
    else {
      f = {...base, tag: el.tagName.toLowerCase(), type: (el.type || '').toLowerCase(), name: el.name || '', label: own,
        required: !!el.required || base.required, min: el.getAttribute('min'), max: el.getAttribute('max'),
        checked: !!el.checked, value: el.value || ''};
      if (f.tag === 'select') f.options = [...el.options].map(o => ({value: o.value, text: clean(o.text), disabled: o.disabled, selected: o.selected}));
    }
    return marked(f);
  };
  // the native select a custom one keeps hidden beside it for the browser's form is not a field of its own
  const isField = el => custom(el) || datePicker(el) || (el.tagName !== 'BUTTON' && !['hidden', 'submit', 'button', 'reset', 'image', 'file'].includes((el.type || '').toLowerCase()) &&
    !(el.tagName === 'SELECT' && el.getAttribute('aria-hidden') === 'true'));
  const FIELDS = 'input, textarea, select, button[role=combobox], button[aria-haspopup=dialog]';
  // a star rating: three to ten enabled buttons side by side, each only lucide's star icon (stars that only show a
  // rating are disabled or no buttons); its fourth star (or its last) is what filling it in clicks
  const ratingsOf = root => {
    const groups = new Map();
    for (const b of root.querySelectorAll('button')) {
      if (b.disabled || clean(b.innerText) || !b.querySelector('svg[class*="lucide-star"]')) continue;
      if (!groups.has(b.parentElement)) groups.set(b.parentElement, []);
      groups.get(b.parentElement).push(b);
    }
    return [...groups.values()].filter(stars => stars.length >= 3 && stars.length <= 10).map(stars => {
      const pick = stars[Math.min(3, stars.length - 1)];
      const f = marked({sel: sel(pick), tag: 'button', type: 'rating', name: '', value: '', visible: vis(pick),
        disabled: false, min: null, max: null, checked: false, required: false,
        label: nearLabel(stars[0]) || clean(stars[0].parentElement.getAttribute('aria-label') || '')});
      f.label = f.label || 'rating';
      return f;
    });
  };
  const forms = [...document.forms].map(form => {
    const verb = /^\s*(save|submit|send|create|add|book|register|apply|post|place|calculate|update)\b/i;
    let submit = form.querySelector('button[type=submit], input[type=submit]') ||
      [...form.querySelectorAll('button')].find(b => (b.getAttribute('type') || 'submit') === 'submit') ||
      (form.id && document.querySelector(`button[form="${CSS.escape(form.id)}"]`));
    // a form saved by a button next to it (e.g. in a summary panel beside the form)
    for (let box = form.parentElement, up = 0; !submit && box && up < 2; box = box.parentElement, up++)
      submit = [...box.querySelectorAll('button')].find(b => !b.closest('form') && vis(b) && verb.test(b.innerText));
    const box = form.closest('dialog, [role=dialog]');
    return {sel: sel(form), name: nameOf(form), visible: vis(form), novalidate: form.noValidate,
      in_dialog: !!box, role: form.getAttribute('role') || '',
      submit: submit ? sel(submit) : null, submit_text: submit ? clean(submit.innerText || submit.value) : '',
      fields: [...form.querySelectorAll(FIELDS)].filter(isField).map(fieldOf).concat(ratingsOf(form))};
  });
  // the main repeated list: the parent with the most visible, similar, texty children
  let best = null;
  for (const parent of document.body.querySelectorAll('*')) {
    if (['SELECT', 'DATALIST', 'NAV', 'HEAD', 'TR', 'THEAD', 'svg'].includes(parent.tagName) || parent.closest('nav, header, footer, select, form')) continue;
    if (parent.children.length < 2) continue;
    const groups = {};
    for (const c of parent.children) {
      // page regions (a landing page's sections, its header and footer) are not entries of a list
      if (!vis(c) || ['BUTTON', 'LABEL', 'INPUT', 'SELECT', 'OPTION', 'SCRIPT', 'TEMPLATE', 'SECTION', 'HEADER', 'FOOTER', 'MAIN', 'ASIDE', 'NAV'].includes(c.tagName) || clean(c.innerText).length < 8) continue;
      const key = c.tagName + '.' + ((c.classList && c.classList[0]) || '');
      (groups[key] = groups[key] || []).push(c);
    }
    for (const [key, items] of Object.entries(groups)) {
      // richer entries weigh more: a list of table rows beats a row of short chips of the same length
      const weight = items.reduce((w, c) => w + Math.min(60, clean(c.innerText).length), 0);
      if (items.length >= 2 && (!best || weight > best.weight)) best = {sel: sel(parent), key, count: items.length, weight};
    }
  }
  const listEl = best && document.querySelector(best.sel);
  // fields outside any <form> that a button next to them saves (most generated React apps have no <form>): the
  // nearest box around an action button that holds fields other than search boxes is read as a form, unless it
  // holds the site's navigation. A box that also holds the main list keeps its fields among the controls outside
  // forms too (they may be the list's filters).
  const looseVerb = /^\s*(save|submit|send|create|add|book|register|post|place|update|confirm|next|continue|publish|schedule|reserve)\b/i;
  const searchy = el => el.type === 'search' || /search|filter|find/i.test(labelOf(el));
  const typed = el => ['text', 'email', 'number', 'tel', 'url', 'password', 'date', 'datetime-local', 'time', ''].includes((el.type || '').toLowerCase()) || el.tagName === 'TEXTAREA';
  const candidates = [];
  for (const b of document.querySelectorAll('button, input[type=submit], [role=button]')) {
    if (b.closest('form, nav') || !vis(b) || !looseVerb.test(clean(b.innerText || b.value))) continue;
    let box = b.parentElement, fields = [], up = 0;
    for (; box && box !== document.body && up < 6 && !fields.length; up++) {
      fields = [...box.querySelectorAll(FIELDS)].filter(el => isField(el) && vis(el) && !el.closest('form') && !searchy(el));
      if (!fields.length) box = box.parentElement;
    }
    if (fields.length && box && box !== document.body && fields.some(typed) && !box.querySelector('nav, [role=navigation]'))
      candidates.push({b, box, fields, up});
  }
  // the button closest to its fields wins them (a card's "Save" over a toolbar's "Add" that only opens something)
  candidates.sort((x, y) => x.up - y.up);
  const boxes = new Set(), taken = new Set(), claimed = new Set();
  for (const candidate of candidates) {
    const {b, box} = candidate;
    // the fields a closer button saves are its own; a box's button saves the rest (a step's "Next" beside an
    // "Add traveller" with its own field)
    const fields = candidate.fields.filter(el => !taken.has(el));
    if (boxes.has(box) || !fields.some(typed)) continue;
    boxes.add(box);
    fields.forEach(el => taken.add(el));
    if (!(listEl && box.contains(listEl))) fields.forEach(el => claimed.add(el));
    const dialog = box.closest('dialog, [role=dialog]');
    forms.push({sel: sel(box), name: nameOf(box, b), visible: vis(box), novalidate: true, in_dialog: !!dialog, role: '',
      loose: true, submit: sel(b), submit_text: clean(b.innerText || b.value),
      fields: fields.map(fieldOf).concat(ratingsOf(box).filter(r => !document.querySelector(r.sel).closest("form")))});
  }
  const outside = [...document.querySelectorAll(FIELDS)]
    .filter(el => isField(el) && vis(el) && !el.disabled && !(listEl && listEl.contains(el)) && !claimed.has(el))
    .filter(el => { const f = el.closest('form'); return !f || f.getAttribute('role') === 'search' || !!f.querySelector('[type=search]'); })
    .map(fieldOf)
    .concat([...document.querySelectorAll('[role=switch]:not(input), [role=checkbox]:not(input)')]
      .filter(el => vis(el) && !el.closest('form:not([role=search])') && !(listEl && listEl.contains(el)))
      .map(el => ({sel: sel(el), tag: el.tagName.toLowerCase(), type: 'checkbox', name: '', label: labelOf(el), visible: true,
                   disabled: el.getAttribute('aria-disabled') === 'true', required: false, optional: false, min: null, max: null,
                   checked: el.getAttribute('aria-checked') === 'true', value: ''})));
  const dialogs = [...document.querySelectorAll('dialog, [role=dialog], [role=alertdialog], [aria-modal=true]')]
    .filter(vis).map(d => ({sel: sel(d), name: clean((d.getAttribute('aria-label') ||
      ((d.querySelector('h1, h2, h3') || {}).innerText) || '')).slice(0, 80)}));
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'OPTION'].includes(el.tagName) || !vis(el)) continue;
    const t = clean(n.textContent);
    if (t) texts.push(t);
  }
  const counts = [...document.body.querySelectorAll('p, span, div, h1, h2, h3, h4, strong, output, small')]
    .filter(el => vis(el) && el.children.length <= 3 && !el.closest('select, nav'))
    .map(el => ({sel: sel(el), text: clean(el.innerText)}))
    .filter(c => c.text.length < 80 && /\d/.test(c.text) && /\b(showing|shown|found|results?|matching|displaying|matches)\b/i.test(c.text))
    .filter((c, i, all) => !all.some(o => o !== c && document.querySelector(c.sel).contains(document.querySelector(o.sel))));
  const groupsOfButtons = [];
  for (const parent of document.body.querySelectorAll('*')) {
    if (parent.closest('form, nav') ) continue;
    const btns = [...parent.children].filter(c => (c.tagName === 'BUTTON' || c.getAttribute('role') === 'tab') && vis(c));
    const tabs = btns.length >= 2 && btns.every(b => b.getAttribute('role') === 'tab' || b.hasAttribute('aria-selected'));
    if ((btns.length < 3 && !tabs) || btns.length !== [...parent.children].filter(vis).length) continue;
    const texts = btns.map(b => clean(b.innerText));
    if (texts.some(t => !t || t.length > 30)) continue;
    const marked = btns.filter(b => b.getAttribute('aria-pressed') === 'true' || b.getAttribute('aria-selected') === 'true' ||
      b.getAttribute('aria-current') || /\b(active|selected|current|is-active)\b/.test(b.className));
    if (marked.length === 1) groupsOfButtons.push({sel: sel(parent), label: clean(parent.getAttribute('aria-label') || ''), tabs,
      buttons: btns.map(b => ({sel: sel(b), text: clean(b.innerText)})), active: sel(marked[0])});
  }
  return {url: location.href, title: document.title, forms, outside, list: best, dialogs, counts, buttonGroups: groupsOfButtons,
    headings: [...document.querySelectorAll('h1, h2, h3')].filter(vis).map(h => clean(h.innerText)).slice(0, 30),
    links: [...document.querySelectorAll('a[href]')].filter(vis).map(a => ({href: a.href, raw: a.getAttribute('href'), text: clean(a.innerText).slice(0, 60)})),
    images: document.images.length, texts: texts.slice(0, 3000)};
}""".replace("DATE_ASKED", json.dumps(DATE_ASKED))

BADGES_JS = r"""() => {
  // lists with a number badge before them in their own box (e.g. a column header "To do 3"): [{list, badge, shown, listed}]
  const vis = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const out = [];
  for (const list of document.querySelectorAll('ul, ol, [role=list], tbody')) {
    if (!vis(list) || list.closest('nav, select')) continue;
    const entries = [...list.children].filter(vis);
    let box = list.parentElement;
    for (let up = 0; box && box !== document.body && up < 3; up++, box = box.parentElement) {
      // a bare number in the list's header (a heading, a header, a caption), not inside another list's entry
      const badges = [...box.querySelectorAll('*')].filter(el => el.children.length === 0 && !list.contains(el) && vis(el) &&
        /^\(?\d{1,4}\)?$/.test(el.textContent.trim()) && (el.compareDocumentPosition(list) & Node.DOCUMENT_POSITION_FOLLOWING) &&
        !el.closest('li, tr, [role=listitem]') && !!el.closest('h1, h2, h3, h4, h5, h6, header, legend, summary, caption, thead'));
      if (badges.length > 1) break;
      if (badges.length === 1) {
        out.push({list: window.__wtSelector(list), badge: window.__wtSelector(badges[0]),
                  shown: parseInt(badges[0].textContent.replace(/\D/g, ''), 10), listed: entries.length});
        break;
      }
    }
  }
  return out;
}"""

CURRENCY = re.compile(r"(?<![A-Za-z])(?:[$€£¥₹]|US\$|USD|EUR|GBP)\s?-?\d|\d[\d,.]*\s?(?:€|£|USD|EUR|GBP)\b")
SYMBOLS = {"$": "$", "US$": "$", "USD": "$", "€": "€", "EUR": "€", "£": "£", "GBP": "£", "¥": "¥", "₹": "₹"}


@dataclass
class Field:
    """One form field as the page model reads it."""

    sel: str
    tag: str
    type: str
    label: str
    name: str = ""
    visible: bool = True
    disabled: bool = False
    required: bool = False
    optional: bool = False
    min: str | None = None
    max: str | None = None
    checked: bool = False
    value: str = ""
    options: list[dict] = field(default_factory=list)

    @property
    def kind(self) -> str:
        """'select', 'textarea', 'radio', 'checkbox', 'combobox' (a custom select), 'datepicker' (a button that opens
        a calendar), 'rating' (a row of star buttons) or the input type."""
        return self.tag if self.tag in ("select", "textarea") else (self.type or "text")


@dataclass
class FormModel:
    """A form: where it is, its name, submit button and fields."""

    sel: str
    name: str
    visible: bool
    submit: str | None
    submit_text: str
    fields: list[Field]
    novalidate: bool = False
    in_dialog: bool = False
    role: str = ""
    #: fields outside any ``<form>`` element, grouped with the button that saves them (no native validation)
    loose: bool = False

    @property
    def signature(self) -> str:
        """Same form on another page (e.g. a review form on every book page) has the same signature."""
        return "|".join([self.name, *sorted(f.label for f in self.fields)])

    def radio_groups(self) -> dict[str, list[Field]]:
        groups: dict[str, list[Field]] = {}
        for f in self.fields:
            if f.kind == "radio":
                groups.setdefault(f.name or f.sel, []).append(f)
        return groups


@dataclass
class PageModel:
    """What one look at a page found (see the module docstring)."""

    url: str
    title: str
    forms: list[FormModel]
    outside: list[Field]
    list_sel: str | None
    list_key: str | None
    list_count: int
    dialogs: list[dict]
    counts: list[dict]
    button_groups: list[dict]
    headings: list[str]
    links: list[dict]
    images: int
    texts: list[str]
    badges: list[dict] = field(default_factory=list)

    def currencies(self) -> dict[str, list[str]]:
        """Currency symbol -> the texts showing an amount in it."""
        return currencies_in(self.texts)

    def search_boxes(self) -> list[Field]:
        return [f for f in self.outside if f.kind != "combobox" and (f.type == "search" or re.search(r"search|find|keyword", f.label, re.I))]

    def filter_selects(self) -> list[Field]:
        """Selects outside forms that may filter the list: native ones with two options or more, and custom ones
        (whose options are read when they are opened); not the ones that sort or page."""
        return [f for f in self.outside if not re.search(r"\bsort|order by|per page", f.label, re.I) and not SORT_ORDER.match(f.label)
                and (f.kind == "combobox" or f.tag == "select" and len([o for o in f.options if o.get("value") not in (None,)]) >= 2)]

    def filter_checkboxes(self) -> list[Field]:
        return [f for f in self.outside if f.type == "checkbox"]


#: the name of a sort order (a custom select is named by the option it shows)
SORT_ORDER = re.compile(r"\s*(?:newest|oldest|latest|most (?:popular|recent|viewed|liked)|top[- ]rated|highest (?:rated|price|first)|lowest (?:price|first)|"
                        r"recently (?:added|updated|created)|alphabetical|a\s*-\s*z|z\s*-\s*a|relevance|price:?\s*(?:low|high))\b",
                        re.IGNORECASE)


def currencies_in(texts: list[str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for text in texts:
        for match in CURRENCY.finditer(text):
            token = re.sub(r"[\d\s,.\-]", "", match.group(0))
            symbol = SYMBOLS.get(token)
            if symbol:
                found.setdefault(symbol, [])
                if text not in found[symbol]:
                    found[symbol].append(text[:120])
    return found


def _field(data: dict) -> Field:
    known: dict[str, Any] = {k: data.get(k) for k in Field.__dataclass_fields__ if k in data}
    return Field(**{k: v for k, v in known.items() if v is not None or k in ("min", "max")})


def read_model(page: Page) -> PageModel:
    """Read the page model of ``page`` as it is now."""
    evaluate(page, SELECTOR_JS)
    raw: dict[str, Any] = evaluate(page, MODEL_JS)
    forms = [
        FormModel(sel=f["sel"], name=f["name"], visible=f["visible"], submit=f["submit"], submit_text=f["submit_text"],
                  fields=[_field(x) for x in f["fields"]], novalidate=f["novalidate"], in_dialog=f["in_dialog"], role=f["role"],
                  loose=bool(f.get("loose")))
        for f in raw["forms"]
    ]
    lst = raw.get("list") or {}
    return PageModel(
        url=raw["url"], title=raw["title"], forms=forms, outside=[_field(x) for x in raw["outside"]],
        list_sel=lst.get("sel"), list_key=lst.get("key"), list_count=lst.get("count", 0), dialogs=raw["dialogs"],
        counts=raw["counts"], button_groups=raw["buttonGroups"], headings=raw["headings"], links=raw["links"],
        images=raw["images"], texts=raw["texts"], badges=evaluate(page, BADGES_JS),
    )


LIST_ITEMS_JS = r"""([listSel, key]) => {
  const vis = el => !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const parent = listSel && document.querySelector(listSel);
  if (!parent) return null;
  const [tag, cls] = key.split('.');
  return [...parent.children].filter(c => c.tagName === tag && (!cls || c.classList.contains(cls)) && vis(c))
    .map(c => c.innerText.replace(/[ \t]+/g, ' ').trim()).filter(t => t.length > 0);
}"""


def list_items(page: Page, list_sel: str | None, list_key: str | None) -> list[str] | None:
    """Texts of the visible items of a list found by :func:`read_model` (None when the list is gone)."""
    if not list_sel or not list_key:
        return None
    return evaluate(page, LIST_ITEMS_JS, [list_sel, list_key])
