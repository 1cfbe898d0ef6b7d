"""A listed entry's own controls (its Edit or Delete button), found from a text the entry shows."""

from __future__ import annotations

#: ``[token, kind, attr]``: marks (``attr`` = ``token``) the first visible control of ``kind`` (``edit``: a short
#: label (at most 40 characters: not a card that describes a page) saying edit / modify / rename, or an icon-only
#: button drawing a pencil; ``delete``: a label saying delete /
#: remove / trash / discard) in the closest of up to 7 ancestors of a visible text holding ``token`` (outside form
#: fields) that has one, short of the list around the entry (a list element, or a box holding the controls of
#: several entries); returns the control's label, or null
ENTRY_CONTROL_JS = r"""([token, kind, attr]) => {
  const vis = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const said = el => ((el.innerText || '') + ' ' + (el.getAttribute('aria-label') || '') + ' ' + (el.title || '')).trim();
  const pencil = el => !(el.innerText || '').trim() && [...el.querySelectorAll('svg')].some(s =>
    /lucide-(pencil|pen|square-pen|pen-line|pen-square|edit|file-pen)\b|\bpencil\b|fa-(edit|pen)/i.test(s.getAttribute('class') || '') ||
    /pencil|edit|pen/i.test(s.getAttribute('data-icon') || ''));
  const wanted = {
    edit: el => !el.disabled && (/\b(edit|modify|rename)\b/i.test(said(el)) && said(el).length <= 40 &&
      !/\b(profile|settings|layout|mode)\b/i.test(said(el)) || pencil(el)),
    delete: el => /\b(delete|remove|trash|discard)\b/i.test(said(el)),
  }[kind];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent.includes(token) || !vis(n.parentElement) || n.parentElement.closest('form, select, textarea')) continue;
    let box = n.parentElement;
    for (let depth = 0; box && box !== document.body && depth < 7; depth++, box = box.parentElement) {
      if (box.matches('ul, ol, table, tbody, [role=list], [role=grid], [role=table]')) break;  // past the entry
      const ctls = [...box.querySelectorAll('button, a, [role=button]')].filter(b => vis(b) && wanted(b));
      if (ctls.length > 2) break;  // the controls of several entries: past the entry
      if (ctls.length) {
        ctls[0].setAttribute(attr, token);
        return (said(ctls[0]) || 'pencil icon').replace(/\s+/g, ' ').slice(0, 60);
      }
    }
  }
  return null;
}"""

#: ``[selector, ofEntry]``: the text of the last visible heading before the element ``selector`` marks, outside it
#: (``ofEntry``: outside the entry around it too: a list item, row or article, else the element's third ancestor),
#: what the list's entries are; '' when there is none
LIST_HEADING_JS = r"""([selector, ofEntry]) => {
  const el = document.querySelector(selector);
  if (!el) return '';
  const up = el.parentElement && el.parentElement.parentElement && el.parentElement.parentElement.parentElement;
  const entry = ofEntry ? el.closest('li, tr, article, [role=listitem], [role=row]') || up || el : el;
  const outside = entry !== document.body ? entry : el;
  const heads = [...document.querySelectorAll('h1, h2, h3, h4')].filter(h => h.getClientRects().length > 0 &&
    !outside.contains(h) && (h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING));
  return heads.length ? heads[heads.length - 1].innerText.replace(/\s+/g, ' ').trim().slice(0, 60) : '';
}"""
