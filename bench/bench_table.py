"""Table benchmark: ``--actions`` actions on ``--fights`` concurrent fights over loopback, p50/p99 per action.

Starts ``ashfall serve`` on a free port with a fresh database, opens one table with ``--fights`` fights of a
shipped encounter, and plays them at once, one client thread per fight. Each action is one write (an intent,
an end of turn or a decision's answer), chosen from the fight's legal intents the way a GM would (the strike
with the best expected damage, else a stride, else end the turn); a fight that ends is replaced by a new one.
Prints the p50 and p99 latency of the writes (the target: p99 < 50 ms) and of the whole step (its reads
included), and the server's CPU time per step: on a shared machine the latencies move with the load, the CPU
time much less. With every client waiting for its answer, a step's latency is about the number of fights times
the server's time per step (one Python process: one core), so the CPU time is what a change to the server cuts.
``--pace S`` has each fight's GM pause about S seconds between actions (a table's rhythm: 20 fights at one action a
second each is 20 actions a second, busier than any real evening), which measures the latency a GM feels rather
than the server's saturation. Not a test: run it by hand::

    .venv/bin/python bench/bench_table.py [--actions 1000] [--fights 20] [--encounter skirmish] [--pace 1]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from ashfall.web.local import free_port
from ashfall.web.local import start_server as start


class Player(threading.Thread):
    """Plays one fight at a time until the shared action budget is spent."""

    def __init__(self, base: str, gm: str, table: int, encounter: str, seed: int, budget: list[int],
                 lock: threading.Lock, pace: float = 0.0) -> None:
        super().__init__()
        self.pace, self.think = pace, random.Random(seed)
        self.client = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {gm}"}, timeout=30)
        self.table, self.encounter, self.seed = table, encounter, seed
        self.budget, self.lock = budget, lock
        self.writes: list[float] = []
        self.steps: list[float] = []

    def new_fight(self) -> int:
        """Start a new fight of the encounter; its id."""
        self.seed += 1000
        body = {"encounter": self.encounter, "seed": self.seed}
        got = self.client.post(f"/api/tables/{self.table}/fights", json=body)
        got.raise_for_status()
        return int(got.json()["id"])

    def take(self) -> bool:
        """Take one action from the shared budget (False when it is spent)."""
        with self.lock:
            if self.budget[0] <= 0:
                return False
            self.budget[0] -= 1
            return True

    def write(self, path: str, body: dict[str, Any]) -> httpx.Response:
        """POST one write, timing it."""
        t0 = time.perf_counter()
        got = self.client.post(path, json=body)
        self.writes.append(time.perf_counter() - t0)
        return got

    def run(self) -> None:
        """Play until the budget is spent."""
        if self.pace:  # the tables did not all sit down in the same millisecond: staggered first fights
            time.sleep(self.think.uniform(0, self.pace))
        fight = self.new_fight()
        while self.take():
            t0 = time.perf_counter()
            view = self.client.get(f"/api/fights/{fight}").json()
            if view["ended"]:
                fight = self.new_fight()
                view = self.client.get(f"/api/fights/{fight}").json()
            version = view["version"]
            if view["pending"] is not None:
                decision = view["pending"]["decision"]
                answer = None if decision["optional"] else decision["options"][0]["key"]
                self.write(f"/api/fights/{fight}/decision", {"answer": answer, "version": version})
            else:
                intents = self.client.get(f"/api/fights/{fight}/intents").json()["intents"]
                strikes = sorted((i for i in intents if i["odds"]),
                                 key=lambda i: -i["odds"]["expected_damage"]["value"])
                moves = [i for i in intents if i["type"] == "stride"]
                choice = (strikes or moves or [None])[0]
                done = choice is not None and self.write(
                    f"/api/fights/{fight}/intents", {"intent": choice["intent"], "version": version}).status_code == 200
                if not done:
                    self.write(f"/api/fights/{fight}/end-turn", {"version": version})
            self.steps.append(time.perf_counter() - t0)
            if self.pace:  # the GM reads the answer and thinks (jittered, so the fights do not act in step)
                time.sleep(self.think.uniform(0.5, 1.5) * self.pace)
        self.client.close()


def _cpu(pid: int) -> float:
    """The CPU seconds (user + system) a process has used, from /proc (0 where there is none)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank) in milliseconds."""
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def main(argv: list[str] | None = None) -> dict[str, float]:
    """Run the benchmark and print the latencies; returns them (milliseconds) for the smoke test."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--actions", type=int, default=1000)
    parser.add_argument("--fights", type=int, default=20)
    parser.add_argument("--encounter", default="skirmish")
    parser.add_argument("--pace", type=float, default=0.0,
                        help="seconds each fight's GM takes between actions (jittered ±50%%); 0 (the default) sends "
                             "the next action as soon as the last is answered, which saturates the server")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        proc = start(Path(folder) / "tables.db", port)
        try:
            base = f"http://127.0.0.1:{port}"
            made = httpx.post(f"{base}/api/tables", json={"name": "bench"}).json()
            budget, lock = [args.actions], threading.Lock()
            players = [Player(base, made["gm_token"], made["table_id"], args.encounter, i, budget, lock, args.pace)
                       for i in range(args.fights)]
            cpu0 = _cpu(proc.pid)
            t0 = time.perf_counter()
            for p in players:
                p.start()
            for p in players:
                p.join()
            wall = time.perf_counter() - t0
            cpu = _cpu(proc.pid) - cpu0
        finally:
            proc.terminate()
            proc.wait()
    writes = [w for p in players for w in p.writes]
    steps = [s for p in players for s in p.steps]
    result = {"actions": float(len(writes)), "write_p50_ms": percentile(writes, 50),
              "write_p99_ms": percentile(writes, 99), "step_p50_ms": percentile(steps, 50),
              "step_p99_ms": percentile(steps, 99), "mean_ms": 1000 * statistics.fmean(writes), "wall_s": wall,
              "server_cpu_ms_per_step": 1000 * cpu / max(1, len(steps))}
    paced = f", a GM action every {args.pace:g} s per fight" if args.pace else ", no pause between actions"
    print(f"{len(writes)} actions on {args.fights} concurrent fights ({args.encounter}{paced}) in {wall:.1f} s")
    print(f"per action (the write): p50 {result['write_p50_ms']:.1f} ms  p99 {result['write_p99_ms']:.1f} ms"
          f"  mean {result['mean_ms']:.1f} ms")
    print(f"per step (view + intents + write): p50 {result['step_p50_ms']:.1f} ms  p99 {result['step_p99_ms']:.1f} ms")
    print(f"server CPU per step: {result['server_cpu_ms_per_step']:.1f} ms")
    return result


if __name__ == "__main__":
    main()
