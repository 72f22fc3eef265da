"""Turning decisions into intents, and the small facts about a turn the AI reads off the state and log.

:func:`plan_intent` maps a plan's first block to the engine's intent (Strike, Power Strike …);
:func:`treatments` lists the ways to save a dying ally; the rest read what a turn has done so far.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ashfall.ai.plans import Block, Plan
from ashfall.ai.profile import AttackOption
from ashfall.engine import (
    Aim,
    AllOutAttack,
    CastSpell,
    Combatant,
    EmergencyFieldMedicine,
    EncounterState,
    Engine,
    ExtraAttackStrike,
    Feint,
    FullAutoBurst,
    PowerStrike,
    Refused,
    Reload,
    StabiliseWithMedicine,
    Strike,
    SweepingStrike,
    Trip,
    UseStim,
)
from ashfall.engine import events as ev
from ashfall.engine.records import Keyed, Tally
from ashfall.families.morale.rules import Status
from ashfall.families.morale.rules_behaviour import behaviour
from ashfall.families.spells.rules_spellbook import SPELLS

MOVES = frozenset({"stride", "step", "sprint", "crawl"})
"""Action names that move the creature (ACT-2..4, MAA-8)."""
STIM_TIERS = (1, 2, 3)


def plan_intent(actor: str, plan: Plan) -> Any:
    """The intent of a plan's first block."""
    o, t = plan.option, plan.target
    block = plan.blocks[0]
    if block is Block.RELOAD:
        assert o.weapon_id is not None
        return Reload(actor, o.weapon_id)
    return _BLOCK_INTENT[block](actor, t, o, plan.others)


def _strike_args(o: AttackOption) -> dict[str, Any]:
    return o.intent_args()


_BLOCK_INTENT: dict[Block, Any] = {
    Block.STRIKE: lambda a, t, o, _: Strike(a, t, **_strike_args(o)),
    Block.EXTRA: lambda a, t, o, _: ExtraAttackStrike(a, t, **_strike_args(o)),
    Block.POWER: lambda a, t, o, _: PowerStrike(a, t, **_strike_args(o)),
    Block.ALL_OUT: lambda a, t, o, _: AllOutAttack(a, (t,), **_strike_args(o)),
    Block.SWEEP: lambda a, t, o, others: SweepingStrike(a, (t, *others), o.weapon_id, o.unarmed),
    Block.FULL_AUTO: lambda a, t, o, others: FullAutoBurst(a, (t, *others), o.weapon_id),
    Block.FEINT: lambda a, t, o, _: Feint(a, t),
    Block.TRIP: lambda a, t, o, _: Trip(a, t, o.weapon_id),
    Block.AIM: lambda a, t, o, _: Aim(a),
}


def treatments(c: Combatant, ally: str) -> Iterator[Any]:
    """Ways to save a dying ally, best first: EFM (MAA-6), a stim (G-31), a healing spell, a Medicine check (E-31)."""
    yield EmergencyFieldMedicine(c.id, ally)
    for tier in STIM_TIERS:
        if c.supplies.of(Keyed.STIM, tier) > 0:
            yield UseStim(c.id, ally, tier)
    for spell_id in sorted(c.creature.talents & SPELLS.keys()):
        if SPELLS[spell_id].healing is not None:
            yield CastSpell(c.id, spell_id, (ally,))
    yield StabiliseWithMedicine(c.id, ally)


def can_treat(c: Combatant) -> bool:
    """Whether it carries something to treat a dying ally with (kit, stim or healing spell)."""
    s = c.supplies
    if s.count(Tally.MEDICINE_KIT) > 0 or any(s.of(Keyed.STIM, t) > 0 for t in STIM_TIERS):
        return True
    return any(SPELLS[s].healing is not None for s in c.creature.talents & SPELLS.keys())


def normal_reach(o: AttackOption) -> int:
    """How far an option attacks without stretching: melee reach, or a ranged weapon's normal range."""
    if o.ranged and o.weapon is not None:
        return o.weapon.range_normal or o.limit_ft
    return o.limit_ft


def moved_actions(engine: Engine, actor: str) -> int:
    """Actions the actor has spent moving since its turn started (read off the log)."""
    spent = 0
    for e in reversed(engine.log):
        if type(e) is ev.TurnStarted and e.actor == actor:
            break
        if type(e) is ev.ActionsSpent and e.actor == actor and e.label in MOVES:
            spent += e.count
    return spent


def escape_actions(state: EncounterState) -> int:
    """Least actions a falling-back creature moves toward an exit each turn (MOR-17)."""
    if not state.ruleset.morale.enabled:
        return 1
    return behaviour(Status.FALL_BACK, state.ruleset).escape_actions


def legal(engine: Engine, intent: Any) -> bool:
    """Whether the engine would accept the intent now (checking rolls no dice and changes nothing)."""
    try:
        engine.check(intent)
    except Refused:
        return False
    return True
