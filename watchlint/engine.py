"""The pipeline: discover units, look them up in the cache, extract the facts of the others (extraction, pool),
run the checks, apply suppressions, sort.

A file that cannot be read or parsed becomes a notification and the run goes on (DESIGN §2.2).
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from watchlint import earlyhint, pickling
from watchlint.cache import FactsCache, report_key
from watchlint.catalog import Catalog
from watchlint.config import (
    CONFIG_NAMES,
    CommandLine,
    FileConfig,
    Settings,
    config_in,
    load_config,
    resolve_settings,
)
from watchlint.debuglog import debug
from watchlint.discover import Unit, discover
from watchlint.extraction import Extracted, Job, Overlay, extract_job, extract_unit, internal_error, worker_died
from watchlint.language import Language
from watchlint.notifications import Notification, NotificationLevel
from watchlint.pool import Jobs, run_jobs
from watchlint.resolved import forget_folders, resolved_folder
from watchlint.unitstate import UnitState, cached

if TYPE_CHECKING:  # imported where used: a run that reuses its rendered report needs neither facts nor findings
    from watchlint.checks import CheckContext
    from watchlint.facts import Facts
    from watchlint.findings import Finding, Mitigated
    from watchlint.standby import Standby


@dataclass(frozen=True, slots=True)
class Report:
    """The outcome of a run, ready for the reporters."""

    findings: tuple[Finding, ...]  # sorted; suppressed ones included and flagged
    mitigated: tuple[Mitigated, ...]  # sorted candidate sites that are not findings
    notifications: tuple[Notification, ...]  # sorted by path
    files_analyzed: int
    baselined: int = 0  # findings left out because a baseline records them

    @property
    def active_findings(self) -> tuple[Finding, ...]:
        return tuple(finding for finding in self.findings if not finding.is_suppressed)

    @property
    def has_failed_entirely(self) -> bool:
        """True when files were found but none of them could be analyzed."""
        failed = any(n.level is NotificationLevel.ERROR for n in self.notifications)
        return failed and self.files_analyzed == 0


@dataclass(slots=True)
class SettingsResolver:
    """Settings per folder: the nearest configuration file, or --config, combined with the command line."""

    command_line: CommandLine
    catalog: Catalog
    _by_config: dict[Path | None, Settings] = field(default_factory=dict)
    _by_folder: dict[Path, Path | None] = field(default_factory=dict)
    _by_resolved: dict[Path, Path | None] = field(default_factory=dict)

    def settings_for(self, folder: Path) -> Settings:
        config_path = self.command_line.config_file or self._config_path(folder)
        if config_path not in self._by_config:
            file_config: FileConfig | None = load_config(config_path, self.catalog) if config_path else None
            self._by_config[config_path] = resolve_settings(file_config, self.command_line, self.catalog)
        return self._by_config[config_path]

    def _config_path(self, folder: Path) -> Path | None:
        if folder not in self._by_folder:
            self._by_folder[folder] = self._nearest_config(resolved_folder(folder))
        return self._by_folder[folder]

    def _nearest_config(self, directory: Path) -> Path | None:
        """find_config, remembering every folder on the way up: sibling folders share their ancestors."""
        if directory not in self._by_resolved:
            found = config_in(directory)
            if found is None and directory.parent != directory:
                found = self._nearest_config(directory.parent)
            self._by_resolved[directory] = found
        return self._by_resolved[directory]

    @property
    def config_names(self) -> frozenset[str]:
        return _CONFIG_NAMES if self.command_line.config_file is None else frozenset()

    def rules_for(self, folder: Path) -> Settings:
        return self.settings_for(folder)


_CONFIG_NAMES = frozenset(CONFIG_NAMES)


@dataclass(frozen=True, slots=True)
class RunOptions:
    """How to run: worker processes, the facts cache, and a progress callback (done, total units)."""

    jobs: int = 1
    cache: FactsCache | None = None
    progress: Callable[[int, int], None] | None = None
    standby: Standby | None = None  # takes the first unit to analyze, when there is a cache


def run(
    paths: Sequence[Path],
    command_line: CommandLine,
    catalog: Catalog,
    overlay: Overlay | None = None,
    options: RunOptions | None = None,
) -> Report:
    """Analyze `paths`; raise WatchlintError for usage and configuration errors only."""
    return plan(paths, command_line, catalog, overlay, options).report()


def plan(
    paths: Sequence[Path],
    command_line: CommandLine,
    catalog: Catalog,
    overlay: Overlay | None = None,
    options: RunOptions | None = None,
) -> RunPlan:
    """Discover the units of `paths` and key each one, reading its files only where the cache does not know
    them by their metadata; raise WatchlintError for usage and configuration errors only."""
    options = options or RunOptions()
    overlay = overlay or {}
    forget_folders()
    resolver = SettingsResolver(command_line, catalog)
    for path in paths:  # a broken configuration is an error even where no source file needs it
        absolute = path.absolute()
        resolver.settings_for(absolute if absolute.is_dir() else absolute.parent)
    discovery = discover(paths, resolver)
    cache = options.cache if not overlay else None
    states = [UnitState(unit, resolver.settings_for(unit.root), catalog) for unit in discovery.units]
    if cache is not None:  # without a cache nothing is keyed: each unit's files are read when its turn comes
        standby = options.standby  # told the language of the first unit to analyze again, then no more
        # Python units first: the standby worker imports the Go front-end first, and the sooner it is told a
        # Python unit is to be analyzed again, the sooner it turns to libcst's import, the longer one
        python_read = False  # whether a Python unit's files changed since the cache last saw them
        for state in sorted(states, key=lambda state: state.unit.language is not Language.PYTHON):
            if not state.recall_key(cache):
                state.read(overlay, cache)
                python_read = python_read or state.unit.language is Language.PYTHON
                if standby is not None and not cache.holds(state.outcome_key):  # not a file restored as it was
                    standby.expect(state.unit.language)
                    standby = None
        if python_read:  # what the next run compares its Python files with (watchlint/earlyhint.py)
            python = (state for state in states if state.unit.language is Language.PYTHON)
            earlyhint.remember_python(cache, (item for state in python for item in state.file_stats()))
    return RunPlan(discovery.notifications, states, overlay, options, cache)


@dataclass(frozen=True, slots=True)
class RunPlan:
    """A run whose units are discovered and keyed, none analyzed yet."""

    notifications: tuple[Notification, ...]  # discovery's
    states: list[UnitState]
    overlay: Overlay
    options: RunOptions
    cache: FactsCache | None  # None without a cache, and with an overlay

    @property
    def key(self) -> str | None:
        """Everything the report depends on, as one key, so that a report rendered before can be reused whole:
        each unit's outcome key and what discovery said. None when there is no cache to reuse from."""
        if self.cache is None:
            return None
        notes = (f"{note.level}\0{note.path}\0{note.message}\0{note.detail}" for note in self.notifications)
        return report_key((state.outcome_key for state in self.states), notes)

    def unit_files(self) -> list[tuple[str, list[str]]]:
        """Each unit's outcome key and the paths of its files as reports show them (once analyzed: a unit
        whose files changed while the run read them is keyed by what was read)."""
        return [(state.outcome_key, state.shown) for state in self.states]

    def report(
        self,
        meanwhile: Callable[[], None] | None = None,
        analyzed_one: Callable[[UnitOutcome], None] | None = None,
    ) -> Report:
        """Analyze the units: an unchanged unit checked with the same settings and reported files is read
        back whole; a unit whose facts alone are cached is checked again; the others go to their
        front-ends, in a process pool when there are several jobs and several units to parse. `meanwhile` is
        called once while the run waits for the standby worker's outcome, every unit keyed by then, with
        nothing else to do: what comes after the analysis can be made ready in that time. `analyzed_one` is
        given the outcome of each unit the pool (or this process) analyzes, as it comes: its findings can be
        rendered while the other units are analyzed."""
        findings: list[Finding] = []
        mitigated: list[Mitigated] = []
        notifications = list(self.notifications)
        analyzed = 0
        for outcome in _analyze(self.states, self.overlay, self.options, self.cache, meanwhile, analyzed_one):
            findings.extend(outcome.findings)
            mitigated.extend(outcome.mitigated)
            notifications.extend(outcome.notifications)
            analyzed += outcome.files_analyzed
        return make_report(findings, mitigated, notifications, analyzed)


def _analyze(
    states: Sequence[UnitState],
    overlay: Overlay,
    options: RunOptions,
    cache: FactsCache | None,
    meanwhile: Callable[[], None] | None,
    analyzed_one: Callable[[UnitOutcome], None] | None,
) -> list[UnitOutcome]:
    triage = _triage(states, overlay, cache, options.standby if cache is not None else None)
    outcomes = triage.outcomes

    def check(index: int, extracted: Extracted, *, new: bool) -> UnitOutcome:
        state = states[index]
        facts_key = state.key if new else None  # facts read from the cache are there already
        outcome = _checked(extracted, state.settings, state.reported, cache, state.outcome_key, facts_key)
        outcomes[index] = outcome
        return outcome

    for index, found in sorted(triage.facts.items()):
        check(index, found, new=False)
    to_parse = triage.to_parse
    done = len(states) - len(to_parse) - (triage.handed is not None)
    pending = [states[index] for index in to_parse]
    sizes, languages = [state.size for state in pending], [state.unit.language for state in pending]
    jobs = Jobs(lambda position: pending[position].take_job(overlay, cache), sizes, languages)
    for position, extracted in run_jobs(jobs, options.jobs):
        outcome = check(to_parse[position], extracted, new=True)
        if analyzed_one is not None:
            analyzed_one(outcome)
        done += 1
        if options.progress is not None:
            options.progress(done, len(states))
    if triage.handed is not None:
        if meanwhile is not None:
            meanwhile()
        index, job, outcome_of = triage.handed
        outcomes[index] = outcome_of() or UnitOutcome([], [], [*job[4], worker_died(job[0])], 0)
        if options.progress is not None:
            options.progress(len(states), len(states))
    return [outcome for outcome in outcomes if outcome is not None]


@dataclass(slots=True)
class _Triage:
    """What each unit needs, by position: its outcome read back, its facts checked, or its files analyzed."""

    outcomes: list[UnitOutcome | None]
    facts: dict[int, Extracted]
    to_parse: list[int]
    handed: tuple[int, Job, Callable[[], UnitOutcome | None]] | None  # the unit given to the standby worker


def _triage(
    states: Sequence[UnitState], overlay: Overlay, cache: FactsCache | None, standby: Standby | None
) -> _Triage:
    """Look each unit up in the cache; the first one to analyze goes to the standby worker, if there is one.
    The units read while planning changed since the cache last saw them: they are looked up first, so that
    the one to analyze again reaches the worker before the other outcomes are read back."""
    triage = _Triage([None] * len(states), {}, [], None)
    for index in sorted(range(len(states)), key=lambda index: states[index].sources is None):
        state = states[index]
        if cache is not None:
            if (outcome := cached(cache, state.outcome_key, UnitOutcome)) is not None:
                triage.outcomes[index] = outcome
                state.sources = None  # read to be keyed only: not needed any more
                continue
            if (found := cached(cache, state.key, Extracted)) is not None:
                triage.facts[index] = found
                state.sources = None
                continue
        if standby is not None and triage.handed is None:
            job = state.take_job(overlay, cache)  # read now if needed, and keyed by what was read
            given = standby.analyze(job, state.settings, state.reported, state.key, state.outcome_key)
            triage.handed = index, job, given
            continue
        triage.to_parse.append(index)
    triage.to_parse.sort()
    return triage


def analyze_job(
    job: Job, settings: Settings, reported: frozenset[str], cache: FactsCache | None, facts_key: str, outcome_key: str
) -> UnitOutcome:
    """Extract and check one unit, and cache its facts and outcome: the standby worker's task."""
    return _checked(extract_job(job), settings, reported, cache, outcome_key, facts_key)


def _checked(
    extracted: Extracted,
    settings: Settings,
    reported: frozenset[str],
    cache: FactsCache | None,
    outcome_key: str,
    facts_key: str | None,
) -> UnitOutcome:
    """Check a unit's facts and cache the outcome, and the facts too when they are new (`facts_key`); a
    front-end that failed leaves nothing in the cache, so that the next run tries again."""
    outcome = _evaluate_unit(extracted, settings, reported)
    if cache is not None and extracted.facts is not None:
        if facts_key is not None:
            cache.store(facts_key, extracted)
        cache.store(outcome_key, outcome)
    return outcome


def make_report(
    findings: Iterable[Finding], mitigated: Iterable[Mitigated], notifications: Iterable[Notification], analyzed: int
) -> Report:
    """Sort everything into the deterministic order every reporter relies on."""
    from watchlint.findings import number_occurrences

    return Report(
        findings=tuple(number_occurrences(list(findings))),
        mitigated=tuple(sorted(mitigated, key=lambda item: (item.span, item.code))),
        notifications=tuple(sorted(set(notifications), key=lambda n: (n.path, n.message))),
        files_analyzed=analyzed,
    )


@dataclass(frozen=True, slots=True)
class UnitOutcome:
    findings: list[Finding]
    mitigated: list[Mitigated]
    notifications: list[Notification]
    files_analyzed: int


def _evaluate_unit(extracted: Extracted, settings: Settings, reported: frozenset[str]) -> UnitOutcome:
    if extracted.facts is None:
        return UnitOutcome([], [], extracted.notifications, 0)
    outcome = evaluate(extracted.facts, settings, extracted.kinds, reported)
    notifications = extracted.notifications + outcome.notifications
    return UnitOutcome(outcome.findings, outcome.mitigated, notifications, len(extracted.facts.files))


def extract_all(
    paths: Sequence[Path], command_line: CommandLine, catalog: Catalog
) -> tuple[list[tuple[Unit, Extracted]], list[Notification]]:
    """Every unit's facts, for commands that read facts rather than findings (inventory)."""
    forget_folders()
    resolver = SettingsResolver(command_line, catalog)
    discovery = discover(paths, resolver)
    units = [(unit, extract_unit(unit, resolver.settings_for(unit.root), catalog)) for unit in discovery.units]
    return units, list(discovery.notifications)


def evaluate(facts: Facts, settings: Settings, kinds: frozenset[str], reported: frozenset[str]) -> UnitOutcome:
    """Run the selected checks on facts, keep what lies in the reported files, and apply suppressions."""
    # Imported here: a warm run reads checked outcomes from the cache and never needs the checks.
    from watchlint.checks import CheckContext
    from watchlint.suppress import apply_suppressions

    notifications = list(facts.notifications)
    context = CheckContext(levels=settings.levels, kinds=kinds, cluster_scoped=settings.cluster_scoped)
    findings, mitigated, check_notifications = _run_checks(facts, context, sorted(settings.codes))
    notifications.extend(check_notifications)
    findings = [finding for finding in findings if _is_reported(finding, reported)]
    findings, suppression_notes = apply_suppressions(findings, facts.comments, facts.language)
    notifications.extend(note for note in suppression_notes if note.path in reported)
    taken = {finding.span for finding in findings}
    kept = []
    for item in sorted(mitigated, key=lambda m: (m.span, m.code)):
        if item.span.path in reported and item.span not in taken:
            taken.add(item.span)  # one verdict per site: the first rule that judged it
            kept.append(item)
    mitigated = kept
    return UnitOutcome(findings, mitigated, notifications, len(facts.files))


def _is_reported(finding: Finding, reported: frozenset[str]) -> bool:
    """Located in a reported file, or fixed by editing one (pre-commit given only cmd/main.go)."""
    if finding.span.path in reported:
        return True
    return any(edit.span.path in reported for fix in finding.fixes for edit in fix.edits)


def _run_checks(
    facts: Facts, context: CheckContext, codes: list[str]
) -> tuple[list[Finding], list[Mitigated], list[Notification]]:
    from watchlint.checks import CHECKS
    from watchlint.findings import Mitigated

    findings: list[Finding] = []
    mitigated: list[Mitigated] = []
    notifications: list[Notification] = []
    seen: dict[tuple[str, int, int], int] = {}  # each place, the index of its finding
    for code in codes:
        try:
            verdicts = list(CHECKS[code](facts, context))
        except Exception:
            debug(__name__, "check %s failed on %s", code, facts.root)
            message = f"internal error in check {code}"
            notifications.append(internal_error(facts.root, message, traceback.format_exc()))
            continue
        for verdict in verdicts:
            if isinstance(verdict, Mitigated):
                mitigated.append(verdict)
                continue
            place = (verdict.span.path, verdict.span.line, verdict.span.column)
            first = seen.get(place)
            if first is not None and findings[first].kind != verdict.kind:
                # one call given each kind of a loop (`for _, o := range objects { IndexField(ctx, o, …) }`):
                # one site, one finding (SPEC §3), which names the other kinds as it does its evidence
                findings[first] = _also(findings[first], verdict)
                continue
            if first is not None:  # the same kind twice at one site is a bug worth reporting
                notifications.append(internal_error(verdict.span.path, f"two findings at line {place[1]}"))
                continue
            seen[place] = len(findings)
            findings.append(verdict)
    return findings, mitigated, notifications


pickling.register(UnitOutcome)


def _also(finding: Finding, other: Finding) -> Finding:
    """A finding that also stands for another kind the same call reads or watches."""
    from watchlint.findings import Related

    return replace(finding, related=(*finding.related, Related(other.span, f"the same call: {other.message}")))
