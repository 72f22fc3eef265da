"""Restoring hit points: the one heal step, healing spells, Second Wind, stims, Medical Bay and natural healing.

:func:`heal` is the only place HP go up. It caps at max HP, never touches temporary HP (THP-3),
stabilises a dying target and wakes it if its HP rise above 0 (DEATH-13), resets the death-save
counters (DEATH-9), wakes a stabilised creature (DEATH-16) and refuses the dead. Every other healer
here rolls its amount and goes through :func:`heal`. Medicine-check healing (Emergency Field
Medicine, Field Surgery, Medical Treatment) is in :mod:`ashfall.families.dying.rules_medicine`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from ashfall.core.dice import Roll, parse, roll
from ashfall.core.rng import Rng
from ashfall.core.rule_ids import RuleId, rule
from ashfall.families.dying.rules_recovery import AbilityUse, Recovery
from ashfall.rules.damage import TempHpResult, grant_temp_hp
from ashfall.rules.errors import RuleViolation
from ashfall.rules.health import Health, Vitality
from ashfall.ruleset import Ruleset
from ashfall.ruleset.sections import SecondWindAdds

DEATH_1 = rule("DEATH-1")
DEATH_3 = rule("DEATH-3")
DEATH_9 = rule("DEATH-9")
DEATH_13 = rule("DEATH-13")
DEATH_16 = rule("DEATH-16")
THP_3 = rule("THP-3")
THP_5 = rule("THP-5")
HEAL_5 = rule("HEAL-5")
HEAL_7 = rule("HEAL-7")
HEAL_8 = rule("HEAL-8")
HEAL_10 = rule("HEAL-10")
E_29 = rule("E-29")
E_30 = rule("E-30")
G_31 = rule("G-31")
G_48 = rule("G-48")
X_13 = rule("X-13")

SECOND_WIND = "second-wind"
"""The key of Second Wind among a creature's short-rest abilities (REST-4)."""


@dataclass(frozen=True, slots=True)
class HealResult:
    """One application of healing.

    Attributes:
        health: The creature afterwards.
        before: The creature before.
        amount: HP the source offered.
        gained: HP actually gained (``amount`` less what the max-HP cap cut off).
        rule: The healing source's rule (HEAL-1, MAA-6 ...).
        label: The source's short name.
        rules: Every rule applied, in order (source, DEATH-13, DEATH-9, DEATH-16, THP-3 ...).
    """

    health: Health
    before: Health
    amount: int
    gained: int
    rule: RuleId
    label: str
    rules: tuple[RuleId, ...]

    @property
    def wasted(self) -> int:
        """HP lost to the max-HP cap."""
        return self.amount - self.gained


def require_alive_body(health: Health) -> None:
    """Refuse any healing of the dead (they need Resurrection, RES-1)."""
    if health.is_dead:
        raise RuleViolation(DEATH_3, "the dead cannot be healed; only resurrection magic returns them")


def _from_dying(health: Health, hp: int) -> tuple[Vitality, tuple[RuleId, ...]]:
    # DEATH-13: any healing stabilises; conscious (alive) only if HP > 0. DEATH-9: counters reset.
    return (Vitality.ALIVE if hp > 0 else Vitality.STABILIZED), (DEATH_13, DEATH_9)


def _from_stabilised(health: Health, hp: int) -> tuple[Vitality, tuple[RuleId, ...]]:
    return (Vitality.ALIVE, (DEATH_16,)) if hp > 0 else (Vitality.STABILIZED, ())


def _from_alive(health: Health, hp: int) -> tuple[Vitality, tuple[RuleId, ...]]:
    return Vitality.ALIVE, ()


_AFTER_HEAL: Mapping[Vitality, Callable[[Health, int], tuple[Vitality, tuple[RuleId, ...]]]] = MappingProxyType({
    Vitality.DYING: _from_dying,
    Vitality.STABILIZED: _from_stabilised,
    Vitality.ALIVE: _from_alive,
})


def heal(health: Health, amount: int, rule_id: RuleId, label: str) -> HealResult:
    """Restore ``amount`` HP to a living, dying or stabilised creature.

    Args:
        health: The creature.
        amount: HP offered (0 or more; rollers clamp negative totals to 0).
        rule_id: The healing source's rule.
        label: The source's short name.

    Returns:
        The new health with the breakdown. HP never exceed max HP; temporary HP are unchanged (THP-3).

    Raises:
        RuleViolation: The creature is dead (DEATH-3).
        ValueError: ``amount`` is negative.
    """
    if amount < 0:
        raise ValueError(f"healing amount {amount} < 0")
    require_alive_body(health)
    hp = min(health.max_hp, health.hp + amount)
    vitality, steps = _AFTER_HEAL[health.vitality](health, hp)
    temp_rule = (THP_3,) if health.temp_hp else ()
    after = health.evolve(hp=hp, vitality=vitality, successes=0, failures=0)
    return HealResult(after, health, amount, hp - health.hp, rule_id, label, (rule_id, *steps, *temp_rule))


def heal_group(targets: Sequence[Health], amount: int, rule_id: RuleId, label: str) -> tuple[HealResult, ...]:
    """One healing roll applied to several creatures (Mass Healing, HEAL-3), each capped on its own."""
    return tuple(heal(t, amount, rule_id, label) for t in targets)


# ----- healing spells (HEAL-1..3) and Ritual Healing (HEAL-7) -----


@dataclass(frozen=True, slots=True)
class HealingSpell:
    """A healing spell's data.

    Attributes:
        id: Registry key.
        name: Display name.
        level: Spell level.
        dice: Healing dice; the caster's WIS modifier is added.
        actions: Actions to cast.
        touch: Touch range (one target).
        radius_ft: For area spells, the radius around the caster within which all allies are healed.
        rule: The catalog rule.
    """

    id: str
    name: str
    level: int
    dice: str
    actions: int
    touch: bool
    radius_ft: int
    rule: RuleId


HEALING_SPELLS: Mapping[str, HealingSpell] = MappingProxyType({
    s.id: s
    for s in (
        HealingSpell("healing-touch", "Healing Touch", 1, "1d8", 1, True, 0, rule("HEAL-1")),
        HealingSpell("bind-wounds", "Bind Wounds", 2, "2d8", 1, True, 0, rule("HEAL-2")),
        HealingSpell("mass-healing", "Mass Healing", 5, "5d8", 1, False, 30, rule("HEAL-3")),
    )
})
"""Healing spells by id (HEAL-1 to HEAL-3); the same in both editions."""


@dataclass(frozen=True, slots=True)
class SpellHealing:
    """A rolled healing spell: dice + WIS, clamped at 0 (healing never removes HP)."""

    spell: HealingSpell
    roll: Roll
    total: int
    rules: tuple[RuleId, ...]


def roll_healing_spell(spell_id: str, caster_wis: int, rng: Rng) -> SpellHealing:
    """Roll a healing spell's HP: its dice plus the caster's WIS modifier.

    Raises:
        KeyError: For an unknown spell id.
    """
    spell = HEALING_SPELLS.get(spell_id)
    if spell is None:
        raise KeyError(f"unknown healing spell {spell_id!r}; known: {', '.join(HEALING_SPELLS)}")
    rolled = roll(parse(spell.dice).plus(caster_wis), rng)
    return SpellHealing(spell, rolled, max(0, rolled.total), (spell.rule,))


@dataclass(frozen=True, slots=True)
class RitualHealing:
    """A healing spell cast as a ritual: no slot, full effect, 30 + 10 × level minutes (HEAL-7, X-13)."""

    healing: SpellHealing
    minutes: int
    slot_cost: int
    rules: tuple[RuleId, ...]


def ritual_healing(spell_id: str, caster_wis: int, rng: Rng, ruleset: Ruleset) -> RitualHealing:
    """Cast a healing spell as a ritual (needs material components; the caller checks them)."""
    healing = roll_healing_spell(spell_id, caster_wis, rng)
    opts = ruleset.healing
    minutes = opts.ritual_base_minutes + opts.ritual_minutes_per_level * healing.spell.level
    return RitualHealing(healing, minutes, 0, (HEAL_7, X_13, *healing.rules))


# ----- Second Wind (HEAL-5, E-30) -----


@dataclass(frozen=True, slots=True)
class SecondWindResult:
    """Second Wind: the roll, the heal, the temporary HP (edition 2) and the spent use."""

    health: Health
    recovery: Recovery
    roll: Roll
    heal: HealResult
    temp: TempHpResult | None
    actions: int
    rules: tuple[RuleId, ...]


_SECOND_WIND_ADDS: Mapping[SecondWindAdds, Callable[[Recovery, int], int]] = MappingProxyType({
    SecondWindAdds.LEVEL: lambda recovery, end_mod: recovery.level,
    SecondWindAdds.END: lambda recovery, end_mod: end_mod,
})


def second_wind(health: Health, recovery: Recovery, end_mod: int, rng: Rng, ruleset: Ruleset) -> SecondWindResult:
    """Use Second Wind: edition 2 heals 2d10 + level and grants level temporary HP; edition 1 heals 1d10 + END.

    Temporary HP go through :func:`ashfall.rules.damage.grant_temp_hp` (no stacking, THP-2, THP-5).

    Raises:
        RuleViolation: Second Wind was already used since the last short rest (HEAL-5), or the
            creature is at 0 HP and so unconscious and incapacitated (DEATH-1) or dead (DEATH-3).
    """
    opts = ruleset.healing
    require_alive_body(health)
    if health.is_down:
        raise RuleViolation(DEATH_1, "a creature at 0 HP is unconscious and cannot use Second Wind")
    use = recovery.use(SECOND_WIND) or AbilityUse(SECOND_WIND, opts.second_wind_uses)
    if use.remaining <= 0:
        raise RuleViolation(HEAL_5, "Second Wind is once per short rest and was already used")
    add = _SECOND_WIND_ADDS[opts.second_wind_adds]
    rolled = roll(parse(opts.second_wind_dice).plus(add(recovery, end_mod)), rng)
    healed = heal(health, max(0, rolled.total), HEAL_5, "Second Wind")
    rules: tuple[RuleId, ...] = (HEAL_5, *healed.rules[1:])
    temp: TempHpResult | None = None
    after = healed.health
    if opts.second_wind_temp_hp:
        temp = grant_temp_hp(after, recovery.level, SECOND_WIND, ruleset)
        after = temp.health
        rules = (*rules, THP_5, temp.rule)
    else:
        rules = (*rules, E_30)
    spent = recovery.with_use(AbilityUse(use.name, use.max_uses, use.used + 1))
    return SecondWindResult(after, spent, rolled, healed, temp, opts.second_wind_actions, rules)


# ----- stims (G-31, E-29) -----


@dataclass(frozen=True, slots=True)
class StimResult:
    """A stim applied to self or an adjacent ally (1 action)."""

    health: Health
    recovery: Recovery
    tier: int
    roll: Roll
    heal: HealResult
    credits: int
    actions: int
    rules: tuple[RuleId, ...]


def use_stim(health: Health, recovery: Recovery, tier: int, rng: Rng, ruleset: Ruleset) -> StimResult:
    """Apply a stim of ``tier`` (1-3) to a creature whose recovery state is ``recovery``.

    Raises:
        RuleViolation: Stims are switched off or the tier does not exist (G-31); the creature has had
            ``stims_per_day`` stims in the window (E-29: the body builds tolerance); it is dead.
    """
    opts = ruleset.healing
    if not opts.stims_available:
        raise RuleViolation(G_31, "stims are not in use in this ruleset")
    if not 1 <= tier <= len(opts.stim_dice):
        raise RuleViolation(G_31, f"there is no tier {tier} stim (tiers 1 to {len(opts.stim_dice)})")
    require_alive_body(health)
    recent = tuple(h for h in recovery.stims_hours_ago if h < opts.stims_window_hours)
    if len(recent) >= opts.stims_per_day:
        raise RuleViolation(E_29, f"already {len(recent)} stims within {opts.stims_window_hours} hours: no effect")
    rolled = roll(opts.stim_dice[tier - 1], rng)
    healed = heal(health, max(0, rolled.total), G_31, f"Tier {tier} stim")
    after = recovery.evolve(stims_hours_ago=(*recent, 0))
    credits = opts.stim_costs[tier - 1] if tier <= len(opts.stim_costs) else 0
    return StimResult(healed.health, after, tier, rolled, healed, credits, opts.stim_actions, (E_29, *healed.rules))


# ----- Medical Bay (HEAL-8) and natural healing (HEAL-10) -----


@dataclass(frozen=True, slots=True)
class MedicalBayResult:
    """Hours in a Medical Bay: 25% of max HP per hour, rounded down, at least 1 (G-48)."""

    heal: HealResult
    hours: int
    per_hour: int
    credits: int
    rules: tuple[RuleId, ...]


def medical_bay(health: Health, hours: int, ruleset: Ruleset) -> MedicalBayResult:
    """Treat a creature in a Medical Bay with a trained medic for ``hours`` hours (1 or more)."""
    if hours < 1:
        raise ValueError("Medical Bay treatment is by the hour: hours >= 1")
    opts = ruleset.healing
    per_hour = max(opts.medical_bay_min_hp, health.max_hp * opts.medical_bay_percent // 100)
    healed = heal(health, per_hour * hours, HEAL_8, "Medical Bay")
    return MedicalBayResult(healed, hours, per_hour, opts.medical_bay_cost * hours, (*healed.rules, G_48))


def natural_healing(
    health: Health, end_mod: int, days: int, ruleset: Ruleset, *, food_and_water: bool = True
) -> HealResult:
    """``days`` days of light activity: END modifier HP per day, at least 1 per day (HEAL-10).

    Raises:
        RuleViolation: Without adequate food and water (HEAL-10), or the creature is dead.
    """
    if days < 1:
        raise ValueError("natural healing is by the day: days >= 1")
    if not food_and_water:
        raise RuleViolation(HEAL_10, "natural healing needs adequate food and water")
    per_day = max(ruleset.healing.natural_healing_min, end_mod)
    return heal(health, per_day * days, HEAL_10, "natural healing")
