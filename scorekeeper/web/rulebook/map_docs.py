"""``docs/rules.md``, made from the rule map (``scripts/rule_map_docs.py`` writes it; a test holds
it current). English, as the rest of docs/."""

from __future__ import annotations

from flask import Flask

from .rule_map import Paragraph, rule_map
from .search import MAX_QUERY
from .table_rules import ITEMS

HEAD = """\
# The rule map and disputes asked in words

*Made from `scorekeeper/web/rulebook/rule_map.json` by `python scripts/rule_map_docs.py`;
do not edit by hand (`tests/web/rulebook/test_rule_map_docs.py` fails when it is stale).*

## How it works

- **The sources** are the four seed files (`shared/seeds/*.txt` beside the repository), one
  paragraph a line, lines counted from 1: {seeds}.
- **The map** (`rule_map.json`) has one entry for every line that is not empty. An entry either
  names the *topics* (rules) the paragraph states, or says why it states none (a heading,
  prose, playing advice, scraped text, …). A topic says where the rule lives: the engine
  function and the test that checks it, the referee questions that decide it (the first one
  the app answers is used; `{pending}` are named ahead of being built and are used as soon as
  their routes exist), and the anchor of the rules page that explains it. Each topic has a
  short summary in English, German and Polish.
- **The checks** (`tests/web/rulebook/test_rule_map.py`): every non-empty seed line has exactly
  one entry with the seed's own words; every engine function imports; every test exists;
  every referee question is answered by the app (or named as being built); every rules-page
  anchor is on the page of its ruleset.
- **The pages**: each ruleset's rules page lists, collapsed, where each paragraph of its source
  lives, with the table procedures the app does not compute (section "At the table") and the
  readings settled where a source leaves a point open ("Open points settled"); `/rules/map`
  shows the whole map.
- **A dispute asked in words**: the referee page, each rules page and `/rules/search` take a
  question typed in German, Polish or English and answer with the rule paragraphs that settle
  it, best first, each with a button that opens the referee question deciding it. SQLite's
  FTS5 with the trigram tokenizer (the standard library's `sqlite3`, an in-memory index built
  at first use) indexes each rule paragraph with its summaries in the three languages; a
  question's words are folded (case, accents, "ł") and cut to stems (the last two letters
  dropped, 4 to 6 letters kept), OR-ed and ranked by BM25, the reader's language weighing most;
  a paragraph that holds the question's words in a row (a phrase query) counts more. A page
  names each rule once (its best paragraph, the others beside it), at most six. The index takes
  about 0.14 s to build and a question a few milliseconds on the development machine. Without
  the trigram tokenizer (SQLite before 3.34) words match by their beginnings.

## API

`GET /api/v1/rules/search?q=…&lang=de|pl|en` → `{{"results": [{{"seed": "000_….txt", "line": N,
"text": "…", "referee": kind | null, "ruleset": id, "summary": "…"}}, …]}}`, best first, at most
10. `referee` is the referee question (the path after `/api/v1/referee/`) that decides the
paragraph; `summary` is in `lang`. `lang` defaults to the reader's language. An empty `q`
(400 `request.missing`), a `q` over {max_query} characters (400 `request.text_too_long`) or an
unknown `lang` (400 `request.value`) is refused with a translated problem. Rate-limited as every
request (`LIMIT_ANY`).

## Open points settled

Where a source leaves a point open, the rules page states this reading (item anchors in
brackets; the rulesets whose page shows it):
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _where(p: Paragraph) -> str:
    parts = []
    for topic in p.topics:
        if topic.engine:
            parts.append(f"`{topic.engine}` · `{topic.test}`")
    kinds = p.referee
    if kinds:
        parts.append("referee: " + ", ".join(f"`{k}`" for k in kinds))
    assert p.topic is not None
    parts.append(f"[/rules/{p.ruleset}#{p.topic.anchor}](/rules/{p.ruleset}#{p.topic.anchor})")
    return "<br>".join(_cell(x) for x in dict.fromkeys(parts))


def render(app: Flask) -> str:
    """The whole of docs/rules.md (English texts need the app: they are its translatable
    strings)."""
    rules = rule_map()
    seeds = ", ".join(f"`{name}` ({seed['ruleset']})" for name, seed in rules.seeds.items())
    out = [
        HEAD.format(
            seeds=seeds,
            pending=", ".join(f"`{k}`" for k in sorted(rules.pending_referee)),
            max_query=MAX_QUERY,
        )
    ]
    with app.test_request_context("/?lang=en"):
        for item in ITEMS:
            if not item.anchor.startswith("settled-"):
                continue
            for rid in sorted(item.rulesets):
                out.append(f"- **{rid}** (`{item.anchor}`): {item.text(rid)}\n")
    out.append("\n## The map, source by source\n")
    for name in rules.seeds:
        paragraphs = [p for p in rules.paragraphs if p.seed == name]
        stated = [p for p in paragraphs if p.topic is not None]
        out.append(f"\n### {name}\n\n{len(stated)} of {len(paragraphs)} paragraphs state rules.\n")
        out.append("\n| Line | Rule | Where it lives |\n|---:|---|---|\n")
        for p in stated:
            summary = " ".join(t.summary["en"] for t in p.topics)
            out.append(f"| {p.line} | {_cell(summary)} | {_where(p)} |\n")
        others: dict[str, list[str]] = {}
        for p in paragraphs:
            if p.none:
                others.setdefault(p.none.split(":", 1)[0], []).append(str(p.line))
        if others:
            out.append("\nNo rule: ")
            out.append(
                "; ".join(f"{kind} (lines {', '.join(lines)})" for kind, lines in others.items())
            )
            out.append(".\n")
    return "".join(out)
