"""The simulator: play encounters many times with reproducible seeds and report trustworthy statistics.

``run_fight`` plays one fight with a policy per combatant; ``simulate`` plays many (optionally over
worker processes: trial ``i`` always uses ``SeededRng(seed).spawn(i)``'s seed) and aggregates a
:class:`SimReport`; ``replay_trial`` replays one trial with its log; :mod:`ashfall.sim.stats` holds the
pure statistics (Wilson intervals, quantiles, z- and Welch t-tests).
"""

from ashfall.sim.fight import CombatantResult, FightResult, run_fight, trial_seed
from ashfall.sim.policy import Policy, ScriptedTactics
from ashfall.sim.report import SimReport, aggregate, compare
from ashfall.sim.runner import play, replay_trial, simulate
from ashfall.sim.setups import EncounterSetup, FightSetup, InlineCombatant, InlineSetup, as_setup, policy_for

__all__ = [
    "CombatantResult",
    "EncounterSetup",
    "FightResult",
    "FightSetup",
    "InlineCombatant",
    "InlineSetup",
    "Policy",
    "ScriptedTactics",
    "SimReport",
    "aggregate",
    "as_setup",
    "compare",
    "play",
    "policy_for",
    "replay_trial",
    "run_fight",
    "simulate",
    "trial_seed",
]
