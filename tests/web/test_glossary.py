"""Every catalogue held to its glossary (docs/glossary.md): one word for one thing, the table's
own word, no synonym; and no word with a gender, number or case of its own framing the blank a
rule set's word for a stage goes into."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "scorekeeper" / "web" / "translations"
GLOSSARY = ROOT / "docs" / "glossary.md"
SHIPPED = ["de", "es", "fr", "fi"]


def glossary() -> dict[str, list[tuple[str, str, list[str]]]]:
    """Each language's rows: (English, Word, Never)."""
    return {language: [row[:3] for row in rows] for language, rows in glossary_rows().items()}


def only_where() -> dict[str, list[tuple[str, list[str]]]]:
    """Each language's words of two meanings at some tables: (Word, the English words it may
    stand for)."""
    return {language: [(row[1], row[3]) for row in rows if row[3]] for language, rows in glossary_rows().items()}


def glossary_rows() -> dict[str, list[tuple[str, str, list[str], list[str]]]]:
    """Each language's rows: (English, Word, Never, Only where the English says)."""
    tables: dict[str, list[tuple[str, str, list[str], list[str]]]] = {}
    language = None
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"## .* \((\w\w)\)$", line)
        if heading:
            language = heading.group(1)
            tables[language] = []
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if language and line.startswith("|") and len(cells) in (3, 4) and cells[0] not in ("English", "---"):
            never, only = ([word.strip() for word in cell.split(";") if word.strip()] for cell in (cells[2:] + [""])[:2])
            tables[language].append((cells[0], cells[1], never, only))
    return tables


def translations(language: str) -> list[tuple[object, str]]:
    """Each message of the catalogue with each of its translations (every plural form)."""
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as po:
        catalogue = read_po(po)
    return [(message.id, said) for message in catalogue if message.id
            for said in (message.string if isinstance(message.string, tuple) else (message.string,))]


def words_of(text: str) -> str:
    """A translation without its blanks and markup: what a reader reads of it."""
    return re.sub(r"%\(\w+\)[sd]|\{\w+\}|<[^>]*>", " ", text)


def test_the_glossary_has_a_table_for_every_language_shipped():
    assert sorted(glossary()) == sorted(SHIPPED)
    assert all(len(rows) >= 8 for rows in glossary().values())


@pytest.mark.parametrize("language", SHIPPED)
def test_a_glossary_word_is_the_translation_of_its_own_message(language):
    said = {message: text for message, text in translations(language) if isinstance(message, str)}
    wrong = [(english, word, said[english]) for english, word, _ in glossary()[language]
             if english in said and said[english] != word]
    assert wrong == []


@pytest.mark.parametrize("language", SHIPPED)
def test_no_translation_uses_a_word_the_glossary_rules_out(language):
    rows = glossary()[language]
    found = [(never, message, text) for message, text in translations(language)
             for _, _, nevers in rows for never in nevers
             if re.search(rf"(?<!\w){re.escape(never)}(?!\w)", words_of(text), re.IGNORECASE)]
    assert found == []


@pytest.mark.parametrize("language", SHIPPED)
def test_a_word_of_two_meanings_is_said_only_for_the_one_the_glossary_gives_it(language):
    # Spanish "mano" is the deal; what a player holds is "las cartas", never "la mano de Ann"
    # on the screen that also says "Mano 3".
    found = [(word, message, text) for word, english in only_where()[language]
             for message, text in translations(language)
             if re.search(rf"(?<!\w){re.escape(word)}s?(?!\w)", words_of(text), re.IGNORECASE)
             and not any(re.search(rf"(?<!\w){re.escape(said)}s?(?!\w)", part, re.IGNORECASE)
                         for said in english for part in (message if isinstance(message, tuple) else (message,)))]
    assert found == []


STAGE = r"(?:%\((?:stage|stages)\)s|\{stage\})"
ROUND = r"%\((?:round|same)\)s"
#: Words that agree with the noun they stand by, right before (or, for a participle, right
#: after) a blank a stage's word goes into. In German a round's word too: "Runde" and
#: "Durchgang" differ in gender; in Spanish and French both of the engine's round words are
#: feminine ("ronda", "mano"; "manche", "donne").
FRAMES = {
    "de": [rf"\b(?:der|die|das|den|dem|des|ein|eine|einer|einen|einem|eines|kein|keine|keinen|keiner|jede|jeder|"
           rf"jeden|jedes|diese|dieser|diesen|dieses|dieselbe|denselben|derselben|gespeicherte|gespeicherten|"
           rf"nächste|letzte)\s+(?:{STAGE}|{ROUND})",
           rf"(?:{STAGE}|{ROUND})\s+%\(number\)s\s+ist\s+die\s+letzte"],
    "es": [rf"\b(?:el|la|los|las|un|una|ningún|ninguna|ninguno|este|esta|ese|esa|mismo|misma|al|del|otro|otra)\s+{STAGE}",
           rf"{STAGE}\s+\w+(?:ado|ada|ados|adas|ido|ida|idos|idas)\b"],
    "fr": [rf"\b(?:au|aux|du|le|la|les|un|une|aucun|aucune|ce|cet|cette|même)\s+{STAGE}", rf"\b[ld]’{STAGE}",
           rf"{STAGE}\s+\w+(?:é|és|ée|ées)\b"],
    "fi": [rf"\b(?:vaiheen|tason|jaon|kierroksen|vaihetta|tasoa|vaihe|taso|kohdan)\s+\(?{STAGE}"],
}


@pytest.mark.parametrize("language", SHIPPED)
def test_nothing_around_a_stage_words_blank_has_to_agree_with_it(language):
    framed = [(found.group(0), text) for _, text in translations(language) for frame in FRAMES[language]
              for found in [re.search(frame, text, re.IGNORECASE)] if found]
    assert framed == []
