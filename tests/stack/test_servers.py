"""Several app servers, one club (the stack: Caddy in front of two app servers on PostgreSQL):
what one server saved the other answers at once, and a table plays on through a crash of one
server, a restart of PostgreSQL and an upgrade that restarts each server in turn."""

from __future__ import annotations

import os
import re
import signal
import threading
import time

PLAYERS = ["Ann", "Ben", "Cat"]


def new_game(client) -> dict:
    status, _, created = client.request("POST", "/api/games", {"format": "scorekeeper-game/1", "rules": "balmoral",
                                                               "players": PLAYERS, "first_dealer": "Ann", "rounds": []})
    assert status == 201, created
    return created


def a_round(number: int) -> dict:
    return {"number": number, "went_out": PLAYERS[number % 3],
            "hands": {name: "K 7" for name in PLAYERS if name != PLAYERS[number % 3]}}


def stored_rounds(client, game_id: int) -> list[int]:
    status, _, game = client.request("GET", f"/api/games/{game_id}")
    assert status == 200, game
    return [i + 1 for i, _ in enumerate(game["rounds"])]


def shown_version(client, game_id: int) -> int:
    """The version the scoreboard shows, which its poll sends back (``live?v=``)."""
    status, _, page = client.request("GET", f"/games/{game_id}")
    assert status == 200
    return int(re.search(r"/live\?v=(\d+)", page).group(1))


class Table:
    """A table playing through Caddy in a thread: the scorekeeper's phone records a round every
    second or so, as its outbox does (a round not answered 201 is kept and sent again, the same
    number), and a new game after the last round; a watcher's phone polls every tenth of a
    second. Every answer is kept."""

    def __init__(self, stack) -> None:
        self.client = stack.https()
        self.games: list[dict] = []
        self.saved: dict[int, int] = {}
        self.answers: list[tuple[str, int]] = []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.play, daemon=True)

    @property
    def rounds(self) -> int:
        return sum(self.saved.values())

    def play(self) -> None:
        tick, version = 0, None
        while not self.stopping.is_set():
            if not self.games or self.saved[self.games[-1]["id"]] == 7:
                # A new game cut off by a server stopping (502, as a save below) is started again.
                status, _, created = self.client.request("POST", "/api/games", {
                    "format": "scorekeeper-game/1", "rules": "balmoral", "players": PLAYERS, "first_dealer": "Ann",
                    "rounds": []})
                self.answers.append(("start", status))
                if status != 201:
                    self.stopping.wait(0.1)
                    continue
                self.games.append(created)
                self.saved[self.games[-1]["id"]] = 0
                version = shown_version(self.client, self.games[-1]["id"])
            game = self.games[-1]
            tick += 1
            if tick % 10 == 0:
                number = self.saved[game["id"]] + 1
                status, _, _ = self.client.request("POST", f"/api/games/{game['id']}/rounds", a_round(number),
                                                   key=game["edit_key"])
                self.answers.append(("save", status))
                if status == 201:
                    self.saved[game["id"]] = number
            status, _, _ = self.client.request("GET", f"/games/{game['id']}/live?v={version}&watch=1")
            self.answers.append(("poll", status))
            if status == 200:
                version = shown_version(self.client, game["id"])
            self.stopping.wait(0.1)

    def __enter__(self) -> Table:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopping.set()
        self.thread.join(timeout=60)

    def wait_for(self, rounds: int, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while self.rounds < rounds and time.monotonic() < deadline and self.thread.is_alive():
            time.sleep(0.05)
        assert self.rounds >= rounds, self.answers[-20:]

    def errors(self, servers_stopped: int = 0) -> list[tuple[str, int]]:
        """The answers a phone would show as an error. A save that was on its way into a server
        as it stopped is cut off (502: a POST is not asked of another server, it may have been
        written); the outbox keeps it and sends it again by its number, stored once (as here),
        not shown. A new game cut off the same way is started again (here at once; at a table,
        by a second tap). At most one of either a server stopped."""
        cut_off = [a for a in self.answers if a in (("save", 502), ("start", 502))]
        assert len(cut_off) <= servers_stopped, self.answers
        return [(what, status) for what, status in self.answers if status >= 400 and (what, status) not in cut_off]

    def nothing_lost(self) -> None:
        for game in self.games:
            assert stored_rounds(self.client, game["id"]) == list(range(1, self.saved[game["id"]] + 1))


def test_a_round_saved_through_one_server_reaches_a_phone_polling_the_other(stack):
    one, other = stack.app(0), stack.app(1)
    game = new_game(one)
    version = shown_version(other, game["id"])
    assert other.request("GET", f"/games/{game['id']}/live?v={version}")[0] == 204
    status, _, _ = one.request("POST", f"/api/games/{game['id']}/rounds", a_round(1), key=game["edit_key"])
    assert status == 201
    # The very next poll through the other server has it: no server keeps anything of a game.
    status, _, board = other.request("GET", f"/games/{game['id']}/live?v={version}")
    assert status == 200 and "Round 2" in board
    assert other.request("GET", f"/games/{game['id']}/live?v={shown_version(other, game['id'])}")[0] == 204


def test_postgresql_restarted_mid_game_a_save_in_the_gap_is_refused_in_words_and_sent_after(stack):
    client = stack.https()
    game = new_game(client)
    key = game["edit_key"]
    assert client.request("POST", f"/api/games/{game['id']}/rounds", a_round(1), key=key)[0] == 201
    stack.pg_ctl("stop", "-m", "fast")
    try:
        status, headers, answer = client.request("POST", f"/api/games/{game['id']}/rounds", a_round(2), key=key)
        assert status == 503, answer
        assert "cannot be reached just now" in answer["error"]["message"] and "Retry-After" in headers
        status, _, page = client.request("GET", f"/games/{game['id']}")
        assert status == 503 and "cannot be reached just now" in page
    finally:
        stack.pg_ctl("start", "-o", f"-p {stack.state['postgres']['port']} -k {stack.state['postgres']['data']} "
                     "-c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
                     "-l", f"{stack.state['postgres']['data']}/server.log")
    # Sent again, as the outbox does: stored once, after the first.
    assert client.request("POST", f"/api/games/{game['id']}/rounds", a_round(2), key=key)[0] == 201
    assert client.request("POST", f"/api/games/{game['id']}/rounds", a_round(2), key=key)[0] == 201
    assert stored_rounds(client, game["id"]) == [1, 2]
    # No server answered a 500 meanwhile.
    for index in (0, 1):
        assert '" 500 ' not in stack.app_log(index)


def test_an_upgrade_restarting_each_server_in_turn_loses_nothing(stack):
    before = [app["pid"] for app in stack.reload_state()["apps"]]
    with Table(stack) as table:
        table.wait_for(1)
        os.kill(stack.state["stack_pid"], signal.SIGHUP)  # the upgrade step (deploy/upgrade.sh)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            after = [app["pid"] for app in stack.reload_state()["apps"]]
            if all(a != b for a, b in zip(before, after, strict=True)):
                break
            time.sleep(0.2)
        assert all(a != b for a, b in zip(before, after, strict=True)), "the app servers were not restarted"
        table.wait_for(table.rounds + 1)
    # Nothing lost, nothing shown: every round stored once, in order, and no poll failed.
    table.nothing_lost()
    assert table.errors(servers_stopped=2) == []


def test_an_app_server_killed_mid_game_loses_nothing_and_caddy_leaves_it_out(stack):
    dead = stack.reload_state()["apps"][0]
    with Table(stack) as table:
        table.wait_for(2)
        os.kill(dead["pid"], signal.SIGKILL)
        killed = time.monotonic()
        table.wait_for(4)
    # The phones saw no error: each request the dead server could not take went to the other.
    assert table.errors(servers_stopped=1) == []
    table.nothing_lost()
    # Caddy's health check found it down within seconds (it asks every 2 s), and leaves it out.
    deadline = killed + 15
    while f"127.0.0.1:{dead['port']}" not in down_hosts(stack) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert f"127.0.0.1:{dead['port']}" in down_hosts(stack), stack.caddy_log()[-2000:]


def down_hosts(stack) -> str:
    """The upstreams Caddy's health check found not answering."""
    return " ".join(line for line in stack.caddy_log().splitlines()
                    if "health_checker" in line and "HTTP request failed" in line)
