"""The benchmark's own bookkeeping holds without running it (bench/, `make bench`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bench import speed_lines

ROOT = Path(__file__).resolve().parents[1]


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


SCRIPTS = ("run", "rounds", "table_load", "stack_load", "import_lock", "page_instructions", "round_instructions",
           "page_weight", "speed_lines")


@pytest.mark.parametrize("name", SCRIPTS)
def test_every_script_runs_its_main_when_run_with_python_m(name):
    """``python -m bench.NAME`` runs the module as __main__: one without the guard would do
    nothing and exit 0, and `make bench` would print nothing and pass."""
    source = (ROOT / "bench" / f"{name}.py").read_text()
    assert 'if __name__ == "__main__":' in source, name


def test_no_part_of_the_benchmark_changes_the_import_path():
    """Its modules import each other as the package they are (python -m bench.NAME from the top
    of the checkout); a folder put on sys.path is how the circle through the table load model hid."""
    changing = re.compile(r"sys\.path\s*(\.(insert|append|extend)|\[|\+?=)")
    changed = [path.name for path in sorted((ROOT / "bench").glob("*.py")) if changing.search(path.read_text())]
    assert changed == []


def test_the_performance_page_stays_short():
    """docs/performance.md is what to read before changing a target: today's figures and what
    they taught, not every figure ever taken (those are in git's history of the file)."""
    assert len((ROOT / "docs" / "performance.md").read_text().splitlines()) <= 200
