"""What every part of the benchmark shares: where things are, what a phone sends, how the
figures of one measurement are held, and how to fetch a page as a phone does."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

__all__ = ["ARTIFACTS", "BENCH", "PHONE", "ROOT", "SECRET", "Figures", "decoded", "fetch",
           "loudly", "say", "statuses"]

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
ARTIFACTS = ROOT / "test-artifacts"


#: A phone's request headers.
PHONE = {
    "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "Accept-Encoding": "gzip, deflate, br",
    "Accept-Language": "en-GB,en;q=0.9",
    "User-Agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                  "Chrome/126.0 Mobile Safari/537.36",
}
SECRET = "benchmark-secret-key"


def say(text: str = "") -> None:
    print(text, flush=True)


def loudly(text: str) -> None:
    """A warning nobody scrolling past the figures can miss."""
    say("!" * 100)
    say(f"!! {text}")
    say("!" * 100)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def fetch(url: str, headers: dict[str, str] | None = None, data: bytes | None = None
          ) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers or {}, data=data, method="POST" if data else "GET")
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def decoded(body: bytes, headers: dict[str, str]) -> str:
    encoding = headers.get("Content-Encoding", "")
    if encoding == "br":
        import brotli

        body = brotli.decompress(body)
    elif encoding == "gzip":
        import gzip

        body = gzip.decompress(body)
    return body.decode("utf-8")


@dataclass
class Figures:
    name: str
    rps: float
    p50: float
    p95: float
    p99: float
    requests: int
    errors: int
    kind: str = "floor"  # floor, write floor, page, poll, file, api
    note: str = ""
    #: The floor measured in turns with this endpoint (each endpoint is compared with its own:
    #: the machine's speed drifts over minutes, more on a shared machine).
    floor: Figures | None = None


def statuses(log: Path, since: int, pattern: str) -> dict[str, int]:
    """How the server answered the requests matching ``pattern`` in its access log, from byte
    ``since`` on: {status: count}."""
    counts: dict[str, int] = {}
    with open(log, "rb") as f:
        f.seek(since)
        for line in f.read().decode(errors="replace").splitlines():
            found = re.search(r'"(\w+ \S+)" (\d{3}) ', line)
            if found and re.fullmatch(pattern, found.group(1)):
                counts[found.group(2)] = counts.get(found.group(2), 0) + 1
    return counts
