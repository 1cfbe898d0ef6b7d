"""Reading and writing benchmark datasets (WebTestBench JSONL and the markdown checklist format)."""

from webtester.datasets.jsonl import DatasetError, json_lines, load_dataset, write_jsonl

__all__ = ["DatasetError", "json_lines", "load_dataset", "write_jsonl"]
