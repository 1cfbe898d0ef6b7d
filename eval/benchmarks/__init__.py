"""Development benchmarks whose figures are printed, not asserted (``python -m webtester.eval.benchmarks.<name>``).

* ``judge_speed``: the offline (embedding) judge plus the metrics on all WebTestBench instances;
* ``observation``: observation size against Playwright MCP's snapshot, and the action round trip;
* ``kill9``: kill -9 of a running bench at random moments, each followed by a rerun (exactly-once results);
* ``load``: the baseline's verdicts on an app run alone and several times at once (verdicts under load).
"""
