"""`make stack`: the internet set-up of deploy/ on this machine, throw-away, in the foreground.

Caddy (deploy/Caddyfile, with its own local certificate authority in place of a public one, on
loopback) in front of two app servers (`flask serve`, as deploy/scorekeeper@.service starts
them, with deploy/scorekeeper.env's settings), a PostgreSQL cluster and a Redis of its own: all
under one folder (STACK_DIR, `.stack/` by default, emptied at every start). It prints the HTTPS
address, the root certificate a phone or browser must trust, and each app server's address and
process id, and writes the same to STACK_DIR/stack.json (the tests of tests/stack read it).

Ctrl-C or SIGTERM stops everything it started. SIGHUP is the deploy's upgrade step
(deploy/upgrade.sh): `flask db upgrade`, then each app server restarted in turn, the next only
once the last answers again.

The name scores.test is not in any DNS: a browser maps it to loopback
(`chromium --host-resolver-rules="MAP scores.test 127.0.0.1"`), or `curl --resolve`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
NAME = "scores.test"
PYTHON = sys.executable


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def deploy_settings() -> dict[str, str]:
    """deploy/scorekeeper.env's settings, as systemd's EnvironmentFile reads them."""
    settings = {}
    for line in (DEPLOY / "scorekeeper.env").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, value = line.partition("=")
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
                value = value[1:-1]
            settings[name] = value
    return settings


def caddyfile(port: int, http_port: int, upstreams: list[int], data: Path) -> str:
    """deploy/Caddyfile for this machine: the name and port of the stack, its app servers, and
    Caddy's local certificate authority (kept under the stack's folder, trusted by nothing on
    the machine) in place of a public one."""
    text = (DEPLOY / "Caddyfile").read_text()
    text = text.replace("scores.example.org {", f"{NAME}:{port} {{\n\tbind 127.0.0.1", 1)
    text = re.sub(r"reverse_proxy 127\.0\.0\.1:8001 127\.0\.0\.1:8002",
                  "reverse_proxy " + " ".join(f"127.0.0.1:{p}" for p in upstreams), text)
    assert NAME in text and str(upstreams[0]) in text, "deploy/Caddyfile no longer has the lines the stack replaces"
    glob = (
        "{\n\tadmin off\n\tlocal_certs\n\tskip_install_trust\n"
        f"\thttp_port {http_port}\n\thttps_port {port}\n\tauto_https disable_redirects\n"
        f"\tstorage file_system {data}\n}}\n\n"
    )
    return glob + text


def as_postgres(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    # initdb and the server refuse to run as root.
    if os.getuid() == 0:
        command = ["runuser", "-u", "postgres", "--", *command]
    return subprocess.run(command, check=True, **kwargs)


def postgres_bin() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]))
    if not found:
        sys.exit("PostgreSQL is needed: sudo apt-get install -y postgresql (scripts/ensure-stack-tools.sh)")
    return found[-1].parent


def wait_for(what: str, ready, seconds: float = 90) -> None:
    # Generous: a stack started beside a whole `make test` on a shared machine once did not
    # start (which wait ran out was not recorded).
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if ready():
            return
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not start")


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except OSError:
        return False


class Stack:
    def __init__(self, folder: Path, port: int) -> None:
        self.folder = folder
        self.port = port
        self.processes: dict[str, subprocess.Popen] = {}
        self.app_ports = [free_port(), free_port()]
        self.pg_port = free_port()
        self.redis_port = free_port()
        self.pg_bin = postgres_bin()
        self.pg_data = folder / "postgres"
        self.url = f"https://{NAME}:{port}"
        self.env = dict(os.environ)
        self.env.update(deploy_settings())
        self.env.update(
            SCOREKEEPER_INSTANCE=str(folder / "instance"),
            FLASK_PUBLIC_URL=self.url,
            FLASK_SQLALCHEMY_DATABASE_URI=f"postgresql+psycopg://postgres@127.0.0.1:{self.pg_port}/postgres",
            FLASK_RATELIMIT_STORAGE_URI=f"redis://127.0.0.1:{self.redis_port}/0",
            SCOREKEEPER_BACKUPS=str(folder / "backups"),
            SCOREKEEPER_FLASK=str(Path(PYTHON).parent / "flask"),
        )

    def log(self, name: str):
        return open(self.folder / f"{name}.log", "ab")  # noqa: SIM115 (kept by the process)

    def start_postgres(self) -> None:
        self.pg_data.mkdir()
        if os.getuid() == 0:
            shutil.chown(self.pg_data, "postgres", "postgres")
        as_postgres([str(self.pg_bin / "initdb"), "-D", str(self.pg_data), "-U", "postgres", "--auth=trust",
                     "-E", "UTF8"], stdout=subprocess.DEVNULL)
        self.pg_ctl("start", "-o", f"-p {self.pg_port} -k {self.pg_data} -c listen_addresses=127.0.0.1 "
                    "-c fsync=off -c max_connections=200", "-l", str(self.pg_data / "server.log"))

    def pg_ctl(self, action: str, *args: str) -> None:
        as_postgres([str(self.pg_bin / "pg_ctl"), "-D", str(self.pg_data), "-w", *args, action],
                    stdout=subprocess.DEVNULL)

    def start_redis(self) -> None:
        (self.folder / "redis").mkdir(exist_ok=True)
        self.processes["redis"] = subprocess.Popen(
            ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder / "redis")],
            stdout=self.log("redis"), stderr=subprocess.STDOUT, start_new_session=True)

        def up() -> bool:
            try:
                with socket.create_connection(("127.0.0.1", self.redis_port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    return s.recv(16).startswith(b"+PONG")
            except OSError:
                return False

        wait_for("Redis", up)

    def flask(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([PYTHON, "-m", "flask", "--app", "scorekeeper", *args], cwd=ROOT, env=self.env,
                              check=True, capture_output=True, text=True)

    def upgrade(self) -> None:
        """deploy/upgrade.sh's steps that touch the database."""
        self.flask("backup", "--before-upgrade")
        self.flask("db", "upgrade")
        self.flask("games", "rebuild", "--if-stale")

    def start_app(self, port: int) -> None:
        # As deploy/scorekeeper@.service starts it.
        self.processes[f"app {port}"] = subprocess.Popen(
            [PYTHON, "-m", "flask", "--app", "scorekeeper", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--threads", "4"],
            cwd=self.folder / "instance", env=self.env, stdout=self.log(f"app-{port}"), stderr=subprocess.STDOUT,
            start_new_session=True)
        wait_for(f"The app server on port {port}", lambda: answers(f"http://127.0.0.1:{port}/manifest.webmanifest"))

    def stop_process(self, name: str) -> None:
        process = self.processes.pop(name, None)
        if process is None or process.poll() is not None:
            return
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        except ProcessLookupError:
            pass

    def restart_apps(self) -> None:
        """The upgrade: the migrations, then each app server in turn."""
        self.upgrade()
        for port in self.app_ports:
            self.stop_process(f"app {port}")
            self.start_app(port)
            # As deploy/upgrade.sh: until Caddy sends to it again, before the next one stops.
            time.sleep(5)
            print(f"App server on http://127.0.0.1:{port} restarted: process {self.processes[f'app {port}'].pid}",
                  flush=True)
        self.write_state()

    def start_caddy(self) -> None:
        config = self.folder / "Caddyfile"
        config.write_text(caddyfile(self.port, free_port(), self.app_ports, self.folder / "caddy"))
        env = dict(os.environ, XDG_DATA_HOME=str(self.folder / "caddy-data"),
                   XDG_CONFIG_HOME=str(self.folder / "caddy-config"), HOME=str(self.folder))
        self.processes["caddy"] = subprocess.Popen(
            ["caddy", "run", "--config", str(config), "--adapter", "caddyfile"],
            env=env, stdout=self.log("caddy"), stderr=subprocess.STDOUT, start_new_session=True)

        def up() -> bool:
            if self.processes["caddy"].poll() is not None:
                raise RuntimeError(f"Caddy stopped: see {self.folder / 'caddy.log'}")
            return self.root_certificate.exists() and self.https_answers()

        wait_for("Caddy", up)

    @property
    def root_certificate(self) -> Path:
        return self.folder / "caddy" / "pki" / "authorities" / "local" / "root.crt"

    def https_answers(self) -> bool:
        import ssl

        try:
            context = ssl.create_default_context(cafile=str(self.root_certificate))
            with socket.create_connection(("127.0.0.1", self.port), timeout=2) as raw, \
                    context.wrap_socket(raw, server_hostname=NAME) as tls:
                tls.sendall(f"GET /manifest.webmanifest HTTP/1.1\r\nHost: {NAME}:{self.port}\r\n"
                            "Connection: close\r\n\r\n".encode())
                return tls.recv(64).startswith(b"HTTP/1.1 200")
        except (OSError, ssl.SSLError):
            return False

    def state(self) -> dict:
        return {
            "url": self.url + "/",
            "port": self.port,
            "root_certificate": str(self.root_certificate),
            "apps": [{"url": f"http://127.0.0.1:{p}", "port": p, "pid": self.processes[f"app {p}"].pid}
                     for p in self.app_ports],
            "caddy_pid": self.processes["caddy"].pid,
            "redis": {"port": self.redis_port, "pid": self.processes["redis"].pid},
            "postgres": {"port": self.pg_port, "data": str(self.pg_data), "bin": str(self.pg_bin)},
            "database_url": self.env["FLASK_SQLALCHEMY_DATABASE_URI"],
            "env": {k: v for k, v in self.env.items() if k.startswith(("FLASK_", "SCOREKEEPER_"))},
            "folder": str(self.folder),
            "stack_pid": os.getpid(),
        }

    def write_state(self) -> None:
        part = self.folder / "stack.json.part"
        part.write_text(json.dumps(self.state(), indent=2))
        part.replace(self.folder / "stack.json")

    def start(self) -> None:
        (self.folder / "instance").mkdir(mode=0o700)
        self.start_postgres()
        self.start_redis()
        self.upgrade()
        club = self.flask("club-key", "--first", "--base-url", self.url)
        for port in self.app_ports:
            self.start_app(port)
        # The app servers first: Caddy marks an upstream that does not answer yet as failed.
        self.start_caddy()
        self.write_state()
        print(club.stdout.strip())
        print(f"\nScorekeeper runs behind Caddy at {self.url}/")
        print(f"  {NAME} is not in any DNS: open it in a browser started with\n"
              f"    --host-resolver-rules=\"MAP {NAME} 127.0.0.1\"  (or curl --resolve {NAME}:{self.port}:127.0.0.1)")
        print(f"  Caddy's root certificate (trust it to see no warning): {self.root_certificate}")
        for port in self.app_ports:
            print(f"  app server: http://127.0.0.1:{port}  process {self.processes[f'app {port}'].pid}")
        print(f"  PostgreSQL 127.0.0.1:{self.pg_port}, Redis 127.0.0.1:{self.redis_port}; logs in {self.folder}")
        print("Ctrl-C stops everything; kill -HUP "
              f"{os.getpid()} restarts the app servers one at a time (the upgrade step).", flush=True)

    def stop(self) -> None:
        for name in [n for n in self.processes if n != "redis"] + ["redis"]:
            self.stop_process(name)
        if (self.pg_data / "postmaster.pid").exists():
            try:
                self.pg_ctl("stop", "-m", "fast")
            except subprocess.CalledProcessError:
                pass


def main() -> None:
    folder = Path(os.environ.get("STACK_DIR") or ROOT / ".stack").resolve()
    port = int(os.environ.get("STACK_PORT") or 8443)
    for tool in ("caddy", "redis-server"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} is needed: sudo apt-get install -y caddy redis-server (scripts/ensure-stack-tools.sh)")
    if folder.exists():
        old = folder / "postgres"
        if (old / "postmaster.pid").exists():
            sys.exit(f"A stack may still run in {folder}: stop it first (its process id is in {folder}/stack.json)")
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    if os.getuid() == 0:
        # The PostgreSQL server runs as postgres: it must reach its folder.
        folder.chmod(0o755)
    stack = Stack(folder, port)
    stopping = []

    def stop(signum, frame):
        stopping.append(signum)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    upgrades = []
    signal.signal(signal.SIGHUP, lambda signum, frame: upgrades.append(signum))
    try:
        stack.start()
        while not stopping:
            if upgrades:
                upgrades.clear()
                stack.restart_apps()
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        stack.stop()
        print("The stack has stopped.", flush=True)


if __name__ == "__main__":
    main()
