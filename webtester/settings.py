"""Settings: model endpoints, judge, output folder and browser.

Sources, later ones winning: built-in defaults, environment variables, a TOML
config file, command-line flags. API keys are held as ``SecretStr`` and never
appear in :meth:`Settings.public_dict`, which is what runs record.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError

DEFAULT_CONFIG_NAME = "webtester.toml"

#: Environment variable for each setting.
ENV_VARS: dict[str, str] = {
    "model": "WEBTESTER_MODEL",
    "checklist_model": "WEBTESTER_CHECKLIST_MODEL",
    "detection_model": "WEBTESTER_DETECTION_MODEL",
    "base_url": "OPENAI_BASE_URL",
    "api_key": "OPENAI_API_KEY",
    "judge_model": "WEBTESTER_JUDGE_MODEL",
    "judge_base_url": "WEBTESTER_JUDGE_BASE_URL",
    "judge_api_key": "WEBTESTER_JUDGE_API_KEY",
    "output_dir": "WEBTESTER_OUTPUT_DIR",
    "browser_path": "WEBTESTER_BROWSER",
    "temperature": "WEBTESTER_TEMPERATURE",
    "max_items": "WEBTESTER_MAX_ITEMS",
    "max_tool_calls_per_item": "WEBTESTER_MAX_TOOL_CALLS_PER_ITEM",
    "max_tool_calls_per_instance": "WEBTESTER_MAX_TOOL_CALLS_PER_INSTANCE",
}
_SECRETS = ("api_key", "judge_api_key")


class SettingsError(ValueError):
    """Settings that cannot be used; the message names the source and the field."""


class Settings(BaseModel):
    """Everything a run can be configured with."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    model: str = Field(default="gpt-4o-mini", description="chat model for both tester stages")
    checklist_model: str | None = Field(default=None, description="model for checklist generation (default: model)")
    detection_model: str | None = Field(default=None, description="model for defect detection (default: model)")
    base_url: str | None = Field(default=None, description="OpenAI-compatible endpoint (OPENAI_BASE_URL)")
    api_key: SecretStr | None = Field(default=None, description="API key (OPENAI_API_KEY)")
    judge_model: str | None = Field(default=None, description="model of the LLM judge (default: model)")
    judge_base_url: str | None = Field(default=None, description="endpoint of the LLM judge (default: base_url)")
    judge_api_key: SecretStr | None = Field(default=None, description="API key of the LLM judge (default: api_key)")
    output_dir: Path = Field(default=Path("runs"), description="where run folders are written")
    browser_path: str | None = Field(default=None, description="Chromium executable (default: /usr/bin/chromium)")
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    max_items: int = Field(default=20, ge=1, le=200, description="checklist size limit")
    max_tool_calls_per_item: int = Field(default=30, ge=1)
    max_tool_calls_per_instance: int = Field(default=150, ge=1)

    @property
    def model_configured(self) -> bool:
        """True when an endpoint or key is set, i.e. the LLM tester can be used."""
        return self.api_key is not None or self.base_url is not None

    @property
    def judge_configured(self) -> bool:
        """True when the LLM judge has an endpoint or key (its own or the tester's)."""
        return self.judge_api_key is not None or self.judge_base_url is not None or self.model_configured

    def stage_model(self, stage: str) -> str:
        """Model name for ``'checklist'``, ``'detection'`` or ``'judge'``."""
        own = {"checklist": self.checklist_model, "detection": self.detection_model, "judge": self.judge_model}
        if stage not in own:
            raise ValueError(f"unknown stage {stage!r}")
        return own[stage] or self.model

    def public_dict(self) -> dict[str, Any]:
        """The settings as JSON-ready data with every secret replaced by whether it is set."""
        data = self.model_dump(mode="json", exclude=set(_SECRETS))
        for name in _SECRETS:
            data[f"{name}_set"] = getattr(self, name) is not None
        return data


def _from_env(environ: Mapping[str, str]) -> dict[str, Any]:
    return {field: environ[var] for field, var in ENV_VARS.items() if environ.get(var)}


def _from_file(path: Path) -> dict[str, Any]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise SettingsError(f"config file not found: {path}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{path}: invalid TOML: {exc}") from exc
    section = data.get("webtester", data)
    unknown = sorted(set(section) - set(Settings.model_fields))
    if unknown:
        raise SettingsError(f"{path}: unknown setting(s) {unknown}; known: {sorted(Settings.model_fields)}")
    return dict(section)


def find_config(explicit: str | Path | None = None, environ: Mapping[str, str] | None = None) -> Path | None:
    """The config file to read: ``explicit``, ``$WEBTESTER_CONFIG``, or ``./webtester.toml`` when present."""
    environ = os.environ if environ is None else environ
    if explicit:
        return Path(explicit)
    if environ.get("WEBTESTER_CONFIG"):
        return Path(environ["WEBTESTER_CONFIG"])
    local = Path(DEFAULT_CONFIG_NAME)
    return local if local.exists() else None


def load_settings(
    config: str | Path | None = None,
    environ: Mapping[str, str] | None = None,
    **cli_overrides: Any,
) -> Settings:
    """Merge defaults, environment, config file and CLI flags (``None`` flags are ignored)."""
    environ = os.environ if environ is None else environ
    layers: list[tuple[str, dict[str, Any]]] = [("environment", _from_env(environ))]
    path = find_config(config, environ)
    if path is not None:
        layers.append((str(path), _from_file(path)))
    layers.append(("command line", {k: v for k, v in cli_overrides.items() if v is not None}))
    merged: dict[str, Any] = {}
    for source, values in layers:
        try:
            Settings.model_validate({**merged, **values})
        except ValidationError as exc:
            err = exc.errors()[0]
            field = ".".join(str(p) for p in err["loc"])
            shown = "***" if field in _SECRETS else repr(err.get("input"))
            raise SettingsError(f"{source}: setting {field!r}: {err['msg']} (got {shown})") from None
        merged.update(values)
    return Settings.model_validate(merged)
