"""The limits count once for the club, in Redis, whichever app server a request reaches; with
Redis away the app keeps serving, without limits, and says so in its log."""

from __future__ import annotations

import os
import signal
import socket
import time

GAME = {"format": "scorekeeper-game/1", "rules": "balmoral", "players": ["Ann", "Ben"], "first_dealer": "Ann",
        "rounds": []}
#: scorekeeper.web.limits.NEW_GAMES: 10 a minute from one address.
NEW_GAMES_A_MINUTE = 10


def forget_counts(stack) -> None:
    """Redis's counts emptied: each test floods from nothing."""
    with socket.create_connection(("127.0.0.1", stack.state["redis"]["port"]), timeout=5) as redis:
        redis.sendall(b"FLUSHALL\r\n")
        assert redis.recv(16).startswith(b"+OK")


def new_games_until_refused(clients) -> int:
    """Games started through the clients in turn until one is refused: how many were started."""
    for count in range(3 * NEW_GAMES_A_MINUTE):
        status, _, answer = clients[count % len(clients)].request("POST", "/api/games", GAME)
        if status == 429:
            return count
        assert status == 201, answer
    raise AssertionError("never refused")


def test_a_flood_spread_over_both_servers_is_refused_at_the_count_of_one(stack):
    forget_counts(stack)
    alone = new_games_until_refused([stack.app(0)])
    forget_counts(stack)
    spread = new_games_until_refused([stack.app(0), stack.app(1)])
    forget_counts(stack)
    through_caddy = new_games_until_refused([stack.https()])
    assert alone == spread == through_caddy == NEW_GAMES_A_MINUTE
    forget_counts(stack)


def test_with_redis_stopped_the_app_keeps_serving_and_says_so(stack):
    os.kill(stack.state["redis"]["pid"], signal.SIGKILL)
    client = stack.https()
    # More games than the limit lets through: with its counts away the limits let everything by.
    for _ in range(NEW_GAMES_A_MINUTE + 2):
        status, _, answer = client.request("POST", "/api/games", GAME)
        assert status == 201, answer
    assert client.request("GET", "/")[0] == 200
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not any("Failed to rate limit" in stack.app_log(i) for i in (0, 1)):
        time.sleep(0.2)
    assert any("Failed to rate limit" in stack.app_log(i) for i in (0, 1))
