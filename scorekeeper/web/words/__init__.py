"""The reader's language: choosing it and formatting numbers and dates (``i18n``), the names
of things (``names``: ranks, cards, rulesets, score items), every problem code and referee
reason as a sentence (``messages``, ``reasons``) and every ruleset parameter in words
(``parameters``). Shared by every area; no routes."""
