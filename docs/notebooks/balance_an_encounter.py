"""Notebook example: balance the duel's champion HP for a 50% party win with sweep, balance and pandas."""

# %% [markdown]
# # Balancing an encounter with the library and pandas
#
# How many HP should the raiders' champion in `encounters/duel.yaml` have for the party's Warrior to win half
# of the duels? This script (cells marked `# %%`, open it in VS Code or Jupyter as a notebook, or run it with
# `python docs/notebooks/balance_an_encounter.py`) sweeps the champion's HP, looks at the table with pandas,
# then lets the balance search find the value. `ASHFALL_NOTEBOOK_TRIALS` scales the work (tests run it small).

# %%
import os
from pathlib import Path

import pandas as pd

from ashfall.sim.balance import balance
from ashfall.sim.sweep import sweep
from ashfall.sim.variants import parse_vary

ROOT = Path(__file__).resolve().parents[2] if "__file__" in globals() else Path.cwd()
DUEL = ROOT / "encounters" / "duel.yaml"
TRIALS = int(os.environ.get("ASHFALL_NOTEBOOK_TRIALS", "400"))
SEED = 7

# %% [markdown]
# ## 1. A coarse sweep
# Every variant gets its own seed derived from (SEED, variant), so adding values later does not change these rows.

# %%
result = sweep(DUEL, [parse_vary("combatants.champion.hp=20..60:10")], TRIALS, SEED)
table: pd.DataFrame = result.to_pandas()
print(table[["combatants.champion.hp", "win", "win_lo", "win_hi", "rounds"]].to_string(index=False))

# %% [markdown]
# ## 2. Where does the win rate cross 50%?
# Between the last HP whose interval lies above 0.5 and the first whose interval lies below it.

# %%
above = table[table["win_lo"] > 0.5]["combatants.champion.hp"]
below = table[table["win_hi"] < 0.5]["combatants.champion.hp"]
low = int(above.max()) if len(above) else 20
high = int(below.min()) if len(below) else 60
print(f"the 50% point lies between {low} and {high} HP")

# %% [markdown]
# ## 3. The balance search
# Bisection on Wilson bounds: it spends its trials near the target and reports the value, its interval and the
# trials used.

# %%
found = balance(DUEL, parse_vary(f"combatants.champion.hp={min(low, high)}..{max(low, high)}"), 0.5, seed=SEED,
                batch=min(100, TRIALS), max_per_point=4 * TRIALS, budget=40 * TRIALS)
est = found.estimate
print(f"champion HP {found.value}: party wins {est.value:.1%} (95% CI {est.low:.1%}-{est.high:.1%}, {est.n} fights); "
      f"{found.status}, bracket {found.bracket}, {found.trials} trials")

# %% [markdown]
# ## 4. Every point the search looked at

# %%
probes = pd.DataFrame([{"hp": p.value, "win": p.estimate.value, "lo": p.estimate.low, "hi": p.estimate.high,
                        "fights": p.estimate.n, "side of 50%": p.side} for p in found.probes])
print(probes.to_string(index=False))
