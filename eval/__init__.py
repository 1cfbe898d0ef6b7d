"""The evaluation harness: item-matching judges, WebTestBench metrics, scoring of run folders, reports, bench runner.

Entry points: ``eval.metrics.score_instance`` / ``eval.metrics.aggregate``,
``eval.judges.get_judge``, ``eval.scoring.score_run``, ``eval.bench.run_bench``
(see ``eval/README.md``).
"""
