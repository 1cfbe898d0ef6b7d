"""The demo scripts shipped with the package load by name, and say what a reader of the file expects."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import yaml

from webtester.llm.factory import make_chat_model
from webtester.llm.scripted import SHIPPED_SCRIPTS, Script, ScriptError, script_path, shipped_scripts


def _mappings(value: Any) -> Iterator[dict]:
    if isinstance(value, dict):
        yield value
        for inner in value.values():
            yield from _mappings(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _mappings(inner)


@pytest.mark.parametrize("name", shipped_scripts())
def test_every_shipped_script_loads_without_stray_keys(name):
    script = Script.load(name)
    assert script.name == name and script.channels
    spec = yaml.safe_load(script_path(name).read_text(encoding="utf-8"))
    for mapping in _mappings(spec):  # an unquoted ", " in a flow mapping makes a key with no value
        assert None not in mapping.values(), mapping


def test_the_portfolio_script_types_the_whole_message():
    spec = yaml.safe_load((SHIPPED_SCRIPTS / "portfolio_site.yaml").read_text(encoding="utf-8"))
    fills = {call["args"]["text"] for call in spec["items"]["CS-01"]["replies"][0]["tool_calls"] if call["name"] == "fill"}
    assert "A portrait session in Lisbon next spring, about two hours." in fills


def test_a_shipped_script_is_found_by_name_from_anywhere(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert "portfolio_site" in shipped_scripts()
    assert script_path("portfolio_site") == script_path("portfolio_site.yaml") == SHIPPED_SCRIPTS / "portfolio_site.yaml"
    assert make_chat_model("scripted:portfolio_site").script.name == "portfolio_site"  # type: ignore[attr-defined]


def test_a_local_file_wins_and_an_unknown_name_lists_the_shipped_ones(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "portfolio_site").write_text("checklist: []\nname: mine\n")
    assert Script.load("portfolio_site").name == "mine"
    with pytest.raises(ScriptError, match=r"script file not found: no_such_script \(shipped scripts, by name: .*portfolio_site"):
        Script.load("no_such_script")
    with pytest.raises(ScriptError, match="script file not found"):
        Script.load("some/dir/portfolio_site")
