"""Loader benchmark: reading a large content file with line marks, against plain ``yaml.safe_load`` of the same text.

Generates a content file of ``--creatures`` stat blocks (20,000 by default, about 4 MB, under the 5 MB cap:
the count the issue that asked for fast loading measured), then times, in the same run and on the same text:

- ``parse_yaml``: the loader every input goes through (data plus the line of every field, within limits);
- ``yaml.safe_load``: PyYAML's pure-Python loader, which records no lines;
- ``library_from_text``: the whole content pipeline (parse, schema validation, references).

and prints each time with the ratio ``parse_yaml / safe_load``. Not a test: run it by hand::

    .venv/bin/python bench/bench_loader.py [--creatures 20000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import yaml

from ashfall.content.loader import library_from_text
from ashfall.files.yaml_marks import parse_yaml


def content_text(creatures: int) -> str:
    """A valid content file of ``creatures`` stat blocks using the shipped library's gear."""
    blocks = ["creatures:"]
    for i in range(creatures):
        blocks.append(
            f"  - {{id: bench-{i}, name: Bench {i}, level: {1 + i % 10}, hp: {5 + i % 40}, armor: scrap-leathers,\n"
            "     weapons: [combat-knife, crossbow], attributes: {MIG: 1, AGI: 2, WIS: 1}, talents: [sentinel],\n"
            "     morale: {will: 2, type: bandit}}"
        )
    return "\n".join(blocks) + "\n"


def best_of(repeat: int, work: Callable[[], Any]) -> float:
    """The fastest of ``repeat`` runs, in seconds (the least disturbed by other processes)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def measure(creatures: int, repeat: int = 1, validate: bool = True) -> dict[str, float]:
    """Seconds for each loader on one generated file, the ratio, and the number of values read."""
    text = content_text(creatures)
    marked = parse_yaml(text, "bench.yaml")
    result = {
        "bytes": float(len(text.encode())),
        "values": float(len(marked.lines)),
        "parse_yaml": best_of(repeat, lambda: parse_yaml(text, "bench.yaml")),
        "safe_load": best_of(repeat, lambda: yaml.safe_load(text)),
    }
    result["ratio"] = result["parse_yaml"] / result["safe_load"]
    if validate:
        result["library_from_text"] = best_of(1, lambda: library_from_text(text, "bench.yaml"))
    return result


def main() -> None:
    """Parse the options and print the times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--creatures", type=int, default=20_000, help="stat blocks in the file (default 20,000)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per loader; the fastest counts (default 1)")
    args = parser.parse_args()
    r = measure(args.creatures, args.repeat)
    print(f"{args.creatures} creatures, {r['bytes'] / 1e6:.1f} MB, {r['values']:,.0f} values with a line")
    print(f"parse_yaml (data + lines):    {r['parse_yaml']:7.2f} s")
    print(f"yaml.safe_load (data only):   {r['safe_load']:7.2f} s")
    print(f"ratio parse_yaml / safe_load: {r['ratio']:7.2f}")
    print(f"library_from_text (validate): {r['library_from_text']:7.2f} s")


if __name__ == "__main__":
    main()
