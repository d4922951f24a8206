"""The OpenAPI description of the JSON API, served at /api/openapi.json.

Its paths come from the app's routes: apispec's Flask plugin reads the description of each view
under /api from its docstring, the YAML after ``---``, one key per method (summary, parameters,
request body, answers). What is here is the document's frame and what the views name in theirs:
the schemas, and the parameters, answers and links that several operations share. (So the
docstrings are the description: Python's -OO, which drops docstrings, would serve no operations.)
"""

from __future__ import annotations

from typing import Any

from apispec import APISpec
from apispec_webframeworks.flask import FlaskPlugin
from flask import Flask, current_app

from scorekeeper.rules import PRESETS
from scorekeeper.rules.cards import MAX_HAND_TEXT
from scorekeeper.rules.replay import MAX_NAME

NAME = {"type": "string", "minLength": 1, "maxLength": MAX_NAME}
HAND = {"type": "string", "maxLength": MAX_HAND_TEXT,
        "description": "ranks separated by spaces: A 2-10 J Q K, JK (the standard deck); 1-12, S, W (Phase 10)"}
#: A round's bonuses: each player's keys of the rule set's bonuses earned (RULESETS.md).
BONUSES = {"type": "object", "maxProperties": 8,
           "additionalProperties": {"type": "array", "items": {"type": "string"}, "maxItems": 10},
           "description": "each player's bonuses earned this round, by key: {\"Ann\": [\"perfect-cut\"]}; "
           "a key the rule set does not have, or one given twice, is refused (422)"}

_ENUM_STR = {"type": "string"}
#: A rule-set document (RULESETS.md). The server checks more than this schema says (a ladder's
#: stages deal alike, every rank of the deck valued, the deck table's rows ascending and able to
#: deal, text without control characters, lengths counted after runs of spaces are made one),
#: refusing with 422 and the field named.
RULESET = {
    "type": "object",
    "additionalProperties": False,
    "required": ["name", "progression", "stages", "deck", "jokers", "values", "hand_limit", "dealer_rules",
                 "min_players", "max_players", "decks", "winner"],
    "properties": {
        "name": {**_ENUM_STR, "description": "1 to 60 characters"},
        "stage_name": {**_ENUM_STR, "description": "1 to 20 characters; Level for a ladder, Deal for deals"},
        "progression": {"type": "string", "enum": ["deal", "ladder"]},
        "stages": {"type": "array", "minItems": 1, "maxItems": 30, "items": {
            "type": "object", "additionalProperties": False, "required": ["contract", "cards"],
            "properties": {"contract": {**_ENUM_STR, "description": "1 to 100 characters"},
                           "cards": {"type": "integer", "minimum": 1, "maximum": 30}}}},
        "deck": {"type": "string", "enum": ["standard", "phase10"]},
        "jokers": {"type": "boolean"},
        "values": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 500},
                   "description": "every rank of the deck (and JK with jokers), no others"},
        "hand_limit": {"type": "string", "enum": ["dealt", "none"]},
        "dealer_rules": {"type": "array", "minItems": 1, "maxItems": 2, "uniqueItems": True,
                         "items": {"type": "string", "enum": ["winner", "rotate"]}},
        "min_players": {"type": "integer", "minimum": 2, "maximum": 8},
        "max_players": {"type": "integer", "minimum": 2, "maximum": 8},
        "decks": {"type": "array", "minItems": 1, "maxItems": 8, "items": {
            "type": "object", "additionalProperties": False, "required": ["up_to", "decks"],
            "properties": {"up_to": {"type": "integer", "minimum": 2, "maximum": 8},
                           "decks": {"type": "integer", "minimum": 1, "maximum": 8},
                           "jokers": {"type": "integer", "minimum": 0, "maximum": 16}}}},
        "bonuses": {"type": "array", "maxItems": 10, "items": {
            "type": "object", "additionalProperties": False, "required": ["key", "label", "points"],
            "properties": {"key": {"type": "string", "pattern": "^[a-z0-9-]{1,30}$"},
                           "label": {**_ENUM_STR, "description": "1 to 60 characters"},
                           "points": {"type": "integer", "minimum": -1000, "maximum": 1000, "not": {"enum": [0]}}}}},
        "winner": {"type": "string", "enum": ["lowest", "lowest-finisher"]},
        "note": {**_ENUM_STR, "description": "up to 300 characters"},
    },
}


def _round_schema(with_number: bool) -> dict[str, Any]:
    props: dict[str, Any] = {
        "went_out": NAME,
        "hands": {"type": "object", "additionalProperties": HAND, "maxProperties": 8},
        "achieved": {"type": "array", "items": NAME, "maxItems": 8},
        "points": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 10000},
                   "maxProperties": 8},
        "bonuses": BONUSES,
        "number": {"type": "integer", "minimum": 1, "maximum": 10000},
    }
    return {
        "type": "object",
        "required": ["went_out", "number"] if with_number else ["went_out"],
        "properties": props,
        "additionalProperties": False,
    }


ERROR = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["message"],
            "properties": {
                "message": {"type": "string"},
                "field": {"type": "string"},
                "round": {"type": "integer"},
                "player": {"type": "string"},
                "card": {"type": "string"},
            },
        },
        "game": {"$ref": "#/components/schemas/GameWithResult"},
        "saved": {"type": "string", "description": "a hand sent for a round saved already: the player's hand as saved"},
        "problems": {"type": "array", "description": "a refused rule set: every problem, each with its field "
                     "(and stage or rank)", "items": {"type": "object", "required": ["field", "message"],
                     "properties": {"field": {"type": "string"}, "message": {"type": "string"},
                                    "stage": {"type": "integer"}, "rank": {"type": "string"}}}},
    },
}

GAME = {
    "type": "object",
    "description": "A game file (GAME-FORMAT.md; version 2 in RULESETS.md: rules as any preset's key or a "
    "whole rule-set document, rounds with bonuses; an export always writes version 2). Beyond this schema the rules refuse, with 422 naming the "
    "field, round, player and card: players alike, a first dealer not at the table, more or fewer players, "
    "decks or jokers than the rules allow, and rounds the rules do not allow (a name not at the table, "
    "more cards of a rank than the decks hold).",
    "required": ["format", "rules", "players", "first_dealer", "rounds"],
    "additionalProperties": False,
    "properties": {
        "format": {"type": "string", "enum": ["scorekeeper-game/1", "scorekeeper-game/2"]},
        "rules": {"oneOf": [{"type": "string", "enum": list(PRESETS)},
                            {"type": "string", "pattern": "^house-[0-9]+$"},
                            {"$ref": "#/components/schemas/RuleSet"}],
                  "description": "version 1: balmoral or classic; version 2: any preset's key or a whole rule-set "
                  "document; POST /api/games also takes a house rule set's key (house-ID, version 2), which a "
                  "file to import cannot name"},
        "players": {"type": "array", "items": NAME, "minItems": 2, "maxItems": 8, "uniqueItems": True,
                    "description": "in seating order, clockwise; no two alike ignoring case and spaces "
                    "(\"Ann\" and \" ann\" are one player: refused with 422); as many as the rules "
                    "allow (balmoral 2 to 8, classic 3 to 8)"},
        "first_dealer": {**NAME, "description": "one of the players (any other name: 422)"},
        # null is read as absent (the rules' suggestion; a time not known), as the game file
        # reader has always done.
        "dealer_rule": {"type": "string", "enum": ["winner", "rotate", None], "nullable": True},
        "decks": {"type": "integer", "minimum": 1, "maximum": 8, "nullable": True},
        "jokers": {"type": "integer", "minimum": 0, "maximum": 16, "nullable": True,
                   "description": "at most 8, or what the rule set's deck table suggests if more"},
        "started_at": {"type": "string", "format": "date-time", "nullable": True},
        "finished_at": {"type": "string", "format": "date-time", "nullable": True},
        "rounds": {"type": "array", "items": {"$ref": "#/components/schemas/Round"}, "maxItems": 500},
        "result": {"type": "object", "description": "ignored on import; worked out again"},
    },
}

RULESET_ENTRY = {
    "type": "object",
    "required": ["key", "name", "preset", "summary", "document"],
    "properties": {
        "key": {"type": "string", "description": "a preset's key, or house-ID: what POST /api/games takes as rules"},
        "name": {"type": "string"},
        "preset": {"type": "boolean", "description": "built in (never changed), or the club's own"},
        "summary": {"type": "string", "description": "one line on the rule set"},
        "document": {"$ref": "#/components/schemas/RuleSet"},
    },
}

RESULT = {
    "type": "object",
    "required": ["finished", "winners", "players", "rounds", "next"],
    "properties": {
        "finished": {"type": "boolean"},
        "winners": {"type": "array", "items": {"type": "string"}},
        "players": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name", "total", "penalties"],
                "properties": {
                    "name": {"type": "string"},
                    "total": {"type": "integer"},
                    "completed": {"type": "integer", "minimum": 0, "maximum": 30,
                                  "description": "ladder rule sets: the stages completed"},
                    "penalties": {"type": "array", "items": {"type": "integer"}},
                },
            },
        },
        "rounds": {"type": "array", "items": {"$ref": "#/components/schemas/DealInfo"}},
        # OpenAPI 3.0 has no null type: nullable, and a $ref's siblings are ignored, so allOf.
        "next": {"allOf": [{"$ref": "#/components/schemas/DealInfo"}], "nullable": True},
    },
}

DEAL_INFO = {
    "type": "object",
    "required": ["number", "dealer", "cards_dealt"],
    "properties": {"number": {"type": "integer"}, "dealer": {"type": "string"}, "cards_dealt": {"type": "integer"}},
}

ROUND_ANSWER = {
    "type": "object",
    "required": ["number", "round", "dealer", "cards_dealt", "penalties"],
    "properties": {
        "number": {"type": "integer"},
        "round": {"$ref": "#/components/schemas/Round"},
        "dealer": {"type": "string"},
        "cards_dealt": {"type": "integer"},
        "penalties": {"type": "object", "additionalProperties": {"type": "integer"}},
    },
}


RATED_PLAYER = {
    "type": "object",
    "required": ["rank", "player_id", "name", "rating", "mu", "sigma", "games", "wins", "recent", "recent_change",
                 "provisional", "nights_played", "nights_won", "url"],
    "properties": {
        "rank": {"type": "integer", "nullable": True, "description": "1 is the best; null for a provisional player"},
        "player_id": {"type": "integer"},
        "name": {"type": "string"},
        "rating": {"type": "number", "description": "the rating shown: mu - 3 sigma, to one decimal"},
        "mu": {"type": "number"},
        "sigma": {"type": "number"},
        "games": {"type": "integer", "description": "rated (finished, kept) games"},
        "wins": {"type": "integer", "description": "of those, the games won (alone or shared)"},
        "recent": {"type": "array", "items": {"type": "number"},
                   "description": "the rating before the last five games and after each of them"},
        "recent_change": {"type": "number", "description": "the change over the last five games"},
        "provisional": {"type": "boolean", "description": "fewer than five rated games"},
        "nights_played": {"type": "integer", "description": "club nights the player played a game at (all of them, "
                                                              "whatever the filters)"},
        "nights_won": {"type": "integer", "description": "closed club nights the player was first in the standings "
                                                           "of (a tie for first counts for each)"},
        "url": {"type": "string", "description": "the player's page"},
    },
}

RATINGS = {
    "type": "object",
    "required": ["rules", "period", "games", "provisional_below", "ranked", "provisional"],
    "properties": {
        "rules": {"type": "string", "nullable": True, "maxLength": 20,
                  "description": "the rule-set key rated (a preset's, house-ID, or imported), or null: every game"},
        "period": {"type": "string", "enum": ["all", "year"]},
        "games": {"type": "integer", "description": "the finished games rated"},
        "provisional_below": {"type": "integer"},
        "ranked": {"type": "array", "items": {"$ref": "#/components/schemas/RatedPlayer"}},
        "provisional": {"type": "array", "items": {"$ref": "#/components/schemas/RatedPlayer"}},
    },
}


NIGHT_SUMMARY = {
    "type": "object",
    "required": ["id", "date", "rules", "closed", "url"],
    "properties": {
        "id": {"type": "integer"},
        "date": {"type": "string", "format": "date"},
        "rules": {"type": "string", "maxLength": 20, "description": "the rule-set key the night's tables play"},
        "closed": {"type": "boolean"},
        "url": {"type": "string", "description": "the night's page"},
    },
}
NIGHT = {
    "type": "object",
    "required": [*NIGHT_SUMMARY["required"], "players", "drawn", "games", "standings"],
    "properties": {
        **NIGHT_SUMMARY["properties"],
        "players": {"type": "array", "items": {
            "type": "object", "required": ["player_id", "name", "here"],
            "properties": {"player_id": {"type": "integer"}, "name": {"type": "string"},
                           "here": {"type": "boolean", "description": "false once they went home"}}}},
        "drawn": {"type": "array", "description": "the tables drawn and not yet started", "items": {
            "type": "object", "required": ["round", "table", "players"],
            "properties": {"round": {"type": "integer"}, "table": {"type": "integer"},
                           "players": {"type": "array", "items": {"type": "string"}}}}},
        "games": {"type": "array", "items": {
            "type": "object", "required": ["id", "round", "table", "finished"],
            "properties": {"id": {"type": "integer"}, "round": {"type": "integer"}, "table": {"type": "integer"},
                           "finished": {"type": "boolean"}}}},
        "standings": {"type": "array", "items": {
            "type": "object", "required": ["rank", "tied", "player_id", "name", "points", "relative", "games",
                                           "playing", "rating"],
            "properties": {
                "rank": {"type": "integer"}, "tied": {"type": "boolean"},
                "player_id": {"type": "integer"}, "name": {"type": "string"},
                "points": {"type": "number", "description": "place points: (table size - place) / (table size - 1)"
                           " for each game, tied players sharing the average of their places"},
                "relative": {"type": "number", "description": "total penalty less each table's average"},
                "games": {"type": "integer"},
                "playing": {"type": "boolean", "description": "one of their games is still in progress"},
                "rating": {
                    "type": "object", "nullable": True, "required": ["before", "after", "change", "games"],
                    "description": "the club's rating over the player's finished games of the night (null before the "
                                   "first ends): before the first, after the last, and the change those games made",
                    "properties": {"before": {"type": "number"}, "after": {"type": "number"},
                                   "change": {"type": "number"}, "games": {"type": "integer"}}}}}},
    },
}


BACKUP = {
    "type": "object",
    "required": ["format", "games"],
    "properties": {
        "format": {"type": "string", "enum": ["scorekeeper-backup/1"]},
        "games": {"type": "array", "items": {"$ref": "#/components/schemas/Game"}, "maxItems": 20},
        # The club's nights, their games by their number in "games" (1 the first); a backup
        # written before nights were kept has none.
        "nights": {"type": "array", "maxItems": 5, "items": {
            "type": "object",
            "required": ["held_on", "rules", "opened_at"],
            "properties": {
                "held_on": {"type": "string", "format": "date"},
                "rules": {"description": "a preset's key or a whole rule-set document, as a game file's"},
                "opened_at": {"type": "string", "format": "date-time"},
                "closed_at": {"type": "string", "format": "date-time", "nullable": True},
                "players": {"type": "array", "items": {"type": "object", "required": ["name"], "properties": {
                    "name": {"type": "string"}, "arrived_at": {"type": "string", "format": "date-time", "nullable": True},
                    "left_at": {"type": "string", "format": "date-time", "nullable": True}}}},
                "games": {"type": "array", "items": {"type": "object", "required": ["game", "round", "table"],
                                                     "properties": {"game": {"type": "integer", "minimum": 1},
                                                                    "round": {"type": "integer", "minimum": 1},
                                                                    "table": {"type": "integer", "minimum": 1}}}},
                "drawn": {"type": "object", "required": ["round", "tables"], "properties": {
                    "round": {"type": "integer", "minimum": 1},
                    "tables": {"type": "array", "items": {"type": "object", "required": ["table", "players"],
                                                          "properties": {"table": {"type": "integer", "minimum": 1},
                                                                         "players": {"type": "array",
                                                                                     "items": {"type": "string"}}}}}}},
            },
        }},
    },
}
IMPORTED = {
    "type": "object",
    "required": ["games"],
    "properties": {"games": {"type": "array", "items": {
        "type": "object",
        "required": ["number", "id", "status"],
        "properties": {"number": {"type": "integer"}, "id": {"type": "integer"},
                       "status": {"type": "string", "enum": ["new", "existing", "restored", "repeated"]},
                       "edit_key": {"type": "string", "description": "the new game's edit key (new games only)"}},
    }}},
}
SENT_HAND = {
    "type": "object",
    "required": ["seat", "player", "went_out", "cards", "points", "achieved", "bonuses", "revision", "words"],
    "properties": {
        "seat": {"type": "integer"}, "player": {"type": "string"}, "went_out": {"type": "boolean"},
        "cards": {"type": "string", "nullable": True, "description": "the cards as sent, canonical; null for points"},
        "points": {"type": "integer", "nullable": True}, "achieved": {"type": "boolean"},
        "bonuses": {"type": "array", "items": {"type": "string"}},
        "revision": {"type": "integer", "description": "one more each time this seat's hand changes"},
        "words": {"type": "string", "description": "the hand in a line with its penalty: K 7 7 (24)"},
    },
}
HAND_SENT = {
    "type": "object",
    "required": ["number"],
    "additionalProperties": False,
    "description": "one player's own hand for the round being played: went_out, or cards, or points",
    "properties": {
        "number": {"type": "integer", "minimum": 1, "maximum": 10000, "description": "the round being played"},
        "went_out": {"type": "boolean"},
        "cards": HAND,
        "points": {"type": "integer", "minimum": 0, "maximum": 10000},
        "achieved": {"type": "boolean", "description": "made their contract (ladder rule sets)"},
        "bonuses": {"type": "array", "items": {"type": "string"}, "maxItems": 10},
    },
}


SCHEMAS = {
    "Game": GAME,
    "RuleSet": RULESET,
    "RuleSetEntry": RULESET_ENTRY,
    "RuleSets": {"type": "object", "required": ["rulesets"], "properties": {
        "rulesets": {"type": "array", "items": {"$ref": "#/components/schemas/RuleSetEntry"}}}},
    "GameWithResult": {**GAME, "properties": {**GAME["properties"], "result": RESULT}},
    "Round": _round_schema(False),
    "NumberedRound": _round_schema(True),
    "DealInfo": DEAL_INFO,
    "RoundAnswer": ROUND_ANSWER,
    "Error": ERROR,
    "SentHand": SENT_HAND,
    "HandSent": HAND_SENT,
    "SentHands": {"type": "object", "required": ["number", "hands"], "properties": {
        "number": {"type": "integer", "nullable": True, "description": "the round being played "
                   "(null once the game is over)"},
        "hands": {"type": "array", "items": {"$ref": "#/components/schemas/SentHand"}}}},
    "SeatLinks": {"type": "object", "required": ["seats"], "properties": {"seats": {"type": "array", "items": {
        "type": "object", "required": ["seat", "player", "seat_key", "seat_url"],
        "properties": {"seat": {"type": "integer"}, "player": {"type": "string"},
                       "seat_key": {"type": "string", "description": "the player's bearer key"},
                       "seat_url": {"type": "string", "description": "the link their phone opens"}}}}}},
    "Flagged": {"type": "object", "required": ["round", "seat", "player", "words"], "properties": {
        "round": {"type": "integer"}, "seat": {"type": "integer"}, "player": {"type": "string"},
        "words": {"type": "string"}}},
    "RatedPlayer": RATED_PLAYER,
    "Ratings": RATINGS,
    "Night": NIGHT,
    "Nights": {"type": "object", "required": ["nights"], "properties": {
        "nights": {"type": "array", "items": NIGHT_SUMMARY}}},
    "Backup": BACKUP,
    "Imported": IMPORTED,
    "Created": {
        "type": "object",
        "required": ["id", "edit_key", "game_url", "watch_url", "edit_url"],
        "properties": {"id": {"type": "integer"}, "edit_key": {"type": "string"}, "game_url": {"type": "string"},
                       "watch_url": {"type": "string"}, "edit_url": {"type": "string"}},
    },
}

#: The parameters several operations take, named in the views' descriptions (``GameId``).
PARAMETERS = {
    "GameId": {"name": "game_id", "in": "path", "schema": {"type": "integer", "minimum": 1}},
    "NightId": {"name": "night_id", "in": "path", "schema": {"type": "integer", "minimum": 1}},
    "RoundNumber": {"name": "number", "in": "path", "schema": {"type": "integer", "minimum": 1}},
    "Seat": {"name": "seat", "in": "path", "schema": {"type": "integer", "minimum": 0},
             "description": "the player's place at the table, from 0 (the first player of the game file)"},
    "IfMatch": {"name": "If-Match", "in": "header", "required": False, "schema": {"type": "string"},
                "description": "the ETag of the game this change was made on; a newer game answers 412"},
}


def error(description: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    """An answer with the API's error body, and the headers it sends, each with what it says."""
    answer: dict[str, Any] = {"description": description,
                              "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    if headers:
        answer["headers"] = {name: {"schema": {"type": "string"}, "description": said}
                             for name, said in headers.items()}
    return answer


#: The answers several operations give, named in the views' descriptions (``"429": TooMany``).
RESPONSES = {
    "NotJson": error("not JSON"),
    "NoEditKey": error("no edit key sent", {"WWW-Authenticate": 'Bearer realm="scorekeeper": send the key as '
                                                                "Authorization: Bearer <key>"}),
    "NotEditKey": error("not the game's edit key"),
    "NoSeatKey": error("no key sent", {"WWW-Authenticate": 'Bearer realm="scorekeeper": the edit key, or a '
                                                          "player's seat key"}),
    "NoClubKey": error("no club key sent: Authorization: Bearer <club key>", {"WWW-Authenticate": "Bearer"}),
    "NotKeeper": error("not the club key (who may: the club's keeper)"),
    "NoGame": error("no such game or round"),
    "NoNight": error("no such night"),
    "GameChanged": error("the game changed meanwhile"),
    "TooLarge": error("the body is over 2 MiB: far more than any game needs"),
    "NotSentAsJson": error("not sent as JSON"),
    "Refused": error("refused: the message names the field, round, player, card"),
    "TooMany": error("too many requests from this address: wait Retry-After seconds",
                     {"Retry-After": "seconds to wait"}),
}

#: What a client (and a stateful test) does next with an answer. The edit key of a created game
#: goes with its links as the bearer token that changes need.
LINKS = {
    "CreatedGame": {"operationId": "getGame", "parameters": {"game_id": "$response.body#/id"},
                    "description": "the game just created"},
    "FirstRound": {"operationId": "recordRound",
                   "parameters": {"game_id": "$response.body#/id",
                                  "header.Authorization": "Bearer {$response.body#/edit_key}"},
                   "description": "record its first round, with its edit key"},
    "RoundsGame": {"operationId": "getGame", "parameters": {"game_id": "$request.path.game_id"},
                   "description": "the game with this round"},
    "ReplaceRound": {"operationId": "replaceRound",
                     "parameters": {"game_id": "$request.path.game_id", "number": "$response.body#/number"},
                     "description": "correct this round (with the game's edit key)"},
    "DeleteRound": {"operationId": "deleteRound",
                    "parameters": {"game_id": "$request.path.game_id", "number": "$response.body#/number"},
                    "description": "delete this round (with the game's edit key)"},
}

SECURITY_SCHEMES = {
    "editKey": {"type": "http", "scheme": "bearer"},
    "seatKey": {"type": "http", "scheme": "bearer",
                "description": "a player's seat key: their own seat's hand, nothing else"},
    "clubKey": {"type": "http", "scheme": "bearer", "description": "the club key (flask club-key prints it)"},
}

INFO = {
    "title": "Scorekeeper API",
    "version": "1.0.0",
    "description": "Create games, record and correct rounds. Changes need the game's edit key as a bearer "
    "token; a player's seat key sends that player's own hand and nothing else; imports and the backup of every "
    "game need the club key. Game files follow GAME-FORMAT.md. Writes are limited per address (429 with "
    "Retry-After).",
}

PREFIX = "/api/"
EXTENSION = "scorekeeper_openapi"
#: The one route under /api that is no operation of the API: this description itself.
THE_DESCRIPTION = "api.openapi"


def described_endpoints(app: Flask) -> list[str]:
    """The endpoints of every route under /api that the document describes."""
    return sorted({rule.endpoint for rule in app.url_map.iter_rules()
                   if rule.rule.startswith(PREFIX) and rule.endpoint != THE_DESCRIPTION})


def add_components(spec: APISpec) -> None:
    """What the views' descriptions name: the schemas, parameters, answers, links and keys."""
    for name, schema in SCHEMAS.items():
        spec.components.schema(name, schema)
    for name, parameter in PARAMETERS.items():
        spec.components.parameter(name, parameter["in"], parameter)
    for name, answer in RESPONSES.items():
        spec.components.response(name, answer)
    for name, link in LINKS.items():
        spec.components.link(name, link)
    for name, scheme in SECURITY_SCHEMES.items():
        spec.components.security_scheme(name, scheme)


def make_document(app: Flask) -> dict[str, Any]:
    """The document: this frame, and a path for each route under /api, described by its view."""
    spec = APISpec(INFO["title"], INFO["version"], "3.0.3", plugins=[FlaskPlugin()],
                   info={"description": INFO["description"]})
    add_components(spec)
    for endpoint in described_endpoints(app):
        spec.path(view=app.view_functions[endpoint], app=app)
    return spec.to_dict()


def openapi_document() -> dict[str, Any]:
    """The current app's document, made once, when first asked for: an app's routes do not change
    once it serves (reading the views' YAML takes tens of milliseconds)."""
    made = current_app.extensions
    if EXTENSION not in made:
        made[EXTENSION] = make_document(current_app)
    return made[EXTENSION]
