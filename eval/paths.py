"""Where the evaluation data lives: the labelled matching set, stored models and calibrations, studies.

Data sit apart from code under ``eval/data/`` and ship as package data of
``webtester.eval``. The WebTestBench dataset itself is not shipped; its default
location is the shared datasets folder beside the repository.
"""

from __future__ import annotations

from pathlib import Path

EVAL_ROOT = Path(__file__).resolve().parent
DATA_ROOT = EVAL_ROOT / "data"
MATCHING_ROOT = DATA_ROOT / "matching"
# checklist styles of the labelled matching set (``system`` in predicted.jsonl), one-line lists to test plans
MATCHING_STYLES = ("terse", "detailed", "explorer", "testplan")
MODELS_ROOT = DATA_ROOT / "models"
CALIBRATION_ROOT = DATA_ROOT / "calibration"
STUDIES_ROOT = DATA_ROOT / "studies"
EXAMPLE_STUDY = STUDIES_ROOT / "example"
DEFAULT_DATASET = EVAL_ROOT.parent.parent / "shared" / "datasets" / "webtestbench" / "WebTestBench.jsonl"

#: WebTestBench instances kept out of every development set, for independent validation.
RESERVED = frozenset(f"WebTestBench_{n:04d}" for n in (4, 8, 14, 15, 16, 17, 23, 29, 30, 57, 58, 60, 75, 76))
