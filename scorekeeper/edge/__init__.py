"""The edge: where every request of the JSON API is read into typed values and every answer is
described (docs/api.md §3).

- :mod:`.spec`: a field's bounds and words (``Spec``) and JSON Schema 2020-12 from the types
- :mod:`.requests`: every request body as a dataclass; :mod:`.responses`: every answer
- :mod:`.openapi`: the OpenAPI 3.1 description made from them (``GET /api/v1/openapi.json``)

Pure Python, no Flask: the phone's engine (docs/engine.md) loads the edge with the rules.
"""
