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
import sys
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


class AccessLog:
    """One line a request once its answer starts: address, time, method and path, status, the
    body's length when the answer says it (``-`` when streamed), and how long the app worked on
    it ("3.1ms": from a worker thread taking the request to the answer starting). A slow answer
    seen by a phone is told apart in it from a busy server: the time a request waited for a
    thread, and the time its answer took on the way, are not in it."""

    def __init__(self, app: Callable) -> None:
        self.app = app

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        taken = time.perf_counter()

        def start(status: str, headers: list[tuple[str, str]], exc_info=None):
            length = next((value for name, value in headers if name.lower() == "content-length"), "-")
            ACCESS_LOG.info('%s [%s] "%s %s" %s %s %.1fms', environ.get("REMOTE_ADDR", "-"),
                            time.strftime("%d/%b/%Y:%H:%M:%S %z"), environ.get("REQUEST_METHOD", "-"),
                            environ.get("PATH_INFO", ""), status.split(" ", 1)[0], length,
                            (time.perf_counter() - taken) * 1000)
            return start_response(status, headers, exc_info)

        return self.app(environ, start)


def serve(app: Flask, host: str, port: int, threads: int = THREADS) -> None:
    import waitress

    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter("%(message)s"))
    ACCESS_LOG.addHandler(handler)
    ACCESS_LOG.setLevel(logging.INFO)
    ACCESS_LOG.propagate = False
    waitress.serve(AccessLog(app), **options(app, host, port, threads))


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
