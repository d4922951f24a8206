"""The API of a table where every player sends their own hand: seat links made by the
scorekeeper (the game's edit key), a player's hand sent with their seat key, the hands waiting
for the round to be saved, and "that's not my hand" on a saved round.

A seat key is a bearer key like the edit key, for one seat: it sends that player's hand and
flags their line, and is refused (403, naming who may) for every other seat and every change to
the game.
"""

from __future__ import annotations

from flask import jsonify, make_response

from scorekeeper import store
from scorekeeper.web import keyring
from scorekeeper.web import links
from scorekeeper.web.presenters import saved_words, sent_words
from scorekeeper.web.views.api.games import bp, json_body, require_key
from scorekeeper.web.views.api.errors import ApiError
from scorekeeper.web.views.common import held
from scorekeeper.rules import CardError, Problem, RoundError, RoundRecord, parse_hand
from scorekeeper.rules.cards import MAX_HAND_TEXT


def _game(game_id: int) -> store.LoadedGame:
    try:
        return store.load(game_id)
    except store.NotFound:
        raise ApiError(404, f"no game {game_id}") from None


def _no_key() -> ApiError:
    return ApiError(401, "this needs a key: Authorization: Bearer <the game's edit key, or a player's seat key>",
                    headers={"WWW-Authenticate": 'Bearer realm="scorekeeper"'})


def _hand(game_id: int, state, position: int, hand: store.Sent) -> dict:
    return {"seat": position, "player": state.setup.players[position], "went_out": hand.went_out,
            "cards": hand.cards, "points": hand.points, "achieved": hand.achieved, "bonuses": list(hand.bonuses),
            "revision": hand.revision, "words": sent_words(state, position, hand)}


@bp.post("/games/<int:game_id>/seat-links")
def make_seat_links(game_id: int):
    """A seat key and link for every player (the edit key); every earlier seat key stops working.

    ---
    post:
      operationId: makeSeatLinks
      summary: A seat key and link for every player (every earlier seat key stops working)
      security: [{editKey: []}]
      parameters: [GameId]
      responses:
        201: {description: each seat's key and link, content: {application/json: {schema: SeatLinks}}}
        401: NoEditKey
        403:
          description: not the game's edit key (a seat key says whose it is)
          content: {application/json: {schema: Error}}
        404: NoGame
        429: TooMany
    """
    loaded = _game(game_id)
    require_key(loaded.game)
    keys = store.make_seat_keys(game_id)
    return jsonify({"seats": [
        {"seat": position, "player": seat.name, "seat_key": key, "seat_url": links.seat_link(game_id, key)}
        for position, (seat, key) in enumerate(zip(loaded.seats, keys, strict=True))]}), 201


@bp.get("/games/<int:game_id>/hands")
def sent_hands(game_id: int):
    """The hands sent for the round being played (reading needs no key, as a game's does); 304
    with ``If-None-Match`` while none arrived, changed or went.

    ---
    get:
      operationId: sentHands
      summary: The hands the players have sent for the round being played
      parameters: [GameId]
      responses:
        200: {description: the hands sent, content: {application/json: {schema: SentHands}}}
        304: {description: not modified}
        404: NoGame
    """
    peeked = store.peek(game_id)
    if peeked is None:
        raise ApiError(404, f"no game {game_id}")
    tag = f"api-sent-g{game_id}-v{peeked.version}-{store.sent_tag(game_id)}"
    holds = held(tag)
    if holds is not None:
        response = make_response("", 304)
        response.set_etag(holds)
        return response
    state = _game(game_id).state
    nxt = state.next
    hands = store.sent_hands(game_id, nxt.number) if nxt else {}
    response = jsonify({"number": nxt.number if nxt else None,
                        "hands": [_hand(game_id, state, p, h) for p, h in sorted(hands.items())]})
    response.set_etag(tag)
    return response


def _seat_allowed(loaded: store.LoadedGame, position: int) -> None:
    """The edit key, or the seat key of this seat; 403 saying whose key was sent and who may."""
    key = keyring.bearer_key()
    if key is None:
        raise _no_key()
    if store.key_matches(loaded.game, key):
        return
    seat = store.seat_of(loaded.id, key)
    if seat is None:
        raise ApiError(403, "this is neither the game's edit key nor a seat key of this seat "
                            "(the scorekeeper may have made new seat links); nothing was sent")
    if seat.position != position:
        raise ApiError(403, f"this is {seat.name}'s seat key: it sends {seat.name}'s own hand (seat {seat.position}) "
                            "and nothing else; nothing was sent", "seat")


def _seat_number(loaded: store.LoadedGame, seat: int) -> str:
    if not 0 <= seat < len(loaded.seats):
        raise ApiError(404, f"game {loaded.id} has no seat {seat} (seats are numbered from 0)")
    return loaded.state.setup.players[seat]


def _refused(name: str, message: str, field: str, card: str | None = None) -> ApiError:
    return ApiError(422, message, problem=Problem(message, player=name, field=field, card=card))


#: What a hand sent through the API may say (HandSent in the OpenAPI document).
FIELDS = {"number", "went_out", "cards", "points", "achieved", "bonuses"}


def _record(doc: dict, name: str, rules) -> tuple[int, RoundRecord]:
    unknown = sorted(set(doc) - FIELDS)
    if unknown:
        raise ApiError(422, f'"{unknown[0][:40]}" is not part of a hand: send {", ".join(sorted(FIELDS))}', unknown[0][:40])
    number = doc.get("number")
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= 10_000:
        raise ApiError(422, '"number" must be the round being played, a whole number from 1', "number")
    went_out = doc.get("went_out", False)
    cards, points = doc.get("cards"), doc.get("points")
    achieved = doc.get("achieved", False)
    bonuses = doc.get("bonuses", [])
    if not isinstance(went_out, bool) or not isinstance(achieved, bool):
        raise ApiError(422, '"went_out" and "achieved" are true or false', "went_out")
    if not isinstance(bonuses, list) or len(bonuses) > 10 or not all(isinstance(b, str) for b in bonuses):
        raise ApiError(422, '"bonuses" is a list of the rule set\'s bonus keys', "bonuses")
    if cards is not None and not isinstance(cards, str) or points is not None and not isinstance(points, int):
        raise _refused(name, '"cards" is text like "K 7 7"; "points" a whole number', "cards")
    hands, totals = {}, {}
    if not went_out:
        if (cards is None) == (points is None):
            raise _refused(name, f"{name}: send either \"cards\" or \"points\" (or \"went_out\": true)", "cards")
        if cards is not None:
            if not isinstance(cards, str) or len(cards) > MAX_HAND_TEXT:
                raise _refused(name, '"cards" is the hand as text, like "K 7 7"', "cards")
            try:
                hands[name] = parse_hand(cards, rules.deck)
            except CardError as exc:
                raise _refused(name, f"{name}: {exc}", "cards", exc.token) from None
        elif not isinstance(points, int) or isinstance(points, bool) or not 0 <= points <= 10_000:
            raise _refused(name, f"{name}: \"points\" must be a whole number from 0", "points")
        else:
            totals[name] = points
    made = frozenset([name]) if went_out or achieved else frozenset()
    return number, RoundRecord(name if went_out else "", hands, totals, made,  # type: ignore[arg-type]
                               {name: tuple(bonuses)} if bonuses else {})


@bp.put("/games/<int:game_id>/hands/<int:seat>")
def send_hand(game_id: int, seat: int):
    """A player's own hand for the round being played (their seat key, or the edit key): kept
    until the round is saved; the same hand sent twice is kept once, a new one replaces it.

    ---
    put:
      operationId: sendHand
      summary: "A player's own hand for the round being played, kept until the round is saved: the same hand sent
        twice is kept once, a new one replaces it"
      security: [{seatKey: []}, {editKey: []}]
      parameters: [GameId, Seat]
      requestBody:
        required: true
        content:
          application/json:
            schema: HandSent
            example: {number: 1, cards: K 7 7, achieved: true}
      responses:
        200: {description: kept, content: {application/json: {schema: SentHand}}}
        400: NotJson
        401: NoSeatKey
        403:
          description: "another seat's key, or none of this game's: the message says whose"
          content: {application/json: {schema: Error}}
        404:
          description: no such game or seat
          content: {application/json: {schema: Error}}
        409:
          description: "the round is saved already: saved is the player's hand as saved"
          content: {application/json: {schema: Error}}
        413: TooLarge
        415: NotSentAsJson
        422:
          description: "refused: a round not being played, or a hand the rules refuse (the message names the player
            and card)"
          content: {application/json: {schema: Error}}
        429: TooMany
    """
    loaded = _game(game_id)
    name = _seat_number(loaded, seat)
    _seat_allowed(loaded, seat)
    state = loaded.state
    number, record = _record(json_body(), name, state.rules)
    try:
        sent = store.send_hand(game_id, number, name, record)
    except store.AlreadyRecorded:
        current = _game(game_id).state
        line = saved_words(current, current.rounds[number - 1], name)
        raise ApiError(409, f"round {number} is already saved, with {name}'s hand as {line}; nothing was sent",
                       "number", extra={"saved": line}) from None
    except RoundError as exc:
        raise ApiError(422, str(exc), problem=exc.first) from None
    return jsonify(_hand(game_id, state, seat, sent))


@bp.post("/games/<int:game_id>/rounds/<int:number>/flags/<int:seat>")
def flag_round(game_id: int, number: int, seat: int):
    """"That's not my hand": a player says saved round ``number`` is wrong for them. It changes
    no figure; the scorekeeper corrects the round or dismisses the flag.

    ---
    post:
      operationId: flagRound
      summary: "That's not my hand: the player says a saved round is wrong for them (no figure changes)"
      security: [{seatKey: []}, {editKey: []}]
      parameters: [GameId, RoundNumber, Seat]
      responses:
        201: {description: flagged for the scorekeeper, content: {application/json: {schema: Flagged}}}
        401: NoSeatKey
        403:
          description: "another seat's key, or none of this game's"
          content: {application/json: {schema: Error}}
        404:
          description: no such game, seat or saved round
          content: {application/json: {schema: Error}}
        429: TooMany
    """
    loaded = _game(game_id)
    name = _seat_number(loaded, seat)
    _seat_allowed(loaded, seat)
    if not 1 <= number <= len(loaded.state.rounds):
        raise ApiError(404, f"game {game_id} has no saved round {number}")
    store.flag_round(game_id, number, seat)
    return jsonify({"round": number, "seat": seat, "player": name,
                    "words": f"{name} says round {number} is wrong"}), 201
