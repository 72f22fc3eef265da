"""Exact odds of an attack intent against its target, in the state the table is at, for the action bar.

The inputs (attack bonus, DV, damage, advantage, DR …) are read with the tactical AI's
:func:`ashfall.ai.profile.attack_base`, which takes the situation from the engine's own attack rules, and
the numbers come from :func:`ashfall.odds.attack.attack_counts`, the exact odds' whole-number counts (exact
fractions, never sampled). This module is the
table's only reader of those inputs: if they move, only this file changes.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ashfall.ai.odds_cache import expr_of, ruleset_token
from ashfall.ai.profile import attack_base, attack_options
from ashfall.core.modifiers import Advantage
from ashfall.engine import EncounterState, Intent
from ashfall.odds.attack import attack_counts

_POWER = "power-strike"


def _number(p: Fraction) -> dict[str, Any]:
    return {"exact": str(p), "value": float(p)}


def intent_odds(state: EncounterState, intent: Intent, tag: str) -> dict[str, Any] | None:
    """P(hit), P(crit), expected damage and P(target drops) of a one-target attack intent; None otherwise.

    Args:
        state: The fight now (read only).
        intent: A ``strike`` or ``power-strike`` intent (anything else has no odds here).
        tag: The intent's type tag.
    """
    target_id = getattr(intent, "target", None)
    if tag not in ("strike", _POWER) or not isinstance(target_id, str) or target_id not in state.combatants:
        return None
    attacker, target = state.get(intent.actor), state.get(target_id)
    weapon = getattr(intent, "weapon", None)
    thrown = bool(getattr(intent, "thrown", False))
    option = next((o for o in attack_options(attacker, state) if o.weapon_id == weapon and o.thrown == thrown), None)
    if option is None:
        return None
    try:
        base = attack_base(state, attacker, None, target, option, ruleset_token(state.ruleset))
    except (KeyError, ValueError):  # a situation the reader cannot weigh: no odds rather than wrong ones
        return None
    if base is None:
        return None
    key = base.key(attacker.turn.strike_actions + 1, power=tag == _POWER)
    # The exact odds' whole-number counts: each figure is one Fraction of two integers, without the Fraction per
    # damage value the full distribution builds (the action bar asks for every legal intent on each click).
    odds = attack_counts(key.bonus, key.dv, expr_of(key.damage), ruleset=state.ruleset,
                         advantage=Advantage(key.advantage), attack_number=key.attack_number,
                         power_strike=key.power_strike, dr=key.dr, resist=key.resist, vulnerable=key.vulnerable,
                         immune=key.immune)
    hp = target.health.hp + target.health.temp_hp
    drops = sum(n for dealt, n in odds.numerators.items() if dealt >= hp)
    return {
        "target": target_id,
        "p_hit": _number(Fraction(odds.hits, odds.d20_total)),
        "p_crit": _number(Fraction(odds.crits, odds.d20_total)),
        "expected_damage": _number(Fraction(odds.damage_numerator, odds.denominator)),
        "p_drop": _number(Fraction(drops, odds.denominator)),
        "dv": odds.dv,
        "bonus": odds.bonus,
    }


__all__ = ["intent_odds"]
