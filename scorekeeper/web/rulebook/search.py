"""A dispute asked in words: the rule paragraphs that answer a typed question, best first.

The index is SQLite's full-text search FTS5 with its trigram tokenizer (the standard library's
``sqlite3``; an in-memory database built from the rule map at first use, then shared). Each
rule paragraph is one row: its own words and its topic's summary in English, German and
Polish. Trigrams match inside words, so a German compound ("Abwurfstapel") is found by
"Stapel" and a Polish word by its stem whatever its ending ("kanasty", "kanastę").

A question is folded as the index is (lower case, accents and "ł" dropped) and each of its
words is cut to a stem (its last two letters dropped, four to six letters kept); the
stems are OR-ed in one FTS5 query ranked by BM25, the summary of the reader's language
weighing most; a paragraph that holds the question's words in a row (a phrase query) counts
more. Words under three letters carry no trigram and are skipped.
"""

from __future__ import annotations

import re
import sqlite3
import threading
import unicodedata
from dataclasses import dataclass

from .rule_map import Paragraph, RuleMap, rule_map

#: the longest question read (characters); longer is refused (400)
MAX_QUERY = 200
#: results answered at most
MAX_RESULTS = 10
#: how much more a paragraph counts that holds the question's words in a row
PHRASE_BOOST = 1.6
#: paragraphs a page reads to show its answers (it names each rule once, so it reads more)
PAGE_FOUND = 24
LANGS = ("en", "de", "pl")
#: a word's stem drops its last two letters (endings: "kanasty", "zählt"), keeping 4 to 6
STEM_MIN = 4
STEM_MAX = 6
#: words of a question that say nothing about a rule (folded); the rest is searched
_STOP_TEXT = (
    "the and can may with when what who how does did are not have has for you your that this "
    "there then than from into onto our its they them will would should could one any many "
    "much happens happen about some",
    "der die das den dem des ein eine einen einem einer ist sind wenn darf dürfen kann ich wir "
    "mit auf und oder man nicht noch wie was wer wo mein meine unser unsere darauf drauf dann",
    "czy mogę można jest się jak gdy kiedy mam mamy nie który która jeśli albo przy",
)
_WORD = re.compile(r"\w+", re.UNICODE)


def fold(text: str) -> str:
    """``text`` as the index holds it: lower case, without accents ("ł" as "l")."""
    text = text.replace("ł", "l").replace("Ł", "L").replace("ß", "ss")
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


#: words of a question that say nothing about a rule (folded); the rest is searched
STOP_WORDS = frozenset(fold(word) for text in _STOP_TEXT for word in text.split())


def query_terms(question: str) -> list[str]:
    """The stems of a question's words that are searched (each quoted for FTS5)."""
    terms: list[str] = []
    for word in _WORD.findall(fold(question)):
        if len(word) < 3 or word in STOP_WORDS:
            continue
        stem = (
            word if len(word) <= STEM_MIN else word[: max(STEM_MIN, min(STEM_MAX, len(word) - 2))]
        )
        if stem not in terms:
            terms.append(stem)
    return terms


class TrigramUnavailable(RuntimeError):
    """This Python's SQLite has no FTS5: nothing can be searched."""


@dataclass(frozen=True)
class Hit:
    """A rule paragraph a search found, and its rank."""

    paragraph: Paragraph
    rank: float


class RuleIndex:
    """The in-memory FTS5 index of the rule paragraphs of one rule map."""

    def __init__(self, rules: RuleMap) -> None:
        self.paragraphs = rules.rules()
        self._lock = threading.Lock()
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        #: trigrams match inside words; without them (an SQLite before 3.34) words match
        #: by their beginning (FTS5's default tokenizer and prefix queries)
        self.trigram = True
        try:
            self._db.execute(
                "CREATE VIRTUAL TABLE rule USING fts5(text, en, de, pl, tokenize='trigram')"
            )
        except sqlite3.OperationalError:
            self.trigram = False
            try:
                self._db.execute("CREATE VIRTUAL TABLE rule USING fts5(text, en, de, pl)")
            except sqlite3.OperationalError as error:
                raise TrigramUnavailable(str(error)) from error
        rows = []
        for rowid, p in enumerate(self.paragraphs):
            summaries = (" ".join(t.summary_in(lang) for t in p.topics) for lang in LANGS)
            rows.append((rowid, fold(p.text), *(fold(text) for text in summaries)))
        with self._db:
            self._db.executemany(
                "INSERT INTO rule(rowid, text, en, de, pl) VALUES (?,?,?,?,?)", rows
            )

    def search(self, question: str, lang: str, limit: int = MAX_RESULTS) -> list[Hit]:
        terms = query_terms(question)
        if not terms:
            return []
        star = "" if self.trigram else "*"
        match = " OR ".join('"' + term.replace('"', '""') + '"' + star for term in terms)
        # BM25 weights of the columns text, en, de, pl: the reader's language weighs most.
        weights = [1.0] + [2.0 if col == lang else 0.6 for col in LANGS]
        with self._lock:
            found = self._db.execute(
                "SELECT rowid, bm25(rule, ?, ?, ?, ?) AS r FROM rule WHERE rule MATCH ? "
                "ORDER BY r LIMIT 200",
                (*weights, match),
            ).fetchall()
            # a paragraph that holds the question's words as they were typed, in a row
            # ("Darf ich ausmachen?"), is the one asked about
            phrase = " ".join(_WORD.findall(fold(question)))
            whole = set()
            if self.trigram and " " in phrase and len(phrase) <= MAX_QUERY:
                whole = {
                    rowid
                    for (rowid,) in self._db.execute(
                        "SELECT rowid FROM rule WHERE rule MATCH ?",
                        ('"' + phrase.replace('"', '""') + '"',),
                    )
                }
        hits: list[Hit] = []
        for rowid, rank in found:
            p = self.paragraphs[rowid]
            # a paragraph in the reader's own language is the one to quote first
            factor = (1.25 if p.lang == lang else 1.0) * (PHRASE_BOOST if rowid in whole else 1.0)
            hits.append(Hit(p, rank * factor))
        hits.sort(key=lambda hit: (hit.rank, hit.paragraph.seed, hit.paragraph.line))
        return hits[:limit]


_index: RuleIndex | None = None
_index_lock = threading.Lock()


def rule_index() -> RuleIndex:
    """The index of the shipped rule map, built at first use."""
    global _index
    if _index is None:
        with _index_lock:
            if _index is None:
                _index = RuleIndex(rule_map())
    return _index


def search_rules(question: str, lang: str, limit: int = MAX_RESULTS) -> list[Paragraph]:
    """The rule paragraphs that answer ``question``, best first (none when this Python's
    SQLite cannot search: the pages then say nothing was found, and never fail)."""
    try:
        index = rule_index()
    except TrigramUnavailable:
        return []
    return [hit.paragraph for hit in index.search(question, lang, limit)]


# ---- a question read from a request ---------------------------------------------------------


@dataclass(frozen=True)
class Asked:
    """A question read from a request: its text, or the problem that refuses it."""

    question: str
    problem: tuple[str, dict[str, int]] | None = None


def read_question(raw: str | None) -> Asked:
    """The question of ``?q=``: trimmed; empty or longer than :data:`MAX_QUERY` refused."""
    question = " ".join((raw or "").split())
    if not question:
        return Asked("", ("request.missing", {}))
    if len(question) > MAX_QUERY:
        return Asked(question[:MAX_QUERY], ("request.text_too_long", {"maximum": MAX_QUERY}))
    return Asked(question)
