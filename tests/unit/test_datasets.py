"""WebTestBench JSONL loading, writing and error reporting."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from webtester.datasets import DatasetError, load_dataset, write_jsonl
from webtester.datasets.stats import dataset_stats
from webtester.models import Category, Dimension

GOOD = {
    "index": "X_1", "instruction": "Build a todo app.", "category": "Tool",
    "checklist": [
        {"id": 1, "content": "Add a todo.", "class": "functionality", "pass": True},
        {"id": 2, "content": "Empty todo rejected.", "class": "constraint", "pass": False, "bug": "Empty accepted."},
    ],
}


def _write(tmp_path, records, name="d.jsonl"):
    path = tmp_path / name
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in records) + "\n")
    return path


def test_webtestbench_counts(webtestbench_path):
    instances = load_dataset(webtestbench_path)
    assert len(instances) == 100
    items = [i for inst in instances for i in inst.checklist]
    assert len(items) == 1750
    assert sum(not i.passed for i in items) == 448
    per_class = Counter((i.dimension.value, i.passed) for i in items)
    assert per_class[("functionality", True)] + per_class[("functionality", False)] == 854
    assert per_class[("functionality", False)] == 201
    assert per_class[("constraint", False)] == 128
    assert per_class[("interaction", False)] == 71
    assert per_class[("content", False)] == 48
    cats = Counter(inst.category for inst in instances)
    assert cats[Category.data_management] == 19 and cats[Category.search] == 9


def test_webtestbench_round_trip_is_exact(webtestbench_path, tmp_path):
    out = tmp_path / "copy.jsonl"
    write_jsonl(load_dataset(webtestbench_path), out)
    original = [json.loads(line) for line in webtestbench_path.read_text().splitlines()]
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert written == original
    assert out.read_text() == webtestbench_path.read_text()


def test_stats_match_dataset_readme(webtestbench_path):
    s = dataset_stats(load_dataset(webtestbench_path))
    assert (s.total.instances, s.total.items, s.total.failing) == (100, 1750, 448)
    assert s.by_dimension[Dimension.constraint].items == 398
    assert s.by_dimension[Dimension.content].failing == 48
    assert s.by_category[Category.workflow].instances == 17


@pytest.mark.parametrize(
    "bad, expected",
    [
        ('{"index": "X_2", "instruction": ', "invalid JSON"),
        ({k: v for k, v in GOOD.items() if k != "instruction"} | {"index": "X_2"}, "'instruction'"),
        ({**GOOD, "index": "X_2", "checklist": [{"id": 1, "content": "c", "class": "usability", "pass": True}]}, "usability"),
        ({**GOOD, "index": "X_2", "category": "Games"}, "Games"),
        ({**GOOD, "index": "X_2", "checklist": [GOOD["checklist"][0], GOOD["checklist"][0]]}, "duplicate checklist id 1"),
        ({**GOOD, "index": "X_2", "checklist": [{"id": 1, "content": "c", "class": "content", "pass": "yes"}]}, "'yes'"),
        (GOOD, "duplicate index 'X_1'"),
    ],
    ids=["bad-json", "missing-field", "unknown-class", "unknown-category", "duplicate-id", "bad-pass", "duplicate-index"],
)
def test_malformed_line_names_file_and_line(tmp_path, bad, expected):
    path = _write(tmp_path, [GOOD, bad])
    with pytest.raises(DatasetError) as info:
        load_dataset(path)
    message = str(info.value)
    assert f"{path}:2:" in message
    assert expected in message


def test_blank_lines_are_skipped_and_nothing_dropped(tmp_path):
    second = {**GOOD, "index": "X_2"}
    path = _write(tmp_path, [GOOD, "", second])
    assert [i.index for i in load_dataset(path)] == ["X_1", "X_2"]


def test_folder_of_jsonl_files(tmp_path):
    _write(tmp_path, [GOOD], "a.jsonl")
    _write(tmp_path, [{**GOOD, "index": "X_2"}], "b.jsonl")
    assert [i.index for i in load_dataset(tmp_path)] == ["X_1", "X_2"]


def test_missing_path_and_empty_folder(tmp_path):
    with pytest.raises(DatasetError, match="no such file"):
        load_dataset(tmp_path / "nope.jsonl")
    with pytest.raises(DatasetError, match="no \\*.jsonl"):
        load_dataset(tmp_path)
