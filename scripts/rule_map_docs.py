"""Write docs/rules.md from the rule map (scorekeeper/web/rulebook/rule_map.json).

python scripts/rule_map_docs.py          # write it
python scripts/rule_map_docs.py --check  # exit 1 when it is not current
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from scorekeeper import create_app
from scorekeeper.web.rulebook.map_docs import render

DOCS = Path(__file__).resolve().parents[1] / "docs" / "rules.md"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that it is current")
    args = parser.parse_args()
    app = create_app({"TESTING": True, "SECRET_KEY": "docs", "DATABASE_URL": "sqlite://"})
    text = render(app)
    if args.check:
        current = DOCS.read_text(encoding="utf-8") if DOCS.exists() else ""
        if current != text:
            print(f"{DOCS} is not current: run python scripts/rule_map_docs.py", file=sys.stderr)
            return 1
        return 0
    DOCS.parent.mkdir(exist_ok=True)
    DOCS.write_text(text, encoding="utf-8")
    print(f"wrote {DOCS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
