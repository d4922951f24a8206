"""Downloads (a game file, a game's CSV, a backup of everything) and the upload that restores them."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from flask import Blueprint, abort, current_app, request
from flask_babel import format_decimal, lazy_gettext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired

from scorekeeper.web import keyring
from scorekeeper.club import history
from scorekeeper import store
from scorekeeper.files import transfer
from scorekeeper.web import presenters
from scorekeeper.rules import ABOUT, N_
from scorekeeper.web.clubkey import club_only
from scorekeeper.web.languages import gettext, said
from scorekeeper.web.limits import import_most, max_body
from scorekeeper.files.gamefile import GameFileError
from scorekeeper.web.views.common import download, no_huge_ids, render

bp = Blueprint("files", __name__)
bp.url_value_preprocessor(no_huge_ids)

IMPORT_MAX_BYTES = transfer.IMPORT_MAX_BYTES
#: The edit keys of at most this many imported games are kept in the importing browser's session.
REMEMBER_IMPORTED = 20


class ImportForm(FlaskForm):
    file = FileField(lazy_gettext("A game file or a backup (.json)"),
                     validators=[FileRequired(lazy_gettext("Choose a file first."))])


@bp.get("/games/<int:game_id>.json")
def game_file(game_id: int):
    """The game file, exactly as ``flask games export ID`` prints it."""
    try:
        loaded = store.load(game_id)
    except store.NotFound:
        abort(404)
    body = transfer.as_json(transfer.document_of(loaded))
    return download(body, f"scorekeeper-game-{game_id}.json", "application/json")


@bp.get("/games/<int:game_id>.csv")
def game_csv(game_id: int):
    stored = store.load_game(game_id)
    if stored is None or stored.state is None:
        abort(404)
    # The columns in the reader's language: a person opens it in a spreadsheet.
    return download(transfer.game_csv(stored.state, presenters.csv_words()), f"scorekeeper-game-{game_id}.csv",
                    "text/csv")


@bp.get("/backup.json")
@club_only(N_("download the backup of every game"))
def backup():
    """Every game (deleted ones too), as ``flask games export --all`` prints it."""
    today = datetime.now(UTC).strftime("%Y-%m-%d")
    return download(transfer.as_json(transfer.backup()), f"scorekeeper-backup-{today}.json", "application/json")


@bp.route("/import", methods=["GET", "POST"])
@club_only(N_("import files and download backups"))
@max_body("IMPORT_MAX_BYTES", IMPORT_MAX_BYTES)  # a backup may be larger than the app's usual limit
def upload():
    """Restore a game file or a backup: refused whole, or every new game stored; never twice."""
    form = ImportForm()
    if request.method == "GET":
        return _page(form=form, refused=None, outcomes=None)
    if not form.validate_on_submit():
        status = 400 if "csrf_token" in form.errors else 422
        return _page(status, form=form, refused=None, outcomes=None)
    upload = form.file.data
    name = (upload.filename or gettext("the file"))[:80]
    raw = upload.read()
    try:
        doc = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        return _refused(form, gettext("%(file)s: not a JSON document (it is not UTF-8 text)", file=name))
    except json.JSONDecodeError as exc:
        # Where, not the parser's English words for what it expected there.
        return _refused(form, gettext("%(file)s: not a JSON document (something is wrong at line %(line)s, "
                                      "column %(column)s)", file=name, line=exc.lineno, column=exc.colno))
    except RecursionError:
        return _refused(form, gettext("%(file)s: not a JSON document (nested too deeply to read)", file=name))
    except ValueError:  # a number with more digits than Python converts
        return _refused(form, gettext("%(file)s: not a JSON document (a number too long to read)", file=name))
    refusal = transfer.too_many(doc, *import_most())
    if refusal:
        return _refused(form, gettext(ABOUT).format(where=name, reason=presenters.too_many_words(refusal)), 413)
    try:
        files = transfer.read_files(doc)
        nights = transfer.read_nights(doc, files)
    except GameFileError as exc:
        # The reason in the reader's words; what it names (a field, a player, a card) as the file has it.
        return _refused(form, gettext("%(file)s: refused: %(reason)s", file=name, reason=said(exc)))
    keys: list[str] = []
    try:
        outcomes = transfer.import_files(files, keys=keys, nights=nights)
    except store.NightRefused as exc:  # a night whose games cannot be seated so: nothing stored
        return _refused(form, gettext("%(file)s: refused: %(reason)s", file=name, reason=said(exc)))
    new = [o for o in outcomes if o.status == transfer.NEW]
    # This phone may change (and delete) what it imported; but a big backup must not push the
    # keys of the games it keeps score for now out of its session, so only the last few.
    for outcome, key in list(zip(new, keys, strict=False))[-REMEMBER_IMPORTED:]:
        keyring.remember(outcome.game_id, key)
    return _page(form=ImportForm(formdata=None), refused=None, outcomes=outcomes, name=name, new=new)


def _refused(form: ImportForm, message: str, status: int = 422):
    return _page(status, form=form, refused=message, outcomes=None)


def _page(status: int = 200, **context):
    """The page, with the most an import here takes (said before a file is chosen)."""
    games, rounds = import_most()
    most_bytes = int(current_app.config.get("IMPORT_MAX_BYTES", IMPORT_MAX_BYTES))
    # Large numbers grouped as the reader's language groups them ("10,000", "10.000").
    return render("import.html", status, game_count=_game_count(), most_games=format_decimal(games),
                  most_rounds=format_decimal(rounds), most_mb=most_bytes // (1024 * 1024), **context)


def _game_count() -> int:
    return history.history_total()

