"""The ```python examples in docs/architecture.md run, in order, in one namespace."""

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"


def test_architecture_doc__python_examples_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 2
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), namespace)
    assert namespace["damage_seen"], "the toy family's after-damage hook ran"
