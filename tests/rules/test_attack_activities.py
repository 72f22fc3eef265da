"""Activities: Power Strike, All-Out, Brace, Return Fire, Aim, Sweeping Strike and Full Auto Burst."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from ashfall.content.schema import Weapon
from ashfall.core.modifiers import Modifier, ModifierKind, stack
from ashfall.core.rng import ScriptedRng
from ashfall.core.rule_ids import rule
from ashfall.core.types import Condition
from ashfall.families.attacks.rules import AttackContext, Outcome, attack_modifiers, resolve_attack
from ashfall.families.attacks.rules_activities import Activity, AttackMode
from ashfall.families.attacks.rules_called_shots import CalledShot
from ashfall.families.attacks.rules_map import all_out_schedule, map_modifier
from ashfall.families.attacks.rules_multi_attack import MultiAttackResult, Target, resolve_multi_target
from ashfall.rules.damage_ledger import roll_damage
from ashfall.rules.defense import Cover, DefenseBreakdown, defense_value
from ashfall.rules.errors import RuleViolation
from ashfall.ruleset import Ruleset, preset
from tests.rules.attack_kit import GREATAXE, RIFLE, SHOOTER, SWORD, WARRIOR, creature, melee

ED1, ED2 = preset("ashfall-1"), preset("ashfall-2")


def dv(total: int) -> DefenseBreakdown:
    return DefenseBreakdown(total, stack([Modifier(total, ModifierKind.DV_BASE, rule("DV-1"), "DV")]))


def total_of(weapon: Weapon, mode: AttackMode, ctx: AttackContext, rs: Ruleset = ED2) -> int:
    mods, _ = attack_modifiers(WARRIOR, weapon, mode, rs, ctx)
    return sum(m.value for m in mods)


# ----- single-target activities -----


@pytest.mark.rule("MAA-5", "G-36", "CRIT-2")
def test_maa_5__power_strike_minus_2_to_hit_plus_4_damage_once_on_a_crit() -> None:
    ctx = AttackContext(activity=Activity.POWER_STRIKE)
    assert total_of(SWORD, AttackMode.MELEE, ctx) == 6 - 2
    with ScriptedRng([20]) as rng:
        result = resolve_attack(WARRIOR, SWORD, AttackMode.MELEE, dv(15), ctx, rng, ED2)
    assert ("power-strike", 4) in [(p.label, p.flat) for p in result.damage_parts]
    with ScriptedRng([(10, 5), (10, 6)]) as rng:
        dmg = roll_damage(result.damage_parts, rng, ED2, critical=True)
    assert dmg.total == 5 + 6 + 4 + 4


@pytest.mark.rule("G-36", "MAA-5")
@pytest.mark.parametrize(("melee_only", "allowed"), [(False, True), (True, False)])
def test_g_36__power_strike_with_a_ranged_weapon(melee_only: bool, allowed: bool) -> None:
    rs = ED2.with_options(attack={"power_strike_melee_only": melee_only})
    ctx = AttackContext(activity=Activity.POWER_STRIKE)
    if allowed:
        assert total_of(RIFLE, AttackMode.RANGED, ctx, rs) == 4 - 2
    else:
        with pytest.raises(RuleViolation) as err:
            total_of(RIFLE, AttackMode.RANGED, ctx, rs)
        assert err.value.rule == "G-36"


@pytest.mark.rule("MAA-7", "MAP-5")
def test_maa_7__all_out_attack_three_attacks_at_0_3_6() -> None:
    totals = [total_of(SWORD, AttackMode.MELEE, AttackContext(activity=Activity.ALL_OUT, map_modifier=m))
              for m in all_out_schedule(ED2)]
    assert totals == [6, 3, 0]


@pytest.mark.rule("RX-13", "G-40", "G-41")
def test_rx_13__brace_adds_1d6_of_the_weapon_type_and_ignores_map() -> None:
    ctx = AttackContext(activity=Activity.BRACE, map_modifier=map_modifier(2, ED2))
    with ScriptedRng([10]) as rng:
        result = resolve_attack(WARRIOR, SWORD, AttackMode.MELEE, dv(15), ctx, rng, ED2)
    assert result.roll.total == 16 and not result.counts_for_map
    brace = [p for p in result.damage_parts if p.rule == "RX-13"]
    assert len(brace) == 1 and str(brace[0].dice) == "1d6" and brace[0].type is SWORD.damage_type


@pytest.mark.rule("E-05")
def test_e_05__aim_gives_plus_2_to_a_ranged_attack_in_edition_1_only() -> None:
    ctx = AttackContext(aimed=True)
    mods, _ = attack_modifiers(SHOOTER, RIFLE, AttackMode.RANGED, ED1, ctx)
    assert sum(m.value for m in mods) == 5 + 2
    with ScriptedRng([8]) as rng:
        ed1 = resolve_attack(SHOOTER, RIFLE, AttackMode.RANGED, dv(15), ctx, rng, ED1)
    assert ed1.hit
    with pytest.raises(RuleViolation) as err:
        attack_modifiers(SHOOTER, RIFLE, AttackMode.RANGED, ED2, ctx)
    assert err.value.rule == "E-05"
    with pytest.raises(RuleViolation):
        attack_modifiers(SHOOTER, SWORD, AttackMode.MELEE, ED1, ctx)


@pytest.mark.rule("MAA-2", "MAA-3", "SWP-1")
@pytest.mark.parametrize(
    ("activity", "weapon", "mode"),
    [(Activity.SWEEPING, RIFLE, AttackMode.RANGED), (Activity.FULL_AUTO, SWORD, AttackMode.MELEE),
     (Activity.RETURN_FIRE, SWORD, AttackMode.MELEE), (Activity.BRACE, RIFLE, AttackMode.RANGED)],
)
def test_activities__refuse_the_wrong_kind_of_attack(activity: Activity, weapon: Weapon, mode: AttackMode) -> None:
    with pytest.raises(RuleViolation):
        total_of(weapon, mode, AttackContext(activity=activity))


# ----- Sweeping Strike (G-09, SWP-1..3) -----


def sweep(faces: Sequence[int], targets: Sequence[int], *, map_mod: Modifier | None = None,
          rs: Ruleset = ED2, conditions: Sequence[frozenset[Condition]] = ()) -> MultiAttackResult:
    warrior = creature("warrior", MIG=4, proficiency=0, weapon_proficiencies=frozenset({"martial"}))
    conds = list(conditions) or [frozenset()] * len(targets)
    ts = [Target(dv(t), c) for t, c in zip(targets, conds, strict=True)]
    with ScriptedRng(faces) as rng:
        return resolve_multi_target(warrior, GREATAXE, AttackMode.MELEE, ts,
                                    AttackContext(activity=Activity.SWEEPING, map_modifier=map_mod), rng, rs)


@pytest.mark.rule("SWP-1", "SWP-2", "SWP-3", "G-09", "MAA-3")
def test_swp_2__the_chapter_example_one_roll_three_dvs() -> None:
    # Warrior with a greataxe (1d12 + 4 MIG), proficiency 0 here: 13 + 4 - 2 = 15 as in the example (line 1010)
    result = sweep([13], [13, 14, 16])
    assert len(result.rolls) == 1 and result.rolls[0].total == 13 + 4 - 2
    assert [t.outcome for t in result.targets] == [Outcome.HIT, Outcome.HIT, Outcome.MISS]
    a, b, c = (t.damage_parts for t in result.targets)
    assert [(str(p.dice) if p.dice else p.flat) for p in a] == ["1d12", 4]
    assert [str(p.dice) for p in b] == ["1d12"] and c == ()
    assert result.counts_for_map


@pytest.mark.rule("G-09", "CRIT-1", "CRIT-3")
@pytest.mark.parametrize(("face", "outcome"), [(20, Outcome.CRIT), (1, Outcome.MISS)])
def test_g_09__natural_20_crits_every_target_natural_1_misses_all(face: int, outcome: Outcome) -> None:
    result = sweep([face], [30, 2, 12])
    assert all(t.outcome is outcome for t in result.targets)


@pytest.mark.rule("G-09", "MAP-1")
def test_g_09__sweeping_takes_the_current_map_once() -> None:
    result = sweep([10], [10, 10], map_mod=map_modifier(1, ED2))
    assert result.rolls[0].total == 10 + 4 - 2 - 3


@pytest.mark.rule("SWP-1")
def test_swp_1__at_most_three_targets() -> None:
    with pytest.raises(RuleViolation) as err:
        sweep([], [10, 10, 10, 10])
    assert err.value.rule == "SWP-1"


@pytest.mark.rule("E-10")
def test_e_10__no_sweeping_strike_in_edition_1() -> None:
    with pytest.raises(RuleViolation) as err:
        sweep([], [10], rs=ED1)
    assert err.value.rule == "E-10"


@pytest.mark.rule("CRIT-5")
def test_g_09__an_unconscious_target_in_the_sweep_is_critted() -> None:
    conds = [frozenset(), frozenset({Condition.UNCONSCIOUS})]
    result = sweep([12], [10, 10], conditions=conds)
    assert [t.outcome for t in result.targets] == [Outcome.HIT, Outcome.CRIT]


# ----- Full Auto Burst (G-35, X-12, MAA-2) -----


def burst(faces: Sequence[int], targets: Sequence[int | DefenseBreakdown], *, rs: Ruleset = ED2,
          spread: int | None = None) -> MultiAttackResult:
    ts = [Target(dv(t) if isinstance(t, int) else t) for t in targets]
    with ScriptedRng(faces) as rng:
        return resolve_multi_target(SHOOTER, RIFLE, AttackMode.RANGED, ts,
                                    AttackContext(activity=Activity.FULL_AUTO), rng, rs, spread_ft=spread)


@pytest.mark.rule("MAA-2", "G-35")
def test_maa_2__full_auto_one_roll_at_minus_2_against_each_dv_full_damage() -> None:
    result = burst([10], [13, 14, 12])
    assert result.rolls[0].total == 10 + 5 - 2
    assert [t.outcome for t in result.targets] == [Outcome.HIT, Outcome.MISS, Outcome.HIT]
    assert result.targets[0].damage_parts == result.targets[2].damage_parts != ()


@pytest.mark.rule("G-35")
def test_g_35__alternative_rolls_once_per_target() -> None:
    rs = ED2.with_options(attack={"full_auto_single_roll": False})
    result = burst([10, 2, 15], [13, 13, 13], rs=rs)
    assert len(result.rolls) == 3
    assert [t.outcome for t in result.targets] == [Outcome.HIT, Outcome.MISS, Outcome.HIT]


@pytest.mark.rule("X-12", "MAA-2", "SWP-4")
@pytest.mark.parametrize(("spread", "ok"), [(10, True), (15, False)])
def test_x_12__full_auto_targets_within_10_ft_of_one_another(spread: int, ok: bool) -> None:
    if ok:
        assert len(burst([10], [10, 10], spread=spread).targets) == 2
    else:
        with pytest.raises(RuleViolation) as err:
            burst([], [10, 10], spread=spread)
        assert err.value.rule == "X-12"


@pytest.mark.rule("COV-3", "STC-3", "AMOD-3")
def test_full_auto__total_cover_on_any_target_is_refused_and_cover_raises_each_dv() -> None:
    hidden = defense_value(creature(), None, None, ED2, cover=Cover.TOTAL)
    with pytest.raises(RuleViolation):
        burst([], [10, hidden])
    partial = defense_value(creature(AGI=1), None, None, ED2, cover=Cover.PARTIAL)
    result = burst([8], [10, partial])
    assert [t.outcome for t in result.targets] == [Outcome.HIT, Outcome.MISS]


@pytest.mark.rule("CS-0")
def test_multi_target__called_shots_are_refused() -> None:
    ctx = AttackContext(activity=Activity.FULL_AUTO, called_shot=CalledShot.LEG)
    with ScriptedRng([]) as rng, pytest.raises(RuleViolation):
        resolve_multi_target(SHOOTER, RIFLE, AttackMode.RANGED, [Target(dv(10))], ctx, rng, ED2)


@pytest.mark.rule("G-09")
def test_multi_target__a_strike_is_not_multi_target() -> None:
    with ScriptedRng([]) as rng, pytest.raises(RuleViolation):
        resolve_multi_target(WARRIOR, melee(), AttackMode.MELEE, [Target(dv(10))], AttackContext(), rng, ED2)
