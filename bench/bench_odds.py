"""Odds benchmark: a 3-Strike turn's odds, exact (Fractions) against float (numpy), timed in the same run.

The turn is ``ashfall odds turn --bonus 7 --dv 15 --damage 1d10+3 --hp 20``: three Strikes at 0/-3/-6. Both paths
count the same outcomes with the same rule functions; the float one divides and convolves in floats. Prints the
best-of-``--repeat`` time per turn of each and their ratio. Not a test: run it by hand::

    .venv/bin/python bench/bench_odds.py [--repeat 7] [--number 50]
"""

from __future__ import annotations

import argparse
import timeit

from ashfall.odds import AttackSpec, strikes, turn_odds
from ashfall.odds.fast import turn_odds_float

TURN = strikes(AttackSpec(bonus=7, dv=15, damage="1d10+3"), 3)
HP = 20


def measure(repeat: int = 7, number: int = 20) -> tuple[float, float]:
    """Best-of-``repeat`` milliseconds per turn, exact then float (caches warm: one call of each first)."""
    turn_odds(TURN, HP)
    turn_odds_float(TURN, HP)
    exact = min(timeit.repeat(lambda: turn_odds(TURN, HP), repeat=repeat, number=number)) / number
    fast = min(timeit.repeat(lambda: turn_odds_float(TURN, HP), repeat=repeat, number=number * 10)) / (number * 10)
    return exact * 1e3, fast * 1e3


def main() -> None:
    """Print both timings and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--number", type=int, default=20)
    args = parser.parse_args()
    exact_ms, float_ms = measure(args.repeat, args.number)
    print(f"3-Strike turn odds: exact {exact_ms:.3f} ms, float {float_ms:.3f} ms, "
          f"float is {exact_ms / float_ms:.1f}x faster")


if __name__ == "__main__":
    main()
