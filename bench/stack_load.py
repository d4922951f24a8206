"""The table load model through the internet set-up (`make bench-stack`): how many tables Caddy
in front of two app servers on PostgreSQL holds, against one app server alone.

The same model as bench/table_load.py (six phones a table polling every 2 s, a round every 3
minutes through the round screen, a page every 10 minutes; the most tables held with every
request's p95 within 100 ms and no error), on one seeded PostgreSQL database, twice:

- one app server alone (`flask serve`, as `make run` starts it), spoken to over plain HTTP;
- the stack of deploy/ (as `make stack` runs it): Caddy with its local certificate authority,
  over HTTPS (a new TLS connection for every request, the costlier case, as the model's new
  connection for every request), in front of two app servers with deploy/scorekeeper.env's
  settings (the limits off in both, as `make bench` has them: one address sends everything).

Everything runs on this machine, the client included: on 2 cores, Caddy's TLS and the second
server's process share the cores the one server had alone. The ratio printed is the stack's
tables over the one server's.

    .venv/bin/python -m bench.stack_load [--games 2000] [--window 10] [--settle 2]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from scorekeeper.serving import THREADS as SERVED_THREADS  # what `make run` serves with

from scripts import stack  # scripts/stack.py: the deploy's Caddyfile and settings for this machine

from bench import table_load
from bench.common import say
from bench.databases import Database, PostgreSQL, build, start_postgres, stop_postgres
from bench.servers import Server
from scorekeeper.launcher import free_port


def through_stack(db: Database, tables, threads: int, first: int, settle: float, window: float):
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-stack-bench-"))
    settings = stack.deploy_settings()
    servers = []
    caddy = None
    try:
        for index in range(2):
            server = Server(f"stack-app-{index}", "scorekeeper", db, threads)
            servers.append(server)
        for server in servers:
            # The deploy's settings (PROXY_COUNT, the engine's options) but the bench's database,
            # secret and limits: the tables' cookies are signed with the bench's secret, and the
            # limits are off, as for the server alone (one address sends every request).
            server.env.update({k: v for k, v in settings.items() if k in ("FLASK_PROXY_COUNT",
                                                                          "FLASK_SQLALCHEMY_ENGINE_OPTIONS")})
            server.restart("/api/openapi.json")
        port = free_port()
        config = folder / "Caddyfile"
        config.write_text(stack.caddyfile(port, free_port(), [s.port for s in servers], folder / "caddy"))
        env = dict(os.environ, XDG_DATA_HOME=str(folder / "data"), XDG_CONFIG_HOME=str(folder / "config"),
                   HOME=str(folder))
        caddy = subprocess.Popen(["caddy", "run", "--config", str(config), "--adapter", "caddyfile"], env=env,
                                 stdout=subprocess.DEVNULL, stderr=open(folder / "caddy.log", "ab"),  # noqa: SIM115
                                 start_new_session=True)
        root = folder / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        deadline = time.monotonic() + 60
        while not root.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        tls = ssl.create_default_context(cafile=str(root))
        # Caddy issues the certificate for the stack's name as it starts: measured from the first
        # handshake that goes through.
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=2) as raw, \
                        tls.wrap_socket(raw, server_hostname=stack.NAME):
                    break
            except (OSError, ssl.SSLError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        return asyncio.run(table_load.search("stack", port, tables, table_load.versions(db, tables), first, settle,
                                             window, tls=tls, host=stack.NAME))
    finally:
        if caddy is not None:
            caddy.terminate()
            caddy.wait(timeout=15)
        for server in servers:
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=int(os.environ.get("THREADS", SERVED_THREADS)))
    parser.add_argument("--games", type=int, default=2000, help="finished games in the history")
    parser.add_argument("--window", type=float, default=10.0, help="seconds measured per number of tables")
    parser.add_argument("--settle", type=float, default=2.0, help="seconds before each window")
    parser.add_argument("--max-tables", type=int, default=512)
    opts = parser.parse_args()
    server, holder = os.environ.get("TEST_DATABASE_URL"), None
    if not server:
        server, holder = start_postgres(int(os.environ.get("PGPORT_BENCH", "5498")))
    if not server:
        say("no PostgreSQL server could be started")
        return 2
    system = PostgreSQL(server)
    db = None
    try:
        with tempfile.TemporaryDirectory(prefix="scorekeeper-stack-tables-") as work:
            db = Database("large", system, Path(work) / "large", opts.games, 20)
            build(db, processes=min(2, os.cpu_count() or 1))
            say(f"Seeded {db.title}: {db.games:,} games in {db.seconds:.0f} s; {os.cpu_count()} cores, "
                    f"load average {os.getloadavg()[0]:.2f}")
            tables = table_load.make_tables(db, opts.max_tables)
            alone = Server("one-app-server", "scorekeeper", db, opts.threads)
            try:
                alone.ready("/api/openapi.json")
                one = asyncio.run(table_load.search("one app server", alone.port, tables,
                                                    table_load.versions(db, tables), 16, opts.settle, opts.window))
            finally:
                alone.stop()
            both = through_stack(db, tables, opts.threads, max(1, one.held), opts.settle, opts.window)
            say("")
            say(f"One app server alone (plain HTTP): {one.held} tables held")
            say(f"Caddy (HTTPS) in front of two app servers: {both.held} tables held")
            if one.held:
                say(f"Ratio: {both.held / one.held:.2f} on {os.cpu_count()} cores "
                        f"(load average {os.getloadavg()[0]:.2f} at the end)")
    finally:
        if db is not None and db.url:
            system.drop(db.url)
        stop_postgres(holder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
