"""Scorekeeper: keep score for contract rummy at a real card table.

The package itself imports nothing heavy, so that ``import scorekeeper.rules``
stays free of Flask and SQLAlchemy; the app factory lives in :mod:`scorekeeper.app`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Make the Flask app (see :func:`scorekeeper.app.create_app`)."""
    from scorekeeper.app import create_app as factory

    return factory(test_config)
