"""Lighthouse's performance score (mobile, the default preset: a slow phone on a slow network,
simulated) of the scoreboard, the round screen and the history, on the large history, as the
phone keeping score opens them. Its simulated throttling scales with how busy the machine is, so
it is a figure of the run, printed and kept with the others; the quality gate in `make test`
holds best practices at 100 (tests/quality/lighthouse.mjs runs both)."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path

from bench.common import ROOT, say
from bench.databases import Database
from bench.servers import Server, phone_cookie

RUNNER = ROOT / "tests" / "quality" / "lighthouse.mjs"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium-headless-shell")


def performance(db: Database, threads: int) -> dict[str, dict] | None:
    """Each page's score (0 to 100) and its largest contentful paint and total blocking time as
    Lighthouse simulates them; None without Chromium or Lighthouse (said so)."""
    if not Path(CHROMIUM).exists() or not (ROOT / "node_modules" / "lighthouse").exists():
        say(f"(Lighthouse not run: it needs Chromium at {CHROMIUM} and `make node_modules`.)")
        return None
    app = Server("scorekeeper-lighthouse", "scorekeeper", db, threads)
    try:
        app.ready("/api/openapi.json")
        pages = {"scoreboard": f"/games/{db.board_game}", "round screen": f"/games/{db.board_game}/rounds/new",
                 "history": "/history"}
        with tempfile.TemporaryDirectory(prefix="scorekeeper-lighthouse-") as work:
            out = Path(work)
            job = out / "job.json"
            job.write_text(json.dumps({
                "pages": {name: app.base + path for name, path in pages.items()}, "categories": ["performance"],
                "chromium": CHROMIUM, "cookie": phone_cookie(app, db), "out": str(out)}))
            done = subprocess.run(["node", str(RUNNER), str(job)], capture_output=True, text=True, timeout=600)
            if done.returncode != 0:
                say(f"(Lighthouse failed: {done.stderr[-500:]})")
                return None
            scores = {}
            for name in pages:
                report = json.loads((out / f"lighthouse-{name}.report.json").read_text())
                audits = report["audits"]
                scores[name] = {"score": round(100 * (report["categories"]["performance"]["score"] or 0)),
                                "lcp": audits["largest-contentful-paint"]["displayValue"],
                                "tbt": audits["total-blocking-time"]["displayValue"]}
            return scores
    finally:
        app.stop()
