"""The engine's answers in words, in pure Python: what the server's JSON API and the phone's
engine (Pyodide in a Web Worker, docs/engine.md) both run.

- :mod:`.questions`: every stateless question of the API (the score, the referee's) answered
  from the request's JSON text, with the HTTP status and the JSON body;
- :mod:`.bodies`, :mod:`.messages`, :mod:`.reasons`, :mod:`.disputes`, :mod:`.names`: the
  answers' bodies and their words;
- :mod:`.words`: the project's catalogues, read by the standard library.

The package imports none of its modules: the server's pages take the words of
:mod:`.words` without loading the engine's answers, which a start does not need before its
first page.
"""
