"""Parse Playwright's AI-mode aria snapshot (``page.aria_snapshot(mode="ai")``) into a tree.

The snapshot is the YAML that Playwright MCP's ``browser_snapshot`` returns: one
``- role "name" [attr] [ref=eN] [cursor=pointer]: value`` line per node,
``- text: ...`` for text, ``- /url: ...`` and ``- /placeholder: ...`` for
properties of the node above. The format is produced by Playwright's
``renderAriaSnapshotAsYaml``: keys that need quoting are single-quoted YAML
scalars, names are JSON strings, values are plain or JSON-like double-quoted
scalars. A dedicated line parser is used instead of a YAML library because it
is two orders of magnitude faster on large pages.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

_LINE = re.compile(r"^( *)- (.*)$")
_ROLE = re.compile(r"[a-zA-Z]+")
_ATTR = re.compile(r"\s*\[([a-zA-Z-]+)(?:=([^\]\s]*))?\]")
_HEX_ESCAPE = re.compile(r"\\x([0-9a-fA-F]{2})")


@dataclass
class AriaNode:
    """One node of the accessibility snapshot."""

    role: str
    name: str = ""
    ref: str | None = None
    pointer: bool = False
    attrs: dict[str, str] = field(default_factory=dict)
    props: dict[str, str] = field(default_factory=dict)
    text: str | None = None  # inline value (``role: value``) or the text of a ``text`` node
    children: list["AriaNode"] = field(default_factory=list)

    def walk(self):
        """This node and all its descendants, depth first."""
        yield self
        for child in self.children:
            yield from child.walk()


def _unquote_value(raw: str) -> str:
    raw = raw.strip()
    if len(raw) >= 2 and raw[0] == '"' and raw[-1] == '"':
        try:
            return json.loads(_HEX_ESCAPE.sub(lambda m: "\\u00" + m.group(1), raw))
        except json.JSONDecodeError:
            return raw[1:-1]
    if len(raw) >= 2 and raw[0] == "'" and raw[-1] == "'":
        return raw[1:-1].replace("''", "'")
    return raw


def _split_key(content: str) -> tuple[str, str | None]:
    """Split ``key: value`` / ``key:`` / ``key`` into (key, value or None)."""
    if content.startswith("'"):
        i = 1
        while i < len(content):
            if content[i] == "'":
                if i + 1 < len(content) and content[i + 1] == "'":
                    i += 2
                    continue
                break
            i += 1
        key = content[1:i].replace("''", "'")
        rest = content[i + 1 :]
        if rest.startswith(":"):
            return key, rest[1:].strip()
        return key, None
    if '"' not in content:  # no name: the first ": " (or a final ":") separates key and value
        i = content.find(": ")
        if i >= 0:
            return content[:i], content[i + 2 :].strip()
        return (content[:-1], "") if content.endswith(":") else (content, None)
    in_string = escaped = False
    for i, ch in enumerate(content):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == ":" and (i + 1 == len(content) or content[i + 1] == " "):
            return content[:i], content[i + 1 :].strip()
    return content, None


def _parse_key(key: str) -> AriaNode:
    m = _ROLE.match(key)
    role = m.group(0) if m else key
    pos = m.end() if m else len(key)
    name = ""
    if key[pos : pos + 2] == ' "':
        # JSON string: find the closing quote, honouring backslash escapes
        i, escaped = pos + 2, False
        while i < len(key):
            ch = key[i]
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                break
            i += 1
        raw = key[pos + 1 : i + 1]
        if "\\" not in raw:
            name = raw[1:-1]  # nothing escaped: no need for a JSON decoder
        else:
            try:
                name = json.loads(raw)
            except json.JSONDecodeError:
                name = raw.strip('"')
        pos = i + 1
    node = AriaNode(role=role, name=name)
    for am in _ATTR.finditer(key, pos):
        attr, value = am.group(1), am.group(2)
        if attr == "ref":
            node.ref = value
        elif attr == "cursor":
            node.pointer = value == "pointer"
        elif attr != "box":
            node.attrs[attr] = value if value is not None else "true"
    return node


def parse_aria_snapshot(snapshot: str) -> AriaNode:
    """Parse an aria snapshot into a tree under a ``fragment`` root."""
    root = AriaNode(role="fragment")
    stack: list[tuple[int, AriaNode]] = [(-1, root)]
    for line in snapshot.splitlines():
        m = _LINE.match(line)
        if not m:
            continue
        depth = len(m.group(1)) // 2
        key, value = _split_key(m.group(2))
        while stack[-1][0] >= depth:
            stack.pop()
        parent = stack[-1][1]
        if key.startswith("/"):
            parent.props[key[1:]] = _unquote_value(value or "")
            continue
        if key == "text":
            parent.children.append(AriaNode(role="text", text=_unquote_value(value or "")))
            continue
        node = _parse_key(key)
        if value:
            node.text = _unquote_value(value)
        parent.children.append(node)
        stack.append((depth, node))
    return root
