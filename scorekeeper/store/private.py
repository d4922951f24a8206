"""Files of the instance folder that hold secrets or the database: readable by their owner only.

The secret key, the club key's digest and the SQLite database live in ``instance/``; each is
made private from its first byte, and a secret another user could read is refused at start.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class InsecureFile(RuntimeError):
    """A secret file that others than its owner may read: refused at start."""


def private_folder(path: Path) -> None:
    """Make the folder for secrets and the database readable by its owner only (0700): made so
    when missing, and made so when it was there already with a wider mode (a folder made by hand)."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    if stat.S_IMODE(path.stat().st_mode) & 0o077:
        path.chmod(0o700)


def write_private(path: Path, text: str) -> None:
    """Write a secret file that is 0600 from its first byte (never a moment readable by others),
    replacing any file there at once (a reader sees the old or the new one)."""
    private_folder(path.parent)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.new")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)  # O_CREAT's mode is a ceiling (umask), and an old file keeps its own
        os.write(fd, text.encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(temporary, path)


def create_private(path: Path) -> None:
    """Make an empty file 0600 if there is none (SQLite then keeps its mode for its own files)."""
    private_folder(path.parent)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    os.close(fd)


def check_private(path: Path) -> None:
    """Refuse a secret file that its group or others may read or change, saying how to fix it."""
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        raise InsecureFile(
            f"{path} is readable by other users (mode {mode:04o}): anyone who reads it can forge "
            f"sessions and edit keys. Run `chmod 600 {path}` and start Scorekeeper again."
        )


def secret_key(instance: Path) -> str:
    """The key kept in the instance folder, made on first start (never in source), 0600."""
    path = instance / "secret_key"
    if not path.exists():
        import secrets

        write_private(path, secrets.token_hex(32))
    check_private(path)
    return path.read_text().strip()
