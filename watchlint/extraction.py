"""Extraction: read a unit's files and run its front-end, giving its facts, or notifications saying why not.
A failure inside one unit is a notification; the run goes on (DESIGN §2.2)."""

from __future__ import annotations

import contextlib
import gc
import importlib
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from watchlint import codecache, pickling
from watchlint.catalog import Catalog, Kind, KindIndex
from watchlint.config import Settings
from watchlint.debuglog import debug
from watchlint.discover import Unit
from watchlint.language import Language
from watchlint.notifications import Notification, NotificationLevel
from watchlint.source import SourceError, SourceFile, decode_source, display_path, read_source

if TYPE_CHECKING:
    from watchlint.facts import Facts
    from watchlint.frontend import UnitInput

    Extractor = Callable[[UnitInput], Facts]


Overlay = Mapping[Path, bytes]  # absolute path -> content to analyze instead of the file's (fixes not yet written)

# Imported on first use: libcst alone takes ~0.15 s to import, which a Go-only run (or a warm one) never needs.
_FRONT_END_MODULES: Mapping[Language, str] = {Language.GO: "watchlint.go", Language.PYTHON: "watchlint.python"}


def front_end(language: Language) -> Extractor:
    extract: Extractor = importlib.import_module(_FRONT_END_MODULES[language]).extract
    codecache.save()  # what importing it compiled, saved by the worker that compiled it
    return extract


@dataclass(frozen=True, slots=True)
class Extracted:
    """A unit's facts, or None when its front-end failed, with the notifications of reading it."""

    facts: Facts | None
    kinds: frozenset[str]  # the high-cardinality kinds in force for the unit
    notifications: list[Notification]
    cluster_scoped: frozenset[str] = frozenset()  # those of them no namespace holds


# A unit's analysis as a pool's worker is given it: the unit, its settings, its kinds (the catalogue's and the
# settings' extra ones: the whole catalogue, rule texts included, was most of what a job pickled), its files and
# the notifications of reading them.
Job = tuple[Unit, Settings, tuple[Kind, ...], list[SourceFile], list[Notification]]


def extract_job(job: Job) -> Extracted:
    unit, settings, kinds, sources, notifications = job
    return extract_sources(unit, settings, kinds, sources, notifications)


def extract_unit(unit: Unit, settings: Settings, catalog: Catalog, overlay: Overlay | None = None) -> Extracted:
    """Read a unit's files and run its front-end; failures become notifications."""
    sources, notifications = read_sources(unit.files, overlay or {})
    return extract_sources(unit, settings, catalog.kinds + settings.extra_kinds, sources, notifications)


def extract_sources(
    unit: Unit,
    settings: Settings,
    unit_kinds: tuple[Kind, ...],
    sources: list[SourceFile],
    notifications: list[Notification],
) -> Extracted:
    """Run a unit's front-end on its sources; an internal error becomes a notification."""
    kinds = KindIndex.build(unit_kinds)
    from watchlint.frontend import UnitInput

    unit_input = UnitInput(unit.root, display_path(unit.root), tuple(sources), kinds, settings.front_end_options)
    try:
        with _collector_paused():
            facts = front_end(unit.language)(unit_input)
    except Exception:  # an internal error must not lose the other units
        debug(__name__, "front-end failed on %s", unit.root)
        message = f"internal error while analyzing this {unit.language} unit"
        failure = internal_error(unit_input.shown_root, message, traceback.format_exc())
        return Extracted(None, kinds.names, [*notifications, failure])
    return Extracted(facts, kinds.names, notifications, kinds.cluster_scoped)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a front-end runs, and restore its state after.

    A front-end holds every tree and index of its unit until it returns, and reference counting frees them
    then; meanwhile each full collection walks all of them and finds nothing to free. Measured with one job:
    10-30 % of a Python unit's time (kopf 5.0 -> 3.4 s), 4-8 % of a Go module's, and no higher peak memory.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def read_sources(
    paths: Sequence[Path], overlay: Overlay, shown_paths: Sequence[str] | None = None
) -> tuple[list[SourceFile], list[Notification]]:
    sources, notifications = [], []
    for index, path in enumerate(paths):
        shown = shown_paths[index] if shown_paths is not None else display_path(path)
        try:
            sources.append(decode_source(overlay[path], shown) if path in overlay else read_source(path, shown))
        except SourceError as error:
            notifications.append(Notification(shown, str(error), NotificationLevel.ERROR))
    return sources, notifications


def internal_error(path: str, message: str, detail: str = "") -> Notification:
    return Notification(path, f"{message}; run with -v for details", NotificationLevel.ERROR, detail)


def worker_died(unit: Unit) -> Notification:
    message = f"internal error: the worker analyzing this {unit.language} unit died"
    return internal_error(display_path(unit.root), message)


def worker_failed(unit: Unit, error: BaseException) -> Notification:
    """A pool task that failed outside the front-end's guard: its result did not pickle, say."""
    message = f"internal error: the worker analyzing this {unit.language} unit could not return its facts"
    return internal_error(display_path(unit.root), message, "".join(traceback.format_exception(error)))


pickling.register(Extracted)
