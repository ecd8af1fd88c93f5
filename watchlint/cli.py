"""The command line: options become settings, the engine runs, a reporter writes, the exit code follows.

Exit codes: 0 no unsuppressed finding, 1 findings, 2 usage or configuration error, or a failure of the
run as a whole. No analysis logic lives here.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from watchlint import debuglog
from watchlint.catalog import load_catalog
from watchlint.checkrun import EXIT_CLEAN, EXIT_ERROR, CheckOptions, run_check, use_color, write
from watchlint.config import CommandLine
from watchlint.engine import extract_all
from watchlint.errors import WatchlintError
from watchlint.metadata import VERSION


class RunFailedError(Exception):
    """An unexpected failure of the run as a whole; the traceback was already printed under -v."""

    def __init__(self, error: Exception) -> None:
        super().__init__(f"{type(error).__name__}: {error}")


FORMATS = ("text", "json", "sarif", "github")


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
@click.option(
    "--include-tests",
    is_flag=True,
    help="Analyze test code too: _test.go, test_*.py and *_test.py files, and test/, tests/ and e2e/ folders.",
)
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
    debuglog.configure(options.verbose)
    try:
        return run_check(options)
    except (WatchlintError, click.ClickException):
        raise
    except Exception as error:  # a failure of the run as a whole: one line, the traceback with -v
        if options.verbose:
            traceback.print_exc()
        raise RunFailedError(error) from error


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--profile", default="large", show_default=True, help="small, medium, large, or a profile .toml file.")
@click.option("--objects", default="", metavar="KIND=N,…", help="Override object counts: secret=20000,configmap=30000.")
@click.option(
    "--format", "output_format", type=click.Choice(("text", "json", "markdown")), default="text", show_default=True
)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write the inventory here.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False, path_type=Path), help="Use this config file.")
@click.option(
    "--include-tests",
    is_flag=True,
    help="Count test code too: _test.go, test_*.py and *_test.py files, and test/, tests/ and e2e/ folders.",
)
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
            entries = inventory_model.build(extracted.facts, extracted.kinds, chosen, extracted.cluster_scoped)
            inventories.append(report_inventory.UnitInventory(extracted.facts.root, str(unit.language), entries))
    render = {
        "text": report_inventory.render_text,
        "json": report_inventory.render_json,
        "markdown": report_inventory.render_markdown,
    }[output_format]
    write(render([item for item in inventories if item.entries], chosen), output)
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
    click.echo(ruledocs.render_terminal(found, color=use_color(False, None)), nl=False)
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
