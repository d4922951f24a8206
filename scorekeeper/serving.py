"""Serving the app: ``flask --app scorekeeper serve``, which `make run` starts, with waitress.

Why waitress: a phone on poor Wi-Fi, or a guest's script, may send a request a few bytes at a
time, or never finish it. waitress reads every request whole in its one I/O thread (an event
loop over every open socket) and only then hands it to one of its worker threads, so a slow or
half-sent request costs a socket and a buffer, never a thread that the table's polls need. It
is one process: Flask-Limiter's counts in memory are the server's counts, and there is no
worker timeout that kills a thread mid-request (and its counts with it), so no client can get
the workers restarted. A forking server's sync workers instead read the request in the worker
itself, so two slow sockets held both of them until they were killed.

What the options are for is said beside each one in :func:`options`. The access log is a line a
request on stdout, as before: waitress writes none of its own.
"""

from __future__ import annotations

import logging
import re
import sys
import threading
import time
from collections.abc import Callable, Iterable

import click
from flask import Flask
from flask.cli import ScriptInfo

#: The worker threads that run the app. A request holds one only once it has arrived whole, so
#: these are the requests being worked on at once, not the phones connected: a table's poll
#: takes a few milliseconds. More than the cores, so that an import or a backup (seconds) leaves
#: threads free for the polls; not many more, since one process runs Python on one core at a
#: time: a thread back from the database waits for its turn among all the others, and a round
#: makes a dozen such trips. Under the table load model, 4 threads instead of 8 took a round's
#: time in the app from 35-79 ms to 26-44 ms (p95) and held the same tables with shorter waits.
THREADS = 4
#: Sockets open at once (phones, with keep-alive, hold one or two each; a slow client holds
#: one). Past this many, new connections wait in the listen queue until one closes. waitress's
#: own default is 100: a dozen tables of six phones, each with a poll and a page open, come near
#: it. Not more: each socket may have a body of up to the largest upload buffered on disk.
CONNECTION_LIMIT = 200
#: Sockets one address may hold open at once: a phone's browser opens up to six to one server.
#: Past this, a new connection from that address is closed at once, so that one guest's held
#: or half-sent requests (198 of them filled every socket, and every phone's poll and save timed
#: out) leave the rest of CONNECTION_LIMIT to the table. ``CONNECTIONS_PER_ADDRESS`` sets it
#: (0: none); behind a proxy (``PROXY_COUNT``) every connection comes from the proxy's address,
#: and there is no cap unless one is set: the proxy keeps its own (docs/running.md).
CONNECTIONS_PER_ADDRESS = 24
#: Seconds a socket may stay silent, a request half sent or a kept-alive one idle, before it is
#: closed (waitress's default). A phone polls every 2 s; a slow client that keeps sending costs
#: a socket, not a thread.
CHANNEL_TIMEOUT = 120

ACCESS_LOG = logging.getLogger("scorekeeper.access")


def options(app: Flask, host: str, port: int, threads: int) -> dict:
    """waitress's settings for this app."""
    settings = {
        "listen": f"{host}:{port}",
        "threads": threads,
        "connection_limit": CONNECTION_LIMIT,
        "channel_timeout": CHANNEL_TIMEOUT,
        # poll() rather than select(): select() stops at 1,024 file descriptors, fewer than
        # CONNECTION_LIMIT sockets and the databases' files together.
        "asyncore_use_poll": True,
        # The client's address and scheme are the app's to read (PROXY_COUNT, werkzeug's
        # ProxyFix): waitress would otherwise drop every X-Forwarded-* header it does not trust
        # itself, and limits behind a proxy would count the proxy.
        "clear_untrusted_proxy_headers": False,
        "ident": "scorekeeper",
    }
    # waitress reads a body whole before the app sees it, to a temporary file past 512 KB:
    # never more than the largest body a view takes (an import), announced or sent. An app that
    # sets no limit (the bench's floor) keeps waitress's own.
    largest = largest_body(app)
    if largest:
        settings["max_request_body_size"] = largest
    return settings


def largest_body(app: Flask) -> int:
    """The largest body any view takes: ``MAX_CONTENT_LENGTH``, or a larger one that a view
    marked with :func:`scorekeeper.web.limits.max_body` names (an upload); 0 when the app sets
    none."""
    sizes = [int(app.config.get("MAX_CONTENT_LENGTH") or 0)]
    for view in app.view_functions.values():
        wanted = getattr(view, "max_body", None)
        if wanted is not None:
            sizes.append(int(app.config.get(wanted[0], wanted[1])))
    return max(sizes)


#: What a logged field may not carry as it is: control characters (a "%0a" in a path is a new
#: line in PATH_INFO: a forged line in the log; "%1b" a terminal's escape), the quote that ends
#: the field, and the backslash that escapes.
_UNSAFE = re.compile(r'[\x00-\x1f\x7f-\x9f"\\]')


def logged(text: str) -> str:
    """``text`` as the access log writes it: each unsafe character as ``\\xNN``."""
    return _UNSAFE.sub(lambda found: f"\\x{ord(found.group()):02x}", text)


class AccessLog:
    """One line a request once its answer starts: address, time, method and path, status, the
    body's length when the answer says it (``-`` when streamed), and how long the app worked on
    it ("3.1ms": from a worker thread taking the request to the answer starting); what the client
    chose (the path, the method, an address a proxy passed on) is escaped (:func:`logged`). A slow answer
    seen by a phone is told apart in it from a busy server: the time a request waited for a
    thread, and the time its answer took on the way, are not in it."""

    def __init__(self, app: Callable) -> None:
        self.app = app

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        taken = time.perf_counter()

        def start(status: str, headers: list[tuple[str, str]], exc_info=None):
            length = next((value for name, value in headers if name.lower() == "content-length"), "-")
            ACCESS_LOG.info('%s [%s] "%s %s" %s %s %.1fms', logged(environ.get("REMOTE_ADDR", "-")),
                            time.strftime("%d/%b/%Y:%H:%M:%S %z"), logged(environ.get("REQUEST_METHOD", "-")),
                            logged(environ.get("PATH_INFO", "")), status.split(" ", 1)[0], length,
                            (time.perf_counter() - taken) * 1000)
            return start_response(status, headers, exc_info)

        return self.app(environ, start)


class BodyJudge:
    """The most bytes of body a request may send, asked by the server as soon as the request's
    head has arrived, before any of its body is kept: ``MAX_CONTENT_LENGTH`` for a request that
    announces no more than that (nearly every one), else the app's answer for this request
    (:func:`scorekeeper.web.limits.body_allowed`: an import from the club's keeper takes
    ``IMPORT_MAX_BYTES``; anyone else's large body is refused with a 413 at once)."""

    def __init__(self, app: Flask, host: str, port: int) -> None:
        self.app = app
        self.usual = int(app.config.get("MAX_CONTENT_LENGTH") or 0)
        self.server = (host, str(port))

    def __call__(self, parser) -> int | None:
        if not self.usual:  # an app that sets no limit (the bench's floor): waitress's own
            return None
        if not parser.chunked and parser.content_length <= self.usual:
            return self.usual
        from scorekeeper.web.limits import body_allowed

        environ = {"REQUEST_METHOD": parser.command, "PATH_INFO": parser.path, "QUERY_STRING": parser.query,
                   "SERVER_NAME": self.server[0], "SERVER_PORT": self.server[1], "SERVER_PROTOCOL": "HTTP/1.1",
                   "SCRIPT_NAME": "", "wsgi.url_scheme": parser.url_scheme, "wsgi.input": None}
        for name, value in parser.headers.items():
            environ[name if name in ("CONTENT_TYPE", "CONTENT_LENGTH") else f"HTTP_{name}"] = value
        return body_allowed(self.app, environ)


def per_address(app: Flask) -> int:
    """The most sockets one address may hold open (0: no cap): :data:`CONNECTIONS_PER_ADDRESS`."""
    configured = app.config.get("CONNECTIONS_PER_ADDRESS")
    if configured is None:
        return 0 if app.config.get("PROXY_COUNT") else CONNECTIONS_PER_ADDRESS
    return int(configured)


def guarded_channel(app: Flask, host: str, port: int, most: int = 0):
    """waitress's channel, with a parser that asks :class:`BodyJudge` how much body each
    request may send once its head has arrived: one announced larger is refused with a 413
    before a byte of its body is kept, and one sent in chunks is cut off when it passes the
    size. A body within ``MAX_CONTENT_LENGTH`` is kept in memory, never written to the
    temporary folder (waitress spools any body past 512 KB to a file there): only the keeper's
    import may ever use the disk, so a stranger's held upload cannot fill it."""
    from waitress.channel import HTTPChannel
    from waitress.parser import HTTPRequestParser
    from waitress.task import WSGITask
    from waitress.utilities import RequestEntityTooLarge

    judge = BodyJudge(app, host, port)

    class Parser(HTTPRequestParser):
        most: int | None = None

        def parse_header(self, header_plus: bytes) -> None:
            super().parse_header(header_plus)
            if self.body_rcv is None:
                return
            self.most = judge(self)
            if self.most is None:
                return
            if not self.chunked and self.content_length > self.most:
                self.body_rcv = None  # nothing of it is kept
                self.error = RequestEntityTooLarge(f"exceeds the {self.most} bytes this request may send")
                self.completed = True
            elif self.most <= judge.usual:
                self.body_rcv.buf.overflow = max(self.body_rcv.buf.overflow, self.most + 1)

        def received(self, data: bytes) -> int:
            consumed = super().received(data)
            if self.most is not None and not self.completed and self.body_bytes_received > self.most:
                self.error = RequestEntityTooLarge(f"exceeds the {self.most} bytes this request may send")
                self.completed = True
            return consumed

    class Task(WSGITask):
        """An answer without a body (the watcher's 204 "no change", a 304) keeps the connection:
        waitress closed every HTTP/1.1 answer that had no Content-Length, bodiless ones too, so
        every phone's poll made a new connection, and while a guest held every socket the
        phones already connected were locked out with the rest."""

        keeping = False

        def build_response_header(self) -> bytes:
            self.keeping = (self.version == "1.1" and not self.has_body and not self.close_on_finish
                            and self.request.headers.get("CONNECTION", "").lower() != "close")
            try:
                return super().build_response_header()
            finally:
                self.keeping = False

        def set_close_on_finish(self) -> None:
            if not self.keeping:
                super().set_close_on_finish()

    #: The sockets open from each address (with ``most``: a cap of sockets by address).
    open_from: dict[str, int] = {}
    counting = threading.Lock()

    class Channel(HTTPChannel):
        """A connection; past ``most`` open from its address, closed as soon as it is taken,
        before a byte of it is read."""

        parser_class = Parser
        task_class = Task
        counted = False

        def __init__(self, server, sock, addr, adj, map=None) -> None:
            super().__init__(server, sock, addr, adj, map=map)
            if not most:
                return
            who = addr[0] if isinstance(addr, tuple) else str(addr)
            with counting:
                over = open_from.get(who, 0) >= most
                if not over:
                    open_from[who] = open_from.get(who, 0) + 1
                    self.counted = True
            if over:
                self.close()

        def del_channel(self, map=None) -> None:
            super().del_channel(map)
            if self.counted:
                self.counted = False
                who = self.addr[0] if isinstance(self.addr, tuple) else str(self.addr)
                with counting:
                    left = open_from.get(who, 1) - 1
                    if left:
                        open_from[who] = left
                    else:
                        open_from.pop(who, None)

    return Channel


def make_server(app: Flask, host: str, port: int, threads: int = THREADS):
    """waitress's server for the app (not started: ``.run()`` serves until it is closed)."""
    from waitress.server import create_server

    server = create_server(AccessLog(app), **options(app, host, port, threads))
    listening = [server] if hasattr(server, "channel_class") else \
        [d for d in server.map.values() if hasattr(d, "channel_class")]
    for one in listening:
        one.channel_class = guarded_channel(app, host, one.effective_port, per_address(app))
    return server


def serve(app: Flask, host: str, port: int, threads: int = THREADS) -> None:
    logging.basicConfig()  # waitress's own warnings, on stderr, as waitress.serve() set them up
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter("%(message)s"))
    ACCESS_LOG.addHandler(handler)
    ACCESS_LOG.setLevel(logging.INFO)
    ACCESS_LOG.propagate = False
    server = make_server(app, host, port, threads)
    connect_ahead(app, threads)
    server.print_listen("Serving on http://{}:{}")
    server.run()


def connect_ahead(app: Flask, threads: int) -> None:
    """The unchanged poll's connections to the database made before the first phone asks (one a
    thread): a fresh server's first polls on PostgreSQL otherwise took 12 ms against 3 ms warm,
    making the connection. An app without the poll (the bench's floor) has nothing to make."""
    polls = app.extensions.get("scorekeeper_polls")
    if polls is not None:
        polls.version.open(threads)


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on (0.0.0.0: every one).")
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--threads", default=THREADS, show_default=True, type=click.IntRange(1, 256),
              help="Requests worked on at once (a slow client's is not one until it has arrived whole).")
@click.pass_context
def serve_command(ctx: click.Context, host: str, port: int, threads: int) -> None:
    """Serve the app with waitress, as `make run` does."""
    # The app itself, outside any app context: each request pushes its own in its thread.
    serve(ctx.ensure_object(ScriptInfo).load_app(), host, port, threads)


def register(app: Flask) -> None:
    app.cli.add_command(serve_command)
