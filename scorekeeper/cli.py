"""Command-line tools: ``flask --app scorekeeper games import FILE``, ``games export`` and
``games edit-link``."""

from __future__ import annotations

import json
import sys
from urllib.parse import urlsplit

import click
from flask import Flask, current_app, url_for
from flask.cli import AppGroup

from . import access, store
from .gamefile import GameFileError, backup_document, game_document
from .models import MAX_ID

games_cli = AppGroup("games", help="Import and export game files (GAME-FORMAT.md).")


def export_game(game_id: int) -> dict:
    return document_of(store.load(game_id))


def document_of(loaded: store.LoadedGame) -> dict:
    """A stored game's file, with its result."""
    return game_document(loaded.state, loaded.game.started_at, loaded.game.finished_at)


def export_all() -> dict:
    return backup_document([export_game(i) for i in store.all_game_ids()])


@games_cli.command("import")
@click.argument("file", type=click.File("r", encoding="utf-8"))
def import_command(file) -> None:
    """Import a game file or a backup; print the id of each game (a game already here is not
    stored twice: its id is printed, and stderr says so)."""
    from .transfer import NEW, import_files, read_files

    try:
        doc = json.load(file)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError, or a number too long to read
        click.echo(f"{file.name}: not a JSON document ({exc})", err=True)
        sys.exit(1)
    try:
        files = read_files(doc)
    except GameFileError as exc:
        click.echo(f"{file.name}: refused: {exc}", err=True)
        sys.exit(1)
    for outcome in import_files(files):
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
        doc = export_all()
    else:
        try:
            doc = export_game(game_id)
        except store.NotFound as exc:
            click.echo(str(exc), err=True)
            sys.exit(1)
    click.echo(json.dumps(doc, ensure_ascii=False, indent=2))


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
    if not 1 <= game_id <= MAX_ID or store.peek(game_id) is None:
        click.echo(f"no game {game_id}", err=True)
        sys.exit(1)
    # Checked first: a new key revokes the old links, so it is made only when it can be printed.
    key = access.reissue(game_id)
    with current_app.test_request_context(base_url=base_url):
        click.echo(url_for("games.join", game_id=game_id, key=key, _external=True))


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


def register_cli(app: Flask) -> None:
    app.cli.add_command(games_cli)
