"""Versioned prompt files.

Each prompt is ``webtester/prompts/<name>.md``: a header between ``---`` lines
with ``name`` and ``version``, then the template body. Placeholders use
``$name`` (``string.Template``), so JSON braces in a prompt need no escaping.
Every run records the name, version and SHA-256 of each prompt it used.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from string import Template

from webtester.errors import InputError

PROMPTS_DIR = Path(__file__).resolve().parent
_HEADER = re.compile(r"\A---\n(?P<head>.*?)\n---\n(?P<body>.*)\Z", re.S)


class PromptError(InputError):
    """A prompt file that is missing, has no version header, or misses a placeholder value."""


@dataclass(frozen=True)
class Prompt:
    """A prompt template with its identity."""

    name: str
    version: str
    sha256: str
    text: str

    def render(self, **values: object) -> str:
        """The body with ``$placeholders`` replaced; a missing value is an error."""
        try:
            return Template(self.text).substitute({k: str(v) for k, v in values.items()})
        except KeyError as exc:
            raise PromptError(f"prompt {self.name!r} needs a value for ${exc.args[0]}") from exc

    def record(self) -> dict[str, str]:
        """What a run manifest records about this prompt."""
        return {"name": self.name, "version": self.version, "sha256": self.sha256}


def parse_prompt(source: str, origin: str = "<prompt>") -> Prompt:
    """Parse a prompt file's text (header + body)."""
    match = _HEADER.match(source.replace("\r\n", "\n"))
    if not match:
        raise PromptError(f"{origin}: missing '---' header with name and version")
    fields = dict(
        (k.strip(), v.strip())
        for k, _, v in (line.partition(":") for line in match["head"].splitlines() if line.strip())
    )
    if not fields.get("name") or not fields.get("version"):
        raise PromptError(f"{origin}: header needs 'name' and 'version'")
    return Prompt(
        name=fields["name"],
        version=fields["version"],
        sha256=hashlib.sha256(source.encode("utf-8")).hexdigest(),
        text=match["body"].strip() + "\n",
    )


@cache
def load_prompt(name: str) -> Prompt:
    """Load ``webtester/prompts/<name>.md``."""
    path = PROMPTS_DIR / f"{name}.md"
    if not path.exists():
        known = ", ".join(sorted(p.stem for p in PROMPTS_DIR.glob("*.md")))
        raise PromptError(f"no prompt named {name!r} (known: {known})")
    return parse_prompt(path.read_text(encoding="utf-8"), origin=str(path))
