"""The players' sums (``store.figures.player_summaries``): they count the finished games not in
the bin, move with every change to such a game as a rebuild would add them up, and a round of a
game still being played leaves them alone; a player's page adds that game as it stands."""

from __future__ import annotations

from factories import a_round, counted, start_game
from sqlalchemy import event, select
from sqlalchemy.engine import Engine

from scorekeeper import store
from scorekeeper.club import history
from scorekeeper.rules import CLASSIC
from scorekeeper.store.figures import player_summaries
from scorekeeper.store.models import CountedGame, Player, db

SUMS_TABLES = ("player_summary", "player_level", "player_pair", "counted_game")


def ann() -> int:
    return db.session.scalar(select(Player.id).where(Player.name == "Ann"))


def classic(players=("Ann", "Ben", "Cat"), rounds: int = 7) -> int:
    game_id = start_game(players, rules=CLASSIC)
    for number in range(1, rounds + 1):
        store.record_round(game_id, number, a_round("Ann", {name: "K" for name in players[1:]}))
    return game_id


def as_rebuilt() -> None:
    """The stored sums are what adding every game up again makes."""
    assert player_summaries.rebuild(fix=False) == []


def test_a_round_of_a_game_being_played_writes_nothing_of_the_players_sums(app):
    with app.app_context():
        game_id = classic(rounds=2)
        with counted() as statements:
            store.record_round(game_id, 3, a_round("Ben", {"Ann": "5", "Cat": "5"}))
        assert not [s for s in statements if any(table in s for table in SUMS_TABLES)], statements
        assert db.session.scalars(select(CountedGame.game_id)).all() == []
        as_rebuilt()


def test_the_page_adds_a_game_being_played_to_the_finished_ones(app):
    with app.app_context():
        classic()
        classic(("Ann", "Ben", "Dev"), rounds=2)
        stats = history.player_stats(ann())
        assert (stats.overall.played, stats.overall.finished) == (2, 1)
        # Dev sat with Ann only at the game still being played: an opponent all the same.
        assert {o.name: o.games for o in stats.opponents} == {"Ben": 2, "Cat": 1, "Dev": 1}
        as_rebuilt()


def test_the_sums_follow_a_finished_game_through_every_change(app):
    with app.app_context():
        game_id = classic()
        as_rebuilt()
        assert history.player_stats(ann()).overall.finished == 1
        # A correction of the last deal: Ben went out, Ann's cards now count.
        store.replace_round(game_id, 7, a_round("Ben", {"Ann": "K", "Cat": "5"}))
        as_rebuilt()
        assert history.player_stats(ann()).overall.penalty == 10
        # The last deal taken back: the game is being played again, counted as it stands.
        store.delete_round(game_id, 7)
        as_rebuilt()
        stats = history.player_stats(ann())
        assert (stats.overall.played, stats.overall.finished) == (1, 0)
        store.record_round(game_id, 7, a_round("Ann", {"Ben": "K", "Cat": "K"}))
        as_rebuilt()
        # In the bin and back.
        store.delete_game(game_id)
        as_rebuilt()
        assert history.player_stats(ann()).overall.played == 0
        store.restore_game(game_id)
        as_rebuilt()
        assert history.player_stats(ann()).overall.finished == 1


def test_a_change_of_more_games_than_sqlite_takes_parameters_is_added_up(app):
    """An import of a club's whole backup is one change: its games' ids are written into the
    statements, not sent as one parameter each (SQLite takes 32,766 where it is built so)."""
    with app.app_context():
        game_id = classic()
        many = [game_id, *range(10**6, 10**6 + 40_000)]
        sent: list[int] = []

        def count(conn, cursor, statement, parameters, context, executemany):
            sent.append(len(parameters or ()))

        event.listen(Engine, "before_cursor_execute", count)
        try:
            taken = player_summaries.take_out(many)
        finally:
            event.remove(Engine, "before_cursor_execute", count)
        assert taken is not None and taken.counted == {game_id}
        assert sent and max(sent) < 100, sent
