"""The benchmark's targets, each a ratio to a figure of the same run (the floor measured beside
it, a warm answer, the write floor), so that they mean the same on any machine and however busy
it is; and the verdicts on a run's figures: met, not met, or a diagnostic (NOTE)."""

from __future__ import annotations

import re

from bench.common import Figures

# Targets: reported, never asserted. Each time is held against another time of the same run, on
# the same machine in the same minutes; sizes and taps do not depend on the machine.
POLL = 1.0              # an unchanged poll at least the floor's req/s
FIRST = 2.0             # a fresh server's first answer within 2x a warm one working the page anew
ANEW = 15.0             # every page worked out anew (just after a round) within 15x the floor's page, large history
OWN_ASSETS_KB = 15.0    # our own CSS and JavaScript, compressed
PAGE_KB = 60.0          # a whole page with htmx, compressed
#: The floor's page, timed beside the pages worked out anew (bench/run.py's after_a_round).
FLOOR_ANEW = "the floor's page"

# Diagnostics, printed as NOTE beside the targets: each page against the floor by wrk. A table
# never sends wrk's load (bench/table_load.py models what it sends, and its figures are targets).
PAGE_P95 = 2.0          # a page's p95 within 2x the floor's
PAGE_RPS = 0.5          # and at least half the floor's throughput
POLL_P95 = 1.2          # an unchanged poll's p95 within 1.2x the floor's
GROWTH = 1.2            # no page more than 1.2x slower on the large history
ROUNDS = 0.1            # recording a round at least 0.1x the write floor's bare commits
LIGHTHOUSE = 95         # Lighthouse's performance score of a page (mobile), of 100: its throttling is
                        # simulated by the time this machine takes, so the score moves with its load


Verdict = tuple[bool | None, str]


def database_verdicts(system: str, small: dict, large: dict) -> list[Verdict]:
    """The targets of one database system, each line named after it: met (True), not met
    (False), or a diagnostic figure (None).

    Each endpoint is held against the floor measured in turns with it."""
    out: list[Verdict] = []
    for label, run in (("small", small), ("large", large)):
        results: list[Figures] = run["results"]
        title = f"{system} {label}"
        read_floor = results[0]
        for f in results[1:]:
            floor = f.floor
            if floor is None:
                continue
            if f.kind == "poll":
                out.append((f.rps >= POLL * floor.rps, f"{title}: {f.name}: req/s {f.rps / floor.rps:.2f}x the "
                                                       f"floor's (≥ {POLL:g}x)"))
                out.append((None, f"{title}: {f.name}: p95 {f.p95 / floor.p95:.2f}x the floor's (diagnostic: ≤ {POLL_P95}x)"))
            elif f.kind == "api":
                # A durable write waits for the disk (or the server's log): held against the
                # write floor's bare commits, and shown against the read floor too.
                out.append((None, f"{title}: {f.name}: {f.rps:.0f} req/s, p95 {f.p95:.1f} ms: "
                                  f"{f.rps / floor.rps:.3f}x the write floor's bare commit rate (diagnostic: ≥ {ROUNDS}x), "
                                  f"{f.rps / read_floor.rps:.2f}x the read floor's req/s"))
            else:
                out.append((None, f"{title}: {f.name}: p95 {f.p95 / floor.p95:.2f}x the floor (diagnostic: ≤ {PAGE_P95}x), "
                                  f"req/s {f.rps / floor.rps:.2f}x (diagnostic: ≥ {PAGE_RPS}x)"))
            if f.errors:
                out.append((False, f"{title}: {f.name}: {f.errors} failed or unexpected answers"))
        out += first_answer_verdicts(title, run)
    floor = large["changed"].get(FLOOR_ANEW)
    for name, millis in large["changed"].items():
        if name != FLOOR_ANEW and floor:
            out.append((millis <= ANEW * floor, f"{system} large: worked out anew just after a round: {name}: "
                                                f"{millis:.1f} ms, {millis / floor:.1f}x the floor's page's "
                                                f"{floor:.1f} ms (≤ {ANEW:g}x)"))
    for s, big in zip(small["results"], large["results"], strict=True):
        if s.floor is None or big.floor is None:
            continue
        out.append((None, f"{system}: growth: {base_name(s.name)}: {growth(s, big):.2f}x slower on the large history "
                          f"(diagnostic: ≤ {GROWTH}x; worse of req/s and p50, each against its floor)"))
    return out


def first_answer_verdicts(title: str, run: dict) -> list[Verdict]:
    """A fresh worker's first answer within FIRST times a warm one, for every endpoint: a page
    that a new worker has to work up (a replay of the history, caches to fill) fails it."""
    out: list[Verdict] = []
    for name, first in run["cold"].items():
        warm = run["warm"][name]
        out.append((first <= FIRST * warm, f"{title}: first answer: {name}: first {first * 1000:.1f} ms, "
                                           f"warm {warm * 1000:.1f} ms (≤ {FIRST:g}x)"))
    return out


def shared_verdicts(sizes: dict, tapped: dict | None, scored: dict | None = None) -> list[Verdict]:
    """The targets that do not depend on the database: the pages' weight, the taps; and
    Lighthouse's performance score, a diagnostic."""
    out: list[Verdict] = []
    own = sizes["scoreboard"]["own_assets"] / 1024
    out.append((own < OWN_ASSETS_KB,
                f"size: our own CSS and JavaScript {own:.1f} KB compressed (< {OWN_ASSETS_KB:.0f} KB)"))
    for label in ("scoreboard", "round screen"):
        whole = sizes[label]["with_htmx"] / 1024
        out.append((whole < PAGE_KB, f"size: the {label} with htmx {whole:.1f} KB compressed (< {PAGE_KB:.0f} KB)"))
    if tapped:
        ok = tapped["taps"] <= tapped["goal"]
        out.append((ok, f"taps: {tapped['taps']} to record the round (goal ≤ {tapped['goal']})"))
        eight = tapped.get("rounds", {}).get("eight cards")
        if eight:
            ok = eight["taps"] <= eight["goal"]
            out.append((ok, f"taps: {eight['taps']} to record a round of eight-card hands (goal ≤ {eight['goal']})"))
    for name, found in (scored or {}).items():
        out.append((None, f"Lighthouse: the {name}'s performance {found['score']} (diagnostic: ≥ {LIGHTHOUSE})"))
    return out


def growth(small: Figures, large: Figures) -> float:
    """How much slower an endpoint is on the large history: the worse of throughput and median
    latency, each taken relative to the floor measured beside it (so that the machine getting
    busier, or quieter, between the two runs does not count as the app's doing)."""
    if not (large.rps and small.p50 and small.floor and large.floor):
        return float("inf")
    rps = (small.rps / small.floor.rps) / (large.rps / large.floor.rps)
    p50 = (large.p50 / large.floor.p50) / (small.p50 / small.floor.p50)
    return max(rps, p50)


def base_name(name: str) -> str:
    return re.sub(r" \(.*\)$", "", re.sub(r"page \d+ \(last\)", "last page", name))
