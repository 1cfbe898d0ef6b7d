"""Settings: model endpoints, the LLM judge, output folder and browser.

Sources, later ones winning: built-in defaults, environment variables, a TOML
config file, command-line flags. API keys are held as ``SecretStr`` and never
appear in :meth:`Settings.public_dict`, which is what runs record.

The judge has its own section (``Settings.judge``; ``[webtester.judge]`` in the
config file, ``WEBTESTER_JUDGE_*`` in the environment). The flat names
``judge_model``, ``judge_base_url`` and ``judge_api_key`` are accepted in the
config file and as overrides and mean the same fields.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError

from webtester.errors import InputError
from webtester.textfile import read_user_text

#: the checklist size limit when none is configured
DEFAULT_MAX_ITEMS = 20

DEFAULT_CONFIG_NAME = "webtester.toml"

Stage = Literal["checklist", "detection", "judge"]

#: Environment variable for each setting (``judge.x`` is the field ``x`` of the judge section).
ENV_VARS: dict[str, str] = {
    "model": "WEBTESTER_MODEL",
    "checklist_model": "WEBTESTER_CHECKLIST_MODEL",
    "detection_model": "WEBTESTER_DETECTION_MODEL",
    "base_url": "OPENAI_BASE_URL",
    "api_key": "OPENAI_API_KEY",
    "judge.model": "WEBTESTER_JUDGE_MODEL",
    "judge.base_url": "WEBTESTER_JUDGE_BASE_URL",
    "judge.api_key": "WEBTESTER_JUDGE_API_KEY",
    "judge.batch_size": "WEBTESTER_JUDGE_BATCH_SIZE",
    "judge.max_attempts": "WEBTESTER_JUDGE_MAX_ATTEMPTS",
    "output_dir": "WEBTESTER_OUTPUT_DIR",
    "browser_path": "WEBTESTER_BROWSER",
    "data_root": "WEBTESTER_DATA",
    "temperature": "WEBTESTER_TEMPERATURE",
    "max_items": "WEBTESTER_MAX_ITEMS",
    "max_tool_calls_per_item": "WEBTESTER_MAX_TOOL_CALLS_PER_ITEM",
    "max_tool_calls_per_instance": "WEBTESTER_MAX_TOOL_CALLS_PER_INSTANCE",
    "network": "WEBTESTER_NETWORK",
    "serve": "WEBTESTER_SERVE",
    "item_time_limit": "WEBTESTER_ITEM_TIME_LIMIT",
    "instance_time_limit": "WEBTESTER_INSTANCE_TIME_LIMIT",
    "explore_time_limit": "WEBTESTER_EXPLORE_TIME_LIMIT",
    "model_timeout": "WEBTESTER_MODEL_TIMEOUT",
    "model_retries": "WEBTESTER_MODEL_RETRIES",
    "checklist_timeout": "WEBTESTER_CHECKLIST_TIMEOUT",
    "detection_timeout": "WEBTESTER_DETECTION_TIMEOUT",
    "judge.timeout": "WEBTESTER_JUDGE_TIMEOUT",
    "checklist_retries": "WEBTESTER_CHECKLIST_RETRIES",
    "detection_retries": "WEBTESTER_DETECTION_RETRIES",
    "judge.retries": "WEBTESTER_JUDGE_RETRIES",
    "checklist_max_tokens": "WEBTESTER_CHECKLIST_MAX_TOKENS",
    "detection_max_tokens": "WEBTESTER_DETECTION_MAX_TOKENS",
    "judge.max_tokens": "WEBTESTER_JUDGE_MAX_TOKENS",
    "context_window": "WEBTESTER_CONTEXT_WINDOW",
    "detection_tools": "WEBTESTER_DETECTION_TOOLS",
    "trace": "WEBTESTER_TRACE",
}

#: Flat names of judge fields, accepted in the config file and as overrides.
FLAT_JUDGE_NAMES: dict[str, str] = {"judge_model": "model", "judge_base_url": "base_url", "judge_api_key": "api_key"}

#: ``exclude`` spec of every secret: ``settings.model_dump(mode="json", exclude=SECRETS)`` holds no key
#: and validates back into ``Settings`` (secrets then come from the environment again).
SECRETS: dict[str, Any] = {"api_key": True, "judge": {"api_key": True}}
_SECRET_PATHS = ("api_key", "judge.api_key")


#: seconds per model request when none is set: a cloud endpoint, and one on this machine (a CPU model is slow)
CLOUD_TIMEOUT = 120.0
LOCAL_TIMEOUT = 600.0
#: a context window (tokens) below which ``detection_tools = "auto"`` gives the detection agent the core tools
CORE_TOOLS_WINDOW = 16_384


def is_local_endpoint(base_url: str | None) -> bool:
    """True when ``base_url`` names this machine (localhost, a loopback address, 0.0.0.0)."""
    if not base_url:
        return False
    import ipaddress
    from urllib.parse import urlsplit

    host = (urlsplit(base_url).hostname or "").lower()
    if host in ("localhost", "0.0.0.0") or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class SettingsError(InputError):
    """Settings that cannot be used; the message names the source and the field."""


class JudgeSettings(BaseModel):
    """The LLM judge: its model and endpoint (default: the tester's) and how it asks for structured answers."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    model: str | None = Field(default=None, description="model of the LLM judge (default: the tester's model)")
    base_url: str | None = Field(default=None, description="endpoint of the LLM judge (default: the tester's)")
    api_key: SecretStr | None = Field(
        default=None, description="API key of the LLM judge (default: the tester's key, on the tester's endpoint only)",
    )
    batch_size: int = Field(default=40, ge=1, description="predicted items per judge request")
    max_attempts: int = Field(default=3, ge=1, description="tries per batch before the judge gives up")
    method: Literal["function_calling", "json_schema", "json_mode"] = Field(
        default="function_calling", description="how the structured answer is requested",
    )
    max_tokens: int = Field(default=2048, ge=1, description="most tokens one judge reply may generate")
    timeout: float | None = Field(default=None, gt=0, description="seconds one judge request may take (default: "
                                  "model_timeout)")
    retries: int | None = Field(default=None, ge=0, le=10, description="retries of a failed judge request (default: "
                                "model_retries)")


class Settings(BaseModel):
    """Everything a run can be configured with."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    model: str = Field(default="gpt-4o-mini", description="chat model for both tester stages")
    checklist_model: str | None = Field(default=None, description="model for checklist generation (default: model)")
    detection_model: str | None = Field(default=None, description="model for defect detection (default: model)")
    base_url: str | None = Field(default=None, description="OpenAI-compatible endpoint (OPENAI_BASE_URL)")
    api_key: SecretStr | None = Field(default=None, description="API key (OPENAI_API_KEY)")
    judge: JudgeSettings = Field(default_factory=JudgeSettings, description="the LLM judge")
    output_dir: Path = Field(default=Path("runs"), description="where run folders are written")
    browser_path: str | None = Field(default=None, description="Chromium executable (default: /usr/bin/chromium)")
    data_root: Path | None = Field(
        default=None, description="folder holding the bundled apps/ and gold/ (default: the installed package's copy, "
        "or the checkout; webtester.data_root)",
    )
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    max_items: int = Field(default=DEFAULT_MAX_ITEMS, ge=1, le=200, description="checklist size limit")
    max_tool_calls_per_item: int = Field(default=30, ge=1)
    max_tool_calls_per_instance: int = Field(default=150, ge=1)
    network: Literal["offline", "allow-subresources"] = Field(
        default="offline",
        description="the app's third-party subresources: offline = all blocked, allow-subresources = GETs of "
        "images, fonts, stylesheets, scripts and media go through (webtester.browser.confinement)",
    )
    serve: Literal["dev", "build"] = Field(
        default="dev", description="how npm apps are served: their dev server, or a cached production build"
    )
    item_time_limit: float = Field(
        default=300.0, gt=0, description="wall-clock seconds one item may take before it is recorded as an error",
    )
    instance_time_limit: float = Field(
        default=3600.0, gt=0,
        description="wall-clock seconds one instance may take; items not reached in time are recorded as errors",
    )
    explore_time_limit: float = Field(
        default=50.0, ge=10.0,
        description="wall-clock seconds the no-model tester spends looking at an app before it decides (the start "
        "page, the crawl and the probes); a busy machine reaches less in the same time",
    )
    model_timeout: float = Field(
        default=CLOUD_TIMEOUT, gt=0, description=f"seconds one model request may take (when not set: {CLOUD_TIMEOUT:g}, "
        f"or {LOCAL_TIMEOUT:g} for an endpoint on this machine, which a CPU model may need)",
    )
    model_retries: int = Field(default=2, ge=0, le=10, description="retries of a failed model request (timeouts, "
                               "429 and 5xx answers), with exponential backoff")
    checklist_timeout: float | None = Field(default=None, gt=0, description="seconds one checklist request may take "
                                            "(default: model_timeout)")
    detection_timeout: float | None = Field(default=None, gt=0, description="seconds one detection step's request may "
                                            "take (default: model_timeout)")
    checklist_retries: int | None = Field(default=None, ge=0, le=10, description="retries of a failed checklist "
                                          "request (default: model_retries)")
    detection_retries: int | None = Field(default=None, ge=0, le=10, description="retries of a failed detection "
                                          "request (default: model_retries)")
    checklist_max_tokens: int = Field(default=4096, ge=1, description="most tokens one checklist reply may generate")
    detection_max_tokens: int = Field(default=1024, ge=1, description="most tokens one detection step may generate")
    context_window: int | None = Field(
        default=None, ge=256, description="the endpoint's context window in tokens, when known (requests are trimmed "
        "to fit it; otherwise learned from the first context-length error)",
    )
    detection_tools: Literal["auto", "all", "core"] = Field(
        default="auto", description="the browser tools the detection agent gets: all, or the core set (observe, "
        "navigate, click, fill, select_option, check, press_key, wait_for, go_back; the first page view cut to its top) that "
        f"keeps a small model's first request under 2,000 tokens; auto = core while the endpoint's context window "
        f"(context_window, the server's model list, or a context-length error) is known to be under {CORE_TOOLS_WINDOW} "
        "tokens, else all",
    )
    trace: Literal["on", "off", "retain-on-failure"] = Field(
        default="on",
        description="Playwright traces of every executed item: on = kept for every item, retain-on-failure = kept "
        "only for items that fail or end in error, off = none written (webtester.browser.traces)",
    )

    @property
    def model_configured(self) -> bool:
        """True when an endpoint or key is set, i.e. the LLM tester can be used."""
        return self.api_key is not None or self.base_url is not None

    @property
    def judge_configured(self) -> bool:
        """True when the LLM judge has an endpoint or key (its own or the tester's)."""
        return self.judge.api_key is not None or self.judge.base_url is not None or self.model_configured

    def stage_model(self, stage: Stage) -> str:
        """Model spec for ``'checklist'``, ``'detection'`` or ``'judge'`` (each defaults to ``model``)."""
        own = {"checklist": self.checklist_model, "detection": self.detection_model, "judge": self.judge.model}
        if stage not in own:
            raise ValueError(f"unknown stage {stage!r}")
        return own[stage] or self.model

    def _stage_value(self, stage: Stage, name: str) -> Any:
        """The stage's own setting ``name`` (``checklist_<name>``, ``detection_<name>``, ``judge.<name>``)."""
        self.stage_model(stage)  # validates the stage name
        return getattr(self.judge, name) if stage == "judge" else getattr(self, f"{stage}_{name}")

    def max_tokens(self, stage: Stage) -> int:
        """Most tokens one reply of ``stage`` may generate (sent as ``max_tokens`` on every request)."""
        return int(self._stage_value(stage, "max_tokens"))

    def request_timeout(self, stage: Stage) -> float:
        """Seconds one request of ``stage`` may take: the stage's own timeout, else ``model_timeout``; when neither
        is set, :data:`LOCAL_TIMEOUT` for an endpoint on this machine (a CPU model) and :data:`CLOUD_TIMEOUT` otherwise."""
        own = self._stage_value(stage, "timeout")
        if own is not None:
            return float(own)
        if "model_timeout" in self.model_fields_set:
            return self.model_timeout
        base_url, _ = self.endpoint(stage)
        return LOCAL_TIMEOUT if is_local_endpoint(base_url) else self.model_timeout

    def request_retries(self, stage: Stage) -> int:
        """Retries of a failed request of ``stage``: the stage's own count, else ``model_retries``."""
        own = self._stage_value(stage, "retries")
        return self.model_retries if own is None else int(own)

    def endpoint(self, stage: Stage) -> tuple[str | None, SecretStr | None]:
        """``(base_url, api_key)`` a stage talks to.

        The tester's stages use ``base_url`` / ``api_key``. The judge uses its own
        ``base_url`` when set, else the tester's; its own key when set, else the
        tester's key, but only when it talks to the tester's endpoint (a key is
        never sent to an endpoint it was not configured for).
        """
        self.stage_model(stage)  # validates the stage name
        if stage != "judge":
            return self.base_url, self.api_key
        base_url = self.judge.base_url or self.base_url
        if self.judge.api_key is not None:
            return base_url, self.judge.api_key
        same_endpoint = self.judge.base_url is None or self.judge.base_url == self.base_url
        return base_url, self.api_key if same_endpoint else None

    def public_dict(self) -> dict[str, Any]:
        """The settings as JSON-ready data with every secret replaced by whether it is set (and URL credentials
        by ``***``)."""
        from webtester.redact import redact_url

        data = self.model_dump(mode="json", exclude=SECRETS)
        for section in (data, data["judge"]):
            if section.get("base_url"):
                section["base_url"] = redact_url(section["base_url"])
        data["api_key_set"] = self.api_key is not None
        data["judge"]["api_key_set"] = self.judge.api_key is not None
        return data


def _nested(values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` with flat judge names (``judge_model``) and dotted names (``judge.model``) moved into ``judge``."""
    out: dict[str, Any] = {}
    judge: dict[str, Any] = {}
    for key, value in values.items():
        if key in FLAT_JUDGE_NAMES:
            judge[FLAT_JUDGE_NAMES[key]] = value
        elif key.startswith("judge."):
            judge[key.removeprefix("judge.")] = value
        elif key == "judge" and isinstance(value, Mapping):
            judge.update({k: v for k, v in value.items() if v is not None})
        else:
            out[key] = value
    if judge:
        out["judge"] = judge
    return out


def _merge(base: dict[str, Any], layer: dict[str, Any]) -> dict[str, Any]:
    merged = {**base, **layer}
    if isinstance(base.get("judge"), dict) and isinstance(layer.get("judge"), dict):
        merged["judge"] = {**base["judge"], **layer["judge"]}
    return merged


def _from_env(environ: Mapping[str, str]) -> dict[str, Any]:
    return _nested({field: environ[var] for field, var in ENV_VARS.items() if environ.get(var)})


def _from_file(path: Path) -> dict[str, Any]:
    """The settings of a TOML config file; :class:`SettingsError` naming the file for anything unusable."""
    text = read_user_text(path, SettingsError, "config file")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{path}: invalid TOML: {exc}") from None
    section = data.get("webtester", data)
    if not isinstance(section, Mapping):
        raise SettingsError(f"{path}: 'webtester' must be a table ([webtester]), got {section!r}")
    known = set(Settings.model_fields) | set(FLAT_JUDGE_NAMES)
    unknown = sorted(set(section) - known)
    if unknown:
        raise SettingsError(f"{path}: unknown setting(s) {unknown}; known: {sorted(known)}")
    judge = section.get("judge", {})
    if not isinstance(judge, Mapping):
        raise SettingsError(f"{path}: 'judge' must be a table ([webtester.judge]), got {judge!r}")
    unknown = sorted(set(judge) - set(JudgeSettings.model_fields))
    if unknown:
        raise SettingsError(f"{path}: unknown judge setting(s) {unknown}; known: {sorted(JudgeSettings.model_fields)}")
    return _nested(section)


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
    """Merge defaults, environment, config file and CLI flags (``None`` flags are ignored).

    Overrides use the field names; judge fields as ``judge_model=...`` or ``judge={"model": ...}``.
    """
    environ = os.environ if environ is None else environ
    layers: list[tuple[str, dict[str, Any]]] = [("environment", _from_env(environ))]
    path = find_config(config, environ)
    if path is not None:
        layers.append((str(path), _from_file(path)))
    layers.append(("command line", _nested({k: v for k, v in cli_overrides.items() if v is not None})))
    merged: dict[str, Any] = {}
    for source, values in layers:
        candidate = _merge(merged, values)
        try:
            Settings.model_validate(candidate)
        except ValidationError as exc:
            err = exc.errors()[0]
            field = ".".join(str(p) for p in err["loc"])
            shown = "***" if field in _SECRET_PATHS else repr(err.get("input"))
            raise SettingsError(f"{source}: setting {field!r}: {err['msg']} (got {shown})") from None
        merged = candidate
    return Settings.model_validate(merged)
