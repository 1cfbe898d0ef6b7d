"""Item-matching judges behind one interface: ``oracle``, ``llm``, ``embedding`` and ``embedding-naive``.

``embedding`` is the trained offline judge (``webtester.eval.judges.trained``);
``embedding-naive`` the plain cosine-threshold judge (``eval/judges/embedding.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel

from webtester.eval.judges.base import Judge, JudgeError, JudgeInfo, Matches, check_matches
from webtester.eval.judges.llm import LLMJudge
from webtester.eval.judges.oracle import OracleJudge
from webtester.settings import Settings

JUDGES = ("oracle", "llm", "embedding", "embedding-naive")

__all__ = ["JUDGES", "Judge", "JudgeError", "JudgeInfo", "Matches", "check_matches", "get_judge"]


def get_judge(
    name: str,
    settings: Settings | None = None,
    *,
    chat_model: BaseChatModel | None = None,
    threshold: float | None = None,
    text_mode: str | None = None,
    cache_path: Path | None = None,
) -> Judge:
    """A judge by name.

    ``llm`` needs ``settings`` (its section ``settings.judge``: model, endpoint,
    batch size, attempts; ``chat_model`` replaces the model it names).
    ``embedding`` (trained) takes ``threshold`` (on the match probability) and
    ``cache_path``; ``embedding-naive`` takes ``threshold`` (on the cosine),
    ``text_mode`` and ``cache_path``. Unset options keep the stored model's or
    calibration's values.
    """
    if name == "oracle":
        return OracleJudge()
    if name == "llm":
        if settings is None:
            raise JudgeError("the LLM judge needs settings (webtester.settings.load_settings)")
        return LLMJudge(settings, chat_model=chat_model)
    opts: dict[str, Any] = {k: v for k, v in (("threshold", threshold), ("cache_path", cache_path)) if v is not None}
    if name == "embedding":
        from webtester.eval.judges.trained.judge import TrainedJudge

        return TrainedJudge(**opts)
    if name == "embedding-naive":
        from webtester.eval.judges.embedding import EmbeddingJudge

        naive = EmbeddingJudge(**opts, text_mode=text_mode)
        naive.info = naive.info.model_copy(update={"name": "embedding-naive"})
        return naive
    raise ValueError(f"unknown judge {name!r}; choose one of {', '.join(JUDGES)}")
