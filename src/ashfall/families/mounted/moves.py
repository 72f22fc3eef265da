"""Mounted combat in a fight (MNT-2..9); getting on and off is Mount and Dismount in ``mounting`` (MNT-1).

* **Who acts when** (MNT-2, MNT-3). A trained mount acts right after its rider: the initiative order is
  adjusted when it is rolled and, for a creature mounted during the fight, at the end of that round
  (so no creature acts twice in a round). Its turns are the rider's to direct (the rider's side controls
  both). A creature whose stat block says ``independent_mount`` keeps its own initiative (MNT-3).
* **Moving** (MNT-4): the rider moves with its mount and does not Stride alone (``mounting``, ``movement``).
* **Attacking** (MNT-5, MNT-6): the rider's melee attacks against unmounted targets get +1, and
  advantage against those smaller than the mount, through the attack hooks. Either creature can be
  attacked (MNT-8): both are on the map in the same space and both are targets.
* **Falling off** (MNT-7, MNT-9). A mount knocked prone throws its rider: off the mount, onto the first
  free square next to it (reading order; it stays where it is if none is free), 1d6 damage and prone.
  A mount that drops to 0 HP makes its rider save (AGI = Reflex, DC 15): a failure leaves it prone.
  Either way the rider is off the fallen mount (ruling: a creature at 0 HP carries no one).

Vehicles are not mounts: their crew and passengers (``vehicles``) get none of this.
"""

from __future__ import annotations

from ashfall.content.schema import Weapon
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition
from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.engine.harm import add, deal_damage
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.attacks.engine import AttackExtra, is_ranged_attack
from ashfall.families.attacks.rules_activities import AttackMode
from ashfall.families.mounted.rules import fall_damage, mount_down_dc, mounted_attack
from ashfall.grid.board import Square, Terrain, footprint, neighbours
from ashfall.rules.checks import saving_throw
from ashfall.rules.condition_durations import AppliedCondition
from ashfall.rules.damage import DamageResult, roll_damage

MNT_2, MNT_7, MNT_9 = rule("MNT-2"), rule("MNT-7"), rule("MNT-9")
FALL = "fall"
"""The source of the damage of falling off a mount (MNT-7)."""
_NOT_MELEE = frozenset({AttackMode.SPELL, AttackMode.PSIONIC})


def mount_of(state: EncounterState, c: Combatant) -> Combatant | None:
    """The creature the combatant rides (None when it rides nothing, or rides a vehicle)."""
    if c.mounted_on is None or c.mounted_on not in state.combatants:
        return None
    mount = state.get(c.mounted_on)
    return mount if mount.creature.vehicle is None else None


def riders_of(state: EncounterState, mount: str) -> list[Combatant]:
    """The creatures riding a mount, in roster order (none for a vehicle: those are its crew)."""
    return [c for c in state.combatants.values() if c.mounted_on == mount and mount_of(state, c) is not None]


# ----- who acts when (MNT-2, MNT-3) -----


def trained_order(state: EncounterState, order: list[str]) -> list[str]:
    """The order with every trained mount moved right after its rider (MNT-2); independent mounts stay (MNT-3)."""
    if not state.ruleset.mounted.trained_mount_follows_rider:
        return order
    follows: dict[str, str] = {}
    for c in state.combatants.values():
        mount = mount_of(state, c)
        if mount is not None and not mount.creature.independent_mount and c.id in order and mount.id in order:
            follows[c.id] = mount.id
    moved = set(follows.values())
    out: list[str] = []
    for cid in order:
        if cid in moved:
            continue
        out.append(cid)
        if cid in follows:
            out.append(follows[cid])
    return out


def _reorder_at_end_of_round(ctx: Context) -> None:
    """A creature mounted during the round: its trained mount follows it from the next round on (MNT-2)."""
    order = trained_order(ctx.state, list(ctx.state.order))
    if order != ctx.state.order:
        moved = next(cid for cid, old in zip(order, ctx.state.order, strict=True) if cid != old)
        ctx.emit(ev.InitiativeChanged(moved, tuple(order), MNT_2))


# ----- attacking (MNT-5, MNT-6) -----


def _attack(state: EncounterState, attacker: Combatant, target: Combatant, weapon: Weapon | None,
            mode: AttackMode) -> AttackExtra:
    mount = mount_of(state, attacker)
    if mount is None:
        return AttackExtra()
    melee = mode not in _NOT_MELEE and not is_ranged_attack(weapon, mode)
    found = mounted_attack(mount.creature.size, target.creature.size, target.mounted_on is not None, melee,
                           state.ruleset)
    return AttackExtra(found.modifiers, found.sources)


# ----- falling off (MNT-7, MNT-9) -----


def landing(state: EncounterState, rider: Combatant, mount: Combatant) -> Square | None:
    """The first free square next to the mount (reading order) the rider can land on, or None."""
    if state.board is None or not mount.space:
        return None
    ring = sorted({n for sq in mount.space for n in neighbours(sq)} - set(mount.space), key=lambda s: (s[1], s[0]))
    for origin in ring:
        space = footprint(origin, rider.creature.size.squares)
        if all(state.board.in_bounds(sq) and state.board.terrain_at(sq) is not Terrain.IMPASSABLE
               and (state.occupant(sq) is None or state.occupant(sq) is rider) for sq in space):
            return origin
    return None


def fall_off(ctx: Context, rider: Combatant, why: RuleId, *, hurt: bool, prone: bool) -> None:
    """The rider comes off its mount onto a square next to it; it may take the fall's damage and land prone."""
    mount = ctx.state.get(rider.mounted_on) if rider.mounted_on else None
    ctx.emit(ev.MountChanged(rider.id, None, why))
    spot = landing(ctx.state, rider, mount) if mount is not None else None
    if spot is not None and rider.position is not None:
        ctx.emit(ev.Moved(rider.id, rider.position, spot, 0, "fall", why, forced=True))
    if hurt:
        damage = roll_damage(fall_damage(ctx.ruleset), ctx.rng, ctx.ruleset, critical=False)
        deal_damage(ctx, rider.id, damage, source=FALL, label="falls off the mount")
    if prone and not rider.health.is_dead and not rider.has(Condition.PRONE):
        add(ctx, rider.id, AppliedCondition(Condition.PRONE, why))


def _mount_knocked_prone(ctx: Context, target: str, applied: AppliedCondition,
                         before: frozenset[Condition]) -> None:
    """MNT-7: a mount knocked prone throws its riders (a mount dropping to 0 HP is MNT-9's instead)."""
    if applied.condition is not Condition.PRONE or Condition.PRONE in before:
        return
    if ctx.state.get(target).health.is_down:
        return
    for rider in riders_of(ctx.state, target):
        fall_off(ctx, rider, MNT_7, hurt=True, prone=True)


def _mount_dropped(ctx: Context, target: str, source: str, result: DamageResult) -> None:
    """MNT-9: the riders of a mount that drops to 0 HP save (Reflex DC 15) or fall prone; all come off it."""
    if not result.health_after.is_down or result.health_before.is_down:
        return
    dc = mount_down_dc(ctx.ruleset)
    save = ctx.ruleset.mounted.mount_down_save
    for rider in riders_of(ctx.state, target):
        roller = ctx.roller(rider.id, "save", dc.rule, source=save.value)
        check = saving_throw(rider.creature, save, dc, roller, ctx.ruleset, conditions=rider.condition_set)
        ctx.emit(ev.CheckRolled(rider.id, f"{save.value} save: the mount drops",
                                ev.RollRecord.of(check.roll) if check.roll else None, dc.total, check.success, MNT_9,
                                check.auto_fail or ""))
        fall_off(ctx, rider, MNT_9, hurt=False, prone=not check.success)


__all__ = ["FALL", "fall_off", "landing", "mount_of", "riders_of", "trained_order"]


def install(book: RulebookDraft) -> None:
    """Add this module's actions, reactions and hooks to a rulebook, in the order they run."""
    book.order_hook("trained-mounts", trained_order)
    book.end_of_round("trained-mounts", _reorder_at_end_of_round)
    book.attack_hook("mounted", _attack)
    book.after_condition(_mount_knocked_prone)
    book.after_damage(_mount_dropped)
