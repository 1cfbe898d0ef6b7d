"""Whether a user's click reaches a control: a control that another element covers entirely cannot be used.

A decorative layer drawn over a card's Edit and Delete buttons, or a transparent box left above a button,
takes every click meant for the control. Playwright reports this as an element that "intercepts pointer
events" and waits until its timeout; a user sees a button that does nothing. :func:`click_reachable` looks
for a point of the control that the page's hit test gives to the control itself (a 5 x 5 grid over its box,
after scrolling it into view) and clicks there. When no point reaches it, twice a moment apart, and what covers
it is part of the page (not a dialog, a toast or another layer fixed to the window, which may be passing), a
``control-covered`` finding is recorded: the control is shown but no click reaches it.
"""

from __future__ import annotations

from playwright.sync_api import Locator, Position

from webtester.probes.session import ProbeSession

#: a point of the element that the hit test gives to it (``{x, y}``, relative to its box), else what covers its
#: centre (``{covered_by, fixed}``: ``fixed`` when that element or one of its ancestors is fixed to the window or
#: belongs to a dialog); null when the element has no box
REACH_JS = r"""el => {
  el.scrollIntoView({block: 'center', inline: 'center'});
  const r = el.getBoundingClientRect();
  if (r.width < 1 || r.height < 1) return null;
  for (const fy of [0.5, 0.3, 0.7, 0.15, 0.85]) for (const fx of [0.5, 0.3, 0.7, 0.15, 0.85]) {
    const x = r.left + fx * r.width, y = r.top + fy * r.height;
    const hit = document.elementFromPoint(x, y);
    if (hit && (hit === el || el.contains(hit))) return {x: x - r.left, y: y - r.top};
  }
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (!top) return null;
  let fixed = false;
  for (let up = top; up && up !== document.body; up = up.parentElement) {
    const style = getComputedStyle(up);
    if (style.position === 'fixed' || up.matches('dialog, [role=dialog], [role=alertdialog], [role=status], [role=alert]')) { fixed = true; break; }
  }
  const cls = typeof top.className === 'string' ? top.className : (top.getAttribute('class') || '');
  const text = (top.innerText || '').replace(/\s+/g, ' ').trim().slice(0, 40);
  return {covered_by: `<${top.tagName.toLowerCase()}${cls ? ` class="${cls.slice(0, 80)}"` : ''}>${text}`, fixed};
}"""
#: milliseconds between the two looks at a covered control
RECHECK_MS = 400


def click_reachable(sess: ProbeSession, control: Locator, element: str, *, action: str, subject: str,
                    timeout: float = 2000) -> bool:
    """Click ``control`` at a point a user's click reaches; False (with a ``control-covered`` finding about
    ``element``) when another part of the page covers all of it. ``action`` (edit, delete, menu) and ``subject``
    (the form or list the control belongs to) say which items the finding concerns."""
    def covered(point: dict | None) -> bool:
        return point is not None and "covered_by" in point and not point["fixed"]

    point = control.evaluate(REACH_JS, timeout=timeout)
    if covered(point):
        sess.page.wait_for_timeout(RECHECK_MS)
        point = control.evaluate(REACH_JS, timeout=timeout)
        if covered(point):
            sess.found("control-covered", element,
                       f"{element} is shown but no click reaches it: {point['covered_by']} lies over all of it, so a "
                       "click lands there instead", full=True, action=action, subject=subject,
                       covered_by=point["covered_by"])
            return False
    if point is not None and "x" in point:
        control.click(timeout=timeout, position=Position(x=float(point["x"]), y=float(point["y"])))
    else:
        control.click(timeout=timeout)
    return True
