"""What app a run's target means, and how to start it.

A target is a bundled app's name, an :class:`~webtester.models.Instance`
(bundled, or a dataset instance with an :class:`~webtester.models.AppSpec`),
an ``AppSpec``, a static or npm folder, or a URL. A string that is neither a
URL nor an existing path names a bundled app.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from webtester import bundled
from webtester.apps_source import find_app
from webtester.browser.launcher import start_app, start_dataset_app
from webtester.errors import InputError
from webtester.models import AppSpec, Instance

Target = Instance | AppSpec | str | Path


class StartedApp(Protocol):
    """A running app under test (a launcher's ``RunningApp`` or a bundled app's static server)."""

    @property
    def url(self) -> str:
        """The app's base URL."""
        ...

    def stop(self) -> None:
        """Stop the app (idempotent)."""
        ...


AppStarter = Callable[[], StartedApp]


def is_url(target: str | Path) -> bool:
    """Whether ``target`` is a URL (anything with a scheme)."""
    return isinstance(target, str) and "://" in target


def names_bundled_app(target: Target) -> bool:
    """Whether ``target`` is a string naming a bundled app (neither a URL nor an existing path)."""
    return isinstance(target, str) and not is_url(target) and not Path(target).exists()


def resolve_target(target: Target) -> Instance | AppSpec | str | Path:
    """``target`` with a bundled app's name replaced by its instance; raises :class:`~webtester.errors.InputError`
    for an unknown name and for a path that is not an app folder (:func:`check_app_folder`)."""
    if isinstance(target, (str, Path)) and not is_url(target) and Path(target).exists():
        check_app_folder(Path(target))
    if not names_bundled_app(target):
        return target
    assert isinstance(target, str)
    try:
        return bundled.get_instance(target)
    except KeyError as exc:
        raise InputError(f"{target!r} is not a URL, a folder or a bundled app ({exc.args[0]})") from None


def check_app_target(target: str) -> None:
    """Raise :class:`~webtester.errors.InputError` unless ``target`` is a URL or an app folder (:func:`check_app_folder`)."""
    if is_url(target):
        return
    if not Path(target).exists():
        raise InputError(f"not a URL and not a folder: {target!r}")
    check_app_folder(Path(target))


def check_app_folder(folder: Path) -> None:
    """Raise :class:`~webtester.errors.InputError` unless ``folder`` is an npm project (``package.json``) or a
    static site (``index.html``): anything else would be served as a file listing and tested as if it were the app."""
    if not folder.is_dir():
        raise InputError(f"{folder}: not a folder; give the app's folder (with index.html or package.json) or a URL")
    if not (folder / "package.json").is_file() and not (folder / "index.html").is_file():
        raise InputError(f"{folder}: no index.html (a static site) and no package.json (an npm project) in this folder")


def target_label(target: Target) -> str:
    """How a target is recorded in the manifest and the run state: an instance's index, else the target as given."""
    return target.index if isinstance(target, Instance) else str(target)


def app_starter(
    target: Target,
    *,
    build: str = "shipped",
    apps_root: Path | None = None,
    log_path: Path | None = None,
    serve: str = "dev",
) -> AppStarter:
    """A function that starts the app under test (see the module docstring). A bundled instance is served
    in ``build`` (its switchable defects); any other instance starts from its ``app`` spec, or from its app in
    the apps location ``apps_root`` (a folder of zips or of unpacked apps, see :mod:`webtester.apps_source`),
    unpacked into the cache; ``serve`` (``dev`` or ``build``) says how an npm app is served. The starter
    raises :class:`~webtester.apps_source.AppAbsentError` when the location holds no app for the instance."""
    resolved = resolve_target(target)
    if isinstance(resolved, Instance):
        inst = resolved
        if inst.defects:  # a bundled app with switchable defects
            root = apps_root or bundled.apps_root()
            return lambda: bundled.serve_app(inst, build, root)
        if inst.app is not None:
            spec = inst.app
            return lambda: start_app(spec, apps_root=apps_root, log_path=log_path, serve=serve)
        location = Path(apps_root or bundled.apps_root())
        return lambda: start_dataset_app(inst.index, location, log_path=log_path, serve=serve)
    app: AppSpec | str | Path = resolved
    return lambda: start_app(app, apps_root=apps_root, log_path=log_path, serve=serve)


def app_present(instance: Instance, apps_root: Path | None) -> bool:
    """Whether a dataset instance's app can be found (bundled apps and app specs always count as present)."""
    if instance.defects or instance.app is not None:
        return True
    try:
        find_app(instance.index, Path(apps_root or bundled.apps_root()))
    except LookupError:
        return False
    return True
