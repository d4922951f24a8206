"""The benchmark's tables, as printed."""

from __future__ import annotations

from pathlib import Path

from bench.common import Figures, say
from bench.databases import Database
from bench.measure import AT_ONCE, FRESH_STARTS, IDLE
from bench.targets import base_name, growth

def ms(x: float) -> str:
    return f"{x:7.2f}"


def table(db: Database, run: dict) -> None:
    results: list[Figures] = run["results"]
    say(f"{'endpoint':<34}{'req/s':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}   "
        f"{'req/s ÷ floor':>13}{'p95 ÷ floor':>12}{'errors':>8}")
    for f in results:
        against = f.floor
        rel = f"{f.rps / against.rps:13.2f}{f.p95 / against.p95:12.2f}" if against else f"{'':13}{'':12}"
        mark = " (÷ write floor)" if f.kind == "api" else ""
        say(f"{f.name:<34}{f.rps:8.0f}{ms(f.p50):>9}{ms(f.p95):>9}{ms(f.p99):>9}   {rel}{f.errors:8d}{mark}")
    for f in results:
        if f.note:
            say(f"  ({f.name}: {f.note})")
    say(f"first answer of a fresh server (nothing kept yet; median of {FRESH_STARTS} fresh starts) and of warm ones "
        f"working the page out anew (median of 5, each after {IDLE:g} s idle), each timed as {AT_ONCE} requests at once, the slower; "
        "and one answer just after a round was recorded:")
    for name, seconds in run["cold"].items():
        say(f"  {name:<38} first {seconds * 1000:8.1f} ms   warm {run['warm'][name] * 1000:6.1f} ms")
    for name, millis in run["changed"].items():
        say(f"  {name:<38} after a round {millis:6.1f} ms")


def growth_table(system: str, small: list[Figures], large: list[Figures]) -> None:
    say("")
    say(f"== {system}: growth from the small to the large history (large ÷ small; then each against its floor)")
    say(f"{'endpoint':<34}{'req/s':>8}{'p50':>8}{'p95':>8}   {'slower, against the floor':>26}")
    for s, big in zip(small, large, strict=True):
        vs = f"{growth(s, big):26.2f}" if s.floor and big.floor else ""
        say(f"{base_name(s.name):<34}{big.rps / s.rps:8.2f}{big.p50 / s.p50:8.2f}{big.p95 / s.p95:8.2f}   {vs}")


def sizes_table(sizes: dict, db: Database) -> None:
    say("")
    say(f"== transferred sizes (bytes on the wire, {sizes['encoding']} as a phone accepts it; "
        f"from the {db.title} history)")
    say(f"{'':<16}{'page':>8}{'htmx fragment':>15}{'+ our CSS/JS':>14}{'+ htmx':>10}")
    for label in ("scoreboard", "round screen"):
        s = sizes[label]
        say(f"{label:<16}{s['html']:8,}{s['fragment']:15,}{s['without_htmx']:14,}{s['with_htmx']:10,}")
    say("assets: " + ", ".join(f"{Path(u).name} {n:,}" for u, n in sizes["assets"].items()))


def taps_table(tapped: dict | None) -> None:
    say("")
    if not tapped:
        say("== taps: not counted (no Chromium)")
        return
    say(f"== taps to record a four-player round with three hands of five cards: {tapped['taps']} "
        f"(goal: {tapped['cards']} cards + {tapped['players']} players + 2 = {tapped['goal']})")
    say("   " + ", ".join(f"{k} {v}" for k, v in tapped["breakdown"].items()))
    eight = tapped.get("rounds", {}).get("eight cards")
    if eight:
        say(f"== taps for three hands of eight cards: {eight['taps']} (goal {eight['goal']}); "
            + ", ".join(f"{k} {v}" for k, v in eight["breakdown"].items()))


def lighthouse_table(scored: dict | None) -> None:
    say("")
    if not scored:
        say("== Lighthouse performance: not measured")
        return
    say("== Lighthouse performance (mobile: a slow phone on a slow network, simulated), the large history")
    for name, found in scored.items():
        say(f"{name:<16}{found['score']:4d}   largest contentful paint {found['lcp']}, total blocking time {found['tbt']}")
