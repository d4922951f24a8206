"""The vnu helper can fail: a broken file, a skipped file, an exit code or an output that says error."""

from __future__ import annotations

import subprocess

from . import vnu

GOOD = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Good</title></head>
<body><main id="main"><h1>Fine</h1><p>Nothing wrong here.</p></main></body></html>
"""
BROKEN = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"></head>
<body><span><div>block in inline</div></span><p id="x">a</p><p id="x">b</p></body></html>
"""
HX_ONLY = GOOD.replace("<h1>", '<h1 hx-get="/games/1/live" hx-trigger="every 2s" hx-swap="outerHTML">')
HX_AND_A_REAL_ERROR = GOOD.replace("<h1>Fine</h1>", '<h1 hx-get="/x" id="a">Fine</h1><p id="a" hx-target="#main">again</p>')
FRAGMENT = '<title>Round 3 · Scorekeeper</title>\n<div class="flashes" role="status"><p>Saved.</p></div>\n<h1>Round 3</h1>\n'
BAD_FRAGMENT = "<title>Oops · Scorekeeper</title>\n<table><tr><td>a</td></tr><p>stray</p></table>\n"


def test_vnu_reports_what_is_wrong_and_only_that(tmp_path):
    files = {}
    for name, text in {"good": GOOD, "broken": BROKEN, "hx-only": HX_ONLY, "hx-and-error": HX_AND_A_REAL_ERROR,
                       "fragment": vnu.as_document(FRAGMENT, "f"),
                       "bad-fragment": vnu.as_document(BAD_FRAGMENT, "b")}.items():
        files[name] = tmp_path / f"{name}.html"
        files[name].write_text(text, encoding="utf-8")
    report = vnu.check(list(files.values()))
    assert report.returncode == 1
    assert not report.ok

    def problems_of(name):
        return [p for p in report.problems if p.startswith(f"{name}.html:")]

    assert problems_of("good") == []
    assert problems_of("hx-only") == [], "the hx-* filter must hide htmx's attributes"
    assert problems_of("fragment") == [], "a fragment's <title> goes to the wrapper's <head>"
    broken = " ".join(problems_of("broken"))
    assert "“div” not allowed as child of element “span”" in broken
    assert "Duplicate ID “x”" in broken
    assert "“title”" in broken  # the head has none
    real = problems_of("hx-and-error")
    assert real and all("Attribute “hx-" not in p for p in real), "only the hx-* message may be filtered"
    assert any("Duplicate ID “a”" in p for p in real)
    assert problems_of("bad-fragment")


def test_a_file_vnu_cannot_read_is_a_failure_not_a_pass(tmp_path):
    # vnu itself prints nothing and exits 0 for a missing file.
    report = vnu.check([tmp_path / "missing.html"])
    assert not report.ok
    assert "no such file" in report.problems[0]
    assert not vnu.check([]).ok


def fake_run(returncode: int, stdout: str, stderr: str):
    def run(cmd, **kwargs):
        return subprocess.CompletedProcess(cmd, returncode, stdout, stderr)
    return run


def test_the_exit_code_and_the_output_are_both_read(tmp_path, monkeypatch):
    page = tmp_path / "page.html"
    page.write_text(GOOD)
    name = str(page.resolve())
    empty = '{"version": "x", "messages": []}'
    error = '{"version": "x", "messages": [{"type": "error", "url": "file:%s", "lastLine": 3, "message": "Bad"}]}' % name

    monkeypatch.setattr(subprocess, "run", fake_run(0, empty, name + "\n"))
    assert vnu.check([page]).ok
    # A non-zero exit with no message is still a failure...
    monkeypatch.setattr(subprocess, "run", fake_run(1, empty, name + "\n"))
    assert "exited 1" in vnu.check([page]).problems[0]
    # ...and so is an error in the output with exit code 0 (as "Forbidden host" is).
    monkeypatch.setattr(subprocess, "run", fake_run(0, error, name + "\n"))
    assert "page.html:3: error: Bad" in vnu.check([page]).problems[0]
    # A file vnu did not name as checked, or an answer that is not its JSON.
    monkeypatch.setattr(subprocess, "run", fake_run(0, empty, ""))
    assert "did not check it" in vnu.check([page]).problems[0]
    monkeypatch.setattr(subprocess, "run", fake_run(0, "Forbidden host", ""))
    assert "did not answer JSON" in vnu.check([page]).problems[0]
