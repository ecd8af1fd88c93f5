"""The Python front-end: extract(unit) -> Facts is its only public entry point.

Files that name no Kubernetes client library are only syntax-checked (libcst is slow); the others are parsed
once with libcst, and kopf handlers, namespace scopes and client calls are read from them. The project (the
unit) has one kopf policy: a namespace scope anywhere in it scopes all its handlers (SPEC §3.2).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from watchlint.facts import CachePolicy, Comment, Facts, Language, Notification, NotificationLevel, Site
from watchlint.frontend import UnitInput, file_failure
from watchlint.python import parser
from watchlint.python.clients import ClientContext, extract_clients
from watchlint.python.flow import Flow
from watchlint.python.kopf import KopfFacts, extract_kopf, kopf_policy
from watchlint.python.lightkube_kr8s import extract_lightkube_kr8s
from watchlint.source import SourceFile

# Files without one of these bytes cannot use a client library or define an operator (a list method passed
# in from elsewhere still spells `_for_all_namespaces`).
LIBRARY_MARKERS = (b"kopf", b"kubernetes", b"lightkube", b"kr8s", b"_for_all_namespaces")


@dataclass(slots=True)
class _Run:
    files: list[str] = field(default_factory=list)
    parsed: list[tuple[parser.ParsedFile, Flow]] = field(default_factory=list)
    comments: list[Comment] = field(default_factory=list)
    notifications: list[Notification] = field(default_factory=list)
    sites: list[Site] = field(default_factory=list)


def extract(unit: UnitInput) -> Facts:
    run = _Run()
    for source in unit.sources:
        _read(run, source)
    shadowed = frozenset(name for _, flow in run.parsed for name in flow.function_names)
    kopf = KopfFacts()
    for file, flow in run.parsed:
        try:
            extract_kopf(file, flow, unit.kinds, kopf)
            context = ClientContext(file, flow, unit.kinds, shadowed)
            run.sites.extend(extract_clients(context))
            run.sites.extend(extract_lightkube_kr8s(context))
        except Exception:  # one file's failure must not lose the unit
            run.notifications.append(file_failure(file.source))
    policy = kopf_policy(kopf, unit.shown_root, unit.kopf_namespaced)
    policies: tuple[CachePolicy, ...] = (policy,) if policy is not None else ()
    return Facts(
        language=Language.PYTHON,
        root=unit.shown_root,
        files=tuple(run.files),
        sites=tuple(kopf.sites + run.sites),
        policies=policies,
        comments=tuple(run.comments),
        notifications=tuple(run.notifications),
    )


def _read(run: _Run, source: SourceFile) -> None:
    """Parse one file (or only check its syntax when it names no library); failures become notifications."""
    try:
        if any(marker in source.data for marker in LIBRARY_MARKERS):
            file = parser.ParsedFile(source, parser.parse(source))
            run.parsed.append((file, Flow(file)))
            run.comments.extend(parser.extract_comments(source))
        else:
            parser.check_syntax(source)
    except parser.PythonSyntaxError as error:
        level = NotificationLevel.WARNING if error.is_python2 else NotificationLevel.ERROR
        run.notifications.append(Notification(source.path, f"{error}; file skipped", level))
        return
    except Exception:  # one file's failure must not lose the unit
        run.notifications.append(file_failure(source))
        return
    run.files.append(source.path)
