"""Correlation-with-human studies: annotations, statistics, the study and its report."""

from webtester.eval.correlation.annotations import Annotation, AnnotationError, load_annotations
from webtester.eval.correlation.study import StudyResult, load_systems, run_study

__all__ = ["Annotation", "AnnotationError", "StudyResult", "load_annotations", "load_systems", "run_study"]
