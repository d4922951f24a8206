"""The API's description is made from its routes: every route under /api, method by method, is
an operation of /api/openapi.json and every operation is a route; and the document is valid
OpenAPI 3.0, every reference in it found."""

from __future__ import annotations

from collections.abc import Iterator

import schemathesis
from apispec_webframeworks.flask import FlaskPlugin
from conftest import close, make_app

from scorekeeper.web.openapi import make_document

#: What every route answers without a description of its own.
AUTOMATIC = {"HEAD", "OPTIONS"}
HTTP_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}
#: The one route under /api that is no operation: the description itself.
THE_DESCRIPTION = "/api/openapi.json"


def routes(app) -> set[tuple[str, str]]:
    """Every route under /api but the description's, method by method, with its path written as
    OpenAPI writes it (``/api/games/{game_id}``)."""
    return {(FlaskPlugin.flaskpath2openapi(rule.rule), method.lower())
            for rule in app.url_map.iter_rules()
            if rule.rule.startswith("/api/") and rule.rule != THE_DESCRIPTION
            for method in rule.methods - AUTOMATIC}


def described(doc: dict) -> set[tuple[str, str]]:
    return {(path, method) for path, item in doc["paths"].items() for method in item if method in HTTP_METHODS}


def references(node) -> Iterator[str]:
    if isinstance(node, dict):
        if "$ref" in node:
            yield node["$ref"]
        for value in node.values():
            yield from references(value)
    elif isinstance(node, list):
        for value in node:
            yield from references(value)


def test_every_api_route_is_described_and_every_operation_is_a_route(app, client):
    doc = client.get(THE_DESCRIPTION).get_json()
    assert described(doc) == routes(app)
    assert len(described(doc)) == 16


def test_a_route_without_a_description_and_a_description_without_a_route_are_both_seen(tmp_path):
    app = make_app(tmp_path)

    def undescribed():
        """A view whose docstring says nothing for the document."""

    def described_for_another_method():
        """Routed for GET, described for POST.

        ---
        post:
          operationId: nowhere
          responses: {200: {description: never}}
        """

    app.add_url_rule("/api/undescribed", "api.undescribed", undescribed)
    app.add_url_rule("/api/elsewhere", "api.elsewhere", described_for_another_method, methods=["GET"])
    try:
        doc = make_document(app)
    finally:
        close(app)
    assert routes(app) - described(doc) == {("/api/undescribed", "get"), ("/api/elsewhere", "get")}
    assert described(doc) - routes(app) == {("/api/elsewhere", "post")}


def test_the_document_is_valid_openapi_and_every_reference_is_found(client):
    doc = client.get(THE_DESCRIPTION).get_json()
    schema = schemathesis.openapi.from_dict(doc)
    schema.validate()  # against the OpenAPI 3.0 schema: raises on the first fault
    assert [operation.ok().label for operation in schema.get_all_operations()]
    for reference in set(references(doc)):
        found = doc
        for part in reference.removeprefix("#/").split("/"):
            assert isinstance(found, dict) and part in found, f"{reference} names nothing"
            found = found[part]
