"""Upgrades keep history; two phones cannot overwrite each other; headers and refusals."""

from __future__ import annotations

import logging
import re

import flask_migrate
import pytest
from alembic.script import ScriptDirectory
from conftest import close, database_url, empty_database, join
from sqlalchemy import MetaData, create_engine, func, select, text

from scorekeeper import create_app

from scorekeeper.store.figures import rating_summaries
from scorekeeper.files.transfer import export_game
from scorekeeper.store.database import MIGRATIONS, DatabaseTooNew
from scorekeeper.files.gamefile import game_document, read_game
from scorekeeper.store.models import Round, db
from scorekeeper.rules import PRESETS, document_text, name_key
from scorekeeper.store.rebuild import rebuild

REVISIONS = [s.revision for s in ScriptDirectory(str(MIGRATIONS)).walk_revisions()][::-1]  # oldest first
#: The migration that gives every game its frozen rules.
FROZEN_RULES = "a4d2e6f8b013"
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


# ---------------------------------------------------------------- two phones


def token(client, url):
    return re.search(r'name="csrf_token" value="([^"]+)"', client.get(url).text).group(1)


def test_a_change_made_on_an_old_version_is_refused_and_the_other_round_kept(app):
    phone_a = app.test_client()
    created = phone_a.post("/api/games", json={**GAMES[0], "rounds": GAMES[0]["rounds"][:1]}).get_json()
    key = created["edit_key"]
    join(phone_a, 1, key)
    phone_b = app.test_client()
    join(phone_b, 1, key)
    form_url = "/games/1/rounds/1/edit"
    old_form = phone_a.get(form_url).text
    version = re.search(r'name="version" value="(\d+)"', old_form).group(1)
    # Phone B records round 2 meanwhile.
    b_token = token(phone_b, "/games/1/rounds/new")
    saved = phone_b.post("/games/1/rounds/new", data={"csrf_token": b_token, "number": "2", "went_out": "1",
                                                      "hand-0": "K", "hand-2": "2", "save": "1"})
    assert saved.status_code == 303
    # Phone A saves its correction made on the old version: refused, and B's round is kept.
    a_token = re.search(r'name="csrf_token" value="([^"]+)"', old_form).group(1)
    late = phone_a.post(form_url, data={"csrf_token": a_token, "version": version, "number": "1", "went_out": "2",
                                         "hand-0": "Q", "hand-1": "Q", "save": "1"})
    assert late.status_code == 409
    assert "changed on another phone" in late.text and "nothing was saved" in late.text
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Round)) == 2
        assert export_game(1)["rounds"][0]["went_out"] == "Ann"
    delete = phone_a.post("/games/1/rounds/1/delete", data={"csrf_token": a_token, "version": version})
    assert delete.status_code == 409


# ---------------------------------------------------------------- security


def test_security_headers_on_pages_and_api(client):
    for url in ["/", "/games/new", "/api/openapi.json", "/no-such-page"]:
        headers = client.get(url).headers
        csp = headers["Content-Security-Policy"]
        script_src = re.search(r"script-src ([^;]+)", csp).group(1)
        assert "unsafe-inline" not in script_src and "unsafe-eval" not in script_src
        assert "frame-ancestors 'none'" in csp
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "same-origin"


def test_session_cookie_flags(app):
    created = app.test_client()
    key = created.post("/api/games", json=GAMES[0]).get_json()["edit_key"]
    plain = created.get("/games/1/join")
    set_cookie = plain.headers["Set-Cookie"]
    assert "HttpOnly" in set_cookie and "SameSite=Lax" in set_cookie and "Secure" not in set_cookie
    secure = app.test_client().get("/games/1/join", base_url="https://table.example")
    assert "Secure" in secure.headers["Set-Cookie"]


def test_the_session_cookie_follows_the_secret_keys(app):
    from itsdangerous import BadSignature

    sessions = app.session_interface
    cookie = sessions.get_signing_serializer(app).dumps({"csrf_token": "t"})
    old = app.secret_key
    try:
        app.secret_key = "a new secret"
        renewed = sessions.get_signing_serializer(app)
        with pytest.raises(BadSignature):
            renewed.loads(cookie)  # a cookie signed with the old key no longer reads
        app.config["SECRET_KEY_FALLBACKS"] = [old]
        assert sessions.get_signing_serializer(app).loads(cookie) == {"csrf_token": "t"}
    finally:
        app.secret_key = old
        app.config["SECRET_KEY_FALLBACKS"] = []


def test_missing_or_wrong_csrf_token_is_a_friendly_400(client):
    for data in ({}, {"csrf_token": "forged"}):
        response = client.post("/players/", data={"name": "Zed", **data})
        assert response.status_code == 400
        assert "This form has expired" in response.text and "nothing was saved" in response.text
    assert "Zed" not in client.get("/players/").text


def test_error_pages_show_no_traceback(fresh_app):
    app = fresh_app  # a route of its own: added before the app's first request
    app.config["PROPAGATE_EXCEPTIONS"] = False

    @app.get("/explode")
    def explode():
        raise RuntimeError("secret internals")

    response = app.test_client().get("/explode")
    assert response.status_code == 500
    assert "Traceback" not in response.text and "secret internals" not in response.text
    assert "may not have been saved; every round saved before it is kept" in response.text


def test_the_cdn_script_carries_its_integrity_hash(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "s", "USE_CDN": True,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'cdn.sqlite'}"})
    with app.app_context():
        db.create_all()
    page = app.test_client().get("/").text
    tag = re.search(r'<script src="https://cdn[^"]+htmx[^"]+"[^>]*>', page).group(0)
    assert 'integrity="sha384-' in tag and 'crossorigin="anonymous"' in tag
    assert "cdn.jsdelivr.net" in app.test_client().get("/").headers["Content-Security-Policy"]


def test_edit_keys_are_stored_hashed_and_compared_in_constant_time(app, client):
    import inspect

    from scorekeeper.store import access

    key = client.post("/api/games", json=GAMES[0]).get_json()["edit_key"]
    with app.app_context():
        stored = db.session.execute(text("SELECT edit_key_hash FROM game")).scalar()
    assert key not in stored and len(stored) == 64
    assert "compare_digest" in inspect.getsource(access.key_matches)


def test_the_served_access_log_never_records_query_strings():
    """Edit keys travel in a join link's query string: the access log writes the path only."""
    from scorekeeper.serving import AccessLog

    def answer(environ, start_response):
        start_response("200 OK", [("Content-Length", "2")])
        return [b"ok"]

    environ = {"REMOTE_ADDR": "10.0.0.7", "REQUEST_METHOD": "GET", "PATH_INFO": "/games/3/join",
               "QUERY_STRING": "key=the-edit-key", "HTTP_REFERER": "http://x/?key=the-edit-key"}
    lines: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: lines.append(record.getMessage())
    log = logging.getLogger("scorekeeper.access")
    log.addHandler(handler)
    # (A migration test before this one may have run alembic's logging set-up, which disables
    # every logger it does not name.)
    level, disabled, log.level, log.disabled = log.level, log.disabled, logging.INFO, False
    try:
        AccessLog(answer)(environ, lambda status, headers, exc_info=None: None)
    finally:
        log.removeHandler(handler)
        log.setLevel(level)
        log.disabled = disabled
    [line] = lines
    assert '"GET /games/3/join" 200 2' in line and line.startswith("10.0.0.7 ")
    assert "the-edit-key" not in line and "key=" not in line


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


def test_a_watchers_refusal_leads_back_to_the_game_it_watches(web, stranger):
    from factories import new_game, post_round, text

    game_id = new_game(web, ["Ann", "Ben", "Cat"])
    refused = post_round(stranger, game_id, 1, went_out=0, hands={1: "A", 2: "K"})
    assert refused.status_code == 403
    assert f'<a class="button" href="/games/{game_id}/watch">Back to the game</a>' in refused.get_data(as_text=True)
    assert "Back to the games" not in text(refused)
    # A page that is no game still leads to the games.
    assert "Back to the games" in text(stranger.get(f"/games/{game_id + 1}"))


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
