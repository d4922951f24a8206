"""Every page costs a fixed number of SQL statements, whatever the size of a game or of the
history; indexes back the history's filters."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from conftest import ON_POSTGRES, join
from factories import (
    HTMX,
    counted,
    round_form,
    text,
)
from history_games import random_docs, random_state
from sqlalchemy import event, func, insert, inspect, select

from scorekeeper import create_app, store

from scorekeeper.club import history

from scorekeeper.store.rebuild import rebuild
from scorekeeper.files.gamefile import backup_document, game_document, read_document, read_game
from scorekeeper.store.models import Game, HandEntry, Player, Round, Seat, db
from scorekeeper.rules import BALMORAL, Progression, document_text, name_key

# =============================================================== a fixed number of queries


#: The statements a request really sends: no test transaction around them.
pytestmark = pytest.mark.own_database


def queries(app, client, url) -> int:
    client.get(url)  # warm up: the first request may reflect, connect, set pragmas
    with counted() as statements:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(statements)


def bulk_seed(app, docs):
    """Store game files with a handful of multi-row INSERTs (fast enough for 1,000 games)."""
    files = read_document(backup_document(docs))
    with app.app_context():
        names = sorted({n for gf in files for n in gf.setup.players}, key=name_key)
        db.session.execute(insert(Player), [{"name": n, "name_key": name_key(n)} for n in names])
        ids = dict(db.session.execute(select(Player.name, Player.id)).all())
        base = (db.session.scalar(select(func.max(Game.id))) or 0) + 1
        round_id = (db.session.scalar(select(func.max(Round.id))) or 0) + 1
        games, seats, rounds, hands = [], [], [], []
        for i, gf in enumerate(files):
            gid = base + i
            setup = gf.setup
            games.append({"id": gid, "rules": setup.rules.key, "rules_document": document_text(setup.rules),
                          "decks": setup.decks, "jokers": setup.jokers,
                          "dealer_rule": setup.dealer_rule.value, "first_dealer_seat": setup.seat_of(setup.first_dealer),
                          "started_at": gf.started_at,
                          "finished_at": gf.finished_at if gf.state.finished else None})
            seats += [{"game_id": gid, "position": p, "player_id": ids[n]} for p, n in enumerate(setup.players)]
            ladder = setup.rules.progression is Progression.LADDER
            for number, result in enumerate(gf.state.rounds, start=1):
                rec = result.record
                rounds.append({"id": round_id, "game_id": gid, "number": number, "went_out_id": ids[rec.went_out]})
                for n in setup.players:
                    if n in rec.points:
                        cards, points = None, rec.points[n]
                    else:
                        cards, points = (rec.hands[n].canonical if n in rec.hands else ""), None
                    hands.append({"round_id": round_id, "player_id": ids[n], "cards": cards, "points": points,
                                  "achieved": ladder and n in result.achieved})
                round_id += 1
        for table, rows in ((Game, games), (Seat, seats), (Round, rounds), (HandEntry, hands)):
            for start in range(0, len(rows), 2000):
                db.session.execute(insert(table), rows[start:start + 2000])
        rebuild()  # rows written behind the store's back: their summaries, as an upgrade fills them
        db.session.commit()
        return [g["id"] for g in games]


def long_game_doc(rounds: int, players: int, seed: int = 7) -> dict:
    import random

    from history_games import NAMES

    state = random_state(random.Random(seed), rules=BALMORAL, players=NAMES[:players], rounds=rounds)
    assert len(state.rounds) == rounds
    return game_document(state, datetime(2026, 5, 1, 19, tzinfo=UTC), None, with_result=False)


def test_a_story_costs_the_same_queries_for_1_round_and_30_rounds(app, web):
    small, big = bulk_seed(app, [long_game_doc(1, 2), long_game_doc(30, 8)])
    for page in ("/games/{}/story", "/games/{}.csv", "/games/{}.json", "/games/{}/delete"):
        one, thirty = queries(app, web, page.format(small)), queries(app, web, page.format(big))
        assert one == thirty, (page, one, thirty)
        assert thirty <= 8, page


def test_a_round_from_the_round_screen_reads_the_games_rounds_once(app, web):
    """The phone's save: the game is read and replayed once (to check the round), the round
    scored against that state, and the board answered from the state after it, not read and
    replayed again; the statements are as many for a round after one round as after thirty."""
    counts = []
    for before in (1, 30):
        keys: list[str] = []
        with app.app_context():
            (game_id,) = store.import_games([read_game(long_game_doc(before, 8))], keys)
        join(web, game_id, keys[0])  # this browser keeps the game's score
        web.get(f"/games/{game_id}/rounds/new")
        with counted() as statements:
            response = web.post(f"/games/{game_id}/rounds/new", headers=HTMX,
                                data=round_form(before + 1, went_out=0, hands={seat: "K" for seat in range(1, 8)}))
        assert response.status_code == 200 and f"Round {before + 1} saved." in text(response), text(response)
        assert sum(" hand" in s.lower() and s.lstrip().upper().startswith("SELECT") for s in statements) == 1, statements
        counts.append(len(statements))
    assert counts[0] == counts[1], counts


@pytest.mark.slow
def test_history_and_player_pages_cost_the_same_queries_for_10_and_1000_games(app, tmp_path):
    docs = random_docs(1000, seed=5)
    sizes = {}
    for label, count in (("ten", 10), ("thousand", 1000)):
        other = create_app({"TESTING": True, "SECRET_KEY": "q", "USE_CDN": False,
                            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / (label + '.sqlite')}"})
        with other.app_context():
            db.create_all()
        bulk_seed(other, docs[:count])
        client = other.test_client()
        with other.app_context():
            ann = db.session.scalar(select(Player.id).where(Player.name == "Ann"))
            ben = db.session.scalar(select(Player.id).where(Player.name == "Ben"))
            games = db.session.scalar(select(func.count(Game.id)))
            store.delete_game(db.session.scalar(select(func.max(Game.id))))
        assert games == count
        sizes[label] = {
            url: queries(other, client, url)
            for url in (
                "/history", "/history?page=2" if count > 20 else "/history?page=1", f"/history?player={ann}",
                "/history?rules=classic", f"/history?player={ann}&rules=balmoral", "/history/deleted",
                f"/players/{ann}", f"/players/{ann}?vs={ben}",
            )
        }
        with other.app_context():
            db.engine.dispose()
    ten, thousand = sizes["ten"], sizes["thousand"]
    assert list(ten.values()) == list(thousand.values()), (ten, thousand)
    # BEGIN, the player's stored sums, their unfinished games as they stand, their club nights,
    # their rating's last row and its line, the head to head
    assert max(thousand.values()) <= 14, thousand


def explain(stmt) -> str:
    sql = str(stmt.compile(db.engine, compile_kwargs={"literal_binds": True}))
    return " ".join(str(row[-1]) for row in db.session.execute(db.text("EXPLAIN QUERY PLAN " + sql)))


@pytest.mark.skipif(ON_POSTGRES, reason="reads SQLite's EXPLAIN QUERY PLAN; the SQLite pass runs it")
def test_indexes_back_the_history_filters(app):
    with app.app_context():
        found = {ix["name"]: ix["column_names"] for t in ("game", "seat") for ix in inspect(db.engine).get_indexes(t)}
        assert found["ix_game_started_at"] == ["started_at"]
        assert found["ix_game_rules_started_at"] == ["rules", "started_at"]
        assert found["ix_seat_player_id"] == ["player_id"]
        newest = (Game.started_at.desc(), Game.id.desc())
        assert "ix_game_started_at" in explain(select(Game.id).order_by(*newest).limit(20)) or \
            "ix_game_deleted_at_started_at" in explain(select(Game.id).order_by(*newest).limit(20))
        by_rules = explain(select(Game.id).where(history.HistoryFilter(rules="classic").where())
                           .order_by(*newest).limit(20))
        assert "USING INDEX ix_game_" in by_rules
        by_player = explain(select(Game.id).where(history.HistoryFilter(player_id=1).where()).order_by(*newest))
        assert "ix_seat_player_id" in by_player


def test_the_last_page_of_a_large_history_is_quick_to_find(app, web):
    bulk_seed(app, random_docs(120, seed=9))
    response = web.get("/history?page=6")
    assert response.status_code == 200
    assert "Games 101 to 120 of 120" in text(response)
    assert web.get("/history?page=7").status_code == 404


@pytest.mark.skipif(ON_POSTGRES, reason="reads SQLite's EXPLAIN QUERY PLAN; the SQLite pass runs it")
def test_the_leaderboard_seeks_each_players_last_games_along_an_index(app):
    with app.app_context():
        store.import_games(read_document(backup_document(random_docs(60, seed=4))))
        statements: list[tuple[str, object]] = []

        def kept(conn, cursor, statement, parameters, context, executemany):
            statements.append((statement, parameters))

        event.listen(db.engine, "before_cursor_execute", kept)
        try:
            assert history.leaderboard().games == 60
        finally:
            event.remove(db.engine, "before_cursor_execute", kept)
        plans = [(statement, [str(row[-1]) for row in db.session.connection().exec_driver_sql(
                     "EXPLAIN QUERY PLAN " + statement, parameters)])
                 for statement, parameters in statements if statement.lstrip().upper().startswith(("SELECT", "WITH"))]
    # Each player's last games, sought as ranges of one player's rows (asked with the scope
    # outside them, SQLite read the scope's every row), and the count of games rated, one step
    # from the end of the scope's order (LIMIT 1): the players' table alone is read whole.
    assert len(plans) >= 3
    for statement, plan in plans:
        for step in plan:
            if step.startswith(("SCAN", "SEARCH")) and " player" not in step:
                assert step.startswith("SEARCH") and ("player_id=?" in step or "LIMIT" in statement), (statement, plan)
