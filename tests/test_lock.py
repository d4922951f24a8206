"""The lock agrees with pyproject.toml.

``uv.lock`` holds every version with its hashes; ``requirements.txt`` and ``requirements-test.txt``
are exported from it for pip (``make lock`` writes all three). A dependency added, removed or
given other bounds in pyproject.toml without ``make lock`` fails here, and so does an export
edited by hand or left behind. Both checks are uv's own and need no network.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from server import ROOT

UV = (sys.executable, "-m", "uv")
#: The exports, as the Makefile's lock-export target writes them.
EXPORTS = {
    "requirements.txt": ["--extra", "postgres", "--extra", "redis"],
    "requirements-test.txt": ["--extra", "test", "--extra", "postgres", "--extra", "redis"],
}


def uv(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*UV, *args], cwd=ROOT, capture_output=True, text=True)


def test_the_lock_agrees_with_pyproject():
    checked = uv("lock", "--check", "--offline")
    assert checked.returncode == 0, (
        "uv.lock does not match pyproject.toml: run `make lock`\n" + checked.stderr
    )


def requirements(text: str) -> list[str]:
    """The file without its header (the command that wrote it names its output file)."""
    return [line for line in text.splitlines() if not line.startswith("#    uv export")]


@pytest.mark.parametrize("name", EXPORTS)
def test_the_exports_for_pip_are_the_lock(name):
    exported = uv("export", "--frozen", "--offline", "--no-emit-project", *EXPORTS[name])
    assert exported.returncode == 0, exported.stderr
    assert requirements((ROOT / name).read_text()) == requirements(exported.stdout), (
        f"{name} is not what uv.lock exports: run `make lock`"
    )


def test_every_locked_requirement_is_pinned_with_hashes():
    # What pip's --require-hashes needs: an exact version and at least one hash for each.
    for name in EXPORTS:
        text = (ROOT / name).read_text().replace("\\\n", " ")
        for line in text.splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                assert "==" in line and "--hash=sha256:" in line, f"{name}: {line[:80]}"
