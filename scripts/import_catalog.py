"""Regenerate src/ashfall/core/catalog.json from ../shared/rules (catalog.md, editions-and-gaps.md).

usage: python scripts/import_catalog.py [RULES_DIR]
"""

import json
import pathlib
import re
import sys

rules = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/rules")
out: dict[str, dict[str, str]] = {}


def clean(text: str) -> str:
    return re.sub(r"\*\*|`", "", text).strip()


for line in (rules / "catalog.md").read_text().splitlines():
    m = re.match(r"^\| ([A-Z]+-(?:\d+|[A-Z]{3,5})) \| (.*) \| (.*) \| (.*) \|\s*$", line)
    if m:
        out[m.group(1)] = {"text": clean(m.group(2)), "lines": m.group(3).strip(), "status": clean(m.group(4))}
for line in (rules / "editions-and-gaps.md").read_text().splitlines():
    m = re.match(r"^\| ([EGX]-\d+) \| (.*)\|\s*$", line)
    if m:
        cols = [c.strip() for c in m.group(2).split(" | ")]
        rid = m.group(1)
        # X rows: "| X-nn | lines | contradiction | resolution | support |"; G rows of B.1/B.2:
        # "| G-nn | where | problem | default | support |"; G rows of B.3: "| G-nn | question | default | support |";
        # E rows: "| E-nn | topic | 000 says | 001 says | consequence |"
        ruling = ""
        if rid.startswith("X") or (rid.startswith("G") and len(cols) >= 4):
            text, lines, ruling = cols[1], cols[0], cols[2]
        elif rid.startswith("G"):
            text, lines, ruling = cols[0], "", cols[1]
        else:
            text, lines = cols[0], ""
        out[rid] = {"text": clean(text), "lines": clean(lines), "status": "EDITION" if rid[0] == "E" else "RULING"}
        if ruling:
            out[rid]["ruling"] = clean(ruling)
# IDs of our own that no rules text holds: the GM's overrides at the table (an event the GM enters, with a reason)
OURS = {
    "GM": {"text": "The GM's ruling at the table: an override the GM enters (HP, a condition, a position, the order, "
                   "a skipped turn, a morale outcome) with the GM's reason.", "lines": "", "status": "TABLE",
           "ruling": "Overrides are events like any other: explained, undoable and replayed. Saves they call for are "
                     "rolled by the rules; conditions they add expire by the rules."},
}
out.update(OURS)
target = pathlib.Path(__file__).resolve().parents[1] / "src/ashfall/core/catalog.json"
target.write_text(json.dumps(out, indent=0, sort_keys=True, ensure_ascii=False) + "\n")
print(f"{len(out)} rule ids -> {target}")
