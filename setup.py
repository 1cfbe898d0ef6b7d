"""Package layout: the repository keeps ``graphs/`` and ``eval/`` at the top level, and they
install as ``webtester.graphs`` and ``webtester.eval``, so site-packages holds only ``webtester``."""

from setuptools import find_packages, setup

MAPPED = {"webtester.graphs": "graphs", "webtester.eval": "eval"}


def _packages() -> list[str]:
    names = find_packages(include=["webtester", "webtester.*"])
    for package, folder in MAPPED.items():
        names.append(package)
        names += [f"{package}.{sub}" for sub in find_packages(where=folder)]
    return names


setup(packages=_packages(), package_dir={"webtester": "webtester", **MAPPED})
