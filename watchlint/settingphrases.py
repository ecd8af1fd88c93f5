"""How messages say a setting turns a condition on: a flag is set, an environment variable is non-empty.

A deployment may set an environment variable to "" (OLM's AllNamespaces install mode sets WATCH_NAMESPACE so),
which turns on no namespace scope: "is set" would say it does. A flag or another setting is given a value.
"""

from __future__ import annotations

import re

_ENVIRONMENT_NAME = re.compile(r"[A-Z][A-Z0-9_]*")  # WATCH_NAMESPACE; flags read `--name`, gates `--feature-gates X`
_SELECTED = re.compile(r"(?P<setting>[^=\s]+)=(?P<value>[^\s=]+)")  # a setting with the value a condition wants
_SOURCE = re.compile(r" \([^()]+\)$")  # where a setting is read, after its name: ` (configuration file)`
_GIVEN = {False: " is set", True: " is non-empty"}
_NOT_GIVEN = {False: " is not set", True: " is empty"}
_ALL_GIVEN = {False: " are set", True: " are non-empty"}
SUFFIXES = tuple(_GIVEN.values())  # the endings of a phrase `given` makes


def is_environment_name(origin: str) -> bool:
    return _ENVIRONMENT_NAME.fullmatch(origin) is not None


def given(origin: str, *, negated: bool = False, environment: bool | None = None) -> str:
    """`--namespace is set`, `WATCH_NAMESPACE is non-empty`; negated, `… is not set` / `… is empty`. An origin
    naming several settings (`--namespaces or WATCH_NAMESPACE`) takes one phrase each where they are of both
    sorts; `environment`: the origin is known to be a variable (a Python front-end's), whatever its spelling."""
    parts = origin.split(" or ")
    selected = _SELECTED.fullmatch(origin)
    if selected is not None:  # `AGENT_RBAC_SCOPE=namespace`: the value a setting must take, said as it is
        return f"{selected['setting']} is not {selected['value']}" if negated else origin
    if len(parts) > 1 and any(_SELECTED.fullmatch(part) for part in parts):  # `A=true or B=true`: each as it is
        return (" and " if negated else " or ").join(given(part, negated=negated) for part in parts)
    kinds = {is_environment_name(part) if environment is None else environment for part in parts}
    if len(kinds) > 1:
        return " or ".join(given(part, negated=negated) for part in parts)
    kind = kinds.pop()
    if len(parts) > 2 and not negated:  # `A, B or C is non-empty`, as any_given lists them
        return _listed(parts) + _GIVEN[kind]
    return origin + (_NOT_GIVEN if negated else _GIVEN)[kind]


def setting_of(text: str) -> str | None:
    """The setting a phrase of `given` names, or the settings of several joined by "or" (`--namespaces is set
    or KUBERNETES_NAMESPACE is non-empty`: `--namespaces or KUBERNETES_NAMESPACE`); None for another text."""
    for suffix in SUFFIXES:
        setting = text.removesuffix(suffix)
        if setting != text and " is " not in setting:
            return setting
    parts = text.split(" or ")
    settings = [setting_of(part) for part in parts] if len(parts) > 1 else []
    return " or ".join(setting for setting in settings if setting) if settings and all(settings) else None


def any_given(settings: list[str]) -> str:
    """`--a, --b or --c is set`: any one of them turns the condition on (one phrase each where they are of
    both sorts)."""
    kind = _one_kind(settings)
    if kind is None or any(_SELECTED.fullmatch(setting) for setting in settings):
        return " or ".join(given(setting) for setting in settings)
    return _listed(settings) + _GIVEN[kind]


def _listed(settings: list[str]) -> str:
    """`A, B or C`; settings of one source name it once, at the end (`A or B (configuration file)`)."""
    source = _SOURCE.search(settings[0])
    shared = source[0] if source is not None and all(setting.endswith(source[0]) for setting in settings) else ""
    names = [setting.removesuffix(shared) for setting in settings]
    return (f"{', '.join(names[:-1])} or {names[-1]}" if len(names) > 1 else names[0]) + shared


def all_given(phrases: list[str]) -> str:
    """`--a and --b are set` for phrases of `given` of one sort, else the phrases joined by "and". A phrase
    any of whose settings another one requires alone says nothing more (`A or B is set` beside `B is set`), nor
    one naming the same settings as another in another order (a slice filled under `if a || b` and tested)."""
    if len(phrases) > 1:
        named: dict[frozenset[str], str] = {}
        for phrase in phrases:
            named.setdefault(_alternatives(phrase), phrase)
        required = {next(iter(alternatives)) for alternatives in named if len(alternatives) == 1}
        phrases = [
            phrase for alternatives, phrase in named.items() if len(alternatives) == 1 or not required & alternatives
        ]
    settings = _settings_of(phrases)
    kind = _one_kind(settings) if settings is not None and len(phrases) > 1 else None
    if settings is None or kind is None or any(" or " in setting for setting in settings):
        return " and ".join(phrases)
    return " and ".join(settings) + _ALL_GIVEN[kind]


def _alternatives(phrase: str) -> frozenset[str]:
    """What a phrase says any one of turns the condition on: the settings of a phrase of `given` (`A or B is
    set`: A, B), else its parts (`A=true or B=true`)."""
    setting = setting_of(phrase)
    return frozenset((setting if setting is not None else phrase).split(" or "))


def either_given(phrases: list[str]) -> str:
    """`A or B is non-empty` for phrases of `given` of one sort, else the phrases joined by "or"."""
    settings = _settings_of(phrases)
    kind = _one_kind(settings) if settings is not None else None
    if settings is None or kind is None:
        return " or ".join(phrases)
    # a setting that is itself a disjunction (`A or B`) is listed part by part: `A, B or C is set`
    parts = list(dict.fromkeys(part for setting in settings for part in setting.split(" or ")))
    return _listed(parts) + _GIVEN[kind]


def _settings_of(phrases: list[str]) -> list[str] | None:
    settings = [setting_of(phrase) for phrase in phrases]
    return [setting for setting in settings if setting is not None] if None not in settings else None


def _one_kind(settings: list[str]) -> bool | None:
    """True where every setting is an environment variable, False where none is, None where they are mixed."""
    kinds = {is_environment_name(part) for setting in settings for part in setting.split(" or ")}
    return kinds.pop() if len(kinds) == 1 else None
