"""Item-matching judges behind one interface: ``oracle``, ``llm``, ``embedding`` and ``embedding-naive``.

``embedding`` is the trained offline judge (``eval/judges/trained.py``);
``embedding-naive`` the plain cosine-threshold judge (``eval/judges/embedding.py``).
"""

from __future__ import annotations

from typing import Any

from webtester.eval.judges.base import Judge, JudgeError, JudgeInfo, Matches, check_matches

JUDGES = ("oracle", "llm", "embedding", "embedding-naive")

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
    (or ``judge_model`` ...; see ``LLMJudgeSettings``), ``embedding`` (trained)
    reads ``threshold`` (on the match probability) and ``cache_path`` (defaults:
    the stored model), ``embedding-naive`` reads ``threshold`` (on the cosine),
    ``text_mode`` and ``cache_path`` (defaults: the stored calibration).
    """
    if name == "oracle":
        from webtester.eval.judges.oracle import OracleJudge

        return OracleJudge()
    if name == "llm":
        from webtester.eval.judges.llm import LLMJudge

        return LLMJudge(chat_model=_get(settings, "chat_model"), settings=settings)
    if name == "embedding":
        from webtester.eval.judges.trained import TrainedJudge

        opts = {k: v for k in ("threshold", "cache_path") if (v := _get(settings, k)) is not None}
        return TrainedJudge(**opts)
    if name == "embedding-naive":
        from webtester.eval.judges.embedding import EmbeddingJudge

        kwargs: dict[str, Any] = {}
        for key in ("threshold", "text_mode", "cache_path"):
            value = _get(settings, key)
            if value is not None:
                kwargs[key] = value
        naive = EmbeddingJudge(**kwargs)
        naive.info = naive.info.model_copy(update={"name": "embedding-naive"})
        return naive
    raise ValueError(f"unknown judge {name!r}; choose one of {', '.join(JUDGES)}")
