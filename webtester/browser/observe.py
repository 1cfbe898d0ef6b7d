"""The agent's view of a page: a compact text built from the accessibility tree.

:func:`observe` takes Playwright's AI-mode aria snapshot (the tree behind
Playwright MCP's ``browser_snapshot``) and renders it compactly:

* a header with the page URL and title;
* every interactive element (links, buttons, inputs, selects, checkboxes,
  radios, tabs, sliders, menu items, elements with a pointer cursor ...)
  carries its Playwright reference, e.g. ``button "Save" [e12]``; the
  reference resolves to a locator through :func:`resolve_ref`;
* structure only where it helps: landmarks, dialogs, forms, tables and named
  groups are section headers; anonymous wrappers are dissolved; small
  subtrees (a card, a list item, a table row) become one line;
* runs of many similar siblings (product grids, long lists, table rows) are
  folded after the first few, listing the labels of the folded ones and the
  reference to expand them with (``observe(page, ref=...)``); very long texts
  are cut the same way.

:func:`diff` compares two observations and returns only what changed.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from webtester.browser.aria import AriaNode, parse_aria_snapshot
from webtester.browser.watchdog import evaluate

INTERACTIVE_ROLES = frozenset(
    "button link textbox searchbox checkbox radio combobox listbox option menuitem menuitemcheckbox "
    "menuitemradio tab switch slider spinbutton treeitem scrollbar gridcell".split()
)
STATEFUL_ROLES = frozenset("checkbox radio switch menuitemcheckbox menuitemradio".split())
SECTION_ROLES = frozenset(
    "banner navigation main contentinfo complementary search form region dialog alertdialog table grid "
    "treegrid tabpanel tablist menu menubar toolbar radiogroup tree iframe listbox group".split()
)
# sections shown only when they carry a name (anonymous ones are dissolved like generic wrappers)
NAMED_ONLY_SECTIONS = frozenset("form region group".split())
ITEM_ROLES = frozenset("listitem row article figure".split())
CELL_ROLES = frozenset("cell gridcell columnheader rowheader".split())
ANNOUNCE_ROLES = frozenset("alert status log marquee timer".split())
# inline text pieces joined with a plain space (a paragraph with <strong> or <code> inside stays one sentence)
TEXT_LEVEL_ROLES = frozenset("text strong emphasis code mark subscript superscript time deletion insertion".split())

INDENT = " "  # per level of nesting
INLINE_MAX = 200  # longest subtree rendered on one line
TEXT_MAX = 400  # longer texts are cut ...
TEXT_KEEP = 280  # ... to this many characters
FOLD_MIN = 8  # runs of at least this many similar siblings are folded ...
FOLD_KEEP = 4  # ... after this many
FOLD_LABELS = 30  # labels listed for the folded siblings
ABBREVIATE_MIN = 12  # texts at least this long are abbreviated in the names of the controls right below them
_WS = re.compile(r"\s+")


class StaleRefError(LookupError):
    """A reference that is not on the current page (the page changed, or it never existed)."""


@dataclass
class RefInfo:
    """What a reference points at."""

    ref: str
    role: str
    name: str
    interactive: bool


@dataclass
class Observation:
    """What the agent sees of a page: ``text``, plus the references it can act on."""

    url: str
    title: str
    text: str
    lines: list[str]
    refs: dict[str, RefInfo] = field(default_factory=dict)
    raw: str = ""
    folded: int = 0  # sibling elements hidden by folding
    focus: str = ""  # the focused interactive element, e.g. 'textbox "Email" [e9]'

    def __str__(self) -> str:
        return self.text

    def interactive_refs(self) -> list[str]:
        """References of all interactive elements on the page (shown or folded)."""
        return [r for r, info in self.refs.items() if info.interactive]

    def describe(self, ref: str) -> str:
        """Short description of a reference, e.g. ``button "Save" [e12]``."""
        info = self.refs.get(ref)
        if info is None:
            return f"[{ref}]"
        return f'{info.role} "{info.name}" [{ref}]' if info.name else f"{info.role} [{ref}]"


# ----------------------------------------------------------------------------- rendering


def _clean(text: str) -> str:
    return _WS.sub(" ", text or "").strip()


def _quote(text: str) -> str:
    return '"' + text.replace('"', "'") + '"'


def _heading_text(node: AriaNode) -> str:
    """Text of a heading node (its name, or its inline text when the name was left out)."""
    if node.name:
        return _clean(node.name)
    parts = []
    for n in node.walk():
        if n.role == "text" or (n is node and n.text):
            parts.append(_clean(n.text or ""))
        elif n is not node and n.name:  # e.g. a heading that is a link or a button
            parts.append(_clean(n.name))
    return " ".join(p for p in parts if p)


def _first_heading(node: AriaNode) -> str:
    """Text of the heading that opens ``node`` (within its first two levels), '' if none."""
    for child in node.children[:3]:
        if child.role == "heading":
            return _heading_text(child)
        if child.role == "generic":
            for grandchild in child.children[:2]:
                if grandchild.role == "heading":
                    return _heading_text(grandchild)
    return ""


class _Renderer:
    """Renders a parsed snapshot; ``compact`` folds, cuts and abbreviates (the agent's default view)."""

    def __init__(self, origin: str, compact: bool) -> None:
        self.origin = origin
        self.compact = compact
        self.refs: dict[str, RefInfo] = {}
        self.folded = 0
        self.focus: AriaNode | None = None
        self._shape_cache: dict[tuple[int, int], str] = {}
        self._summaries: set[int] = set()  # <summary> elements: a <details> group's named first child
        self._context: dict[int, tuple[str, ...]] = {}  # control -> texts shown just before it
        self._captions: set[str] = set()  # headings of cards that also show an image with the same alt text
        self._recent: list[str] = []

    # -- classification

    def is_interactive(self, node: AriaNode, inside_control: bool) -> bool:
        if node.ref is None:
            return False
        if node.role in INTERACTIVE_ROLES:
            return node.role != "option" or not inside_control
        if id(node) in self._summaries and not inside_control:
            return True  # the <summary> of a <details> disclosure
        return node.pointer and not inside_control and not self._wraps_one_control(node)

    def _wraps_one_control(self, node: AriaNode) -> bool:
        """A pointer-cursor wrapper (typically a <label>) around one control and that control's label text."""
        controls = [n for n in node.walk() if n is not node and n.role in INTERACTIVE_ROLES and n.ref]
        if len(controls) != 1:
            return False
        name = _clean(controls[0].name)
        texts = [_clean(n.text or "") for n in node.walk() if n.role == "text" or (n is not controls[0] and n.text)]
        return all(t == name or not t for t in texts)

    def is_section(self, node: AriaNode) -> bool:
        if node.role not in SECTION_ROLES:
            return False
        if node.role not in NAMED_ONLY_SECTIONS:
            return True
        # a region/group/form named after the heading it opens with adds nothing to that heading
        return bool(node.name) and _clean(node.name) != _first_heading(node)

    def register(self, node: AriaNode, inside_control: bool) -> None:
        for n in node.walk():
            if n.ref:
                self.refs[n.ref] = RefInfo(n.ref, n.role, n.name, False)
            if n.role == "group" and n.children and n.children[0].role == "generic" and n.children[0].name:
                self._summaries.add(id(n.children[0]))
            if n.children and any(c.role == "img" and c.name for c in n.children):
                alts = {_clean(c.name) for c in n.children if c.role == "img"}
                self._captions |= alts & {_heading_text(h) for h in n.walk() if h.role == "heading"}
        self._mark(node, inside_control)

    def _mark(self, node: AriaNode, inside_control: bool) -> None:
        interactive = self.is_interactive(node, inside_control)
        if interactive:
            self.refs[node.ref].interactive = True  # type: ignore[index]
            if node.attrs.get("active") == "true" and self.focus is None:
                self.focus = node
            self._context[id(node)] = tuple(self._recent)
        seen = _heading_text(node) if node.role == "heading" else _clean(node.text or "") if node.role == "text" else ""
        if len(seen) >= ABBREVIATE_MIN:
            self._recent = [*self._recent[-3:], seen]
        inner = inside_control or interactive
        for child in node.children:
            self._mark(child, inner)

    # -- pieces

    def link_target(self, url: str) -> str:
        """Where a link leads: other origins always, this origin's paths only in the full view."""
        if not url or url == "#":
            return ""
        parts = urlsplit(url)
        if not parts.scheme or f"{parts.scheme}://{parts.netloc}" == self.origin:
            if self.compact:
                return ""
            url = url[len(self.origin) :] if parts.scheme else url
        url = url or "/"
        return url if len(url) <= 80 else url[:77] + "..."

    def text_of(self, text: str, holder: str | None) -> str:
        text = _clean(text)
        if self.compact and len(text) > TEXT_MAX:
            more = f"; observe ref={holder} for all" if holder else ""
            return f"{text[:TEXT_KEEP]}… (+{len(text) - TEXT_KEEP} chars{more})"
        return text

    def control(self, node: AriaNode, label: str) -> str:
        """``role "name" [ref] state = value`` for an interactive element."""
        name = _clean(node.name) or label
        if self.compact:
            # "Edit 'Audit colour contrast'" right under the heading "Audit colour contrast" -> "Edit '…'"
            for seen in sorted(self._context.get(id(node), ()), key=len, reverse=True):
                if seen in name and seen != name:
                    name = name.replace(seen, "…")
        role = node.role if node.role in INTERACTIVE_ROLES or node.role != "generic" else "clickable"
        out = f"{role} {_quote(name)}" if name else role
        out += f" [{node.ref}]"
        if role not in INTERACTIVE_ROLES and role != "clickable":
            out += " clickable"
        a = node.attrs
        if node.role in STATEFUL_ROLES:
            checked = a.get("checked")
            out += " mixed" if checked == "mixed" else " checked" if checked else " unchecked"
        for attr, word in (("disabled", "disabled"), ("expanded", "expanded"), ("pressed", "pressed"),
                           ("selected", "selected"), ("invalid", "invalid")):
            if attr in a and a[attr] != "false":
                out += f" {word}"
        target = self.link_target(node.props.get("url", "")) if node.role == "link" else ""
        if target:
            out += f" → {target}"
        placeholder = node.props.get("placeholder")
        if placeholder and _clean(placeholder) != name:
            out += f" placeholder={_quote(_clean(placeholder))}"
        if node.text is not None and node.role in INTERACTIVE_ROLES and node.role not in ("link", "button", "tab", "menuitem"):
            out += f" = {_quote(_clean(node.text))}"
        options = [c for c in node.children if c.role == "option" and not c.ref]
        if options:
            chosen = [_clean(o.name) for o in options if o.attrs.get("selected")]
            names = [_clean(o.name) for o in options]
            shown = " | ".join(names[:12]) + (f" | … +{len(names) - 12} more" if len(names) > 12 else "")
            if chosen:
                out += f" = {_quote(', '.join(chosen))}"
            out += f" options: {shown}"
        return out

    def head(self, node: AriaNode) -> str:
        """Heading line of a section, e.g. ``navigation "Main":``."""
        out = node.role
        if node.name and _clean(node.name) != _first_heading(node):
            out += f" {_quote(_clean(node.name))}"
        if node.ref and (node.role in ("dialog", "alertdialog", "tabpanel", "iframe", "listbox", "table") or node.pointer):
            out += f" [{node.ref}]"
        return out + ":"

    # -- inline: one string for a whole subtree

    def inline(self, node: AriaNode, inside_control: bool, holder: str | None) -> str:
        role = node.role
        holder = node.ref or holder
        if role == "text":
            return self.text_of(node.text or "", holder)
        if self.is_interactive(node, inside_control):
            label_parts, nested = [], []
            for child in node.children:
                if child.role in INTERACTIVE_ROLES and child.ref:
                    nested.append(self.inline(child, True, holder))
                elif not node.name and child.role != "option":
                    label_parts.append(self.inline(child, True, holder))
            label = " ".join(p for p in label_parts if p)
            if node.role not in INTERACTIVE_ROLES and not node.name and node.text:
                label = _clean(node.text)
            if node.role not in INTERACTIVE_ROLES and node.children and not node.name:
                # a clickable container: show its content after the reference
                content = self.join_children(node, True, holder)
                return f"{self.control(node, '')}: {content}" if content else self.control(node, "")
            return " ".join([self.control(node, label), *nested]).strip()
        parts = []
        if node.text is not None:
            parts.append(self.text_of(node.text, holder))
        inner = self.join_children(node, inside_control, holder)
        if inner:
            parts.append(inner)
        body = " · ".join(parts)
        if role == "heading":
            level = node.attrs.get("level", "")
            title = _clean(node.name) if node.name and not body else body or _clean(node.name)
            return f"h{level} {title}".strip()
        if role == "img":
            label = _clean(node.name)
            if not label or (self.compact and label in self._captions):
                return "img" if label else ""  # an image captioned by the heading next to it
            return f"img {_quote(label)}"
        if role in ANNOUNCE_ROLES:
            content = body or _clean(node.name)
            return f"{role}: {content}" if content else ""  # an empty live region shows nothing
        if role in CELL_ROLES or role == "row":
            return body or _clean(node.name)
        if self.is_section(node) and role != "group":
            return f"{self.head(node)} {body}".rstrip(": ") if body else self.head(node).rstrip(":")
        if node.name and (not body or role == "generic"):
            return _clean(node.name)  # a labelled span: its label says more than its symbols (★ 4.8)
        if role == "group" and node.name:
            return f"{_clean(node.name)}: {body}"
        return body

    def join_children(self, node: AriaNode, inside_control: bool, holder: str | None) -> str:
        sep = " | " if node.role == "row" else " · "
        out, prev_textual = "", False
        names = self._sibling_names(node)
        for child in node.children:
            if self._is_label_echo(child, names):
                continue  # a label repeated by the control it labels
            part = self.inline(child, inside_control, holder)
            if not part:
                continue
            textual = child.role in TEXT_LEVEL_ROLES and not self.is_interactive(child, inside_control)
            if out:
                out += " " if (textual and prev_textual and sep != " | ") else sep
            out += part
            prev_textual = textual
        return out

    def _sibling_names(self, node: AriaNode) -> set[str]:
        """Names that a plain text among ``node``'s children would only repeat."""
        names = {_clean(c.name) for c in node.children if c.role in INTERACTIVE_ROLES and c.name}
        if node.name and self.is_section(node):
            names.add(_clean(node.name))  # e.g. a table's caption
        return names

    @staticmethod
    def _is_label_echo(child: AriaNode, names: set[str]) -> bool:
        """A text (or a plain label element) that only repeats the name of a sibling control."""
        if child.role == "text":
            return _clean(child.text or "") in names
        if child.role in ("generic", "caption") and not child.children and not child.pointer:
            return _clean(child.text or child.name) in names
        return False

    # -- blocks: lines for subtrees too big for one line

    def block(self, node: AriaNode, depth: int, inside_control: bool = False) -> list[tuple[int, str]]:
        interactive = self.is_interactive(node, inside_control)
        if self.is_section(node) and not interactive:
            head = self.head(node)
            lines = self.children_block(node, depth + 1, inside_control)
            if not lines:
                return [(depth, head.rstrip(":"))]
            joined = " · ".join(text for _, text in lines)
            if len(lines) <= 8 and len(head) + len(joined) <= INLINE_MAX and all(d == depth + 1 for d, _ in lines):
                return [(depth, f"{head} {joined}")]
            return [(depth, head), *lines]
        line = self.inline(node, inside_control, None)
        if len(line) <= INLINE_MAX or node.role in ("text", "row") or (interactive and node.role in INTERACTIVE_ROLES):
            return [(depth, line)] if line else []
        if interactive:  # a large clickable container: its reference, then its content
            return [(depth, self.control(node, "") + ":"), *self.children_block(node, depth + 1, True)]
        if node.role == "heading":
            return [(depth, line)]
        lines = self.children_block(node, depth, inside_control)
        if node.role in ITEM_ROLES and lines and not lines[0][1].startswith("- "):
            first_depth, first = lines[0]
            lines = [(first_depth, "- " + first), *[(d, "  " + t) if d == first_depth else (d, t) for d, t in lines[1:]]]
        return lines

    def children_block(self, node: AriaNode, depth: int, inside_control: bool) -> list[tuple[int, str]]:
        children = node.children
        names = self._sibling_names(node)
        out: list[tuple[int, str]] = []
        runs = self._runs(children) if self.compact else [(0, len(children))]
        for start, end in runs:
            run = children[start:end]
            folding = self.compact and len(run) >= FOLD_MIN
            keep = run[:FOLD_KEEP] if folding else run
            for child in keep:
                if self._is_label_echo(child, names):
                    continue
                out.extend(self.block(child, depth, inside_control))
            if folding:
                hidden = run[FOLD_KEEP:]
                self.folded += len(hidden)
                labels = [self._label(c) for c in hidden]
                labels = [lbl for lbl in labels if lbl]
                listed = " · ".join(labels[:FOLD_LABELS]) + (" · …" if len(labels) > FOLD_LABELS else "")
                where = f"observe ref={node.ref} to list them all" if node.ref else "observe with full=true to list them all"
                kind = "" if run[0].role == "generic" else run[0].role + " "
                out.append((depth, f"… {len(hidden)} more similar {kind}items ({where}): {listed}".rstrip(": ")))
        return out

    def _label(self, node: AriaNode) -> str:
        """What a folded item is called: its heading, else its first text or name."""
        for n in node.walk():
            if n.role == "heading":
                title = _heading_text(n)
                if title:
                    return title[:40]
        for n in node.walk():
            if n.role == "text" and _clean(n.text or ""):
                return _clean(n.text or "")[:40]
            if n.role not in ("text", "option") and _clean(n.name):
                return _clean(n.name)[:40]
            if n.text and _clean(n.text):
                return _clean(n.text)[:40]
        return ""

    def shape(self, node: AriaNode, depth: int = 2) -> str:
        """Structure of the top ``depth`` levels of a subtree, without names or texts; repeated
        siblings count once (so cards with two tags and cards with four have the same shape)."""
        key = (id(node), depth)
        if key not in self._shape_cache:
            kids: list[str] = []
            if depth > 0:
                for child in node.children:
                    sig = self.shape(child, depth - 1)
                    if not kids or kids[-1] != sig:
                        kids.append(sig)
            self._shape_cache[key] = node.role + "(" + ",".join(kids) + ")"
        return self._shape_cache[key]

    def _runs(self, children: list[AriaNode]) -> list[tuple[int, int]]:
        runs, start = [], 0
        for i in range(1, len(children) + 1):
            if i == len(children) or children[i].role == "text" or self.shape(children[i]) != self.shape(children[start]):
                runs.append((start, i))
                start = i
        return runs


@dataclass
class Rendered:
    """Result of :func:`render`."""

    lines: list[str]
    refs: dict[str, RefInfo]
    folded: int
    focus: str


def render(tree: AriaNode, *, origin: str = "", compact: bool = True) -> Rendered:
    """Render a parsed snapshot: lines, reference registry, number of folded elements, focused element.

    ``compact`` (the default view) folds runs of similar siblings, cuts very long
    texts, abbreviates control names that repeat the heading or text just above
    them, and leaves out the targets of links within the app's origin (links to
    other origins always show theirs). The full view does none of that.
    """
    r = _Renderer(origin, compact)
    r.register(tree, False)
    lines: list[tuple[int, str]] = []
    for child in tree.children:
        lines.extend(r.block(child, 0))
    focus = ""
    if r.focus is not None:
        info = r.refs[r.focus.ref]  # type: ignore[index]
        focus = f"{info.role} {_quote(_clean(info.name))} [{info.ref}]" if info.name else f"{info.role} [{info.ref}]"
    return Rendered([INDENT * d + t for d, t in lines], r.refs, r.folded, focus)


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") else ""


def header(url: str, title: str, focus: str = "") -> str:
    """First lines of every observation."""
    return f"URL: {url}\nTitle: {title}" + (f"\nFocus: {focus}" if focus else "")


def build_observation(raw: str, url: str, title: str, *, ref: str | None = None, full: bool = False) -> Observation:
    """Build an :class:`Observation` from an aria snapshot string (see :func:`observe`)."""
    tree = parse_aria_snapshot(raw)
    scope = tree
    if ref is not None:
        found = next((n for n in tree.walk() if n.ref == ref), None)
        if found is None:
            raise StaleRefError(f"[{ref}] is not on the current page; observe again to get fresh references")
        scope = AriaNode(role="fragment", children=[found])
    out = render(scope, origin=_origin(url), compact=not (full or ref))
    refs, focus = out.refs, out.focus
    if ref is not None:
        whole = render(tree, origin=_origin(url))
        refs, focus = whole.refs, whole.focus
    head = header(url, title, focus)
    text = head + "\n" + "\n".join(out.lines) if out.lines else head + "\n(the page shows nothing)"
    return Observation(url=url, title=title, text=text, lines=out.lines, refs=refs, raw=raw, folded=out.folded, focus=focus)


def aria_snapshot(page, timeout: float = 10_000) -> str:
    """Playwright's AI-mode aria snapshot of ``page``, retried once across a navigation."""
    try:
        return page.aria_snapshot(mode="ai", timeout=timeout)
    except Exception as exc:  # a navigation destroyed the context: wait for the new document
        if "context was destroyed" not in str(exc) and "navigat" not in str(exc):
            raise
        page.wait_for_load_state("domcontentloaded", timeout=timeout)
        return page.aria_snapshot(mode="ai", timeout=timeout)


def page_title(page) -> str:
    """The page title ('' while it cannot be read)."""
    try:
        return str(evaluate(page, "() => document.title"))
    except Exception:
        return ""


def observe(page, *, ref: str | None = None, full: bool = False) -> Observation:
    """The compact view of ``page``; ``ref`` limits it to one element's subtree, unfolded.

    ``full`` disables folding of repeated siblings and shows where links within
    the app lead (both are also the case for a ``ref`` view). Raises :class:`StaleRefError`
    when ``ref`` is not on the page.
    """
    raw = aria_snapshot(page)
    return build_observation(raw, page.url, page_title(page), ref=ref, full=full)


# ----------------------------------------------------------------------------- references


_REF = re.compile(r"^\[?(?:ref=)?([a-z]*\d*e\d+)\]?$")


def normalize_ref(ref: str) -> str:
    """Accept ``e12``, ``[e12]`` or ``ref=e12``; raise ``ValueError`` for anything else."""
    m = _REF.match(ref.strip())
    if not m:
        raise ValueError(f"{ref!r} is not an element reference; use one like e12 from the page view")
    return m.group(1)


def resolve_ref(page, observation: Observation | None, ref: str):
    """Locator for ``ref`` as seen in ``observation`` (the latest view of ``page``).

    Raises :class:`StaleRefError` when the reference is not in the latest view,
    e.g. after the page changed.
    """
    ref = normalize_ref(ref)
    if observation is not None and ref not in observation.refs:
        raise StaleRefError(f"[{ref}] is not on the current page; look at the latest page view for fresh references")
    return page.locator(f"aria-ref={ref}")


# ----------------------------------------------------------------------------- diff


def diff(before: Observation | None, after: Observation, *, max_ratio: float = 0.7) -> str:
    """Only what changed between two observations of the same page.

    Returns the full view of ``after`` when there is no ``before`` or when the
    change is larger than ``max_ratio`` of the full view (a new page).
    """
    if before is None:
        return after.text
    head = []
    if after.url != before.url:
        head.append(f"URL: {after.url} (was {before.url})")
    if after.title != before.title:
        head.append(f"Title: {after.title} (was {before.title})")
    if after.focus != before.focus:
        head.append(f"Focus: {after.focus or 'none'}")
    body = _line_diff(before.lines, after.lines)
    if not body and not head:
        return "No visible change on the page."
    out = "\n".join(head + (["Changes (- removed, + added):", *body] if body else ["The page content did not change."]))
    if len(out) > max_ratio * len(after.text):
        return after.text
    return out


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _context(lines: list[str], index: int) -> str | None:
    """The nearest line above ``index`` that is less indented (the enclosing section)."""
    if index >= len(lines) or index < 0:
        return None
    level = _indent(lines[index])
    for j in range(index - 1, -1, -1):
        if _indent(lines[j]) < level:
            return lines[j].strip()
    return None


def _line_diff(a: list[str], b: list[str]) -> list[str]:
    out: list[str] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        ctx = _context(b, j1) if j1 < len(b) else _context(a, i1)
        if ctx is None and j1 > 0:
            ctx = f"after: {b[j1 - 1].strip()}"
        if ctx:
            out.append(f"@ {ctx}")
        if tag == "replace" and i2 - i1 == j2 - j1:
            for old, new in zip(a[i1:i2], b[j1:j2]):
                out.extend(_part_diff(old.strip(), new.strip()))
            continue
        out.extend("- " + line.strip() for line in a[i1:i2])
        out.extend("+ " + line.strip() for line in b[j1:j2])
    return out


_PART = " · "


def _part_diff(old: str, new: str) -> list[str]:
    """One changed line: the whole line when short, else only its changed `` · ``-separated parts."""
    if len(old) + len(new) <= 200 or _PART not in old or _PART not in new:
        return [f"- {old}", f"+ {new}"]
    pa, pb = old.split(_PART), new.split(_PART)
    out = [f"~ in line: {pb[0][:80]}{_PART}…"]
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, pa, pb, autojunk=False).get_opcodes():
        if tag != "equal":
            out.extend("- " + part for part in pa[i1:i2])
            out.extend("+ " + part for part in pb[j1:j2])
    return out
