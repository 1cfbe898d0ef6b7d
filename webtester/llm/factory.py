"""Chat models from a model spec.

- ``NAME`` (or ``openai:NAME``): ``ChatOpenAI`` for any OpenAI-compatible endpoint
  (``base_url`` / ``OPENAI_BASE_URL``, ``api_key`` / ``OPENAI_API_KEY``), each request bounded by
  the stage's timeout (``Settings.request_timeout``) and retried ``Settings.request_retries`` times by the
  client (exponential backoff) on transient HTTP errors (429, 5xx, timeouts). Its key and the credentials of
  its base URL are registered for redaction (:mod:`webtester.redact`). The model is a
  :class:`~webtester.llm.compat.CompatChatOpenAI`: ``max_tokens`` per stage (``Settings.max_tokens``) on
  every request, never ``content: null``, requests fitted to the context window (``Settings.context_window``
  or learned from the server).
- ``scripted:SCRIPT``: a :class:`~webtester.llm.scripted.ScriptedChatModel` from a script file or a shipped script by name.
- ``replay:PATH``: replay of recorded exchanges (``exchanges.jsonl``, or a run folder
  holding ``<index>/exchanges.jsonl``, resolved per instance by the tester).

:func:`chat_model_for` is the one way a stage (checklist, detection, the LLM
judge) gets its model from :class:`~webtester.settings.Settings`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from pydantic import SecretStr

from webtester.llm.compat import CompatChatOpenAI, endpoint_memory
from webtester.llm.recording import replay_model
from webtester.llm.scripted import Script, ScriptedChatModel
from webtester.redact import register, register_settings, url_secrets
from webtester.settings import Settings, Stage

Kind = Literal["openai", "scripted", "replay"]
DEFAULT_TIMEOUT = Settings.model_fields["model_timeout"].default
DEFAULT_RETRIES = Settings.model_fields["model_retries"].default


@dataclass(frozen=True)
class ModelSpec:
    """A parsed model spec."""

    kind: Kind
    name: str  # model name, or the script / recording path

    @classmethod
    def parse(cls, spec: str) -> "ModelSpec":
        if not spec or not spec.strip():
            raise ValueError("empty model spec")
        prefix, sep, rest = spec.partition(":")
        if sep and prefix in ("scripted", "replay", "openai"):
            if not rest:
                raise ValueError(f"model spec {spec!r} needs a value after '{prefix}:'")
            return cls(prefix, rest)  # type: ignore[arg-type]
        return cls("openai", spec)

    @property
    def label(self) -> str:
        """How runs made with this model are labelled (a scripted or replayed run is never a model's result)."""
        return {"openai": f"llm:{self.name}", "scripted": "scripted", "replay": "replay"}[self.kind]


def openai_model(
    name: str,
    *,
    base_url: str | None = None,
    api_key: SecretStr | str | None = None,
    temperature: float = 0.0,
    timeout: float = DEFAULT_TIMEOUT,
    max_retries: int = DEFAULT_RETRIES,
    max_tokens: int | None = None,
    context_window: int | None = None,
) -> BaseChatModel:
    """``ChatOpenAI`` for an OpenAI-compatible endpoint; unset values fall back to OPENAI_* variables.

    ``timeout``: seconds per request; ``max_retries``: retries of a failed request (so at most
    ``max_retries + 1`` requests of ``timeout`` seconds each per call); ``max_tokens``: most tokens
    a reply may generate; ``context_window``: the endpoint's window in tokens, when known.
    """
    kwargs: dict[str, Any] = {"model": name, "temperature": temperature, "timeout": timeout, "max_retries": max_retries,
                              "max_tokens": max_tokens, "context_window": context_window}
    if base_url:
        kwargs["base_url"] = base_url
    if api_key is not None:
        kwargs["api_key"] = api_key if isinstance(api_key, SecretStr) else SecretStr(api_key)
    elif base_url:
        kwargs["api_key"] = SecretStr("not-needed")  # local endpoints (vLLM, Ollama, stubs) ignore the key
    model = CompatChatOpenAI(**kwargs)
    key = model.openai_api_key  # the one given, or the one the client found in OPENAI_API_KEY
    register(key if isinstance(key, (str, SecretStr)) else None, *url_secrets(base_url))
    return model


def make_chat_model(spec: str | ModelSpec, **openai_kwargs: Any) -> BaseChatModel:
    """The chat model for ``spec`` (a replay of a run folder needs the instance: see ``replay_path``)."""
    spec = ModelSpec.parse(spec) if isinstance(spec, str) else spec
    if spec.kind == "scripted":
        return ScriptedChatModel(script=Script.load(spec.name), label="scripted")
    if spec.kind == "replay":
        return replay_model(spec.name)
    return openai_model(spec.name, **openai_kwargs)


def openai_options(settings: Settings, stage: Stage) -> dict[str, Any]:
    """Endpoint, key, temperature, timeout, retries, reply limit and context window of ``stage`` for
    :func:`openai_model` (see :meth:`Settings.endpoint`); registers the settings' secrets for redaction."""
    register_settings(settings)
    base_url, api_key = settings.endpoint(stage)
    return {"base_url": base_url, "api_key": api_key, "temperature": settings.temperature,
            "timeout": settings.request_timeout(stage), "max_retries": settings.request_retries(stage),
            "max_tokens": settings.max_tokens(stage), "context_window": settings.context_window}


def chat_model_for(settings: Settings, stage: Stage, spec: str | None = None) -> BaseChatModel:
    """The chat model of ``stage``: ``spec`` (default: the stage's model in ``settings``) on the stage's endpoint."""
    return make_chat_model(spec or settings.stage_model(stage), **openai_options(settings, stage))


def reported_models(configured: Mapping[str, str], models: Mapping[str, Any]) -> tuple[dict[str, str], list[str]]:
    """``configured`` (stage -> model spec) with each stage's model replaced by the name its server reported,
    where that differs, and a note for each such stage."""
    out, notes = dict(configured), []
    for stage, model in models.items():
        memory = endpoint_memory(model)
        spec = configured.get(stage)
        reported = memory.reported_model if memory else None
        if reported and spec and reported != ModelSpec.parse(spec).name:
            out[stage] = reported
            notes.append(f"{stage}: the server reported model {reported!r} for the configured {spec!r}")
    return out, notes


def endpoint_capabilities(models: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Stage -> what its endpoint has shown so far (:meth:`EndpointMemory.capabilities`) with the request timeout
    and retries the stage uses; stages whose model keeps no memory (scripted, replay) are left out."""
    out: dict[str, dict[str, Any]] = {}
    for stage, model in models.items():
        memory = endpoint_memory(model)
        if memory is not None:
            out[stage] = {**memory.capabilities(), "timeout": getattr(model, "request_timeout", None),
                          "max_retries": getattr(model, "max_retries", None)}
    return out


def replay_path(recording: str | Path, index: str) -> Path:
    """The exchanges file to replay for ``index``: the file itself, or ``<run>/<index>/exchanges.jsonl``."""
    path = Path(recording)
    return path / index / "exchanges.jsonl" if path.is_dir() else path
