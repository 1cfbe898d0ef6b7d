"""The trained offline matching judge and everything that builds it.

* ``judge``: the judge (pair model, packaged encoder, assignment rule);
* ``features``: the features of (predicted item, gold item) pairs;
* ``encoder_tuning``: bias tuning of the packaged sentence encoder;
* ``dev_set``: the labelled development set and how judges are measured on it;
* ``training``: fitting and grouped cross-validation;
* ``calibrate``: the threshold calibration of the plain cosine judge (``embedding-naive``);
* ``train`` / ``evaluate`` / ``check_matching_set``: the development commands
  (``python -m webtester.eval.judges.trained.<name> --help``).

Shared statistics (kappa, thresholds, instance splits) come from ``webtester.eval.stats``.
"""
