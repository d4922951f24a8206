"""The instance folder's secret files (``store.private``): private from their first byte, and a
secret others could read refused at start."""

from __future__ import annotations

import stat

import pytest

from scorekeeper import store
from scorekeeper.store.private import InsecureFile, secret_key


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_secret_is_written_for_its_owner_alone_and_replaced_whole(tmp_path):
    path = tmp_path / "folder" / "club_key"
    store.write_private(path, "first")
    store.write_private(path, "second")
    assert path.read_text() == "second" and mode(path) == 0o600 and mode(path.parent) == 0o700
    store.check_private(path)


def test_a_secret_others_may_read_is_refused_with_the_command_that_mends_it(tmp_path):
    key = secret_key(tmp_path)
    assert len(key) == 64 and secret_key(tmp_path) == key  # made once, then read
    (tmp_path / "secret_key").chmod(0o644)
    with pytest.raises(InsecureFile, match="chmod 600"):
        secret_key(tmp_path)


def test_the_database_file_is_made_private_before_it_is_opened(tmp_path):
    path = tmp_path / "scorekeeper.sqlite"
    store.create_private(path)
    store.create_private(path)  # there already: left as it is
    assert mode(path) == 0o600 and path.read_bytes() == b""
