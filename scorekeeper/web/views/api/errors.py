"""The API's refusal: a status and a JSON body naming the field, round, player and card at fault.

Its own module because the API and the ratings' JSON both raise it.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.rules import Problem


class ApiError(Exception):
    def __init__(self, status: int, message: str, field: str | None = None, extra: dict | None = None,
                 problem: Problem | None = None, headers: dict[str, str] | None = None) -> None:
        self.status = status
        self.headers = headers or {}
        self.body: dict[str, Any] = {"message": message}
        if field:
            self.body["field"] = field
        if problem is not None:
            for attr in ("field", "round", "player", "card"):
                value = getattr(problem, attr)
                if value is not None:
                    self.body[attr] = value
        self.extra = extra or {}
        super().__init__(message)
