"""Item-matching judges behind one interface: ``oracle``, ``llm`` and ``embedding``."""

from __future__ import annotations

from typing import Any

from eval.judges.base import Judge, JudgeError, JudgeInfo, Matches, check_matches

JUDGES = ("oracle", "llm", "embedding")

__all__ = ["JUDGES", "Judge", "JudgeError", "JudgeInfo", "Matches", "check_matches", "get_judge"]


def _get(settings: Any, key: str) -> Any:
    if settings is None:
        return None
    if isinstance(settings, dict):
        return settings.get(key)
    return getattr(settings, key, None)


def get_judge(name: str, settings: Any = None) -> Judge:
    """A judge by name.

    ``settings`` (a mapping or an object with attributes) is optional:
    ``llm`` reads ``model`` / ``base_url`` / ``api_key`` / ``batch_size`` ...
    (or ``judge_model`` ...; see ``LLMJudgeSettings``), ``embedding`` reads
    ``threshold``, ``text_mode`` and ``cache_path`` (defaults: the stored calibration).
    """
    if name == "oracle":
        from eval.judges.oracle import OracleJudge

        return OracleJudge()
    if name == "llm":
        from eval.judges.llm import LLMJudge

        return LLMJudge(chat_model=_get(settings, "chat_model"), settings=settings)
    if name == "embedding":
        from eval.judges.embedding import EmbeddingJudge

        kwargs: dict[str, Any] = {}
        for key in ("threshold", "text_mode", "cache_path"):
            value = _get(settings, key)
            if value is not None:
                kwargs[key] = value
        return EmbeddingJudge(**kwargs)
    raise ValueError(f"unknown judge {name!r}; choose one of {', '.join(JUDGES)}")
