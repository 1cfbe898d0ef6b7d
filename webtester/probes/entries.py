"""A listed entry's own controls (its Edit or Delete button), found from a text the entry shows."""

from __future__ import annotations

#: ``[token, kind, attr]``: marks (``attr`` = ``token``) the first visible control of ``kind`` (``edit``: a label
#: saying edit / modify / rename, or an icon-only button drawing a pencil; ``delete``: a label saying delete /
#: remove / trash / discard) in the closest of up to 7 ancestors of a visible text holding ``token`` (outside form
#: fields) that has one; returns the control's label, or null
ENTRY_CONTROL_JS = r"""([token, kind, attr]) => {
  const vis = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const said = el => ((el.innerText || '') + ' ' + (el.getAttribute('aria-label') || '') + ' ' + (el.title || '')).trim();
  const pencil = el => !(el.innerText || '').trim() && [...el.querySelectorAll('svg')].some(s =>
    /lucide-(pencil|pen|square-pen|pen-line|pen-square|edit|file-pen)\b|\bpencil\b|fa-(edit|pen)/i.test(s.getAttribute('class') || '') ||
    /pencil|edit|pen/i.test(s.getAttribute('data-icon') || ''));
  const wanted = {
    edit: el => !el.disabled && (/\b(edit|modify|rename)\b/i.test(said(el)) && !/\b(profile|settings|layout|mode)\b/i.test(said(el)) || pencil(el)),
    delete: el => /\b(delete|remove|trash|discard)\b/i.test(said(el)),
  }[kind];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent.includes(token) || !vis(n.parentElement) || n.parentElement.closest('form, select, textarea')) continue;
    let box = n.parentElement;
    for (let depth = 0; box && box !== document.body && depth < 7; depth++, box = box.parentElement) {
      const ctl = [...box.querySelectorAll('button, a, [role=button]')].find(b => vis(b) && wanted(b));
      if (ctl) {
        ctl.setAttribute(attr, token);
        return (said(ctl) || 'pencil icon').replace(/\s+/g, ' ').slice(0, 60);
      }
    }
  }
  return null;
}"""
