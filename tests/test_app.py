"""The app factory (scorekeeper/app.py)."""

from __future__ import annotations

from conftest import close, make_app


def test_a_fresh_server_loads_the_templates_the_one_before_it_compiled(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    before = make_app(tmp_path)
    assert before.test_client().get("/").status_code == 200
    close(before)
    (kept,) = (tmp_path / "instance" / "compiled-templates").iterdir()  # one folder per Jinja and its extensions
    assert any(kept.iterdir())

    fresh = make_app(tmp_path)

    def compile_again(*args, **kwargs):
        raise AssertionError("a template compiled again")

    monkeypatch.setattr(fresh.jinja_env, "compile", compile_again)
    assert fresh.test_client().get("/").status_code == 200
    close(fresh)

