"""The API holds to its own description: ``schemathesis run``, its command line, against
``/api/openapi.json`` served as `make run` serves it, with every check and every phase (the stateful one
follows the description's links from a created game to its rounds) finds nothing.

Bounded: a few examples per operation, a fixed seed (the same requests on every run, so a
failure in CI happens here too), a time limit. tests/schemathesis.toml says the one thing the
description cannot: a schema-valid game or round that breaks the rules is refused with its
declared 422. tests/web/test_fuzz_api.py fuzzes the same operations in-process with real games.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from server import ROOT, AppServer

SCHEMATHESIS = Path(sys.executable).parent / "schemathesis"
CONFIG = ROOT / "tests" / "schemathesis.toml"


@pytest.fixture
def served(database, tmp_path):
    server = AppServer(database, tmp_path, threads=1).start()
    yield server
    server.stop()


@pytest.mark.slow
def test_schemathesis_finds_nothing(served, tmp_path):
    done = subprocess.run(
        [SCHEMATHESIS, "--config-file", CONFIG, "--no-color", "run", served.base + "/api/openapi.json",
         "--checks", "all", "--max-examples", "10", "--seed", "12", "--generation-database", "none",
         "--request-timeout", "10", "--max-failures", "5"],
        cwd=tmp_path, capture_output=True, text=True, timeout=240,
    )
    report = done.stdout + done.stderr
    assert done.returncode == 0, report
    # Every phase ran, the stateful one among them, and every test case passed.
    for phase in ("Examples", "Coverage", "Fuzzing", "Stateful"):
        assert f"✅  {phase}" in report, report
    counted = re.search(r"(\d+) generated, (\d+) passed\n", report)
    assert counted and counted[1] == counted[2], report
