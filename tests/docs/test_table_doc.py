"""The ```python examples in docs/table.md run, in order, in one namespace, against a real ``ashfall serve``."""

import re
from pathlib import Path

from ashfall.encounters import encounters_root
from ashfall.web.local import free_port
from ashfall.web.local import start_server as start

DOC = Path(__file__).resolve().parents[2] / "docs" / "table.md"


def test_table_doc__python_examples_run_against_a_served_table(tmp_path: Path) -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 8
    port = free_port()
    server = start(tmp_path / "tables.db", port)
    try:
        namespace: dict[str, object] = {"BASE": f"http://127.0.0.1:{port}", "ENCOUNTERS": str(encounters_root())}
        for block in blocks:
            exec(compile(block, str(DOC), "exec"), namespace)
    finally:
        server.kill()
        server.wait()
    assert namespace["view"]["ended"]  # type: ignore[index]
