"""The command line: options become settings, the engine runs, a reporter writes, the exit code follows.

Exit codes: 0 no unsuppressed finding, 1 findings, 2 usage or configuration error, or a failure of the
run as a whole. No analysis logic lives here.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import time
import traceback
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from watchlint import cache as cache_module
from watchlint import metadata, rendered, standby
from watchlint.atomic import write_atomically
from watchlint.catalog import Catalog, load_catalog
from watchlint.config import CommandLine, find_config
from watchlint.engine import Report, RunOptions, extract_all, plan
from watchlint.errors import WatchlintError
from watchlint.metadata import VERSION
from watchlint.rendered import Rendered
from watchlint.source import SourceLines

if TYPE_CHECKING:
    from watchlint import fixer, report_text

# The reporters and the baseline are imported where used: a run that reuses its rendered report needs none.

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
PROGRESS_AFTER_SECONDS = 2.0  # short runs print no progress line
PROGRESS_BAR_WIDTH = 30


class RunFailedError(Exception):
    """An unexpected failure of the run as a whole; the traceback was already printed under -v."""

    def __init__(self, error: Exception) -> None:
        super().__init__(f"{type(error).__name__}: {error}")


FORMATS = ("text", "json", "sarif", "github")


def _split_codes(values: Sequence[str]) -> tuple[str, ...]:
    """Accept `--select WL001,WL002` and repeated options alike."""
    return tuple(code.strip() for value in values for code in value.split(",") if code.strip())


def _use_color(no_color: bool, output: Path | None) -> bool:
    if no_color or os.environ.get("NO_COLOR") or output is not None:
        return False
    return sys.stdout.isatty()


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(VERSION, "--version", prog_name="watchlint", message="%(prog)s %(version)s")
def cli() -> None:
    """Find where a Kubernetes operator caches or streams every Secret, ConfigMap or Pod of the cluster."""


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--format", "output_format", type=click.Choice(FORMATS), default="text", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write the report here.")
@click.option(
    "--select", multiple=True, metavar="CODES", help="Run only these rules (codes or names, comma-separated)."
)
@click.option("--ignore", multiple=True, metavar="CODES", help="Skip these rules (codes or names, comma-separated).")
@click.option("--exclude", multiple=True, metavar="GLOB", help="Leave out matching files and folders (repeatable).")
@click.option("--config", "config_file", type=click.Path(dir_okay=False, path_type=Path), help="Use this config file.")
@click.option("--include-tests", is_flag=True, help="Analyze _test.go, test_*.py and *_test.py files too.")
@click.option("--show-suppressed", is_flag=True, help="Show suppressed findings in the text report.")
@click.option("--show-mitigated", is_flag=True, help="List candidate sites that are mitigated, with the reason.")
@click.option("--fix", is_flag=True, help="Apply the safe fixes, then report what remains.")
@click.option("--unsafe-fixes", is_flag=True, help="With --fix or --diff, apply the unsafe fixes too.")
@click.option("--diff", is_flag=True, help="Print the fixes as a unified diff; write nothing (exit 1 if any).")
@click.option(
    "--baseline",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Report only findings this file does not record.",
)
@click.option(
    "--write-baseline", type=click.Path(dir_okay=False, path_type=Path), help="Record the current findings here."
)
@click.option("--statistics", is_flag=True, help="Print how many findings each rule has, per kind.")
@click.option(
    "-j", "--jobs", type=click.IntRange(min=1), default=None, help="Worker processes (default: all cores; 1: none)."
)
@click.option("--no-cache", is_flag=True, help="Neither read nor write the facts cache.")
@click.option(
    "--cache-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Keep the cache here (default: .watchlint_cache).",
)
@click.option("--no-color", is_flag=True, help="Do not color the text report (NO_COLOR is honoured too).")
@click.option("-q", "--quiet", is_flag=True, help="Print findings only: no summary, no warnings.")
@click.option("-v", "--verbose", is_flag=True, help="Print debug logs and tracebacks of internal errors.")
def check(**given: Any) -> int:
    """Analyze PATHS (default: the current folder) and report findings."""
    options = CheckOptions(**given)
    _configure_logging(options.verbose)
    try:
        return _check(options)
    except (WatchlintError, click.ClickException):
        raise
    except Exception as error:  # a failure of the run as a whole: one line, the traceback with -v
        if options.verbose:
            traceback.print_exc()
        raise RunFailedError(error) from error


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


def _check(options: CheckOptions) -> int:
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
            _write(outcome.diff(), options.output)
            _summarize_fixes(outcome, "would be applied", options.quiet)
            return EXIT_FINDINGS if outcome.changed else EXIT_CLEAN
        fixer.write_all(outcome)
        _summarize_fixes(outcome, "applied", options.quiet)
        report = outcome.report
        reuse = None
        units = None
    else:
        with _standing_by(run_options) as run_options:
            planned = plan(paths, command_line, catalog, options=run_options)
            reuse = _reuse_slot(run_options.cache, options)
            report_key = planned.key
            found = reuse.load(report_key) if reuse is not None and report_key is not None else None
            if found is not None:
                return _emit(found, options.output)
            report = planned.report()
            units = planned.unit_files()
    if run_options.progress is not None:
        click.echo("\r\033[K", nl=False, err=True)  # clear the progress line
    from watchlint import baseline

    if options.write_baseline is not None:
        recorded = baseline.write_baseline(options.write_baseline, report.findings)
        click.echo(f"Recorded {recorded} findings in {options.write_baseline}.", err=True)
        return EXIT_CLEAN
    if options.baseline is not None:
        report, _ = baseline.apply_baseline(report, baseline.read_baseline(options.baseline))
    result = _rendered(report, catalog, options, _finding_blocks(run_options.cache, units, options))
    # Keyed again: files that changed after their metadata was looked up were keyed afresh when read, and
    # the report is that of what was read.
    if reuse is not None and (analyzed := planned.key) is not None:
        reuse.store(analyzed, result)
    return _emit(result, options.output)


@contextlib.contextmanager
def _standing_by(run_options: RunOptions) -> Iterator[RunOptions]:
    """The run options with a standby worker (watchlint/standby.py) for a run that likely has one unit to
    analyze again: one with a cache that holds entries, allowed more than one process."""
    cache = run_options.cache
    worker = None
    if cache is not None and run_options.jobs > 1 and standby.available() and cache.exists:
        worker = standby.Standby.start(cache)
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
        _use_color(options.no_color, options.output),
        _use_color(options.no_color, None),
        os.getcwd(),  # SourceLines reads the reported files from it
        metadata.repository_url() if options.output_format == "sarif" else "",
    )
    return rendered.slot(cache, choices)


def _finding_blocks(
    cache: cache_module.FactsCache | None, units: list[tuple[str, list[str]]] | None, options: CheckOptions
) -> rendered.FindingBlocks | None:
    """The text blocks of findings rendered before, for a text report of analyzed units (`units`: each one's
    outcome key and shown paths; None after fixes, whose report is of contents not yet keyed)."""
    if cache is None or units is None or options.output_format != "text":
        return None
    choices = (_use_color(options.no_color, options.output), os.getcwd())  # SourceLines reads from it
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
    report: Report, catalog: Catalog, options: CheckOptions, blocks: rendered.FindingBlocks | None = None
) -> Rendered:
    """The report (or the statistics), the notifications for standard error, and the exit code; `blocks`
    holds the text blocks of findings rendered before."""
    from watchlint import report_statistics, report_text

    if options.statistics:
        render = report_statistics.render_json if options.output_format == "json" else report_statistics.render_text
        text = render(report, catalog)
    else:
        color = _use_color(options.no_color, options.output) and options.output_format == "text"
        text_options = report_text.TextOptions(
            color, options.show_suppressed, options.show_mitigated, show_summary=not options.quiet
        )
        text = _render(report, catalog, options.output_format, text_options, blocks)
    messages = []
    if not options.quiet:
        for notification in report.notifications:
            messages.append(report_text.render_notification(notification, color=_use_color(options.no_color, None)))
            if options.verbose and notification.detail:
                messages.append(notification.detail.rstrip())
    if report.has_failed_entirely:
        messages.append("error: no file could be analyzed")
        return Rendered(text, tuple(messages), EXIT_ERROR)
    return Rendered(text, tuple(messages), EXIT_FINDINGS if report.active_findings else EXIT_CLEAN)


def _emit(result: Rendered, output: Path | None) -> int:
    _write(result.text, output)
    for message in result.messages:
        click.echo(message, err=True)
    return result.exit_code


def _summarize_fixes(outcome: fixer.FixOutcome, verb: str, quiet: bool) -> None:
    if quiet:
        return
    files = len(outcome.changed)
    noun = "fix" if outcome.applied == 1 else "fixes"
    click.echo(f"{outcome.applied} {noun} {verb} in {files} file{'s' if files != 1 else ''}.", err=True)


def _render(
    report: Report,
    catalog: Catalog,
    output_format: str,
    options: report_text.TextOptions,
    blocks: rendered.FindingBlocks | None = None,
) -> str:
    from watchlint import report_github, report_json, report_text

    if output_format == "json":
        return report_json.render(report, catalog, options.show_mitigated)
    if output_format == "sarif":
        from watchlint import report_sarif  # sarif-om and attrs load only for SARIF output

        return report_sarif.render(report, catalog, SourceLines())
    if output_format == "github":
        return report_github.render(report, catalog)
    text = report_text.render(report, SourceLines(), options, blocks)
    if blocks is not None:
        blocks.save()
    return text if text.endswith("\n") or not text else text + "\n"


def _write(text: str, output: Path | None) -> None:
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(output, text.encode("utf-8"))
    except OSError as error:
        raise WatchlintError(f"{output}: cannot write report: {error.strerror or error}") from None


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--profile", default="large", show_default=True, help="small, medium, large, or a profile .toml file.")
@click.option("--objects", default="", metavar="KIND=N,…", help="Override object counts: secret=20000,configmap=30000.")
@click.option(
    "--format", "output_format", type=click.Choice(("text", "json", "markdown")), default="text", show_default=True
)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write the inventory here.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False, path_type=Path), help="Use this config file.")
@click.option("--include-tests", is_flag=True, help="Analyze test files too.")
def inventory(
    paths: tuple[Path, ...],
    profile: str,
    objects: str,
    output_format: str,
    output: Path | None,
    config_file: Path | None,
    include_tests: bool,
) -> int:
    """List every kind the operators in PATHS cache or stream, at what scope, and what it costs."""
    from watchlint import inventory as inventory_model  # the inventory's modules load only for this command
    from watchlint import report_inventory, report_text

    catalog = load_catalog()
    kind_names = [kind.name for kind in catalog.kinds]
    chosen = inventory_model.load_profile(profile, inventory_model.parse_objects(objects, kind_names))
    if config_file is not None and not config_file.is_file():
        raise WatchlintError(f"{config_file}: config file not found")
    command_line = CommandLine(config_file=config_file.absolute() if config_file else None, include_tests=include_tests)
    units, notifications = extract_all(paths or (Path("."),), command_line, catalog)
    inventories = []
    for unit, extracted in units:
        notifications.extend(extracted.notifications)
        if extracted.facts is not None:
            entries = inventory_model.build(extracted.facts, extracted.kinds, chosen)
            inventories.append(report_inventory.UnitInventory(extracted.facts.root, str(unit.language), entries))
    render = {
        "text": report_inventory.render_text,
        "json": report_inventory.render_json,
        "markdown": report_inventory.render_markdown,
    }[output_format]
    _write(render([item for item in inventories if item.entries], chosen), output)
    for notification in notifications:
        click.echo(report_text.render_notification(notification, color=False), err=True)
    return EXIT_CLEAN


@cli.command()
@click.argument("code")
def rule(code: str) -> int:
    """Print the documentation of a rule, by code (WL001) or name (unfiltered-watch)."""
    from watchlint import ruledocs  # only this command needs it

    found = load_catalog().rule(code)
    if found is None:
        raise WatchlintError(f"{code}: no such rule (see `watchlint rules`)")
    click.echo(ruledocs.render_terminal(found, color=_use_color(False, None)), nl=False)
    return EXIT_CLEAN


@cli.command(name="rules")
def list_rules() -> int:
    """List every rule with its level, languages and summary."""
    catalog = load_catalog()
    for item in catalog.active_rules:
        fix = "fix" if item.fix != "none" else "   "
        languages = ",".join(item.languages)
        click.echo(f"{item.code}  {item.name:<24} {item.level:<8} {languages:<10} {fix}  {item.summary}")
    return EXIT_CLEAN


def _configure_logging(verbose: bool) -> None:
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.WARNING,
        format="watchlint: %(name)s: %(message)s",
        stream=sys.stderr,
        force=True,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return the exit code; errors of the run as a whole exit 2 in one line."""
    arguments = list(argv) if argv is not None else sys.argv[1:]
    try:
        result = cli.main(args=arguments, prog_name="watchlint", standalone_mode=False)
    except click.exceptions.Exit as done:
        return int(done.exit_code)
    except click.ClickException as error:
        error.show()
        return EXIT_ERROR
    except click.Abort:
        click.echo("aborted", err=True)
        return EXIT_ERROR
    except WatchlintError as error:
        click.echo(f"error: {error}", err=True)
        return EXIT_ERROR
    except RunFailedError as error:
        click.echo(f"error: internal error: {error}; run with -v for details", err=True)
        return EXIT_ERROR
    except Exception as error:  # outside a command (option parsing): one line
        click.echo(f"error: internal error: {type(error).__name__}: {error}; run with -v for details", err=True)
        return EXIT_ERROR
    return int(result) if isinstance(result, int) else EXIT_CLEAN
