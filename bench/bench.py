"""Simulator benchmark: fights and attack resolutions per second on the skirmish encounter.

Runs ``encounters/skirmish.yaml`` under its own (full) ruleset with its own tactics (``ai`` gets the
default policy, the tactical AI), first in this process, then over worker processes. ``--policy scripted``
plays ``ai`` combatants with three Strikes a turn instead, which measures the engine and the runner
without the AI's look-ahead. Not a test: run it by hand::

    .venv/bin/python bench/bench.py --trials 200 [--policy scripted] [--workers 2] [--encounter FILE]

``--encounter`` measures another encounter file the same way (e.g. ``encounters/duel.yaml``).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from ashfall.sim.policy import ScriptedTactics
from ashfall.sim.runner import simulate
from ashfall.sim.setups import EncounterSetup, Fight, FightSetup

SKIRMISH = Path(__file__).resolve().parents[1] / "encounters" / "skirmish.yaml"


class Scripted(EncounterSetup):
    """The encounter with no AI at all: ``ai`` combatants strike three times, plans attack the nearest enemy.

    (In a real run a plan without a ``target`` rule asks the AI whom to attack; this measures the engine alone.)
    """

    def build_fight(self, seed: int) -> Fight:
        """The encounter's fight with scripted policies for every creature, nearest target first."""
        fight = super().build_fight(seed)
        tactics = self.loaded.spec.roster
        plans = {e.id: e.tactics for e in tactics}
        fight.policies = {cid: ScriptedTactics(plans[cid].plan) if plans[cid].plan else ScriptedTactics()
                          for cid in fight.policies}
        return fight


def measure(trials: int, workers: int, seed: int, policy: str,
            encounter: Path = SKIRMISH) -> tuple[float, float, float]:
    """Seconds, fights per second and attack resolutions per second for one sweep."""
    setup: FightSetup = Scripted(encounter) if policy == "scripted" else EncounterSetup(encounter)
    setup.build_fight(0)  # load the file and content outside the timing
    start = time.perf_counter()
    report = simulate(setup, trials, seed, workers=workers)
    elapsed = time.perf_counter() - start
    return elapsed, trials / elapsed, report.attacks / elapsed


def main() -> None:
    """Parse the options and print one line per configuration."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=200, help="fights per configuration (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2, help="worker processes for the second run (default 2)")
    parser.add_argument("--policy", choices=("default", "scripted"), default="default",
                        help="who plays `tactics: ai` creatures (default: the default policy)")
    parser.add_argument("--encounter", type=Path, default=SKIRMISH, help="the encounter file (default: the skirmish)")
    args = parser.parse_args()
    print(f"{args.encounter.name}: {args.trials} fights per run, policy {args.policy}")
    for workers in (1, args.workers):
        elapsed, fights, attacks = measure(args.trials, workers, args.seed, args.policy, args.encounter)
        print(f"workers={workers}: {elapsed:7.2f} s  {fights:8.1f} fights/s  {attacks:9.1f} attack resolutions/s")


if __name__ == "__main__":
    main()
