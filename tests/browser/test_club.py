"""The club's keeper on a phone: the link `flask club-key` prints, a rename, a restore; and a
watcher, who is shown none of the keeper's buttons."""

import re

import pytest
from playwright.sync_api import Page, expect

from conftest import close, make_app
from history_games import random_docs
from scorekeeper import store
from scorekeeper.files import transfer
from scorekeeper.files.gamefile import read_document
from scorekeeper.store.models import db

from .conftest import TABLE_HOST, serve

#: A finished game of three (made by the rules engine, as the history's tests make them).
[FINISHED] = random_docs(1, seed=16, players=["Wendy", "Ann", "Ben"])


@pytest.fixture
def club_app(tmp_path, monkeypatch):
    """An app whose club key is made the way `make run` makes it: in its instance folder."""
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    app = make_app(tmp_path, "club.sqlite", SECRET_KEY="club-test", CLUB_KEY_HASH=None)
    with app.app_context():
        [finished] = transfer.import_files(read_document(FINISHED))
        [deleted] = transfer.import_files(read_document({"format": "scorekeeper-game/1", "rules": "classic",
                                                         "players": ["Cat", "Dev", "Eve"], "rounds": [],
                                                         "first_dealer": "Cat"}))
        store.delete_game(deleted.game_id)
        db.session.remove()
    app.config["seeded"] = (finished.game_id, deleted.game_id)
    yield app
    close(app)


@pytest.fixture
def club_server(club_app):
    srv = serve(club_app)
    yield f"http://{TABLE_HOST}:{srv.server_port}"
    srv.shutdown()
    srv.server_close()


def test_the_keeper_opens_the_printed_link_renames_a_player_and_restores_a_game(
        page: Page, club_app, club_server, artifacts):
    finished, deleted = club_app.config["seeded"]
    printed = club_app.test_cli_runner().invoke(args=["club-key", "--first", "--base-url", club_server])
    assert printed.exit_code == 0, printed.output
    link = re.search(r"http://\S+", printed.output).group(0)
    key = link.partition("#key=")[2]
    assert link.startswith(f"{club_server}/club#key=") and len(key) > 30
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url))

    page.goto(link)
    expect(page.locator(".flash")).to_contain_text("club\u2019s keeper")
    assert key not in page.url  # nor in the history: the page replaced its address
    assert page.evaluate("history.length") <= 2 and "#key" not in page.evaluate("location.href")

    page.get_by_role("link", name="Players").tap()
    page.get_by_role("link", name="Rename Wendy").tap()
    page.get_by_label("New name for Wendy").fill("Winner Wendy")
    page.get_by_role("button", name="Save").tap()
    expect(page.locator(".flash")).to_contain_text("Renamed to Winner Wendy")
    page.goto(f"{club_server}/games/{finished}/story")
    expect(page.locator("table.story-standings")).to_contain_text("Winner Wendy")

    page.goto(f"{club_server}/history/deleted")
    page.get_by_role("button", name=f"Restore game {deleted}").tap()
    expect(page.locator(".flash")).to_contain_text(f"Game {deleted} is back in the history")
    page.screenshot(path=str(artifacts / "keeper-restored.png"), full_page=False)
    # The key went to the server in a form's body only: no address ever carried it.
    assert sent and not [url for url in sent if key in url]
    # A second run of `make run` makes no new key: the keeper stays the keeper.
    again = club_app.test_cli_runner().invoke(args=["club-key", "--first", "--base-url", club_server])
    assert "#key=" not in again.output
    page.goto(f"{club_server}/players/")
    expect(page.get_by_role("link", name="Rename Ann")).to_be_visible()


@pytest.mark.console_allows(r"status of 403")  # the keeper's page typed in by a watcher, refused
def test_a_watcher_sees_none_of_the_keepers_buttons(page: Page, club_app, club_server):
    finished, deleted = club_app.config["seeded"]
    club_app.test_cli_runner().invoke(args=["club-key", "--first", "--base-url", club_server])
    page.goto(f"{club_server}/")
    expect(page.get_by_role("link", name="Backup and restore")).to_have_count(0)
    page.goto(f"{club_server}/players/")
    expect(page.locator("a.pname", has_text="Wendy")).to_be_visible()
    expect(page.get_by_role("link", name=re.compile("^Rename"))).to_have_count(0)
    page.goto(f"{club_server}/history/deleted")
    # The bin is the keeper's and each game's scorekeeper's: a watcher sees none of it.
    expect(page.locator(".history-item")).to_have_count(0)
    expect(page.get_by_role("button", name=re.compile("^Restore"))).to_have_count(0)
    expect(page.get_by_role("link", name="Delete for good…")).to_have_count(0)
    page.goto(f"{club_server}/games/{deleted}/story")
    expect(page.get_by_role("button", name="Restore it")).to_have_count(0)
    # Typing the address of a keeper's page: a 403 that says who may.
    response = page.goto(f"{club_server}/players/1/edit")
    assert response.status == 403
    expect(page.locator("h1")).to_contain_text("Only the club\u2019s keeper can rename players")
