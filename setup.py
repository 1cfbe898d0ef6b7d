"""Package layout: the repository keeps ``graphs/`` and ``eval/`` at the top level, and they
install as ``webtester.graphs`` and ``webtester.eval``, so site-packages holds only ``webtester``.
The bundled benchmark's ``apps/`` and ``gold/`` install as data under ``webtester/data/``, the
installed data root of :mod:`webtester.data_root`."""

from setuptools import find_packages, setup

MAPPED = {"webtester.graphs": "graphs", "webtester.eval": "eval"}
DATA = {"webtester.data.apps": "apps", "webtester.data.gold": "gold"}


def _packages() -> list[str]:
    names = find_packages(include=["webtester", "webtester.*"])
    for package, folder in {**MAPPED, **DATA}.items():
        names.append(package)
        names += [f"{package}.{sub}" for sub in find_packages(where=folder)]
    return names


setup(packages=_packages(), package_dir={"webtester": "webtester", **MAPPED, **DATA})
