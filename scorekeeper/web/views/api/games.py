"""The JSON API: the same store and the same checks as the HTML forms.

Changes need the game's edit key as ``Authorization: Bearer <key>``; the club's acts (import,
the backup of everything, saving a house rule set: the house rule sets are the club's, as its
roster is) need the club key the same way (:mod:`scorekeeper.web.clubkey`). Errors are
JSON objects ``{"error": {"message": ..., "field": ..., "round": ..., "player": ..., "card": ...}}``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from scorekeeper.web import keyring, links
from scorekeeper import store
from scorekeeper.files import transfer
from scorekeeper.web.clubkey import club_only
from scorekeeper.web.limits import import_most, max_body
from scorekeeper.files.gamefile import GAME_FORMAT, GameFileError, game_document, read_game, read_round, round_document
from scorekeeper.store import Game
from scorekeeper.web.openapi import openapi_document
from scorekeeper.rules import (
    Deck,
    GameSetup,
    GameState,
    RoundError,
    RoundRecord,
    RoundResult,
    RuleSetError,
)
from scorekeeper.web.views.api.errors import ApiError
from scorekeeper.web.views.common import held, unencoded
from scorekeeper.web.views.errors import with_headers

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.errorhandler(ApiError)
def api_error(error: ApiError):
    return jsonify({"error": error.body, **error.extra}), error.status, error.headers


@bp.errorhandler(store.InBin)
def in_bin(error: store.InBin):
    return jsonify({"error": {"message": f"{error}; nothing was changed"}}), 409


@bp.errorhandler(HTTPException)
def http_error(error: HTTPException):
    return with_headers((jsonify({"error": {"message": error.description or error.name}}), error.code), error)


def json_body() -> dict:
    if not request.is_json:
        raise ApiError(415, "send the body as JSON (Content-Type: application/json)")
    try:
        data = request.get_json(silent=True)
    except RecursionError:  # "[[[[...]]]]" nested deeper than the parser goes
        data = None
    if data is None:
        raise ApiError(400, "the body is not valid JSON")
    if not isinstance(data, dict):
        raise ApiError(422, "the body must be a JSON object")
    return data


def _game(game_id: int, editing: bool = False) -> store.LoadedGame:
    try:
        loaded = store.load(game_id)
    except store.NotFound:
        raise ApiError(404, f"no game {game_id}") from None
    if editing:
        require_key(loaded.game)
    return loaded


def require_key(game: Game) -> None:
    """401 when the request carries no edit key, 403 when it carries another one."""
    key = keyring.bearer_key()
    if key is None:
        raise ApiError(401, "changing a game needs its edit key: Authorization: Bearer <key>",
                       headers={"WWW-Authenticate": 'Bearer realm="scorekeeper"'})
    if not store.key_matches(game, key):
        seat = store.seat_of(game.id, key)
        if seat is not None:
            raise ApiError(403, f"this is {seat.name}'s seat key: it sends {seat.name}'s own hand "
                                f"(PUT /api/games/{game.id}/hands/{seat.position}) and nothing else; this change "
                                "needs the game's edit key (the scorekeeper's); nothing was changed")
        raise ApiError(403, "this is not the game's edit key (or a new edit link has replaced it); "
                            "nothing was changed")


def _document(loaded: store.LoadedGame) -> dict:
    return game_document(loaded.state, loaded.game.started_at, loaded.game.finished_at)


def _etag(game_id: int, version: int) -> str:
    return f"api-g{game_id}-v{version}"


def _with_etag(payload: Any, loaded: store.LoadedGame | store.RecordedRound, status: int = 200) -> Response:
    response = jsonify(payload)
    response.status_code = status
    response.set_etag(_etag(loaded.id, loaded.game.version))
    return response


def _round_answer(setup: GameSetup, result: RoundResult) -> dict:
    return {
        "number": result.number,
        "round": round_document(setup, result.record),
        "dealer": result.dealer,
        "cards_dealt": result.cards_dealt,
        "penalties": dict(zip(setup.players, result.penalties, strict=True)),
    }


def _read_round(doc: dict, state: GameState | None, number: int, deck: Deck | None = None) -> RoundRecord:
    body = {k: v for k, v in doc.items() if k != "number"}
    try:
        return read_round(body, f"Round {number}", state.setup if state is not None else None, deck=deck)
    except GameFileError as exc:
        raise ApiError(422, str(exc), exc.field) from None


def _number(doc: dict) -> int:
    number = doc.get("number")
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= 10_000:
        raise ApiError(422, '"number" must be the round number, a whole number from 1', "number")
    return number


def _refuse(exc: RoundError) -> ApiError:
    return ApiError(422, str(exc), problem=exc.first)


@bp.get("/openapi.json")
def openapi():
    return jsonify(openapi_document())


def _house_rules(doc: dict):
    """The house rule set a version 2 body names by key (``house-3``), or None: any other
    ``rules`` is the file's own (a preset's key, a whole document), read as a file's."""
    key = doc.get("rules")
    if doc.get("format") != GAME_FORMAT or not isinstance(key, str) or not key.startswith(store.HOUSE):
        return None
    try:
        return store.get_ruleset(key).rules
    except store.NotFound as exc:
        raise ApiError(422, f"{exc} (the house rule sets: GET /api/rulesets)",
                       "rules") from None


@bp.post("/games")
def create_game():
    """A game from a game file: its rules a preset's key, a whole document, or (version 2) a
    house rule set's key; the game keeps its own copy of them either way.

    ---
    post:
      operationId: createGame
      summary: Create a game from a game file (usually with no rounds)
      requestBody:
        required: true
        content:
          application/json:
            schema: Game
            example: {format: scorekeeper-game/2, rules: liverpool, players: [Ann, Ben, Cat], first_dealer: Ann,
                      rounds: []}
      responses:
        201:
          description: "created: its id, edit key and links"
          content: {application/json: {schema: Created}}
          links: {GetGame: CreatedGame, RecordRound: FirstRound}
        400: NotJson
        413: TooLarge
        415: NotSentAsJson
        422: Refused
        429: TooMany
    """
    doc = json_body()
    try:
        gf = read_game(doc, _house_rules(doc))
    except GameFileError as exc:
        raise ApiError(422, str(exc), exc.field) from None
    keys: list[str] = []
    (game_id,) = store.import_games([gf], keys)
    key = keys[0]
    return jsonify(
        {
            "id": game_id,
            "edit_key": key,
            "game_url": links.external("api.get_game", game_id=game_id),
            "watch_url": links.external("games.watch", game_id=game_id),
            "edit_url": links.edit_link(game_id, key),
        }
    ), 201


@bp.get("/games/<int:game_id>")
def get_game(game_id: int):
    """The game file with its result and its ETag: 304 when the client holds this version.

    ---
    get:
      operationId: getGame
      summary: The game file with its result
      parameters: [GameId]
      responses:
        200: {description: the game, content: {application/json: {schema: GameWithResult}}}
        304: {description: not modified}
        404: NoGame
    """
    row = store.peek(game_id)
    holds = held(_etag(game_id, row.version)) if row is not None else None
    if holds is not None:
        # The client holds this version: 304 after one query by primary key, nothing replayed.
        response = Response(status=304)
        response.set_etag(holds)
        return response
    loaded = _game(game_id)
    response = _with_etag(_document(loaded), loaded)
    return response.make_conditional(request)


@bp.post("/games/<int:game_id>/rounds")
def record_round(game_id: int):
    """The next round (the edit key): the same round sent again is stored once and
    answered alike; another round with a number already recorded is refused (409).

    ---
    post:
      operationId: recordRound
      summary: Record the next round; the number is the idempotency key
      security: [{editKey: []}]
      parameters: [GameId]
      requestBody: {required: true, content: {application/json: {schema: NumberedRound}}}
      responses:
        201:
          description: recorded (or the same round sent again)
          content: {application/json: {schema: RoundAnswer}}
          links: {GetGame: RoundsGame, ReplaceRound: ReplaceRound, DeleteRound: DeleteRound}
        400: NotJson
        401: NoEditKey
        403: NotEditKey
        404: NoGame
        409:
          description: "another round has this number: the current game is in the answer"
          content: {application/json: {schema: Error}}
        413: TooLarge
        415: NotSentAsJson
        422: Refused
        429: TooMany
    """
    # The game's row is enough to check the key: the store reads the game (once) in the
    # write transaction that records the round.
    peeked = store.peek_with_rules(game_id)
    if peeked is None:
        raise ApiError(404, f"no game {game_id}")
    game, rules = peeked
    require_key(game)
    doc = json_body()
    number = _number(doc)
    # The hands are read with the game's deck (1 to 12, skips and wilds in Phase 10).
    record = _read_round(doc, None, number, rules.deck if rules is not None else None)
    try:
        saved = store.record_round(game_id, number, record)
    except store.AlreadyRecorded:
        current = store.load(game_id)
        if store.same_round(current, number, record):
            # The same round sent again (a retry, a double tap): stored once, same answer.
            return _with_etag(_round_answer(current.state.setup, current.state.rounds[number - 1]), current, 201)
        raise ApiError(
            409,
            f"round {number} is already recorded with other hands; correct it with PUT",
            "number",
            extra={"game": _document(current)},
        ) from None
    except RoundError as exc:
        raise _refuse(exc) from None
    return _with_etag(_round_answer(saved.position.setup, saved.result), saved, 201)


def _if_match(loaded: store.LoadedGame) -> int | None:
    """The game version a change was made on, from ``If-Match: "api-g1-v7"`` (or
    ``"api-g1-v7:br"``, the ETag of the compressed answer, as the client got it); None without
    the header (or with ``*``). A tag that names no version of this game (another game's, or
    none we ever gave) refuses the change with a 412 before anything is read or written: a
    conditional write must never be applied unconditionally."""
    header = request.headers.get("If-Match")
    if header is None or header.strip() == "*":
        return None
    prefix = f"api-g{loaded.id}-v"
    for tag in header.split(","):
        tag = unencoded(tag.strip().removeprefix("W/").strip('"'))
        version = tag.removeprefix(prefix) if tag.startswith(prefix) else ""
        if version.isascii() and version.isdigit() and len(version) < 10:
            return int(version)
    raise ApiError(412, f"If-Match names no version of game {loaded.id}: fetch the game again "
                        f"(GET /api/games/{loaded.id}) and send its ETag", extra={"game": _document(loaded)})


@bp.put("/games/<int:game_id>/rounds/<int:number>")
def replace_round(game_id: int, number: int):
    """A recorded round corrected (the edit key, If-Match optional); everything after it is
    worked out again.

    ---
    put:
      operationId: replaceRound
      summary: Correct a recorded round; everything after it is worked out again
      security: [{editKey: []}]
      parameters: [GameId, RoundNumber, IfMatch]
      requestBody: {required: true, content: {application/json: {schema: Round}}}
      responses:
        200:
          description: corrected
          content: {application/json: {schema: RoundAnswer}}
          links: {GetGame: RoundsGame, ReplaceRound: ReplaceRound, DeleteRound: DeleteRound}
        400: NotJson
        401: NoEditKey
        403: NotEditKey
        404: NoGame
        412: GameChanged
        413: TooLarge
        415: NotSentAsJson
        422: Refused
        429: TooMany
    """
    loaded = _game(game_id, editing=True)
    if not 1 <= number <= len(loaded.state.rounds):
        raise ApiError(404, f"game {game_id} has no round {number}")
    doc = json_body()
    if "number" in doc and _number(doc) != number:
        raise ApiError(422, f'"number" says {doc["number"]} but the URL says round {number}', "number")
    record = _read_round(doc, loaded.state, number)
    try:
        saved = store.replace_round(game_id, number, record, _if_match(loaded))
    except store.Conflict as exc:
        raise ApiError(412, str(exc), extra={"game": _document(exc.loaded)}) from None
    except RoundError as exc:
        raise _refuse(exc) from None
    return _with_etag(_round_answer(saved.state.setup, saved.state.rounds[number - 1]), saved)


@bp.delete("/games/<int:game_id>/rounds/<int:number>")
def delete_round(game_id: int, number: int):
    """A recorded round deleted (the edit key, If-Match optional); later rounds move up one.

    ---
    delete:
      operationId: deleteRound
      summary: Delete a recorded round; later rounds move up one number
      security: [{editKey: []}]
      parameters: [GameId, RoundNumber, IfMatch]
      responses:
        200: {description: "deleted: the game as it is now", content: {application/json: {schema: GameWithResult}}}
        401: NoEditKey
        403: NotEditKey
        404: NoGame
        412: GameChanged
        422: Refused
        429: TooMany
    """
    loaded = _game(game_id, editing=True)
    if not 1 <= number <= len(loaded.state.rounds):
        raise ApiError(404, f"game {game_id} has no round {number}")
    try:
        saved = store.delete_round(game_id, number, _if_match(loaded))
    except store.Conflict as exc:
        raise ApiError(412, str(exc), extra={"game": _document(exc.loaded)}) from None
    except RoundError as exc:
        raise _refuse(exc) from None
    return _with_etag(_document(saved), saved)



@bp.post("/import")
@club_only("import files")
@max_body("IMPORT_MAX_BYTES", transfer.IMPORT_MAX_BYTES)
def import_files():
    """A game file or a backup, as the upload page takes it: refused whole, or every new game
    stored (never twice); the edit keys of the games stored.

    ---
    post:
      operationId: importFiles
      summary: "Import a game file or a backup: refused whole, or every new game stored (never twice)"
      security: [{clubKey: []}]
      requestBody: {required: true, content: {application/json: {schema: {oneOf: [Game, Backup]}}}}
      responses:
        200: {description: what became of each game, content: {application/json: {schema: Imported}}}
        400: NotJson
        401: NoClubKey
        403: NotKeeper
        413:
          description: "over the import limit: larger than IMPORT_MAX_BYTES, or more games or rounds than the
            server imports at once (the message names flask games import)"
          content: {application/json: {schema: Error}}
        415: NotSentAsJson
        422: Refused
        429: TooMany
    """
    doc = json_body()
    refusal = transfer.too_many(doc, *import_most())
    if refusal:
        raise ApiError(413, str(refusal))
    try:
        files = transfer.read_files(doc)
        nights = transfer.read_nights(doc, files)
    except GameFileError as exc:
        raise ApiError(422, str(exc), exc.field) from None
    keys: list[str] = []
    try:
        outcomes = transfer.import_files(files, keys=keys, nights=nights)
    except store.NightRefused as exc:  # a night whose games cannot be seated so: nothing stored
        raise ApiError(422, str(exc), "nights") from None
    new_keys = iter(keys)
    return jsonify({"games": [
        {"number": o.number, "id": o.game_id, "status": o.status,
         **({"edit_key": next(new_keys)} if o.status == transfer.NEW else {})}
        for o in outcomes
    ]})


def _ruleset_entry(entry: store.RuleSetEntry) -> dict:
    return {"key": entry.key, "name": entry.name, "preset": entry.preset, "summary": entry.summary,
            "document": entry.document}


@bp.get("/rulesets")
def rulesets():
    """Every rule set a game can be started with: the presets, then the house rule sets.

    ---
    get:
      operationId: rulesets
      summary: "Every rule set a game can be started with: the presets, then the club's house rule sets, each as
        its whole document with its key"
      responses:
        200: {description: the rule sets, content: {application/json: {schema: RuleSets}}}
    """
    return jsonify({"rulesets": [_ruleset_entry(entry) for entry in store.list_rulesets()]})


@bp.post("/rulesets")
@club_only("save house rule sets")
def save_ruleset():
    """Save a house rule set from its document, checked as every document is (422 naming the
    field, and the stage or rank); the club keeper's, as the roster is.

    ---
    post:
      operationId: saveRuleset
      summary: "Save a house rule set (the club's, as its roster is: the club key); its name must be no other rule
        set's"
      security: [{clubKey: []}]
      requestBody: {required: true, content: {application/json: {schema: RuleSet}}}
      responses:
        201:
          description: "saved: its key (house-ID) and document"
          content: {application/json: {schema: RuleSetEntry}}
        400: NotJson
        401: NoClubKey
        403: NotKeeper
        413: TooLarge
        415: NotSentAsJson
        422:
          description: "refused: the message and field name the first problem, problems lists each"
          content: {application/json: {schema: Error}}
        429: TooMany
    """
    doc = json_body()
    try:
        entry = store.save_ruleset(doc)
    except RuleSetError as exc:
        problem = exc.first
        extra = {"problems": [{"field": p.field, "message": p.message,
                               **({"stage": p.stage} if p.stage is not None else {}),
                               **({"rank": p.rank} if p.rank is not None else {})} for p in exc.problems]}
        raise ApiError(422, str(exc), problem.field, extra=extra) from None
    return jsonify(_ruleset_entry(entry)), 201


@bp.get("/backup")
@club_only("download the backup of every game")
def backup():
    """Every game (deleted ones too), as /backup.json gives it.

    ---
    get:
      operationId: backup
      summary: Every game, deleted ones too, as one backup
      security: [{clubKey: []}]
      responses:
        200: {description: the backup, content: {application/json: {schema: Backup}}}
        401: NoClubKey
        403: NotKeeper
        429: TooMany
    """
    response = Response(transfer.as_json(transfer.backup()), mimetype="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response
