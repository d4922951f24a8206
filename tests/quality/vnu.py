"""Run the Nu HTML checker (vnu.jar from the npm package vnu-jar) over files, and read its answer.

Traps this helper closes (each has a unit test in test_vnu_helper.py):

- vnu given an http://127.0.0.1 address answers "Forbidden host" and exits 0: it is only ever
  given files.
- vnu given a file that does not exist prints nothing and exits 0: every file is checked to
  exist first, and ``--verbose`` makes vnu name each file it read (on stderr), so a file that
  was not checked is a failure.
- Its exit code alone is not trusted, nor its output alone: both are read, and either one
  saying "error" fails the check; output that is not vnu's JSON fails it too.

htmx's ``hx-*`` attributes are not HTML, and vnu reports each of them. The templates keep the
plain ``hx-*`` form (as htmx's documentation writes it); ``HX_FILTER`` drops exactly the message
"Attribute “hx-…” not allowed" and nothing else: any other error on the same element is still
reported (a unit test proves it).
"""

from __future__ import annotations

import html
import json
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from .site import VNU_JAR

HX_FILTER = r".*Attribute “hx-[a-z-]+” not allowed.*"
FAILING_TYPES = {"error", "non-document-error"}


@dataclass
class Report:
    returncode: int
    messages: list[dict] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def check(files: list[Path], timeout: float = 300) -> Report:
    """Check HTML files in one run of vnu (``--errors-only``); ``problems`` says what is wrong."""
    files = [Path(f).resolve() for f in files]
    problems = [f"{f}: no such file, so vnu would skip it" for f in files if not f.is_file()]
    if not files:
        problems.append("no file to check")
    if problems:
        return Report(-1, [], problems)
    # The JVM's first compiler tier only: a run of seconds ends before the top tier's work pays
    # for itself (half the CPU for the same answer, on a machine the whole suite keeps busy). Its
    # code is less inlined and so deeper on the stack: vnu's schema then needs a larger one.
    cmd = ["java", "-XX:TieredStopAtLevel=1", "-Xss16m", "-jar", str(VNU_JAR), "--errors-only", "--verbose", "--format", "json", "--stdout",
           "--filterpattern", HX_FILTER, *map(str, files)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    try:
        messages = json.loads(done.stdout)["messages"]
    except (ValueError, KeyError, TypeError):
        return Report(done.returncode, [], [f"vnu did not answer JSON (exit {done.returncode}): "
                                            f"{done.stdout[:300]!r} {done.stderr[:300]!r}"])
    for m in messages:
        if m.get("type") in FAILING_TYPES or m.get("subType") == "fatal":
            where = m.get("url", "?").removeprefix("file:")
            line = m.get("lastLine", "?")
            extract = (m.get("extract") or "").replace("\n", "⏎")
            problems.append(f"{Path(where).name}:{line}: {m.get('type')}: {m.get('message')}   ⟨{extract}⟩")
    checked = {line.strip() for line in done.stderr.splitlines()}
    problems += [f"{f}: vnu did not check it" for f in files if str(f) not in checked]
    if done.returncode != 0 and not problems:
        problems.append(f"vnu exited {done.returncode} without naming an error: {done.stderr[-500:]!r}")
    return Report(done.returncode, messages, problems)


_TITLE = re.compile(r"\A\s*<title>(.*?)</title>", re.S)


def as_document(fragment: str, name: str, lang: str = "en") -> str:
    """An htmx fragment inside the smallest document it is swapped into: ``<main id="main">``,
    of a page in ``lang``.

    htmx takes a leading ``<title>`` out of a response and sets the page's title from it
    (fragment.html sends one), so the wrapper moves it into ``<head>`` as htmx does.
    """
    title = f"Fragment {html.escape(name)}"
    found = _TITLE.match(fragment)
    if found:
        title, fragment = found.group(1), fragment[found.end():]
    return (f'<!DOCTYPE html>\n<html lang="{html.escape(lang)}"><head><meta charset="utf-8"><title>{title}</title></head>\n'
            f'<body><main id="main">\n{fragment}\n</main></body></html>\n')
