"""Command-line tools: ``flask --app scorekeeper games import FILE``, ``games export`` and
``games edit-link``."""

from __future__ import annotations

import json
import sys
from urllib.parse import urlsplit

import click
from flask import Flask, current_app
from flask.cli import AppGroup, with_appcontext

from scorekeeper.web import clubkey as club, links
from scorekeeper import store
from scorekeeper.files import transfer
from scorekeeper.files.gamefile import GameFileError

games_cli = AppGroup("games", help="Import and export game files (GAME-FORMAT.md).")


@games_cli.command("import")
@click.argument("file", type=click.File("r", encoding="utf-8"))
def import_command(file) -> None:
    """Import a game file or a backup; print the id of each game (a game already here is not
    stored twice: its id is printed, and stderr says so)."""
    from scorekeeper.files.transfer import NEW, import_files, read_files, read_nights

    try:
        doc = json.load(file)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError, or a number too long to read
        click.echo(f"{file.name}: not a JSON document ({exc})", err=True)
        sys.exit(1)
    try:
        files = read_files(doc)
        nights = read_nights(doc, files)
    except GameFileError as exc:
        click.echo(f"{file.name}: refused: {exc}", err=True)
        sys.exit(1)
    try:
        outcomes = import_files(files, nights=nights)
    except store.NightRefused as exc:  # a night whose games cannot be seated so: nothing stored
        click.echo(f"{file.name}: refused: {exc}", err=True)
        sys.exit(1)
    except store.DatabaseRefused as exc:
        if not store.is_disk_full(exc):
            raise
        click.echo(f"{file.name}: not imported: {store.DISK_FULL}", err=True)
        sys.exit(1)
    for outcome in outcomes:
        if outcome.status != NEW:
            click.echo(f"{file.name}: {outcome.describe(len(files))}", err=True)
        click.echo(outcome.game_id)


@games_cli.command("export")
@click.argument("game_id", type=int, required=False)
@click.option("--all", "everything", is_flag=True, help="Export a backup of every game.")
def export_command(game_id: int | None, everything: bool) -> None:
    """Print one game's file (with its result), or with --all a backup of every game."""
    if everything == (game_id is not None):
        raise click.UsageError("give either a game id or --all")
    if everything:
        doc = transfer.backup()
    else:
        try:
            doc = transfer.export_game(game_id)
        except store.NotFound as exc:
            click.echo(str(exc), err=True)
            sys.exit(1)
    click.echo(json.dumps(doc, ensure_ascii=False, indent=2))


@games_cli.command("rebuild")
@click.option("--check", is_flag=True, help="Only report the summaries that differ; change nothing.")
@click.option("--if-stale", is_flag=True,
              help="Only when the stored summaries were worked out by another version's logic "
                   "(the step after `flask db upgrade`); exits 0 when it rebuilt them.")
def rebuild_command(check: bool, if_stale: bool) -> None:
    """Work every game's summary out again from its recorded rounds, and report each stored one
    that differed (it is replaced, unless --check). Exits 1 when any differed."""
    if check and if_stale:
        raise click.UsageError("--check and --if-stale go alone: --check changes nothing.")
    differences = store.rebuild_summaries(check=check, if_stale=if_stale)
    if differences is None:
        click.echo(f"The summaries are worked out by this version's logic ({store.SUMMARY_LOGIC}): nothing to rebuild.")
        return
    if if_stale:
        # After an upgrade, summaries missing or worked out by an older logic are expected: they
        # are counted, not listed, and are no fault.
        click.echo(f"{len(differences)} summaries were rebuilt by this version's logic ({store.SUMMARY_LOGIC}).")
        return
    for line in differences:
        click.echo(line, err=True)
    verb = "differ" if check else "were rebuilt"
    click.echo(f"{len(differences)} summaries {verb}; every other one is as its rounds make it.")
    if differences:
        sys.exit(1)


@games_cli.command("edit-link")
@click.argument("game_id", type=int)
@click.option("--base-url", default="http://localhost:8000", show_default=True,
              help="The address phones open (make run prints it).")
def edit_link_command(game_id: int, base_url: str) -> None:
    """Make a new edit link for a game and print it: the phone that opens it may keep score,
    correct rounds and delete the game. Every older edit link stops working.

    For games imported here (nobody holds their key) or a scorekeeper's lost phone.
    """
    problem = _base_url_problem(base_url)
    if problem:
        raise click.BadParameter(problem, param_hint="--base-url")
    if not 1 <= game_id <= store.MAX_ID or store.peek(game_id) is None:
        click.echo(f"no game {game_id}", err=True)
        sys.exit(1)
    # Checked first: a new key revokes the old links, so it is made only when it can be printed.
    key = store.reissue_key(game_id)
    with current_app.test_request_context(base_url=base_url):
        click.echo(links.edit_link(game_id, key))


def _base_url_problem(base_url: str) -> str | None:
    """Why a phone could not open links under ``base_url`` (None if it could)."""
    try:
        parts = urlsplit(base_url)
        parts.port  # noqa: B018 (reading it checks it)
    except ValueError as exc:
        return f"{base_url!r} is not an address ({exc})"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"{base_url!r} is not an address a phone can open: give it as http://HOST:PORT"
    return None


@click.command("club-key")
@click.option("--base-url", "base_urls", multiple=True, default=["http://localhost:8000"], show_default=True,
              help="An address phones open (make run passes each of this machine's); may be given again.")
@click.option("--first", is_flag=True,
              help="Make a key only if there is none yet (make run does, at every start).")
@with_appcontext
def club_key_command(base_urls: tuple[str, ...], first: bool) -> None:
    """Make a new club key and print the link that makes a phone the club's keeper (who may
    rename and remove players, restore and purge deleted games, import, download the backup).
    The old key stops working: every phone that held it is no longer the keeper."""
    for base_url in base_urls:
        problem = _base_url_problem(base_url)
        if problem:
            raise click.BadParameter(problem, param_hint="--base-url")
    if first and club.stored_hash() is not None:
        click.echo("The club's keeper: the phone that opened the club link. A new link (the old one stops "
                   "working): .venv/bin/flask --app scorekeeper club-key")
        return
    try:
        key = club.new_key(current_app)
    except RuntimeError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo("The club's keeper: open this link on the phone that may rename players, restore deleted games, "
               "import and download backups (keep it to yourself):")
    for base_url in base_urls:
        with current_app.test_request_context(base_url=base_url):
            click.echo(f"  {links.club_link(key)}")


def register_cli(app: Flask) -> None:
    app.cli.add_command(games_cli)
    app.cli.add_command(club_key_command)
