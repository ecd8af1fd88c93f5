"""The `check` command's run: settings from its options, the engine (or the fixer) with a cache and workers, a
report rendered afresh or reused, written where asked, and the exit code."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from watchlint import cache as cache_module
from watchlint import earlyhint, metadata, rendered, standby
from watchlint.atomic import write_atomically
from watchlint.catalog import Catalog, load_catalog
from watchlint.config import CommandLine, find_config
from watchlint.engine import Report, RunOptions, RunPlan, plan
from watchlint.errors import WatchlintError
from watchlint.language import Language
from watchlint.rendered import Rendered
from watchlint.source import SourceLines

if TYPE_CHECKING:
    from watchlint import fixer, report_text

# The reporters and the baseline are imported where used: a run that reuses its rendered report needs none.

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
PROGRESS_AFTER_SECONDS = 2.0  # short runs print no progress line
PROGRESS_BAR_WIDTH = 30


@dataclass(frozen=True, slots=True)
class CheckOptions:
    """The options of `watchlint check`, as click parsed them."""

    paths: tuple[Path, ...]
    output_format: str
    output: Path | None
    select: tuple[str, ...]
    ignore: tuple[str, ...]
    exclude: tuple[str, ...]
    config_file: Path | None
    include_tests: bool
    show_suppressed: bool
    show_mitigated: bool
    fix: bool
    unsafe_fixes: bool
    diff: bool
    baseline: Path | None
    write_baseline: Path | None
    statistics: bool
    jobs: int | None
    no_cache: bool
    cache_dir: Path | None
    no_color: bool
    quiet: bool
    verbose: bool


def run_check(options: CheckOptions) -> int:
    config_file = options.config_file
    if config_file is not None and not config_file.is_file():
        raise WatchlintError(f"{config_file}: config file not found")
    command_line = CommandLine(
        select=_split_codes(options.select),
        ignore=_split_codes(options.ignore),
        exclude=options.exclude,
        config_file=config_file.absolute() if config_file else None,
        include_tests=options.include_tests,
    )
    catalog = load_catalog()
    paths = options.paths or (Path("."),)
    run_options = _run_options(options, config_file)
    if options.fix or options.diff:
        from watchlint import fixer  # only --fix and --diff need it

        outcome = fixer.fix(paths, command_line, catalog, include_unsafe=options.unsafe_fixes, options=run_options)
        if options.diff:
            write(outcome.diff(), options.output)
            _summarize_fixes(outcome, "would be applied", options.quiet)
            return EXIT_FINDINGS if outcome.changed else EXIT_CLEAN
        fixer.write_all(outcome)
        _summarize_fixes(outcome, "applied", options.quiet)
        report = outcome.report
        reuse = None
        blocks = None  # the report is of contents not yet keyed
    else:
        with _standing_by(run_options) as run_options:
            planned = plan(paths, command_line, catalog, options=run_options)
            reuse = _reuse_slot(run_options.cache, options)
            report_key = planned.key
            found = reuse.load(report_key) if reuse is not None and report_key is not None else None
            if found is not None:
                return _emit(found, options.output)
            report, blocks = _analyzed(planned, catalog, run_options.cache, options)
    if run_options.progress is not None:
        click.echo("\r\033[K", nl=False, err=True)  # clear the progress line
    from watchlint import baseline

    if options.write_baseline is not None:
        recorded = baseline.write_baseline(options.write_baseline, report.findings)
        click.echo(f"Recorded {recorded} findings in {options.write_baseline}.", err=True)
        return EXIT_CLEAN
    if options.baseline is not None:
        report, _ = baseline.apply_baseline(report, baseline.read_baseline(options.baseline))
    result = _rendered(report, catalog, options, blocks)
    # Keyed again: files that changed after their metadata was looked up were keyed afresh when read, and
    # the report is that of what was read.
    if reuse is not None and (analyzed := planned.key) is not None:
        reuse.store(analyzed, result)
    return _emit(result, options.output)


def _analyzed(
    planned: RunPlan, catalog: Catalog, cache: cache_module.FactsCache | None, options: CheckOptions
) -> tuple[Report, rendered.Blocks | None]:
    """The report of a planned run, and the findings rendered before. Where the standby worker analyzes a changed
    unit, the report's modules and the other units' findings (`_finding_blocks`) are made ready while it does,
    every unit keyed by then: this process would wait for it with nothing else to do. Without a cache, a JSON
    report's findings are rendered as each unit's outcome comes, while the pool analyzes the others: the last
    unit's are left to render once all are done, rather than all of them."""
    if cache is None and options.output_format == "json" and not options.statistics:
        from watchlint import report_json

        ahead = rendered.AheadBlocks()
        report = planned.report(analyzed_one=lambda outcome: report_json.render_ahead(outcome.findings, catalog, ahead))
        return report, ahead
    prepared: list[rendered.FindingBlocks | None] = []

    def prepare() -> None:
        _import_renderers(options.output_format)
        prepared.append(_finding_blocks(cache, planned.unit_files(), options))
        if prepared[0] is not None:
            prepared[0].load()

    report = planned.report(meanwhile=prepare)
    return report, prepared[0] if prepared else _finding_blocks(cache, planned.unit_files(), options)


@contextlib.contextmanager
def _standing_by(run_options: RunOptions) -> Iterator[RunOptions]:
    """The run options with a standby worker (watchlint/standby.py) for a run that likely has one unit to
    analyze again: one with a cache that holds entries, allowed more than one process."""
    cache = run_options.cache
    worker = None
    if cache is not None and run_options.jobs > 1 and standby.available() and cache.exists:
        worker = standby.Standby.start(cache)
        if worker is not None and earlyhint.python_changed(cache):
            worker.expect(Language.PYTHON)  # libcst's import first, rather than once planning meets the unit
    if worker is None:
        yield run_options
        return
    try:
        yield replace(run_options, standby=worker)
    finally:
        worker.dismiss()


def _reuse_slot(cache: cache_module.FactsCache | None, options: CheckOptions) -> rendered.Slot | None:
    """Where this way of running keeps its rendered reports, when one can be reused: not with a baseline, a
    file of its own to follow."""
    if cache is None or options.baseline is not None or options.write_baseline is not None:
        return None
    choices = (  # not the paths: a pre-commit hook gives other files each time (the report key says which)
        options.output_format,
        options.statistics,
        options.show_suppressed,
        options.show_mitigated,
        options.quiet,
        options.verbose,
        use_color(options.no_color, options.output),
        use_color(options.no_color, None),
        os.getcwd(),  # SourceLines reads the reported files from it
        metadata.repository_url() if options.output_format == "sarif" else "",
    )
    return rendered.slot(cache, choices)


def _finding_blocks(
    cache: cache_module.FactsCache | None, units: list[tuple[str, list[str]]] | None, options: CheckOptions
) -> rendered.FindingBlocks | None:
    """The findings rendered before (text blocks, JSON objects), for a report of analyzed units (`units`: each
    one's outcome key and shown paths; None after fixes, whose report is of contents not yet keyed)."""
    if cache is None or units is None or options.statistics:
        return None
    if options.output_format == "json":
        return rendered.finding_blocks(cache, units, ("json",))
    if options.output_format != "text":
        return None
    choices = (use_color(options.no_color, options.output), os.getcwd())  # SourceLines reads from it
    return rendered.finding_blocks(cache, units, choices)


def _run_options(options: CheckOptions, config_file: Path | None) -> RunOptions:
    """Workers, cache folder (beside the configuration, like .ruff_cache) and a progress line for long runs."""
    cache = None
    if not options.no_cache:
        folder = options.cache_dir
        if folder is None:
            found = config_file.absolute() if config_file else find_config(Path.cwd())
            folder = (found.parent if found is not None else Path.cwd()) / cache_module.FOLDER
        cache = cache_module.FactsCache(folder)
    progress = None
    if not options.quiet and sys.stderr.isatty():
        started = time.monotonic()

        def progress(done: int, total: int) -> None:
            if time.monotonic() - started > PROGRESS_AFTER_SECONDS:
                click.echo(progress_bar(done, total), nl=False, err=True)

    return RunOptions(jobs=options.jobs or os.cpu_count() or 1, cache=cache, progress=progress)


def progress_bar(done: int, total: int) -> str:
    """The progress line, drawn over the previous one: a bar and the units analyzed, padded so that the line
    keeps its length."""
    filled = PROGRESS_BAR_WIDTH * done // total if total else PROGRESS_BAR_WIDTH
    bar = "#" * filled + "." * (PROGRESS_BAR_WIDTH - filled)
    return f"\rwatchlint [{bar}] {done:>{len(str(total))}}/{total} units"


def _rendered(
    report: Report, catalog: Catalog, options: CheckOptions, blocks: rendered.Blocks | None = None
) -> Rendered:
    """The report (or the statistics), the notifications for standard error, and the exit code; `blocks`
    holds the text blocks of findings rendered before."""
    from watchlint import report_statistics, report_text

    if options.statistics:
        render = report_statistics.render_json if options.output_format == "json" else report_statistics.render_text
        text = render(report, catalog)
    else:
        color = use_color(options.no_color, options.output) and options.output_format == "text"
        text_options = report_text.TextOptions(
            color, options.show_suppressed, options.show_mitigated, show_summary=not options.quiet
        )
        text = _render(report, catalog, options.output_format, text_options, blocks)
    messages = []
    if not options.quiet:
        for notification in report.notifications:
            messages.append(report_text.render_notification(notification, color=use_color(options.no_color, None)))
            if options.verbose and notification.detail:
                messages.append(notification.detail.rstrip())
    if report.has_failed_entirely:
        messages.append("error: no file could be analyzed")
        return Rendered(text, tuple(messages), EXIT_ERROR)
    return Rendered(text, tuple(messages), EXIT_FINDINGS if report.active_findings else EXIT_CLEAN)


def _emit(result: Rendered, output: Path | None) -> int:
    write(result.text, output)
    for message in result.messages:
        click.echo(message, err=True)
    return result.exit_code


def _summarize_fixes(outcome: fixer.FixOutcome, verb: str, quiet: bool) -> None:
    if quiet:
        return
    files = len(outcome.changed)
    noun = "fix" if outcome.applied == 1 else "fixes"
    click.echo(f"{outcome.applied} {noun} {verb} in {files} file{'s' if files != 1 else ''}.", err=True)


def _import_renderers(output_format: str) -> None:
    """Import what rendering a report in `output_format` imports."""
    from watchlint import baseline, report_github, report_json, report_statistics, report_text  # noqa: F401

    if output_format == "sarif":
        from watchlint import report_sarif  # noqa: F401


def _render(
    report: Report,
    catalog: Catalog,
    output_format: str,
    options: report_text.TextOptions,
    blocks: rendered.Blocks | None = None,
) -> str:
    from watchlint import report_github, report_json, report_text

    if output_format == "sarif":
        from watchlint import report_sarif  # sarif-om and attrs load only for SARIF output

        return report_sarif.render(report, catalog, SourceLines())
    if output_format == "github":
        return report_github.render(report, catalog)
    if output_format == "json":
        text = report_json.render(report, catalog, options.show_mitigated, blocks)
    else:
        text = report_text.render(report, SourceLines(), options, blocks)
    if blocks is not None:
        blocks.save()
    return text if text.endswith("\n") or not text else text + "\n"


def write(text: str, output: Path | None) -> None:
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(output, text.encode("utf-8"))
    except OSError as error:
        raise WatchlintError(f"{output}: cannot write report: {error.strerror or error}") from None


def _split_codes(values: Sequence[str]) -> tuple[str, ...]:
    """Accept `--select WL001,WL002` and repeated options alike."""
    return tuple(code.strip() for value in values for code in value.split(",") if code.strip())


def use_color(no_color: bool, output: Path | None) -> bool:
    if no_color or os.environ.get("NO_COLOR") or output is not None:
        return False
    return sys.stdout.isatty()
