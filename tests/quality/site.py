"""One seeded Scorekeeper for the quality gates, and the catalogue of every page it serves.

The same catalogue feeds the gates: axe-core (every page in the browser, light and dark), the
Nu HTML checker (every page's HTML as served, whole and as the htmx fragment), Lighthouse (three
pages) and the pseudo-locale check (every word a page shows comes from the translation
catalogue). A page is named once here, so adding a page to the app means adding one line
below, and every gate sees it.
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from flask import Flask

ROOT = Path(__file__).resolve().parents[2]
NODE_MODULES = ROOT / "node_modules"
AXE_JS = NODE_MODULES / "axe-core" / "axe.min.js"
#: Where the pages find axe-core: on their own origin, as their Content-Security-Policy wants.
AXE_URL = "/__quality__/axe.min.js"
#: An empty page of the same origin, where a tab waits between the pages it checks.
BLANK_URL = "/__quality__/blank"
VNU_JAR = NODE_MODULES / "vnu-jar" / "build" / "dist" / "vnu.jar"
LIGHTHOUSE_CLI = NODE_MODULES / "lighthouse" / "cli" / "index.js"


@dataclass
class Seeded:
    """What was stored: ids to build addresses from, and the edit keys of the games."""

    balmoral: int = 0  # in progress, 6 players, a few rounds: the scoreboard, the round screen
    classic: int = 0  # in progress, 3 players
    balmoral_over: int = 0  # finished, imported
    classic_over: int = 0  # finished, imported
    deleted: int = 0  # in the bin
    fresh: int = 0  # started, no round yet
    player: int = 0  # a player with games (the page with statistics and head to head)
    opponent: int = 0
    idle_player: int = 0  # on the roster, never played
    liverpool: int = 0  # a rule set with a bonus: the round screen's bonus toggles
    phase10: int = 0  # the Phase 10 deck: the round screen's keypad of 1 to 12, Skip, Wild
    phase10_climbing: int = 0  # a ladder of another stage word, three rounds in
    shanghai: int = 0  # bonuses take totals below 0
    keys: dict[int, str] = field(default_factory=dict)
    game_file: bytes = b""  # the game file of balmoral_over: importing it again stores nothing
    house: str = ""  # a house rule set (Liverpool changed)
    own_rules: int = 0  # a game whose rules no rule set has (its house rule set changed since)
    seat_keys: list[str] = field(default_factory=list)  # the seat links of balmoral: Ann's phone opens the first
    night: int = 0  # a club night: seven players here, two tables drawn, the first started


NAMES = ["Ann", "Benedict", "Cat", "Dev", "Eve", "Fin"]


def seed(app: Flask) -> Seeded:
    """Store the games whose pages are checked: every kind of state the templates show."""
    from history_games import random_docs  # tests/ is on sys.path (the suite's conftest)

    from scorekeeper.store import replays
    from scorekeeper import store
    from scorekeeper.files import transfer
    from scorekeeper.files.transfer import export_game
    from scorekeeper.files.gamefile import backup_document, read_document
    from scorekeeper.store.models import Game, db
    from scorekeeper.rules import BALMORAL, CLASSIC, PHASE10, SHANGHAI, GameSetup, RoundRecord, get_preset

    s = Seeded()
    with app.app_context():
        # Finished games of both rule sets from the made-up generator, from a month back: more
        # than a page of history, so the pager shows.
        keys: list[str] = []
        docs = random_docs(22, seed=7, start_at=datetime.now(UTC) - timedelta(days=30), players=NAMES[:4])
        outcomes = transfer.import_files(read_document(backup_document(docs)), keys=keys)
        for outcome, key in zip(outcomes, keys, strict=True):
            s.keys[outcome.game_id] = key
            stored = replays.load_game(outcome.game_id)
            if stored.state.rules.key == "balmoral" and not s.balmoral_over:
                s.balmoral_over = outcome.game_id
            elif stored.state.rules.key == "classic" and not s.classic_over:
                s.classic_over = outcome.game_id
        assert s.balmoral_over and s.classic_over, "the seed made no finished game of one rule set"
        # The editor's phone keeps score of the two imported games the pages open (a browser
        # keeps only its newest edit keys: web.keyring.MAX_KEYS_IN_SESSION).
        s.keys = {game_id: key for game_id, key in s.keys.items() if game_id in (s.balmoral_over, s.classic_over)}
        s.game_file = json.dumps(export_game(s.balmoral_over)).encode()

        # Balmoral in progress, six seats (the widest round table a phone shows here).
        game, key = store.create_game(GameSetup.create(BALMORAL, NAMES, first_dealer="Cat"))
        s.balmoral, s.keys[game.id] = game.id, key
        rounds = [
            RoundRecord.create("Ann", {"Benedict": "A K 7 7", "Cat": "10 10 Q 2", "Dev": "3", "Eve": "Q"},
                               {"Fin": 12}, achieved=["Dev"]),
            RoundRecord.create("Benedict", {"Ann": "5", "Cat": "K", "Dev": "", "Eve": "9 9"}, {"Fin": 0},
                               achieved=["Ann", "Fin"]),
            RoundRecord.create("Cat", {"Ann": "2", "Benedict": "3", "Dev": "4", "Eve": "5", "Fin": "6"}),
        ]
        for number, record in enumerate(rounds, start=1):
            store.record_round(game.id, number, record)

        # Every player enters their own hand: seat links, Ann's hand for round 4 sent, Cat's
        # entered by the scorekeeper, and Benedict's word that round 3 is wrong.
        from scorekeeper.store.seats import seat_keys

        s.seat_keys = seat_keys.make_seat_keys(game.id)
        store.send_hand(game.id, 4, "Ann", RoundRecord.create("", {"Ann": "K 7"}))
        store.send_hand(game.id, 4, "Cat", RoundRecord.create("", {"Cat": "Q"}), by_keeper=True)
        store.flag_round(game.id, 3, 1)

        # Classic in progress, three seats, jokers.
        game, key = store.create_game(GameSetup.create(CLASSIC, NAMES[:3]))
        s.classic, s.keys[game.id] = game.id, key
        store.record_round(game.id, 1, RoundRecord.create("Ann", {"Benedict": "JK 2", "Cat": "A"}))
        store.record_round(game.id, 2, RoundRecord.create("Benedict", {"Ann": "K", "Cat": "3 3"}))

        # A game with no round yet, and one in the bin.
        game, key = store.create_game(GameSetup.create(BALMORAL, ["Ann", "Cat"]))
        s.fresh, s.keys[game.id] = game.id, key
        game, key = store.create_game(GameSetup.create(CLASSIC, ["Dev", "Eve", "Fin"]))
        s.deleted, s.keys[game.id] = game.id, key
        store.record_round(game.id, 1, RoundRecord.create("Eve", {"Dev": "Q", "Fin": "4 4"}))
        store.delete_game(s.deleted)

        # A house rule set, and a game started from it before it was changed: the game keeps
        # rules of its own (the game page offers to save them).
        from scorekeeper.rules import LIVERPOOL, ruleset_document

        doc = {**ruleset_document(LIVERPOOL), "name": "Family Liverpool"}
        doc["bonuses"] = [*doc["bonuses"], {"key": "in-one-go", "label": "Went out in one go", "points": -20}]
        house = store.save_ruleset(doc)
        game, key = store.create_game(GameSetup.create(house.rules, ["Ann", "Cat", "Dev"]))
        s.own_rules, s.keys[game.id], s.house = game.id, key, house.key
        store.save_ruleset({**doc, "values": {**doc["values"], "A": 20}}, house.house_id)

        # Rule sets beyond the two first ones: a bonus earned, and the Phase 10 deck.
        game, key = store.create_game(GameSetup.create(get_preset("liverpool"), NAMES[:3]))
        s.liverpool, s.keys[game.id] = game.id, key
        store.record_round(game.id, 1, RoundRecord.create("Ann", {"Benedict": "JK 2", "Cat": "A"},
                                                          bonuses={"Ann": "perfect-cut"}))
        game, key = store.create_game(GameSetup.create(get_preset("phase10"), NAMES[:3]))
        s.phase10, s.keys[game.id] = game.id, key
        # Every rule set's board follows its rules: Phase 10's phases, Shanghai's negative totals.
        game, key = store.create_game(GameSetup.create(PHASE10, ["Ann", "Cat", "Dev"]))
        s.phase10_climbing, s.keys[game.id] = game.id, key
        for number in (1, 2, 3):
            store.record_round(game.id, number, RoundRecord.create("Ann", {"Cat": "12 skip", "Dev": "W"},
                                                                   achieved=["Dev"] if number == 1 else (),
                                                                   deck=PHASE10.deck))
        game, key = store.create_game(GameSetup.create(SHANGHAI, ["Ann", "Cat", "Dev"]))
        s.shanghai, s.keys[game.id] = game.id, key
        store.record_round(game.id, 1, RoundRecord.create("Ann", {"Cat": "5", "Dev": "K JK"},
                                                          bonuses={"Ann": ["blind-no-joker"]}))

        # A club night of six (two tables of three): one table playing, one waiting to start.
        import random
        from datetime import date

        night, _key = store.open_night("classic", date.today())
        store.check_in(night.id, NAMES)
        store.draw_night(night.id, random.Random(7))
        store.start_table(night.id, 1, random.Random(7))
        s.night = night.id

        s.player = store.find_player("Ann").id
        s.opponent = store.find_player("Cat").id
        s.idle_player = store.add_player("Zoë, who watches").id
        assert db.session.get(Game, s.deleted).deleted_at is not None
        db.session.remove()
    return s


@dataclass(frozen=True)
class Page:
    """One page state. ``path`` is fetched with GET unless ``form`` is given (then POSTed).

    ``form`` posts need a CSRF token: ``token_from`` is the address of the page whose form
    carries it. ``browser`` names a function in test_axe that reaches the state by tapping,
    as a person does (for states that only a POST shows).
    """

    name: str
    path: str
    status: int = 200
    form: dict | None = None
    token_from: str | None = None
    files: dict | None = None
    browser: str | None = None
    follow: bool = False  # the address redirects (after leaving a flash message): follow it
    editor: bool = True  # open it with the edit keys in the session
    fragment: bool = True  # the page also answers htmx with its #main fragment
    whole: bool = True  # a whole page (not only a fragment): axe opens it in the browser


def catalogue(s: Seeded) -> list[Page]:
    b, c = s.balmoral, s.classic
    bad_file = {"file": (io.BytesIO(b'{"format": "not a game"}'), "broken.json")}
    same_file = {"file": (io.BytesIO(s.game_file), "again.json")}
    return [
        Page("index", "/"),
        Page("language", "/language"),
        Page("new-game", "/games/new"),
        Page("new-game-classic", "/games/new", form={"rules": "classic", "refresh": "1"}, token_from="/games/new",
             browser="new_game_classic"),
        Page("new-game-refused", "/games/new", 422, form={"rules": "balmoral", "seat-0": "Ann", "decks": "99",
                                                            "start": "1"},
             token_from="/games/new", browser="new_game_refused"),
        Page("new-game-like", f"/games/new?like={s.balmoral_over}"),
        Page("new-game-phase10", "/games/new", form={"rules": "phase10", "use_rules": "1"}, token_from="/games/new",
             browser="new_game_phase10"),
        Page("scoreboard-phase10", f"/games/{s.phase10_climbing}"),
        Page("scoreboard-shanghai", f"/games/{s.shanghai}"),
        Page("story-phase10", f"/games/{s.phase10_climbing}/story"),
        Page("story-shanghai", f"/games/{s.shanghai}/story"),
        Page("players", "/players/"),
        Page("players-rename", f"/players/{s.player}/edit"),
        Page("players-refused", "/players/", 422, form={"name": "ann"}, token_from="/players/",
             browser="players_refused"),
        Page("players-rename-refused", f"/players/{s.player}/edit", 422, form={"name": "Cat"},
             token_from=f"/players/{s.player}/edit", browser="rename_refused"),
        Page("scoreboard-balmoral", f"/games/{b}"),
        Page("scoreboard-classic", f"/games/{c}"),
        Page("scoreboard-fresh", f"/games/{s.fresh}"),
        Page("scoreboard-over-balmoral", f"/games/{s.balmoral_over}"),
        Page("scoreboard-over-classic", f"/games/{s.classic_over}"),
        Page("scoreboard-deleted", f"/games/{s.deleted}"),
        Page("scoreboard-readonly", f"/games/{b}", editor=False),
        Page("join", f"/games/{b}/join", editor=False),
        Page("join-refused", f"/games/{b}/join", 403, form={"key": "not-the-key"}, token_from=f"/games/{b}/join",
             editor=False, browser="join_refused"),
        Page("club", "/club", editor=False),
        Page("club-keeper", "/club"),
        Page("club-refused", "/club", 403, form={"key": "not-the-key"}, token_from="/club", editor=False,
             browser="club_refused"),
        Page("players-watcher", "/players/", editor=False),
        Page("history-bin-watcher", "/history/deleted", editor=False),
        Page("error-403-club", "/import", 403, editor=False),
        Page("scoreboard-flash-warn", f"/games/{s.balmoral_over}/rounds/new", follow=True),
        Page("live-board", f"/games/{b}/live?v=0", whole=False),
        Page("round-new", f"/games/{b}/rounds/new"),
        Page("round-new-classic", f"/games/{c}/rounds/new"),
        Page("round-new-liverpool", f"/games/{s.liverpool}/rounds/new"),
        Page("round-edit-liverpool", f"/games/{s.liverpool}/rounds/1/edit"),
        Page("round-delete-liverpool", f"/games/{s.liverpool}/rounds/1/delete"),
        Page("round-new-phase10", f"/games/{s.phase10}/rounds/new"),
        Page("round-refused", f"/games/{b}/rounds/new", 422,
             form={"number": "4", "hand-0": "A X 7", "hand-2": "K Q", "save": "1"},
             token_from=f"/games/{b}/rounds/new", browser="round_refused"),
        Page("round-correct", f"/games/{b}/rounds/1/edit"),
        Page("round-delete", f"/games/{b}/rounds/3/delete"),
        Page("game-delete", f"/games/{b}/delete"),
        Page("game-delete-readonly", f"/games/{b}/delete", editor=False),
        Page("game-purge", f"/games/{s.deleted}/purge"),
        Page("share", f"/games/{b}/share"),
        Page("share-readonly", f"/games/{b}/share", editor=False),
        Page("share-edit-link-shown", f"/games/{b}/share", browser="share_edit_link"),
        Page("watch", f"/games/{b}/watch"),
        Page("watch-over", f"/games/{s.balmoral_over}/watch"),
        Page("history", "/history"),
        Page("history-page-2", "/history?page=2"),
        Page("history-filtered", f"/history?player={s.player}&rules=balmoral"),
        Page("history-undo", f"/history?deleted={s.deleted}"),
        Page("history-problem", "/history?player=abc&rules=bridge", 404),
        Page("history-bin", "/history/deleted"),
        Page("story-balmoral", f"/games/{s.balmoral_over}/story"),
        Page("story-classic", f"/games/{s.classic_over}/story"),
        Page("story-in-progress", f"/games/{b}/story"),
        Page("story-fresh", f"/games/{s.fresh}/story"),
        Page("story-deleted", f"/games/{s.deleted}/story"),
        Page("ratings", "/ratings"),
        Page("ratings-filtered", "/ratings?rules=classic&period=year"),
        Page("ratings-problem", "/ratings?rules=bridge&period=decade", 404),
        Page("player", f"/players/{s.player}"),
        Page("player-h2h", f"/players/{s.player}?vs={s.opponent}"),
        Page("player-idle", f"/players/{s.idle_player}"),
        Page("player-vs-problem", f"/players/{s.player}?vs=abc", 404),
        Page("nights", "/nights/"),
        Page("night", f"/nights/{s.night}"),
        Page("night-watcher", f"/nights/{s.night}", editor=False),
        Page("night-close", f"/nights/{s.night}/close"),
        Page("night-screen", f"/nights/{s.night}/screen", editor=False),
        Page("night-screen-live", f"/nights/{s.night}/screen/live?v=0", whole=False),
        Page("import", "/import"),
        Page("import-refused", "/import", 422, form={}, files=bad_file, token_from="/import",
             browser="import_refused"),
        Page("import-nothing-new", "/import", form={}, files=same_file, token_from="/import",
             browser="import_again"),
        Page("rules", "/rules"),
        Page("rules-preset", "/rules/liverpool"),
        Page("rules-ladder", "/rules/phase10", editor=False),
        Page("rules-house", f"/rules/{s.house}"),
        Page("rules-copy", "/rules/liverpool/copy"),
        Page("rules-edit", f"/rules/{s.house}/edit"),
        Page("rules-refused", "/rules/liverpool/copy", 422, form=_rules_refused(), token_from="/rules/liverpool/copy",
             browser="rules_refused"),
        Page("rules-rename", f"/rules/{s.house}/rename"),
        Page("rules-delete", f"/rules/{s.house}/delete"),
        Page("rules-of-a-game", f"/rules/games/{s.own_rules}"),
        Page("rules-of-a-game-watcher", f"/rules/games/{s.own_rules}", editor=False),
        Page("scoreboard-own-rules", f"/games/{s.own_rules}"),
        Page("error-403-rules", "/rules/liverpool/copy", 403, editor=False),
        Page("offline", "/offline", fragment=False),
        Page("error-404", "/games/999999", 404),
        Page("error-403-round", f"/games/{b}/rounds/new", 403, editor=False),
        Page("seat-join", f"/games/{b}/seat", editor=False),
        Page("seat-join-refused", f"/games/{b}/seat", 403, form={"key": "not-the-key"}, token_from=f"/games/{b}/seat",
             editor=False, browser="seat_join_refused"),
        Page("hand", f"/games/{b}/hand"),
        Page("hand-refused", f"/games/{b}/hand", 422, form={"number": "4", "hand-0": "A X", "send": "1"},
             token_from=f"/games/{b}/hand", browser="hand_refused"),
        Page("error-403-hand", f"/games/{b}/hand", 403, editor=False),
    ]


def take_a_seat(client, s: Seeded) -> None:
    """The editor's phone opens Ann's seat link of the Balmoral game in progress (her own page),
    and holds every seat link of it, as the phone that made them does (the share page)."""
    token = csrf_token(client.get(f"/games/{s.balmoral}/seat").get_data(as_text=True))
    opened = client.post(f"/games/{s.balmoral}/seat", data={"csrf_token": token, "key": s.seat_keys[0]})
    assert opened.status_code == 303, opened.status_code
    with client.session_transaction() as session:
        session["seat_links"] = {str(s.balmoral): s.seat_keys}


def _rules_refused() -> dict:
    """The Liverpool editor posted with an ace worth 501 and a deal of 31 cards."""
    from scorekeeper.rules import LIVERPOOL, ruleset_document
    from scorekeeper.web.forms.rules import editor_data

    data = editor_data({**ruleset_document(LIVERPOOL), "name": "Too much"})
    form = {key: value for key, value in data.items() if isinstance(value, str)}
    for table in ("stages", "values", "decks", "bonuses"):
        for i, row in enumerate(data[table]):
            form.update({f"{table}-{i}-{field}": value for field, value in row.items()})
    form.update({"jokers": "y", "values-0-value": "501", "stages-2-cards": "31", "save": "1"})
    return form


def csrf_token(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found, "no CSRF token in the page"
    return found.group(1)
