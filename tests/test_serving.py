"""Slow clients hold no worker: fifty sockets that send a request a header line a second and never
finish it, while a table polls and records rounds over real HTTP, against the server as `make
run` starts it (``flask serve``: waitress, which reads each request whole before a thread works
on it), with the per-address limits on. The table's phones keep being answered, and the limit on new
games counts once for the server and keeps counting: nothing is killed, so nothing is reset.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time

import pytest
from flask import Flask
from server import AppServer

from scorekeeper import serving
from scorekeeper.serving import THREADS

SLOW_SOCKETS = 50
PHONES = 6
#: How often each phone polls here: four times a real phone's 2 s, for more answers to measure.
POLL_EVERY = 0.5
TABLE_SECONDS = 8.0
#: The limit on new games from one address (scorekeeper.web.limits.NEW_GAMES): 10 a minute.
NEW_GAMES_A_MINUTE = 10
GAME = {"format": "scorekeeper-game/1", "rules": "balmoral", "players": ["Ann", "Ben", "Cat"],
        "first_dealer": "Ann", "rounds": []}


def a_round(number: int) -> dict:
    return {"number": number, "went_out": "Ann", "hands": {"Ben": "K Q", "Cat": str(2 + number)}}


class SlowSockets:
    """Sockets that each sent a request line and then send one header line about every second,
    never the blank line that ends the headers."""

    def __init__(self, port: int, path: str, count: int) -> None:
        self.sockets = []
        for n in range(count):
            # From several addresses of loopback, as phones are: one address holds at most
            # CONNECTIONS_PER_ADDRESS sockets (test_one_address_holds_no_more_than_its_share...).
            source = (f"127.0.0.{10 + n // 20}", 0)
            sock = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=source)
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n".encode())
            self.sockets.append(sock)
        self.lines_sent = 0
        self.failed: list[str] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._dribble, daemon=True)
        self.thread.start()

    def _dribble(self) -> None:
        n = 0
        while not self.stop.is_set():
            for sock in self.sockets:  # spread over the second, as fifty phones would be
                try:
                    sock.sendall(f"X-Slow-{n}: still typing\r\n".encode())
                    self.lines_sent += 1
                except OSError as exc:
                    self.failed.append(str(exc))
                if self.stop.wait(1.0 / len(self.sockets)):
                    return
            n += 1

    def still_held(self) -> int:
        """The sockets the server keeps open without an answer (none closed, none answered)."""
        held = 0
        for sock in self.sockets:
            sock.setblocking(False)
            try:
                sock.recv(1)  # b"": closed by the server; bytes: an answer to a request never finished
            except BlockingIOError:
                held += 1
            except OSError:
                pass
        return held

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=5)
        for sock in self.sockets:
            sock.close()


def version_of(headers) -> int:
    """The game's version from the API's ETag (``"api-g1-v7"``)."""
    return int(headers["ETag"].strip('"').rsplit("-v", 1)[1])


def call(port: int, method: str, path: str, body=None, headers=None, timeout: float = 10):
    """One request on a new connection, as a phone's poll often is: (status, headers, body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = None if body is None else json.dumps(body)
        sent = {"Content-Type": "application/json", **(headers or {})} if data is not None else dict(headers or {})
        conn.request(method, path, body=data, headers=sent)
        response = conn.getresponse()
        payload = response.read()
        return response.status, response.msg, payload
    finally:
        conn.close()


@pytest.mark.slow
def test_fifty_slow_sockets_hold_no_worker_and_the_limits_keep_counting(database, tmp_path):
    server = AppServer(database, tmp_path, threads=THREADS, limits=True).start()
    slow = None
    try:
        port = server.port
        status, _, body = call(port, "POST", "/api/games", GAME)
        assert status == 201, body
        created = json.loads(body)
        game_id, auth = created["id"], {"Authorization": f"Bearer {created['edit_key']}"}
        version = {"now": version_of(call(port, "GET", f"/api/games/{game_id}")[1])}

        slow = SlowSockets(port, f"/games/{game_id}", SLOW_SOCKETS)
        time.sleep(2.0)  # every socket has sent a few lines: each would hold a sync worker by now

        answers: list[tuple[str, int]] = []  # (what, status)
        lock = threading.Lock()
        stop_at = time.monotonic() + TABLE_SECONDS

        def phone(seat: int) -> None:
            seen = version["now"]
            watch = "&watch=1" if seat else ""
            time.sleep(seat * POLL_EVERY / PHONES)
            while time.monotonic() < stop_at:
                try:
                    status, _, _ = call(port, "GET", f"/games/{game_id}/live?v={seen}{watch}")
                except OSError as exc:  # no answer within 10 s counts as a failure
                    status = 0
                    print("poll failed:", exc)
                with lock:
                    answers.append(("poll", status))
                if status == 200:
                    seen = version["now"]
                time.sleep(POLL_EVERY)

        def scorekeeper() -> None:
            for number in (1, 2, 3):
                time.sleep(TABLE_SECONDS / 4)
                status, headers, _ = call(port, "POST", f"/api/games/{game_id}/rounds", a_round(number), auth)
                with lock:
                    answers.append(("round", status))
                if status == 201:
                    version["now"] = version_of(headers)

        table = [threading.Thread(target=phone, args=(seat,)) for seat in range(PHONES)]
        table.append(threading.Thread(target=scorekeeper))
        for thread in table:
            thread.start()

        # Meanwhile, one address starts games as fast as it can: the table's game was the first.
        time.sleep(1.0)
        burst = [call(port, "POST", "/api/games", GAME)[0] for _ in range(NEW_GAMES_A_MINUTE + 4)]
        for thread in table:
            thread.join(timeout=TABLE_SECONDS + 30)
        # Later, the sockets still held: still refused (no worker was killed, so no count was lost).
        later = [call(port, "POST", "/api/games", GAME)[0] for _ in range(5)]
        held = slow.still_held()

        rounds = [status for what, status in answers if what == "round"]
        accepted = burst.count(201)
        print(f"\n{SLOW_SOCKETS} slow sockets ({slow.lines_sent} header lines sent, {held} still held "
              f"unanswered); the table: {len(answers)} answers, rounds {rounds}")
        print(f"new games from one address (limit {NEW_GAMES_A_MINUTE} a minute, the table's first): "
              f"{1 + accepted} accepted, then {burst.count(429)} refused with 429; "
              f"{later.count(429)} of {len(later)} refused {TABLE_SECONDS:.0f} s later")

        assert not slow.failed, slow.failed[:3]
        assert held == SLOW_SOCKETS, "the server closed or answered a request that never finished"
        assert {status for _, status in answers} <= {200, 204, 201}, sorted({s for _, s in answers})
        assert rounds == [201, 201, 201]
        # A thread held by a slow socket would keep a phone waiting as long as the socket dribbles,
        # the whole of the table's seconds: the phones' answers are counted, not timed (a busy
        # machine stretches a time; how long a poll or a round takes under load is make bench's
        # table load model, docs/performance.md).
        assert len(answers) >= PHONES * TABLE_SECONDS / POLL_EVERY / 2, len(answers)
        # Counted once for the server: the limit's number, not that times the threads or processes.
        assert 1 + accepted == NEW_GAMES_A_MINUTE, burst
        assert burst == [201] * accepted + [429] * (len(burst) - accepted), burst
        assert later == [429] * len(later), later
    finally:
        if slow is not None:
            slow.close()
        server.stop()


def test_waitress_takes_no_body_larger_than_a_view_does_and_an_app_without_limits_keeps_its_own(app):
    from flask import Flask

    from scorekeeper.serving import largest_body, options

    ours = options(app, "127.0.0.1", 0, THREADS)
    assert ours["max_request_body_size"] == largest_body(app) >= app.config["MAX_CONTENT_LENGTH"]
    # A bare app (the bench's floor) sets none: 0 would refuse every body with a 413.
    assert "max_request_body_size" not in options(Flask("bare"), "127.0.0.1", 0, THREADS)


@pytest.fixture
def access_lines(monkeypatch):
    """The lines the access log writes during the test, as a list."""
    import logging

    lines: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: lines.append(record.getMessage())
    log = logging.getLogger("scorekeeper.access")
    log.addHandler(handler)
    # (alembic's logging set-up, run by a migration test, disables every logger it does not name)
    monkeypatch.setattr(log, "disabled", False)
    # setLevel, not the attribute: it also forgets the logger's cached answers, and an access log
    # written before this test (a server of another test in this process) left "INFO is off" there.
    level = log.level
    log.setLevel(logging.INFO)
    yield lines
    log.removeHandler(handler)
    log.setLevel(level)


def test_the_access_log_tells_how_long_the_app_worked_on_each_request(monkeypatch, access_lines):
    """Each line ends with the app's own time on the request, so that a slow answer can be told
    apart from a busy server: from the worker taking it to the answer starting, not after."""
    import types

    from scorekeeper import serving

    clock = [100.0]
    monkeypatch.setattr(serving, "time", types.SimpleNamespace(perf_counter=lambda: clock[0],
                                                               strftime=time.strftime))

    def answer(environ, start_response):
        clock[0] += 0.0123  # the app's work
        start_response("204 No Content", [])
        clock[0] += 5.0  # sending the answer: not the app's
        return []

    serving.AccessLog(answer)({"REQUEST_METHOD": "GET", "PATH_INFO": "/games/3/live"},
                              lambda status, headers, exc_info=None: None)
    [line] = access_lines
    assert line.endswith('"GET /games/3/live" 204 - 12.3ms')


def test_the_access_log_writes_what_a_client_chose_escaped(access_lines):
    """A "%0a" in a path (a new line in PATH_INFO) wrote a forged line into the log, a "%1b" a
    terminal's escape; a quote ended the field early."""
    from scorekeeper import serving

    def answer(environ, start_response):
        start_response("404 Not Found", [("Content-Length", "0")])
        return []

    forged = '/x\n10.0.0.1 [06/Dec/2026:04:00:00 +0000] "POST /games/1/rounds/new" 303 - 1.0ms\x1b[2J\x85"\\'
    serving.AccessLog(answer)({"REQUEST_METHOD": "GET\r", "PATH_INFO": forged, "REMOTE_ADDR": "1.2.3.4\n"},
                              lambda status, headers, exc_info=None: None)
    [line] = access_lines
    assert "\n" not in line and "\x1b" not in line and "\r" not in line and "\x85" not in line
    assert line.startswith("1.2.3.4\\x0a [")
    assert '"GET\\x0d /x\\x0a10.0.0.1 [06/Dec/2026:04:00:00 +0000] \\x22POST /games/1/rounds/new\\x22 303 - ' \
           '1.0ms\\x1b[2J\\x85\\x22\\x5c" 404 0 ' in line


# ------------------------------------------------------------------ bodies, before they are kept


@pytest.fixture
def served(tmp_path):
    """The app served by waitress as `make run` serves it (serving.make_server), in this process."""
    from conftest import close, make_app

    from scorekeeper.serving import make_server

    app = make_app(tmp_path)
    server = make_server(app, "127.0.0.1", 0, 2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield app, server.effective_port
    server.close()
    thread.join(timeout=10)
    close(app)


def head_only(port: int, method: str, path: str, length: int, headers: dict | None = None,
              timeout: float = 5) -> bytes:
    """A request's head announcing ``length`` bytes of body, none of them sent: what the server
    answers (nothing, within ``timeout``, when it waits for the body)."""
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {length}",
             *(f"{name}: {value}" for name, value in (headers or {}).items())]
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        try:
            return sock.recv(4096)
        except TimeoutError:
            return b""


def test_a_body_larger_than_its_request_may_send_is_refused_before_any_of_it_arrives(served):
    """A stranger's announced upload is a 413 at once, on any path, the import's too: waitress
    no longer waits for (and spools to the disk) a body up to the largest upload on every path."""
    from conftest import CLUB_KEY

    app, port = served
    usual = app.config["MAX_CONTENT_LENGTH"]
    for path in ("/games/new", "/api/games", "/import", "/api/import", "/no-such-page"):
        answer = head_only(port, "POST", path, usual + 1)
        assert answer.startswith(b"HTTP/1.1 413"), (path, answer[:80])
    # The keeper's import may send more: the server waits for its body.
    assert head_only(port, "POST", "/api/import", usual + 1, {"Authorization": f"Bearer {CLUB_KEY}"}, 1) == b""
    # Sent whole, a keeper's backup larger than any other body is imported.
    backup = json.dumps({"format": "scorekeeper-backup/1", "games": []})
    body = backup[:-1] + " " * usual + "}"
    status, _, payload = call(port, "POST", "/api/import", json.loads(body),
                                 {"Authorization": f"Bearer {CLUB_KEY}"})
    assert status in (200, 201), payload[:200]


def test_a_body_within_the_usual_size_is_kept_in_memory_and_only_the_keepers_import_on_disk(app):
    """waitress writes a body past 512 KB (its inbuf_overflow) to the temporary folder: a
    stranger's held body could fill a small disk. Any body but the keeper's import stays in
    memory, however it is sent."""
    from conftest import CLUB_KEY
    from waitress.adjustments import Adjustments

    from scorekeeper.serving import guarded_channel, options

    parser_class = guarded_channel(app, "127.0.0.1", 8000).parser_class
    adj = Adjustments(**{k: v for k, v in options(app, "127.0.0.1", 8000, THREADS).items() if k != "listen"})
    usual = app.config["MAX_CONTENT_LENGTH"]

    def sent(path: str, body: bytes, *headers: str):
        parser = parser_class(adj)
        head = "\r\n".join([f"POST {path} HTTP/1.1", "Host: localhost", f"Content-Length: {len(body)}", *headers])
        data = head.encode() + b"\r\n\r\n" + body
        while data and not parser.completed:
            data = data[parser.received(data[:8192]):]
        return parser

    whole = sent("/games/new", b"x" * usual)
    assert whole.completed and whole.error is None and not whole.body_rcv.buf.overflowed
    whole.close()
    keepers = sent("/api/import", b"x" * (usual + 1), f"Authorization: Bearer {CLUB_KEY}")
    assert keepers.completed and keepers.error is None and keepers.body_rcv.buf.overflowed
    keepers.close()
    strangers = sent("/api/import", b"x" * (usual + 1))
    assert strangers.error is not None and strangers.error.code == 413 and strangers.body_rcv is None


# ------------------------------------------------------------------ sockets, by address


@pytest.fixture
def capped(tmp_path):
    """The app served as `make run` serves it, one address capped at 4 sockets."""
    from conftest import close, make_app

    from scorekeeper.serving import make_server

    app = make_app(tmp_path, CONNECTIONS_PER_ADDRESS=4)
    server = make_server(app, "127.0.0.1", 0, 2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield app, server.effective_port
    server.close()
    thread.join(timeout=10)
    close(app)


def test_one_address_holds_no_more_than_its_share_of_the_sockets(capped):
    """A guest's half-sent requests take their address's sockets, not the table's: past its cap
    a connection from that address is closed at once, and another address is answered."""
    from scorekeeper import serving

    assert serving.CONNECTIONS_PER_ADDRESS == 24 and serving.CONNECTIONS_PER_ADDRESS < serving.CONNECTION_LIMIT / 4
    _, port = capped
    held = []
    try:
        for _ in range(4):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never finished
            held.append(sock)
        # (The server takes connections in the order they came: the held ones are its before this.)
        one_more = socket.create_connection(("127.0.0.1", port), timeout=5)
        one_more.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        try:
            assert one_more.recv(100) == b""  # closed unanswered
        except ConnectionResetError:
            pass
        finally:
            one_more.close()
        # A phone at another address of the table's network (loopback's 127.0.0.2) is answered.
        other = http.client.HTTPConnection("127.0.0.1", port, timeout=5, source_address=("127.0.0.2", 0))
        other.request("GET", "/api/openapi.json")
        assert other.getresponse().status == 200
        other.close()
    finally:
        for sock in held:
            sock.close()
    # Their sockets closed, the address is answered again (its count follows the closes).
    deadline = time.monotonic() + 10
    while not _answered(port) and time.monotonic() < deadline:
        pass  # (the server sees the closes in its own time: asked again until it has)
    assert _answered(port)


def _answered(port: int) -> bool:
    """Whether a request from 127.0.0.1 is answered now (its connection not closed at once)."""
    try:
        return call(port, "GET", "/api/openapi.json", timeout=5)[0] == 200
    except (ConnectionError, http.client.RemoteDisconnected):
        return False


def test_an_answer_without_a_body_keeps_the_phones_connection(capped):
    """The watcher's poll answered 204, a page's 304: waitress closed the connection after each,
    so every poll made a new one."""
    _, port = capped
    created = json.loads(call(port, "POST", "/api/games", GAME)[2])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", f"/api/games/{created['id']}")
        first = conn.getresponse()
        first.read()
        tag = first.headers["ETag"]
        sock = conn.sock
        for _ in range(3):
            conn.request("GET", f"/api/games/{created['id']}", headers={"If-None-Match": tag})
            answer = conn.getresponse()
            answer.read()
            assert answer.status == 304 and answer.headers.get("Connection") != "close"
            assert conn.sock is sock  # the same connection, kept
        version = version_of(first.headers)
        conn.request("GET", f"/games/{created['id']}/live?v={version}&watch=1")
        polled = conn.getresponse()
        polled.read()
        assert polled.status == 204 and polled.headers.get("Connection") != "close" and conn.sock is sock
    finally:
        conn.close()


def test_the_server_makes_the_polls_connections_before_it_listens(app, monkeypatch):
    """One a thread (store.VersionReader.open); the bench's floor, which has no such poll, starts
    all the same."""
    asked = []
    monkeypatch.setattr(app.extensions["scorekeeper_polls"].version, "open", asked.append)
    serving.connect_ahead(app, 4)
    assert asked == [4]
    serving.connect_ahead(Flask("floor"), 4)
