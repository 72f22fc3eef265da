"""Attacking a creature whose location is unknown: name a square, and a wrong square misses (CONC-11, G-20).

A hidden creature's enemies do not know where it is (HID-3), so a Strike against it must name the
square the attacker guesses (:func:`check_guess`, before any die is rolled). A guess that hits one of
the target's squares is an ordinary attack (at disadvantage, G-20); a wrong one misses automatically
(:func:`guess_missed` logs it): it is still an attack for MAP, and it ends the attacker's own Hidden.
"""

from __future__ import annotations

from ashfall.content.schema import Weapon
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition
from ashfall.engine import events as ev
from ashfall.engine.actions import refuse
from ashfall.engine.context import Context
from ashfall.engine.harm import end_conditions
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.rules_activities import Activity, AttackMode, attack_traits, takes_map
from ashfall.families.senses import rules as conc
from ashfall.families.senses.engine import pair
from ashfall.families.senses.rules import Party
from ashfall.grid.board import Square
from ashfall.grid.geometry import space_distance_ft
from ashfall.rules.condition_durations import EndEvent
from ashfall.rules.condition_table import EndTrigger
from ashfall.rules.reach import attack_limit_ft

G_20 = rule("G-20")


def must_guess_square(state: EncounterState, target: Combatant, attacker: Combatant | None = None) -> RuleId | None:
    """CONC-11 when attacks on ``target`` must name a guessed square (it is hidden, G-20), else None.

    With ``concealment.heavy_obscured_hidden`` (X-15's alternative) also when it is heavily obscured to ``attacker``.
    """
    if attacker is None or not state.ruleset.concealment.heavy_obscured_hidden:
        # Only the target's conditions decide here (the viewer's sight counts only with the option on), so
        # the layers on its squares, which take a while to gather, are left out of the party it is judged by.
        bare = Party(target.creature.senses, conditions=target.condition_set)
        return conc.must_guess(bare, state.ruleset)
    a, t, d = pair(state, attacker, target)
    return conc.must_guess(t, state.ruleset, a, d)


def check_guess(state: EncounterState, attacker: Combatant, target: Combatant, weapon: Weapon | None,
                mode: AttackMode, square: Square | None) -> bool:
    """Refuse a guess-less or unreachable attack on a hidden target; True when the guess is wrong.

    A wrong guess is checked against the guessed square only, so the refusal tells nothing of where the
    target really is; a right guess gets the usual checks from the caller.
    """
    if state.board is None or not target.space or must_guess_square(state, target, attacker) is None:
        return False
    if square is None:
        raise refuse("CONC-11", f"{target.name} is hidden: name the square you attack")
    if not state.board.in_bounds(square):
        raise refuse("CONC-11", f"square {list(square)} is off the map")
    if square in target.space:
        return False
    dist = space_distance_ft(attacker.space, (square,)) if attacker.space else 0
    ranged = attack_traits(weapon, mode).ranged
    limit = attack_limit_ft(weapon, ranged, state.ruleset.attack.natural_reach)
    if dist > limit:
        if ranged:
            raise refuse("ATK-2", f"square {list(square)} is {dist} ft away; the weapon reaches {limit} ft")
        raise refuse("ATK-1", f"square {list(square)} is {dist} ft away; reach is {limit} ft")
    return True


def guess_missed(ctx: Context, attacker: Combatant, target_id: str, square: Square | None, weapon: Weapon | None,
                 mode: AttackMode, activity: Activity = Activity.STRIKE) -> bool:
    """Log a wrong guess as an automatic miss and return True; False when the attack goes ahead."""
    state = ctx.state
    target = state.get(target_id)
    if not check_guess(state, attacker, target, weapon, mode, square):
        return False
    assert square is not None
    ctx.emit(ev.GuessMissed(attacker.id, target.id, square, weapon.id if weapon else mode.value,
                            takes_map(activity, ctx.ruleset)))
    if attacker.has(Condition.HIDDEN):
        end_conditions(ctx, attacker.id, EndEvent(EndTrigger.ATTACKS), G_20)
    return True


__all__ = ["check_guess", "guess_missed", "must_guess_square"]
