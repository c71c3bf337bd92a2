"""Command-line interface: `flask --app registry ...` and the `registry` console script."""
import os
import sqlite3
import sys
import traceback

import click
from flask import current_app
from flask.cli import FlaskGroup, with_appcontext

from . import export, migrations
from .curation.apply import CurationMismatch, apply_locked
from .audit import audit, known_gaps, platform_figures, render
from .audit.answers import Registry
from .curation.reader import read_curation
from .db import connect_ro, ensure_schema, writable
from .ingest.runner import run_source
from .fields import AUTOMATED_SOURCES
from .merge.runs import describe, refresh_if_stale
from .notify import store
from .notify.deliver import DEFAULT_BUDGET, notify
from .scan.command import scan_command
from .storage import NO_DIR, NOT_A_DISK, StorageError, probe
from .curation.report import curation_report


@click.command("curate")
@with_appcontext
@click.option("--check", is_flag=True, help="Validate only; apply nothing.")
@click.option("--report", "show_report", is_flag=True, help="List what curators should look at.")
@click.option("--drift", "show_drift", is_flag=True,
              help="List curated lifecycle values a source (its last run, or its seeds/ snapshot) contradicts;"
                   " exit 1 when one is not explained by a comment.")
@click.option("--verbose", is_flag=True, help="Print the traceback of an unexpected error.")
def curate_command(check, show_report, show_drift, verbose):
    """Validate the curation directory and apply it (the spec's ingestion tier 4: overrides every source)."""
    path = current_app.config["DATABASE"]
    if show_drift:
        sys.exit(_drift(path, current_app.config["CURATION_DIR"], current_app.config["SEEDS_DIR"]))
    if show_report:
        ensure_schema(path)
        with writable(path) as conn:
            click.echo(curation_report(conn))
        return
    directory = current_app.config["CURATION_DIR"]
    cur = read_curation(directory)
    if cur.errors:
        for line in cur.errors:
            click.echo(line, err=True)
        click.echo(f"{len(cur.errors)} problem(s) in {directory}; nothing applied.", err=True)
        sys.exit(1)
    if check:
        click.echo(f"{directory}: {len(cur.providers)} providers, {len(cur.families)} families, "
                   f"{len(cur.facts)} models, {len(cur.aliases)} aliases: valid.")
        return
    ensure_schema(path)
    try:
        added, updated = apply_locked(path, cur)
    except CurationMismatch as exc:
        click.echo(str(exc), err=True)
        click.echo("Curation does not fit the database; nothing applied.", err=True)
        sys.exit(1)
    except Exception as exc:   # one line for cron's mail (docs/data-flow.md); the trace on request
        if verbose:
            click.echo(traceback.format_exc(), err=True, nl=False)
        click.echo(f"curation: failed: {describe(exc)}", err=True)
        sys.exit(1)
    click.echo(f"Curation applied: {added} model(s) added, {updated} updated.")


@click.command("ingest")
@click.option("--source", type=click.Choice(AUTOMATED_SOURCES), help="Run only this source.")
@click.option("--offline", is_flag=True, help="Read each source's snapshot from the seeds directory.")
@click.option("--record", is_flag=True, help="Save what was fetched as the source's snapshot in the seeds directory.")
@click.option("--verbose", is_flag=True, help="Print the traceback of a source's unexpected error.")
@with_appcontext
def ingest_command(source, offline, record, verbose):
    """Run every automated source (the daily cycle), or one; exit 1 when any failed."""
    config = current_app.config
    offline = offline or config["OFFLINE"]
    if record and offline:
        raise click.UsageError("--record saves live responses; it cannot be combined with --offline.")
    failed = 0
    try:
        ensure_schema(config["DATABASE"])
    except click.ClickException as exc:
        if not isinstance(exc.__cause__, StorageError):
            raise
        # The disk refused: say so once, and still try every source (each says what it met), unless the
        # place itself cannot hold a database (no such directory, /proc): then no source can, said once.
        click.echo(f"schema: failed: {exc.message}", err=True)
        if probe(config["DATABASE"]) in (NO_DIR, NOT_A_DISK):
            sys.exit(1)
        failed += 1
    chosen = [source] if source else list(AUTOMATED_SOURCES)
    chatty = sys.stdout.isatty()   # progress while a source runs on a terminal; cron gets the summaries
    for name in chosen:
        if chatty:
            click.echo(f"{name}: running...", nl=False)
        result = run_source(config["DATABASE"], name, offline=offline, seeds_dir=config["SEEDS_DIR"],
                            record_to=config["SEEDS_DIR"] if record else None)
        if chatty:
            click.echo("\r", nl=False)
        if result.status == "completed":
            # One summary line per source, terminal or not: cron's log shows what each run did.
            outcomes = (result.details or {}).get("outcomes", {})
            records = "; records: " + ", ".join(f"{n} {why}" for why, n in outcomes.items()) if outcomes else ""
            click.echo(f"{name}: completed: {result.added} added, {result.updated} updated"
                       f" (run {result.run_id}){records}")
        else:
            failed += 1
            if verbose and result.trace:
                click.echo(result.trace, err=True, nl=False)
            click.echo(f"{name}: {result.status}: {result.error}", err=True)
    # Webhooks last, within a bounded time: a failing or slow receiver never fails or holds the run.
    _notify(config, DEFAULT_BUDGET, chatty)
    if failed:
        sys.exit(1)


def _notify(config, budget: float, chatty: bool) -> bool:
    """Queue and deliver webhook events; print a summary on a terminal and every give-up; True unless it failed."""
    if not _has_webhooks(config["DATABASE"]):
        return True   # nothing to send: no write, so a refusing disk is reported once, by the sources
    try:
        with writable(config["DATABASE"]) as conn:
            report = notify(conn, config["WEBHOOKS_ALLOW_PRIVATE"], budget)
    except Exception as exc:   # the ingest's own outcome stands; the next notify picks up what is left
        click.echo(f"webhooks: failed: {describe(exc)}", err=True)
        return False
    if chatty:
        click.echo(f"webhooks: {report.queued} queued, {report.delivered} delivered, {report.retrying} waiting"
                   f" for a retry, {report.failed} given up")
    for line in report.errors:
        click.echo(line, err=True)
    return True


def _has_webhooks(path: str) -> bool:
    try:
        conn = connect_ro(path)
    except sqlite3.Error:
        return False
    try:
        return store.has_endpoints(conn)
    except sqlite3.Error:   # a db the schema step could not bring forward has no webhooks table
        return False
    finally:
        conn.close()


@click.command("notify")
@click.option("--budget", type=click.FloatRange(0, 3600), default=DEFAULT_BUDGET, show_default=True,
              help="Seconds to spend delivering; what is left waits for the next run.")
@with_appcontext
def notify_command(budget):
    """Queue webhook events (new changes, shutdown thresholds reached today) and deliver them with retries."""
    config = current_app.config
    ensure_schema(config["DATABASE"])
    if not _has_webhooks(config["DATABASE"]):
        click.echo("webhooks: none registered; nothing to send")
    elif not _notify(config, budget, True):
        sys.exit(1)


@click.command("serve")
@with_appcontext
def serve_command():
    """Migrate the database if needed, then serve the API with gunicorn on $HOST:$PORT."""
    path = current_app.config["DATABASE"]
    if _no_registry(path):   # it would serve 404s and "nothing shuts down" to every client, silently
        sys.exit(2)
    ensure_schema(path)   # an older schema is migrated
    conn = connect_ro(path)
    try:
        if not conn.execute("SELECT 1 FROM models LIMIT 1").fetchone():
            click.echo(f"warning: {path} holds no models yet; run curate and ingest.", err=True)
    finally:
        conn.close()
    from .serve.server import serve   # gunicorn is imported only by the command that needs it
    serve()


def _has_schema(path: str) -> bool:
    """Is there a registry database (its tables made by init-db) at path?"""
    if not os.path.isfile(path):
        return False
    try:
        conn = connect_ro(path)
    except sqlite3.Error:
        return False
    try:
        found = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'models'").fetchone()
        return found is not None
    except sqlite3.Error:   # not a SQLite file at all
        return False
    finally:
        conn.close()


def _no_registry(path: str) -> bool:
    """True, said on stderr, when path holds no registry database (made by init-db)."""
    if _has_schema(path):
        return False
    click.echo(f"No registry database at {os.path.abspath(path)} (REGISTRY_DB): build one with `registry init-db &&"
               " registry curate && registry ingest`, or `make db`.", err=True)
    return True


def _drift(path: str, directory: str, seeds_dir: str) -> int:
    """Print the drift report (docs/curating.md#drift); 1 when a contradiction is not explained."""
    from . import lifecycle as rules
    from .curation import drift
    from .ingest import seeds_drift
    if _no_registry(path):
        return 2
    cur = read_curation(directory)
    conn = connect_ro(path)
    try:
        curated, on = drift.curated_values(conn), rules.today()
        found = drift.explain(drift.last_runs(conn, curated, on) + seeds_drift.seeds(conn, curated, seeds_dir, on),
                              cur.field_lines, directory)
        platform_ids, held = drift.unattached(conn), drift.held(conn)
    finally:
        conn.close()
    click.echo(drift.report(found, platform_ids, held))
    return 1 if any(not d.kept_because for d in found) else 0


def _schema_forward(path: str) -> None:
    """Bring an older registry database's schema forward before a command reads it, as serve does (init-db's
    migration); a current one is read as it is, a read-only copy included. A db that cannot be migrated is a
    clean error (db.ensure_schema), not a traceback on the first column it lacks."""
    conn = connect_ro(path)
    try:
        current = migrations.current_version(conn) == migrations.latest()
    except (sqlite3.Error, migrations.MigrationError):
        current = False   # not a registry, or a newer one: ensure_schema says which
    finally:
        conn.close()
    if not current:
        ensure_schema(path)


def _bring_to_today(path: str, doing: str) -> None:
    """Decide today's lifecycles as the first request of the day would; a read-only copy is used as stored."""
    try:
        with writable(path) as conn:
            refresh_if_stale(conn)
    except (sqlite3.Error, StorageError) as exc:   # a read-only copy: what its writer decided
        click.echo(f"Lifecycles not brought up to today ({exc}); {doing} them as stored.", err=True)


@click.command("audit")
@with_appcontext
def audit_command():
    """Check the registry's invariants (docs/lifecycle.md#the-audit): every retiring model with a working fit
    has an upgrade, every upgrade final, latest the newest working release, open weights never sunset on
    the hub, upgrades in the caller's format, no bare word resolving, one upgrade whatever the id, sources
    in their lanes, every lifecycle value sourced.

    Exits 1 when anything is listed, so CI can hold the registry to it.
    """
    path, directory = current_app.config["DATABASE"], current_app.config["CURATION_DIR"]
    if _no_registry(path):
        sys.exit(2)
    cur = read_curation(directory)
    _schema_forward(path)
    _bring_to_today(path, "auditing")
    conn = connect_ro(path)
    try:
        reg = Registry(conn)
        findings, gaps, figures = audit(conn, cur, directory, reg), known_gaps(conn, reg), platform_figures(reg)
    finally:
        conn.close()
    click.echo(render(findings))
    click.echo("Known gaps, recorded with their reason in curation (not findings):\n" + render(gaps))
    click.echo(figures)
    total = sum(len(items) for items in findings.values())
    click.echo(f"{total} finding(s).")
    if total:
        sys.exit(1)


@click.command("export")
@click.option("--format", "fmt", type=click.Choice(export.FORMATS), default="json", show_default=True,
              help="One JSON object, or NDJSON (one object per line).")
@click.option("--output", "-o", type=click.Path(dir_okay=False),
              help="Write this file (all or nothing); default: stdout.")
@with_appcontext
def export_command(fmt, output):
    """Write the whole registry as GET /api/v1/export answers it: providers, families, and every model with
    its aliases, platform lifecycles, capabilities and provenance (docs/api-decisions.md#export)."""
    path = current_app.config["DATABASE"]
    if not os.path.exists(path):
        click.echo(f"No registry at {path} (set REGISTRY_DB, or run `registry init-db` and a curation).", err=True)
        sys.exit(1)
    _schema_forward(path)
    _bring_to_today(path, "exporting")
    conn = connect_ro(path)
    try:
        with export.snapshot(conn):
            pieces = export.pieces(conn, export.header(conn), fmt)
            if output is None:
                for piece in pieces:
                    click.echo(piece, nl=False)
            else:
                export.write_file(output, pieces)
    except (StorageError, OSError) as exc:
        reason = exc if isinstance(exc, StorageError) else f"{exc.strerror or exc}: {output}"
        click.echo(f"Export not written: {reason}", err=True)
        sys.exit(1)
    finally:
        conn.close()


@click.command("mcp")
@with_appcontext
def mcp_command():
    """Serve the MCP tools (resolve, check, upgrade, search, upcoming_shutdowns) over stdio."""
    from .mcp.server import run_stdio
    path = current_app.config["DATABASE"]
    if _no_registry(path):   # a traceback before the first message, or every tool failing, tells a client nothing
        sys.exit(2)
    _schema_forward(path)
    run_stdio(path)


def init_app(app) -> None:
    """Register the CLI commands on the app."""
    app.cli.add_command(audit_command)
    app.cli.add_command(curate_command)
    app.cli.add_command(export_command)
    app.cli.add_command(ingest_command)
    app.cli.add_command(mcp_command)
    app.cli.add_command(scan_command)
    app.cli.add_command(notify_command)
    app.cli.add_command(serve_command)


class RegistryGroup(FlaskGroup):
    """The `registry` command: the registry's own commands only (not Flask's run, shell or routes), and
    --version naming the registry's version."""

    OWN = ("audit", "curate", "export", "init-db", "ingest", "mcp", "notify", "scan", "serve")

    def list_commands(self, ctx):
        return [name for name in super().list_commands(ctx) if name in self.OWN]

    def get_command(self, ctx, name):
        return super().get_command(ctx, name) if name in self.OWN else None


def _version(ctx, _param, value) -> None:
    if value and not ctx.resilient_parsing:
        from importlib.metadata import version
        click.echo(f"registry {version('model-registry')}")
        ctx.exit()


def main():
    """Entry point of the `registry` console script."""
    from . import create_app
    group = RegistryGroup(create_app=create_app, help="The model registry: resolve any model id to its model and"
                          " its upgrade in your own format; curate, ingest, audit, scan and serve it.",
                          add_version_option=False)
    group.params.append(click.Option(["--version"], is_flag=True, expose_value=False, is_eager=True,
                                     callback=_version, help="Show the registry's version."))
    group(prog_name="registry")
