"""Small hardening: keys kept by no cache, CSV cells that stay text,
the CSP, files only their owner reads, and the host in links."""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import os
import json
import re
import stat

import pytest
from conftest import ON_POSTGRES, close, join, make_app, make_keeper

from scorekeeper import create_app
from scorekeeper.store.errors import DISK_FULL
from scorekeeper.store.private import InsecureFile

GAME = {"format": "scorekeeper-game/1", "rules": "balmoral", "players": ["x;=1+1;", "Ben", "a,@SUM(A1)|-2"],
        "first_dealer": "Ben", "rounds": [{"went_out": "Ben", "hands": {"x;=1+1;": "K", "a,@SUM(A1)|-2": "Q"}}]}
FORMULA = ("=", "+", "-", "@")


def test_a_name_never_becomes_a_formula_whatever_the_spreadsheet_splits_on(client):
    game_id = client.post("/api/games", json=GAME).get_json()["id"]
    text = client.get(f"/games/{game_id}.csv").get_data(as_text=True).lstrip("\ufeff")
    for separator in (",", ";", "\t", "|", ":"):
        # A spreadsheet that reads the quotes, and one that splits every line regardless.
        read = [cell for row in csv.reader(io.StringIO(text), delimiter=separator) for cell in row]
        split = [cell.strip().strip('"').strip() for line in text.splitlines() for cell in line.split(separator)]
        for cell in read + split:
            assert not cell.startswith(FORMULA), (separator, cell)
    assert "x;'=1+1;" in text  # the name is still there to read


def test_the_csp_names_the_htmx_file_not_its_host_and_the_import_map_by_its_hash(tmp_path):
    app = make_app(tmp_path, USE_CDN=True)
    try:
        page = app.test_client().get("/")
        script_src = next(d for d in page.headers["Content-Security-Policy"].split("; ") if d.startswith("script-src"))
        # The one inline script is the import map, allowed by the hash of its exact text.
        (import_map,) = re.findall(r"<script type=\"importmap\">(.*?)</script>", page.text, re.S)
        digest = base64.b64encode(hashlib.sha256(import_map.encode()).digest()).decode()
        assert script_src.split() == ["script-src", "'self'", app.config["HTMX_CDN"], f"'sha256-{digest}'"]
        assert len(re.findall(r"<script(?![^>]*\bsrc=)", page.text)) == 1
        assert app.config["HTMX_CDN"].endswith("/dist/htmx.min.js")
    finally:
        close(app)


def test_the_share_page_with_the_edit_link_is_kept_by_no_cache(app, client):
    created = client.post("/api/games", json=GAME).get_json()
    assert join(client, created["id"], created["edit_key"]).status_code == 303
    share = client.get(f"/games/{created['id']}/share")
    assert created["edit_key"] in share.text
    assert share.headers["Cache-Control"] == "no-store" and share.headers["Referrer-Policy"] == "same-origin"
    # The link carries the key after "#": a browser sends no fragment to a server (nor its log).
    assert f"/games/{created['id']}/join#key={created['edit_key']}" in share.text
    assert "?key=" not in share.text
    for page in (f"/games/{created['id']}/join", "/club"):
        assert client.get(page).headers["Cache-Control"] == "no-store"
    # The service worker keeps no page that says no-store, nor any page that takes or shows a key.
    worker = client.get("/sw.js").text
    assert 'control.includes("no-store")' in worker and "share|join" in worker and "club" in worker


def test_an_old_join_link_with_the_key_in_its_query_still_works(app, client):
    created = client.post("/api/games", json=GAME).get_json()
    game_id, key = created["id"], created["edit_key"]
    page = client.get(f"/games/{game_id}/join?key={key}")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    assert f'value="{key}"' in page.text and "keylink.js" in page.text  # the page posts it, then drops it
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)
    joined = client.post(f"/games/{game_id}/join", data={"csrf_token": token, "key": key})
    assert joined.status_code == 303 and joined.headers["Location"].endswith(f"/games/{game_id}")


@pytest.fixture
def instance(tmp_path, monkeypatch):
    folder = tmp_path / "instance"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(folder))
    for name in ("FLASK_SECRET_KEY", "FLASK_SQLALCHEMY_DATABASE_URI"):
        monkeypatch.delenv(name, raising=False)
    old = os.umask(0o022)  # the usual umask: files 0644 unless made otherwise
    yield folder
    os.umask(old)


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def started(instance):
    """The app as `make run` starts it: its own instance folder, key and database."""
    app = create_app()
    with app.app_context():
        from flask_migrate import upgrade

        from scorekeeper.store.database import MIGRATIONS

        upgrade(directory=str(MIGRATIONS))
    return app


def test_secret_and_database_files_are_their_owners_only_from_the_start(instance):
    app = started(instance)
    try:
        app.config["RATELIMIT_ENABLED"] = False
        assert app.test_client().post("/api/games", json=GAME).status_code == 201
        assert mode(instance) == 0o700
        assert mode(instance / "secret_key") == 0o600
        made = [p for p in instance.iterdir() if p.name.startswith("scorekeeper.sqlite")]
        assert {p.name for p in made} >= {"scorekeeper.sqlite", "scorekeeper.sqlite-wal"}
        assert all(mode(p) == 0o600 for p in made), {p.name: oct(mode(p)) for p in made}
    finally:
        close(app)


def test_an_instance_folder_that_exists_already_is_made_the_owners_only(instance):
    """A folder made by hand (or by an older release) with 0755 holds the secrets and the
    database: it is made 0700 at start, as docs/running.md promises."""
    instance.mkdir(parents=True, exist_ok=True)
    instance.chmod(0o755)
    close(started(instance))
    assert mode(instance) == 0o700


def test_a_key_file_others_can_read_is_refused_at_start_with_the_command_to_fix_it(instance):
    close(started(instance))
    key = instance / "secret_key"
    key.chmod(0o644)
    with pytest.raises(InsecureFile, match=re.escape(f"chmod 600 {key}")):
        create_app()
    key.chmod(0o600)
    (instance / "club_key").write_text("0" * 64)
    (instance / "club_key").chmod(0o640)
    with pytest.raises(InsecureFile, match="club_key"):
        create_app()


def test_a_forged_host_gets_no_link_on_it(tmp_path):
    created = {"Host": "evil.example"}
    public = make_app(tmp_path, "public.sqlite", PUBLIC_URL="http://192.168.1.20:8000")
    try:
        client = public.test_client()
        body = client.post("/api/games", json=GAME, headers=created).get_json()
        assert body["edit_url"].startswith("http://192.168.1.20:8000/games/")
        assert body["watch_url"].startswith("http://192.168.1.20:8000/games/")
        join(client, body["id"], body["edit_key"], headers=created)
        share = client.get(f"/games/{body['id']}/share", headers=created).text
        assert "evil.example" not in share and "http://192.168.1.20:8000/games/" in share
    finally:
        close(public)
    trusted = make_app(tmp_path, "trusted.sqlite", TRUSTED_HOSTS=["192.168.1.20", "localhost"])
    try:
        client = trusted.test_client()
        assert client.post("/api/games", json=GAME, headers=created).status_code == 400
        assert client.get("/games/1/share", headers=created).status_code == 400
        assert client.post("/api/games", json=GAME).status_code == 201
    finally:
        close(trusted)


def test_a_host_on_a_port_this_server_is_not_reached_on_gets_no_link_on_it(tmp_path):
    """Flask's TRUSTED_HOSTS checks a Host's name, not its port: ``localhost:6666`` got links
    on port 6666. The port must be the one the server listens on, or one an entry names."""
    trusted = make_app(tmp_path, "ports.sqlite", TRUSTED_HOSTS=["localhost", "table.lan:8443", ".club.example:9000"])
    served_on = {"SERVER_PORT": "8000"}
    try:
        client = trusted.test_client()
        for host in ("localhost:6666", "table.lan:6666", "localhost:8443", "scores.club.example:6666"):
            refused = client.post("/api/games", json=GAME, headers={"Host": host}, environ_overrides=served_on)
            assert refused.status_code == 400, host
            assert "6666" not in refused.text and "8443" not in refused.text
        for host in ("localhost", "localhost:8000", "localhost:80", "table.lan:8443", "scores.club.example:9000"):
            made = client.post("/api/games", json=GAME, headers={"Host": host}, environ_overrides=served_on)
            assert made.status_code == 201, host
            assert made.get_json()["edit_url"].startswith(f"http://{host.removesuffix(':80')}/games/")
    finally:
        close(trusted)
    behind = make_app(tmp_path, "proxied.sqlite", TRUSTED_HOSTS=["scores.example.org"], PROXY_COUNT=1)
    try:
        client = behind.test_client()
        proxied = {"Host": "scores.example.org:8000", "X-Forwarded-For": "10.0.0.7", "X-Forwarded-Proto": "https"}
        # Behind a proxy the app's own port is reached by the proxy alone: no phone's link goes there.
        assert client.post("/api/games", json=GAME, headers=proxied, environ_overrides=served_on).status_code == 400
        proxied["Host"] = "scores.example.org:443"
        assert client.post("/api/games", json=GAME, headers=proxied, environ_overrides=served_on).status_code == 201
    finally:
        close(behind)


# ----------------------------------------------------------- a full disk


def _full_disk(*args, **kwargs):
    import sqlite3

    from sqlalchemy.exc import OperationalError

    raise OperationalError("INSERT INTO player ...", {}, sqlite3.OperationalError("database or disk is full"))


def test_a_full_disk_right_after_a_restart_says_so_too(tmp_path, monkeypatch):
    """A fresh server keeps each template it compiles in the instance folder; on a full disk it
    could keep none, and the round's save, the undo and the polls were a bare 500. A template
    that cannot be kept is served from memory: the save says the disk is full (507)."""
    import errno

    from jinja2 import FileSystemBytecodeCache

    from scorekeeper import store

    def no_space(self, bucket):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(FileSystemBytecodeCache, "dump_bytecode", no_space)
    restarted = make_app(tmp_path, "restarted.sqlite", WTF_CSRF_ENABLED=False)
    try:
        client = restarted.test_client()
        created = client.post("/api/games", json=GAME).get_json()
        game_id = created["id"]
        assert join(client, game_id, created["edit_key"]).status_code == 303
        monkeypatch.setattr(store, "record_round", _full_disk)
        monkeypatch.setattr(store, "delete_round", _full_disk)
        saved = client.post(f"/games/{game_id}/rounds/new",
                            data={"number": "1", "went_out": "0", "hand-1": "K", "hand-2": "Q", "save": "1"})
        assert saved.status_code == 507 and "disk is full" in saved.text
        assert client.post(f"/games/{game_id}/rounds/undo").status_code in (409, 507)
        assert client.get(f"/games/{game_id}/live?v=0").status_code == 200
        assert client.get(f"/games/{game_id}").status_code == 200
    finally:
        close(restarted)


def test_a_full_disk_says_the_change_was_not_saved_and_what_to_do(web, app, monkeypatch, tmp_path):
    """The database on a full disk refuses a write whole: the page and the API say so (507),
    the command line in one line, and nothing claims the change was kept."""
    from scorekeeper import store
    from scorekeeper.files import transfer

    monkeypatch.setattr(store, "add_player", _full_disk)
    page = web.post("/players/", data={"name": "Zed"})
    assert page.status_code == 507
    assert "disk is full: this change was not saved" in page.get_data(as_text=True)
    assert "Nothing was lost" not in page.get_data(as_text=True)
    monkeypatch.setattr(store, "import_games", _full_disk)
    api = web.post("/api/games", json=GAME)
    assert api.status_code == 507 and "disk is full" in api.get_json()["error"]["message"]
    monkeypatch.setattr(transfer, "import_files", _full_disk)
    backup = tmp_path / "game.json"
    backup.write_text(json.dumps(GAME))
    result = app.test_cli_runner().invoke(args=["games", "import", str(backup)])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [f"{backup}: not imported: {DISK_FULL}"]


# ----------------------------------------------------------- the database away for a moment


class _ServerShutDown(Exception):
    """What psycopg raises when PostgreSQL is shutting down (an upgrade, a restart)."""

    sqlstate = "57P01"


def _database_away(*args, **kwargs):
    from sqlalchemy.exc import OperationalError

    raise OperationalError("SELECT game.version ...", {}, _ServerShutDown("terminating connection due to "
                                                                           "administrator command"))


def test_a_database_restarting_is_said_in_words_not_a_500(web, app, monkeypatch):
    """PostgreSQL restarting mid-game: the request is refused with a 503 that says nothing was
    saved and to try again (the phone's outbox does), never a 500."""
    from scorekeeper import store

    created = web.post("/api/games", json=GAME).get_json()
    monkeypatch.setattr(store, "add_player", _database_away)
    page = web.post("/players/", data={"name": "Zed"})
    assert page.status_code == 503 and page.headers["Retry-After"] == "5"
    assert "cannot be reached just now" in page.get_data(as_text=True)
    monkeypatch.setattr(store, "peek", _database_away)
    poll = web.get(f"/games/{created['id']}/live?v=1")
    assert poll.status_code == 503
    monkeypatch.setattr(store, "import_games", _database_away)
    api = web.post("/api/games", json=GAME)
    assert api.status_code == 503 and "cannot be reached just now" in api.get_json()["error"]["message"]


@pytest.mark.skipif(ON_POSTGRES, reason="a SQLite file's lock; the SQLite pass runs it")
@pytest.mark.own_database
def test_a_sqlite_file_locked_past_the_wait_says_try_again_and_keeps_nothing(app):
    """Another writer (a backup, a rebuild of every game) holds the file past the wait: the keeper
    is told in words that nothing was saved and to try again, with a 503 the phone's outbox sends
    again, never a 500; once the lock is let go, the same request is saved."""
    import sqlite3

    from sqlalchemy import event

    from scorekeeper import store
    from scorekeeper.store.models import db

    app.config["WTF_CSRF_ENABLED"] = False
    with app.app_context():
        db.engine.dispose()  # the connections made from here on wait for no lock

        @event.listens_for(db.engine, "connect")
        def no_wait(connection, _record):
            connection.execute("PRAGMA busy_timeout = 0")

        path = db.engine.url.database
    keeper = make_keeper(app.test_client())
    other_writer = sqlite3.connect(path, isolation_level=None)
    try:
        other_writer.execute("BEGIN IMMEDIATE")
        page = keeper.post("/players/", data={"name": "Zed"})
        assert page.status_code == 503 and page.headers["Retry-After"] == "5"
        assert "cannot be reached just now" in page.get_data(as_text=True)
        answer = keeper.post("/api/games", json=GAME)
        assert answer.status_code == 503
    finally:
        other_writer.close()
    with app.app_context():
        assert store.roster() == []
    assert keeper.post("/players/", data={"name": "Zed"}).status_code in (302, 303)
    with app.app_context():
        assert [p.name for p in store.roster()] == ["Zed"]
