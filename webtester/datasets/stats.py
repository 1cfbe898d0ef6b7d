"""Counts of a dataset per dimension and per category."""

from __future__ import annotations

from dataclasses import dataclass, field

from webtester.models import Category, Dimension, Instance


@dataclass
class Counts:
    """Instances, items and failing items of one slice of a dataset."""

    instances: int = 0
    items: int = 0
    failing: int = 0


@dataclass
class DatasetStats:
    """Totals plus the split per dimension (class) and per category."""

    total: Counts = field(default_factory=Counts)
    by_dimension: dict[Dimension, Counts] = field(default_factory=dict)
    by_category: dict[Category, Counts] = field(default_factory=dict)


def dataset_stats(instances: list[Instance]) -> DatasetStats:
    """Count instances, gold items and failing gold items."""
    stats = DatasetStats(by_dimension={d: Counts() for d in Dimension}, by_category={})
    for inst in instances:
        failing = sum(not item.passed for item in inst.checklist)
        for c in (stats.total, stats.by_category.setdefault(inst.category, Counts())):
            c.instances += 1
            c.items += len(inst.checklist)
            c.failing += failing
        for dim in {item.dimension for item in inst.checklist}:
            stats.by_dimension[dim].instances += 1
        for item in inst.checklist:
            stats.by_dimension[item.dimension].items += 1
            stats.by_dimension[item.dimension].failing += not item.passed
    stats.by_category = dict(sorted(stats.by_category.items(), key=lambda kv: (-kv[1].instances, kv[0].value)))
    return stats
