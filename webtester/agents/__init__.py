"""The two tester stages: checklist generation and defect detection, behind the :class:`Tester` interface.

- :mod:`webtester.agents.base`: the ``Tester`` protocol, ``Checklist``, budgets;
- :mod:`webtester.agents.checklist`: checklist generation (structured output, repair, retry);
- :mod:`webtester.agents.detection`: the tool-calling detection loop;
- :mod:`webtester.agents.verdict`: the ``record_verdict`` tool (settle and re-observe before a fail);
- :mod:`webtester.agents.llm_tester`: the LLM tester (chat model per stage, record / replay).
"""

from webtester.agents.base import Checklist, ChecklistError, InstanceBudget, ItemBudget, Tester

__all__ = ["Checklist", "ChecklistError", "InstanceBudget", "ItemBudget", "Tester"]
