"""Exact odds with icepool: attacks, turns of attacks, saves and death saves, as exact fractions.

Everything here mirrors the pure rules over every possible die face instead of one roll; the CLI's
``ashfall odds`` commands present these results.
"""

from ashfall.odds.attack import AttackOdds, DamageStep, DamageStepKind, applies_to, attack_odds
from ashfall.odds.death import DeathOdds, death_save_odds
from ashfall.odds.dice import UnsupportedDiceError, to_die
from ashfall.odds.saves import SaveOdds, save_odds
from ashfall.odds.turn import AttackSpec, TurnOdds, all_out_attack, power_strike_then_strike, strikes, turn_odds

__all__ = [
    "AttackOdds",
    "AttackSpec",
    "DamageStep",
    "DamageStepKind",
    "DeathOdds",
    "SaveOdds",
    "TurnOdds",
    "UnsupportedDiceError",
    "all_out_attack",
    "applies_to",
    "attack_odds",
    "death_save_odds",
    "power_strike_then_strike",
    "save_odds",
    "strikes",
    "to_die",
    "turn_odds",
]
