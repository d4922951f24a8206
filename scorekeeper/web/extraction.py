"""How ``make translations`` finds the app's words (babel.cfg): Babel's own extractors for the
Python and Jinja's for the templates, with every sentence given to ``round_sentence`` (or to
the phone's ``scriptwords.round_words``) found twice: as it is, written for the engine's own words for a round ("Round", "Deal"), and in the
context ``languages.OWN_ROUND``, written for a table's own word, so that no call site can give
one without the other."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from babel.messages.extract import extract_python as python_words
from jinja2.ext import babel_extract as jinja_words

from scorekeeper.web.languages import OWN_ROUND

Found = tuple[int, str, object, list[str]]

#: Where each function that says a sentence about a round has its message among its arguments.
ROUND_SENTENCES = {"round_sentence": 1, "round_words": 0}


def _with_own_round(found: Iterable[Found]) -> Iterator[Found]:
    for lineno, funcname, messages, comments in found:
        yield lineno, funcname, messages, comments
        if funcname not in ROUND_SENTENCES:
            continue
        given = messages if isinstance(messages, tuple) else (messages,)
        at = ROUND_SENTENCES[funcname]
        message = given[at] if len(given) > at else None
        if isinstance(message, str):
            yield lineno, "pgettext", (OWN_ROUND, message), comments


def extract_python(fileobj, keywords, comment_tags, options) -> Iterator[Found]:
    return _with_own_round(python_words(fileobj, keywords, comment_tags, options))


def extract_jinja2(fileobj, keywords, comment_tags, options) -> Iterator[Found]:
    return _with_own_round(jinja_words(fileobj, keywords, comment_tags, options))
