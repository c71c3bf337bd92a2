"""`registry scan` as a command: options, exit codes, output. It imports no Flask (docs/scan.md#speed)."""
from __future__ import annotations

import functools
import os
import sqlite3
import sys

import click

from ..config import setting
from ..fields import RETIRING
from . import failing, fix as fixer, prefilter, report, sarif, scan
from .lookup import LocalLookup, RegistryUnavailable


def _database(ctx: click.Context) -> str:
    """The app's DATABASE under `flask --app registry scan` (tests give their own), else REGISTRY_DB."""
    load_app = getattr(ctx.find_root().obj, "load_app", None)   # flask.cli.ScriptInfo
    if load_app is not None:
        return load_app().config["DATABASE"]
    return setting("REGISTRY_DB")


@click.command("scan")
@click.argument("paths", nargs=-1, type=click.Path(exists=True))
@click.option("--registry", "registry_url", metavar="URL",
              help="Ask a running registry instead of the local database.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif", "github"]), default="text",
              show_default=True)
@click.option("--include", multiple=True, metavar="GLOB",
              help="Scan only files matching (gitignore syntax; repeatable).")
@click.option("--exclude", multiple=True, metavar="GLOB", help="Skip files matching (gitignore syntax; repeatable).")
@click.option("--vendored", is_flag=True, help="Also walk vendored folders (node_modules, .venv, vendor, ...).")
@click.option("--min-confidence", type=click.FloatRange(0, 1), default=0.8, show_default=True,
              help="Report matches at least this sure: 1.0 exact, 0.8 normalized, 0.5 substring.")
@click.option("--fail-on", type=click.Choice(list(RETIRING)),
              help="Exit 1 when an id of this status (or worse) is found.")
@click.option("--fail-within", type=click.IntRange(0), metavar="DAYS",
              help="Exit 1 when an id shuts down within DAYS days.")
@click.option("--fix", is_flag=True, help="Rewrite each deprecated or sunset id to its upgrade, in its own format.")
@click.option("--diff", "show_diff", is_flag=True, help="Print the unified diff --fix would make; write nothing.")
@click.pass_context
def scan_command(ctx, paths, registry_url, fmt, include, exclude, vendored, min_confidence, fail_on, fail_within,
                 fix, show_diff):
    """Find deprecated and sunset model ids under PATHS (default: .); exit 1 per --fail-on/--fail-within, 2 when
    the registry cannot answer or --fix could not rewrite a file (docs/scan.md)."""
    try:
        if registry_url:
            from .remote import RemoteLookup   # requests is imported only for a remote registry
            lookup = RemoteLookup(registry_url)
        else:
            path = _database(ctx)
            if not os.path.exists(path):
                raise RegistryUnavailable(f"no registry database at {path}: set REGISTRY_DB to one (make db builds"
                                          " ./registry.db), or ask a running registry with --registry URL")
            lookup = LocalLookup(path)
        try:
            findings, files = scan(paths or ["."], lookup, include, exclude, vendored, min_confidence,
                                   ripgrep=prefilter.ripgrep())
        finally:
            lookup.close()
    except (RegistryUnavailable, sqlite3.Error) as exc:
        click.echo(f"scan: the registry cannot answer: {exc}", err=True)
        sys.exit(2)
    unwritten, fixed = {}, None   # fixed: how many findings --fix rewrote (None: it was not asked to write)
    if show_diff:
        click.echo(fixer.diff(findings), nl=False)
    elif fix:
        written, unwritten = fixer.apply(findings)
        for path in written:
            click.echo(f"fixed {path}", err=True)
        for shown, why in unwritten.values():
            click.echo(f"scan: not fixed {shown}: {why}", err=True)
        fixed = sum(f.fixable and f.file not in unwritten for f in findings)
    render = {"text": functools.partial(report.text, fixed=fixed), "json": report.as_json, "github": report.github,
              "sarif": sarif.sarif}[fmt]
    if not show_diff:
        click.echo(render(findings, files))
    if unwritten:   # a file --fix was asked to rewrite is as it was: the run did not do what it was told
        sys.exit(2)
    # After --fix, what is left decides: the ids that had no working upgrade in their format.
    left = [f for f in findings if not f.fixable] if fixed is not None else findings
    if failing(left, fail_on, fail_within):
        sys.exit(1)
