"""Upgrades keep every game and figure, the models and the migrations agree, and an app refuses a database newer than itself."""

from __future__ import annotations

import re
import flask_migrate
import pytest
from alembic.script import ScriptDirectory
from conftest import close, database_url, empty_database, join
from sqlalchemy import MetaData, create_engine, select, text
from scorekeeper import create_app
from scorekeeper.store.figures import rating_summaries
from scorekeeper.files.transfer import export_game
from scorekeeper.store.database import MIGRATIONS, DatabaseTooNew
from scorekeeper.files.gamefile import game_document, read_game
from scorekeeper.store.models import db
from scorekeeper.rules import PRESETS, document_text, name_key
from scorekeeper.store.rebuild import rebuild


REVISIONS = [s.revision for s in ScriptDirectory(str(MIGRATIONS)).walk_revisions()][::-1]  # oldest first


#: The migration that made the club's ratings' table.
RATINGS = "9f4b2e6c1d83"


GAMES = [
    {
        "format": "scorekeeper-game/1", "rules": "balmoral", "players": ["Ann", "Ben", "Cat"], "first_dealer": "Ben",
        "started_at": "2026-11-01T18:00:00Z",
        "rounds": [{"went_out": "Ann", "hands": {"Ben": "A K", "Cat": "2 3"}, "achieved": ["Cat"]}] * 7,
    },
    {
        "format": "scorekeeper-game/1", "rules": "classic", "players": ["Dev", "Eve", "Fay", "Gus", "Hal"],
        "first_dealer": "Eve", "started_at": "2026-11-02T18:00:00Z",
        "rounds": [{"went_out": "Dev", "hands": {"Eve": "JK 10", "Fay": ""}, "points": {"Gus": 35, "Hal": 0}}] * 3,
    },
]


def migrated_app(url: str):
    return create_app({"TESTING": True, "SECRET_KEY": "m", "SQLALCHEMY_DATABASE_URI": url, "CHECK_SCHEMA": False})


def upgrade(app, revision: str = "head") -> str:
    """The upgrade as `make run` makes it: the migrations, then the summaries if they are stale
    (``flask games rebuild --if-stale``); what the second said."""
    flask_migrate.upgrade(directory=str(MIGRATIONS), revision=revision)
    done = app.test_cli_runner().invoke(args=["games", "rebuild", "--if-stale"])
    assert done.exit_code == 0, done.output
    return done.output


def seed_with_reflected_tables(url: str, doc: dict) -> None:
    """Store a game with plain inserts into whatever tables this revision has (no models)."""
    gf = read_game(doc)
    engine = create_engine(url)
    meta = MetaData()
    meta.reflect(engine)
    t = meta.tables

    def only(table, **values):
        return {k: v for k, v in values.items() if k in t[table].c}

    with engine.begin() as conn:
        ids = {}
        for name in gf.setup.players:
            found = conn.execute(select(t["player"].c.id).where(t["player"].c.name_key == name_key(name))).scalar()
            if found is None:
                found = conn.execute(t["player"].insert().values(**only(
                    "player", name=name, name_key=name_key(name), created_at=gf.started_at))).inserted_primary_key[0]
            ids[name] = found
        game_id = conn.execute(t["game"].insert().values(**only(
            "game", rules=gf.setup.rules.key, rules_document=document_text(gf.setup.rules), decks=gf.setup.decks, jokers=gf.setup.jokers,
            dealer_rule=gf.setup.dealer_rule.value, first_dealer_seat=gf.setup.seat_of(gf.setup.first_dealer),
            started_at=gf.started_at, finished_at=gf.started_at if gf.state.finished else None,
        ))).inserted_primary_key[0]
        for pos, name in enumerate(gf.setup.players):
            conn.execute(t["seat"].insert().values(game_id=game_id, position=pos, player_id=ids[name]))
        for number, result in enumerate(gf.state.rounds, start=1):
            rec = result.record
            round_id = conn.execute(t["round"].insert().values(**only(
                "round", game_id=game_id, number=number, went_out_id=ids[rec.went_out], recorded_at=gf.started_at,
            ))).inserted_primary_key[0]
            for name in gf.setup.players:
                points = rec.points.get(name)
                cards = None if points is not None else (rec.hands[name].canonical if name in rec.hands else "")
                conn.execute(t["hand"].insert().values(**only(
                    "hand", round_id=round_id, player_id=ids[name], cards=cards, points=points,
                    achieved=name in result.achieved, bonuses=" ".join(sorted(rec.bonuses.get(name, ()))))))
    engine.dispose()


@pytest.mark.parametrize("revision", REVISIONS[:-1])
def test_games_stored_at_an_earlier_migration_survive_the_upgrade(tmp_path, revision):
    url = database_url(tmp_path, "old.sqlite")
    app = migrated_app(url)
    empty_database(app)
    with app.app_context():
        db.drop_all()
        flask_migrate.upgrade(directory=str(MIGRATIONS), revision=revision)
    for doc in GAMES:
        seed_with_reflected_tables(url, doc)
    with app.app_context():
        assert re.match(r"[1-9]\d* summaries were rebuilt", upgrade(app))  # both games' and their ratings
        for game_id, doc in enumerate(GAMES, start=1):
            expected = game_document(read_game(doc).state)
            exported = export_game(game_id)
            assert exported["result"] == expected["result"]
            assert exported["rounds"] == expected["rounds"]
        # The upgrade filled every game's summary and the club's ratings, as a rebuild from the
        # facts makes them (the plain inserts above stored none).
        assert rebuild(fix=False) == []
        assert rating_summaries.rebuild(fix=False) == []
        # Every game keeps its own copy of the rules it was played by: the preset's document
        # (the migration's own copy for games stored before it, the same text as the app's).
        stored = db.session.execute(text("SELECT id, rules, rules_document FROM game ORDER BY id")).all()
        assert [(key, document) for _, key, document in stored] == [
            (doc["rules"], document_text(PRESETS[doc["rules"]])) for doc in GAMES]
        assert db.session.scalar(text("SELECT count(*) FROM hand WHERE bonuses != ''")) == 0
        assert db.session.scalar(text("SELECT count(*) FROM house_ruleset")) == 0
        assert db.session.scalar(text("SELECT count(*) FROM rating_summary")) > 0
        # Done once: the next start finds the summaries worked out by this version's logic.
        assert "nothing to rebuild" in upgrade(app)
    close(app)


def test_models_and_migrations_do_not_drift(tmp_path):
    app = migrated_app(database_url(tmp_path, "head.sqlite"))
    empty_database(app)
    with app.app_context():
        db.drop_all()
        flask_migrate.upgrade(directory=str(MIGRATIONS))
        flask_migrate.check(directory=str(MIGRATIONS))  # raises when the models differ
    close(app)


def test_the_app_refuses_a_database_newer_than_itself(tmp_path):
    url = database_url(tmp_path, "newer.sqlite")
    app = migrated_app(url)
    empty_database(app)
    with app.app_context():
        db.drop_all()
        flask_migrate.upgrade(directory=str(MIGRATIONS))
        with db.engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = 'fffffffffff0'"))
    close(app)
    try:
        with pytest.raises(DatabaseTooNew, match="upgraded by a newer Scorekeeper"):
            create_app({"TESTING": True, "SECRET_KEY": "m", "SQLALCHEMY_DATABASE_URI": url})
    finally:
        empty_database(app)
        close(app)


def test_the_upgrade_merges_players_whose_names_differ_only_in_how_unicode_writes_them(tmp_path):
    """Two "María"s (a precomposed and a combining accent) and an "Eve" with a zero-width joiner
    were two players each under the older name key; the upgrade makes each one player. Two that sat at
    the same table cannot be one: they stay apart, for the keeper to rename."""
    url = database_url(tmp_path, "names.sqlite")
    app = migrated_app(url)
    empty_database(app)
    with app.app_context():
        db.drop_all()
        flask_migrate.upgrade(directory=str(MIGRATIONS), revision="f32542358b5b")
    for doc in GAMES:
        seed_with_reflected_tables(url, doc)
    engine = create_engine(url)
    old_key = lambda name: " ".join(name.split()).casefold()  # noqa: E731 (the older name key)
    renames = {"Ann": "María", "Dev": "Mari\u0301a", "Ben": "Jos\u00e9", "Cat": "Jose\u0301", "Eve": "Eve\u200d"}
    with engine.begin() as conn:
        for before, after in renames.items():
            conn.execute(text("UPDATE player SET name = :n, name_key = :k WHERE name = :b"),
                         {"n": after, "k": old_key(after), "b": before})
        conn.execute(text("INSERT INTO player (name, name_key, created_at) VALUES ('Eve', 'eve', '2026-11-03')"))
        versions = dict(conn.execute(text("SELECT id, version FROM game")).all())
    engine.dispose()
    with app.app_context():
        upgrade(app)
        players = db.session.execute(text("SELECT id, name, name_key FROM player ORDER BY id")).all()
        names = [name for _, name, _ in players]
        assert names.count("Mar\u00eda") == 1 and "Mari\u0301a" not in names
        # Both games now seat the one María (the older player), and say so in their files.
        assert export_game(1)["players"][0] == export_game(2)["players"][0] == "Mar\u00eda"
        assert export_game(2)["rounds"][0]["went_out"] == "Mar\u00eda"
        new_versions = dict(db.session.execute(text("SELECT id, version FROM game")).all())
        assert all(new_versions[g] > versions[g] for g in versions)
        # José and José sat in the same game: two players still, their names now both NFC.
        joses = [(i, k) for i, n, k in players if n == "Jos\u00e9"]
        assert len(joses) == 2 and len({k for _, k in joses}) == 2
        # The Eve with a joiner is the Eve added after; the joiner's one (older, with games) is kept.
        assert [n for n in names if n.startswith("Eve")] == ["Eve\u200d"]
    close(app)


def test_the_upgrade_places_phase10_players_by_the_phase_reached_first(tmp_path):
    """Summaries stored before the engine placed Phase 10 players by phase first (by total
    then) are worked out again by the upgrade; the other games' stay as they were."""
    from scorekeeper import store
    from scorekeeper.rules import PHASE10, GameSetup, RoundRecord

    url = database_url(tmp_path, "places.sqlite")
    app = migrated_app(url)
    empty_database(app)
    with app.app_context():
        db.drop_all()
        flask_migrate.upgrade(directory=str(MIGRATIONS), revision="head")
        game, _ = store.create_game(GameSetup.create(PHASE10, ["Ann", "Bob", "Cat"]))
        # Cat goes out; Ann makes phase 1 with a heavy hand left, Bob misses it with a light one.
        store.record_round(game.id, 1, RoundRecord.create("Cat", {"Ann": "W W", "Bob": "1"}, achieved=["Ann"],
                                                          deck=PHASE10.deck))
        placed = "SELECT place FROM seat_summary WHERE game_id = :g ORDER BY position"
        assert db.session.scalars(text(placed), {"g": game.id}).all() == [2, 3, 1]
        db.session.execute(text("UPDATE seat_summary SET place = 5 - place WHERE game_id = :g AND place > 1"),
                           {"g": game.id})
        db.session.commit()  # as the older version stored it: by total (Bob on 5 second, Ann on 50 third)
        assert db.session.scalars(text(placed), {"g": game.id}).all() == [3, 2, 1]
        db.session.commit()
        flask_migrate.downgrade(directory=str(MIGRATIONS), revision=RATINGS)
        upgrade(app)
        assert db.session.scalars(text(placed), {"g": game.id}).all() == [2, 3, 1]
        assert rebuild(fix=False) == []
    close(app)


def test_the_name_key_the_upgrade_merged_players_by_is_the_apps():
    """The revision that made one player per name carries its own copy of the name key: the
    app finds players by the keys it wrote only while the two agree (a change to the app's key
    needs a revision that writes the new keys)."""
    merged_by = ScriptDirectory(str(MIGRATIONS)).get_revision("b7e41c2d9a10").module.name_key
    names = ["Ann", "  Ana   María ", "Mari\u0301a", "Eve\u200d", "Stra\u00dfe", "\u3164Bo", "Zo\ufe0f\u00eb", "DEV\tKim"]
    assert [merged_by(n) for n in names] == [name_key(n) for n in names]


def test_the_summaries_are_rebuilt_once_for_each_logic(app, monkeypatch):
    """`flask games rebuild --if-stale` (the upgrade's step after the migrations) works the
    summaries out when the database does not know them to be this version's logic's, and says
    so; then not again, until the logic's version moves on. A full rebuild says so too."""
    from scorekeeper import store
    from scorekeeper.rules import BALMORAL, GameSetup
    from scorekeeper.store import rebuild as rebuilding

    runner = app.test_cli_runner()
    with app.app_context():
        game, _ = store.create_game(GameSetup.create(BALMORAL, ["Ann", "Bob"]))
        db.session.execute(text("DELETE FROM seat_summary"))
        db.session.execute(text("DELETE FROM game_summary"))
        db.session.commit()
    assert runner.invoke(args=["games", "rebuild", "--if-stale"]).output.startswith("1 summaries were rebuilt")
    with app.app_context():
        assert rebuild(fix=False) == []
    again = runner.invoke(args=["games", "rebuild", "--if-stale"])
    assert (again.exit_code, "nothing to rebuild" in again.output) == (0, True)
    monkeypatch.setattr(rebuilding, "SUMMARY_LOGIC", rebuilding.SUMMARY_LOGIC + 1)
    with app.app_context():
        assert rebuilding.stale()
        db.session.rollback()
    assert runner.invoke(args=["games", "rebuild"]).exit_code == 0  # nothing differed: not a fault
    assert "nothing to rebuild" in runner.invoke(args=["games", "rebuild", "--if-stale"]).output
    assert runner.invoke(args=["games", "rebuild", "--check", "--if-stale"]).exit_code == 2
