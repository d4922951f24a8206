"""The benchmark's own bookkeeping holds without running it (bench/, `make bench`)."""

from __future__ import annotations

import pytest

from bench import speed_lines


def test_every_speed_only_piece_named_is_in_the_app():
    """A piece removed from the app leaves the list too: were it counted as 0 lines, the figure
    `make bench` prints would fall without any code getting simpler."""
    for path, names, _ in speed_lines.PIECES:
        lines, code = speed_lines.count(path, names)
        assert lines >= code > 0, path


def test_a_piece_that_is_not_there_is_an_error():
    with pytest.raises(LookupError, match="gone_long_ago"):
        speed_lines.count("scorekeeper/app.py", ("gone_long_ago",))
    with pytest.raises(LookupError, match="no_such_file"):
        speed_lines.count("scorekeeper/no_such_file.py", None)
