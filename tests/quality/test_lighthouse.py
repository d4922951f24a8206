"""Lighthouse (mobile, the default preset) on the scoreboard, the round screen and the history:
best practices must be 100.

Its performance score is a figure of the machine as much as of the page (its simulated throttling
varies with the load of a 2-core machine), so `make bench` measures it, on the large history, and
this gate does not. Its accessibility category is not run either: its audits are axe-core's rules,
which test_axe.py runs on every page, these three among them.

Lighthouse drives Debian's Chromium against the app served on 127.0.0.1 by this process
(werkzeug in a thread, the seeded database of conftest), the three pages in one browser and one
Node process (lighthouse.mjs). It may fetch nothing else: Chromium is started without background
networking and with every host name mapped to nowhere. The app runs with USE_CDN False
(conftest.quality_app): a phone without signal tries the CDN copy of htmx, fails and loads the
local one, and that failed load is a console error Lighthouse would count against best
practices; offline behaviour is tested by the browser tests, not here. The scorekeeper's session
cookie (the games' edit keys) is sent as an extra header, so the scoreboard shows its buttons and
the round screen opens.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from browser.conftest import CHROMIUM

from .site import Seeded

GATES = {"best-practices": 1.0}
PAGES = {
    "scoreboard": lambda s: f"/games/{s.balmoral}",
    "round-screen": lambda s: f"/games/{s.balmoral}/rounds/new",
    "history": lambda s: "/history",
}
#: Runs Lighthouse on the pages in one browser, started as it may fetch nothing but loopback, with
#: Lighthouse's defaults but for how long the network must be quiet (lighthouse-config.json).
RUNNER = Path(__file__).with_name("lighthouse.mjs")


def lighthouse(pages: dict[str, str], categories: list[str], out: Path, cookie: str) -> dict[str, dict]:
    """Each page's report (by its name in ``pages``), every page in one run of lighthouse.mjs, with
    the session ``cookie``."""
    job = out / "lighthouse-job.json"
    job.write_text(json.dumps({"pages": pages, "categories": categories, "chromium": CHROMIUM,
                               "cookie": f"session={cookie}", "out": str(out)}))
    reports = {name: out / f"lighthouse-{name}.report.json" for name in pages}
    for report in reports.values():
        report.unlink(missing_ok=True)
    done = subprocess.run(["node", str(RUNNER), str(job)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"lighthouse failed ({done.returncode}): {done.stderr[-2000:]}"
    return {name: json.loads(report.read_text()) for name, report in reports.items()}


def failing_audits(report: dict, category: str) -> list[str]:
    out = []
    for ref in report["categories"][category]["auditRefs"]:
        audit = report["audits"][ref["id"]]
        if ref["weight"] and audit["score"] is not None and audit["score"] < 1:
            items = (audit.get("details") or {}).get("items") or []
            detail = "; ".join(json.dumps(i, default=str)[:300] for i in items[:4])
            out.append(f"{audit['id']} ({audit['score']}): {audit['title']} {detail}")
    return out


@pytest.mark.slow
def test_lighthouse_best_practices_are_100(quality_server, seeded: Seeded, editor_cookie, artifacts_dir):
    urls = {name: quality_server + path(seeded) for name, path in PAGES.items()}
    reports = lighthouse(urls, list(GATES), artifacts_dir, editor_cookie)
    failures = []
    for name, report in reports.items():
        assert report["finalDisplayedUrl"] == urls[name], f"{name}: the page redirected: the cookie did not open it"
        assert not report.get("runtimeError"), (name, report["runtimeError"])
        scores = {key: cat["score"] for key, cat in report["categories"].items()}
        failures += [f"{name}: {cat} {scores[cat]}: {line}" for cat, floor in GATES.items() if scores[cat] < floor
                     for line in failing_audits(report, cat)]
    assert not failures, "\n".join(failures)
