"""The evaluation harness: item-matching judges, WebTestBench metrics, scoring of run folders, reports, bench runner.

Entry points: ``webtester.eval.metrics.score_instance`` / ``webtester.eval.metrics.aggregate``,
``webtester.eval.judges.get_judge``, ``webtester.eval.scoring.score_run``,
``webtester.eval.bench.run_bench`` (see ``eval/README.md``). Shared statistics are in
``webtester.eval.stats``; the data (matching set, models, calibration, studies) sit
apart from the code under ``eval/data/`` (``webtester.eval.paths``).
"""
