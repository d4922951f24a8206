"""The wheel runs: built as a release is built, installed as docs/running.md "From the
wheel" says (with uv for pip, for speed) into a fresh virtual environment outside the checkout, its database made by its own
migrations, served as `make run` serves it.

``uv build`` makes the sdist and then the wheel from the unpacked sdist, so a file the sdist
leaves out is missing from the wheel too. The packaging does not depend on the database: this
runs in the SQLite pass only.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import urllib.request
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import ON_POSTGRES
from server import ROOT, AppServer, upgrade

pytestmark = pytest.mark.skipif(ON_POSTGRES, reason="packaging, not the database: run in the SQLite pass")

#: Where a file of the checkout lies inside the wheel (pyproject.toml's package-dir).
IN_WHEEL = {"scorekeeper/": "scorekeeper/", "templates/": "scorekeeper/templates/", "static/": "scorekeeper/static/"}


def tracked(*paths: str) -> list[str]:
    listed = subprocess.run(["git", "ls-files", "-z", *paths], cwd=ROOT, check=True, capture_output=True, text=True)
    return [name for name in listed.stdout.split("\0") if name]


def shipped_files() -> set[str]:
    """Every file git tracks in the package, templates/ and static/, named as in the wheel."""
    names = set()
    for name in tracked(*IN_WHEEL):
        for folder, inside in IN_WHEEL.items():
            if name.startswith(folder):
                names.add(inside + name.removeprefix(folder))
    return names


def clean_copy(target: Path) -> Path:
    """The checkout's tracked files as they are now, and nothing else: a build in the checkout
    itself would read what an earlier build left there (setuptools' egg-info lists every file it
    ever packed, and packs them again), and so pass with a pyproject.toml that leaves files out."""
    for name in tracked():
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def run(*args, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, f"{' '.join(map(str, args))}\n{done.stdout}\n{done.stderr}"
    return done


def fetch(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, response.headers.get("Content-Type", ""), response.read()


@pytest.mark.slow
def test_the_wheel_holds_everything_and_runs_outside_the_checkout(tmp_path):
    # A fresh environment, away from the checkout: nothing can be imported from it by accident.
    # The two pip commands of docs/running.md, made by uv (the same lock, every hash checked; 2 s instead of 30).
    # The locked dependencies go in while the wheel is built.
    site = tmp_path / "site"
    site.mkdir()
    env_dir = tmp_path / "venv"
    python = env_dir / "bin" / "python"
    uv = (sys.executable, "-m", "uv", "--quiet")
    run(*uv, "venv", "--python", sys.executable, env_dir, cwd=site)
    with ThreadPoolExecutor(1) as background:
        dependencies = background.submit(
            run, *uv, "pip", "install", "--python", python, "--require-hashes", "--only-binary", ":all:", "--compile-bytecode",
            "-r", ROOT / "requirements.txt", cwd=site)

        dist = tmp_path / "dist"
        source = clean_copy(tmp_path / "checkout")
        run(sys.executable, "-m", "uv", "build", "--python", sys.executable, "--out-dir", dist, source, cwd=source)
        (wheel,) = dist.glob("scorekeeper-*.whl")
        assert list(dist.glob("scorekeeper-*.tar.gz")), "no sdist"
        with zipfile.ZipFile(wheel) as zipped:
            missing = shipped_files() - set(zipped.namelist())
        assert not missing, f"the wheel lacks {sorted(missing)}"
        dependencies.result()

    run(*uv, "pip", "install", "--python", python, "--no-deps", "--compile-bytecode", wheel, cwd=site)
    where = run(python, "-c", "import scorekeeper; print(scorekeeper.__file__)", cwd=site).stdout
    assert where.startswith(str(env_dir)), where

    url = f"sqlite:///{site / 'new.sqlite'}"
    instance = site / "instance"
    upgrade(url, instance, python=str(python), cwd=site)
    server = AppServer(url, instance, threads=1, python=str(python), cwd=site).start()
    try:
        status, created = server.request("POST", "/api/games", {
            "format": "scorekeeper-game/1", "rules": "balmoral", "players": ["Ann", "Ben", "Cat"],
            "first_dealer": "Ann", "rounds": [{"went_out": "Ben", "hands": {"Ann": "A K 7 7", "Cat": "10 10 Q 2"}}],
        })
        assert status == 201, created
        status, kind, home = fetch(server.base + "/")
        assert (status, kind.split(";")[0]) == (200, "text/html")
        assert b"New game" in home
        status, kind, board = fetch(server.base + f"/games/{created['id']}")
        assert status == 200
        assert b"Ann" in board and b"Round 2" in board  # the scoreboard, rendered from its template
        # The stylesheet the page names (with its content hash), served from inside the package.
        stylesheet = re.search(rb'href="(/static/app\.css\?v=[0-9a-f]+)"', board)
        assert stylesheet, board[:2000]
        status, kind, css = fetch(server.base + stylesheet.group(1).decode())
        assert (status, kind.split(";")[0]) == (200, "text/css")
        assert css == (ROOT / "static" / "app.css").read_bytes()
        # The result card, drawn in the font that came with the locked dependencies (no system font).
        status, kind, picture = fetch(server.base + f"/games/{created['id']}/card.png?lang=fi")
        assert (status, kind, picture[:8]) == (200, "image/png", b"\x89PNG\r\n\x1a\n")
    finally:
        server.stop()
