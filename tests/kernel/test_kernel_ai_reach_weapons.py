"""The tactical AI wielding a reach weapon in the fight kernel (ATK-1, RX-21, RX-26).

A halberd reaches 10 ft. The AI weighs every square within 10 ft of a target (``_wanted``: its melee options'
longest limit), plans its attacks from there in the situation it reads (no "within 5 ft" beyond it: the plan tables
are lowered for those codes too), prices the Attacks of Opportunity a walk provokes from an enemy whose reach is 10
ft (``threats``: the enemy's melee reach), counts an enemy halberd among the attacks a square invites from 10 ft
further than a sword's (``ranged_threat``: limit plus walk), and closes in to within 10 ft (``_approach``); its own
Attacks of Opportunity and the Intercept its swing invites are made and judged at 10 ft (the sight window reaches
the longest reach plus Intercept's range). Held here: the sets meet the case, the kernel plays them step for step,
its decision equals the AI's on every state, and kernels that forget the reach diverge. Named: a scripted reach
weapon on the move and a reach weapon beside another melee weapon (Brace, RX-12, is played: ``test_kernel_ai_brace``;
Trip at 10 ft beside it under edition 2: ``test_kernel_ai_trips_at_reach``).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from ashfall.ai.board_cache import gap_ft
from ashfall.ai.choice import Choice
from ashfall.content.schema import Speeds
from ashfall.engine import Engine
from ashfall.sim.kernel_lower import Lowered, check
from ashfall.sim.setups import EncounterSetup, FightSetup
from ashfall.sim.signature import reference_fight
from tests.kernel.kit import (
    ENCOUNTERS,
    Rewired,
    plays_like_the_reference,
    plays_like_the_reference_or_is_named,
    seeds,
    setup_of,
    variant,
    wrong_kernel_diverges,
)
from tests.kernel.test_kernel_ai import _Checked, _Mixed, ai_fights
from tests.kernel.test_kernel_ai_throws_out_of_range import _Counted, _decisions

RAIDERS = ENCOUNTERS / "ai-halberdier-against-two-slow-raiders.yaml"
FREE_FOR_ALL = ENCOUNTERS / "ai-halberdiers-in-a-free-for-all.yaml"
VANGUARD = ENCOUNTERS / "ai-halberd-and-pistol-against-two-slow-raiders.yaml"
SETS = [(RAIDERS, "ashfall-1"), (FREE_FOR_ALL, "ashfall-1"), (VANGUARD, "ashfall-1")]


@pytest.mark.rule("ATK-1", "RX-21", "RX-26")
@pytest.mark.parametrize(("path", "edition"), SETS, ids=[f"{p.stem}-{e}" for p, e in SETS])
def test_kernel_ai__reach_weapons_play_like_the_reference(path: Path, edition: str) -> None:
    plays_like_the_reference(setup_of(path, edition), 100)  # CI's share of the 1,000 seeds


def _reach_counts(setup: FightSetup, n: int) -> Counter[str]:
    """Attacks in ``n`` reference fights by reach (a halberd's, or a 5-ft weapon's) and distance, and Intercepts."""
    found: Counter[str] = Counter()
    for seed in seeds(n, sweep=setup.load_spec().seed or 0):
        fight = setup.build_fight(seed)
        state = fight.engine.state
        pos = {k: c.position for k, c in state.combatants.items()}
        long = {k for k, c in state.combatants.items() if any(w.reach > 5 for w in c.weapons)}
        for e in reference_fight(setup, seed).log:
            kind = getattr(e, "type", "")
            if kind == "moved":
                pos[e.actor] = e.to
            elif kind == "attack-rolled":
                a, t = pos[e.actor], pos[e.target]
                feet = max(abs(a[0] - t[0]), abs(a[1] - t[1])) * 5
                who = "reach" if e.actor in long else "short"
                found[f"{who} {'shot' if e.weapon == 'pistol' else e.label} at {min(feet, 15)} ft"] += 1
            elif kind == "reaction-spent" and "ntercept" in e.label:
                found["intercepts"] += 1
    return found


@pytest.mark.rule("ATK-1", "RX-21", "RX-26")
def test_reach_sets__meet_attacks_from_10_ft_and_their_reactions() -> None:
    """In 20 reference fights of the raiders' sets (60 of the free-for-all) the halberds strike from 10 ft, make
    Attacks of Opportunity from 10 ft, and their swings are Intercepted; the Vanguard's pistol is fired. (In 200 fights
    of each: 150, 931 and 509 Strikes from 10 ft, 24 Attacks of Opportunity from 10 ft in the free-for-all, 111 and
    190 Intercepts, 8 of them taking a swing at an interceptor 15 ft away, 131 pistol shots.)"""
    raiders = _reach_counts(setup_of(RAIDERS, "ashfall-1"), 20)
    assert raiders["reach Strike at 10 ft"] >= 10 and raiders["intercepts"] >= 3, raiders
    brawl = _reach_counts(setup_of(FREE_FOR_ALL, "ashfall-1"), 60)
    assert brawl["reach Strike at 10 ft"] >= 150 and brawl["reach Attack of Opportunity at 10 ft"] >= 1, brawl
    vanguard = _reach_counts(setup_of(VANGUARD, "ashfall-1"), 20)
    assert vanguard["reach Strike at 10 ft"] >= 20 and vanguard["reach shot at 15 ft"] >= 5, vanguard


class _ReachCounted(_Counted):
    """The tactical AI with the kernel's decision compared at every choice, counting its attacks by distance."""

    __slots__ = ()

    def choose(self, engine: Engine, actor: str) -> Choice | None:
        choice = _Checked.choose(self, engine, actor)  # compared with the kernel's decision on the same state
        state = engine.state
        if state.active_id == actor and not state.ended:
            reason = choice.reason.value if choice is not None else "none"
            cand = choice.candidate if choice is not None else None
            if cand is not None:
                square = cand.route.to if cand.route.actions else state.get(actor).position
                assert square is not None
                reason += f" from {gap_ft((square,), state.get(cand.plan.target).space)} ft"
            self.counts[reason] += 1
        return choice


@pytest.mark.rule("ATK-1", "RX-21")
@pytest.mark.parametrize("path", [RAIDERS, FREE_FOR_ALL, VANGUARD], ids=lambda p: p.stem)
def test_kernel_ai_decide__equals_tactical_policy_choose_with_a_reach_weapon(path: Path) -> None:
    """Every decision of 6 fights of each set equals the AI's; some attack or walk to attack from 10 ft."""
    found = _decisions(path, "ashfall-1", 6, _ReachCounted)
    assert found["attack from 10 ft"] + found["move-to-attack from 10 ft"] >= 3, found
    assert found["attack from 5 ft"] >= 3, found


def _no_plans_beyond_5_ft(lo: Lowered) -> Lowered:
    """The AI's plans from beyond 5 ft dropped (wrong): it would attack only from beside its target."""
    first = lo.ai.plan_first.copy()
    first[:, :, [code for code in range(first.shape[2]) if not code & 2]] = -1
    return dataclasses.replace(lo, ai=dataclasses.replace(lo.ai, plan_first=first))


def _reach_read_as_5_ft(lo: Lowered) -> Lowered:
    """Every halberd's reach read as 5 ft (wrong): no attack, threat or Attack of Opportunity from 10 ft."""
    return dataclasses.replace(lo, reach_ft=np.minimum(lo.reach_ft, 5))


@pytest.mark.rule("ATK-1", "RX-21")
@pytest.mark.parametrize(("path", "wrong"), [(RAIDERS, _no_plans_beyond_5_ft), (FREE_FOR_ALL, _no_plans_beyond_5_ft),
                                             (FREE_FOR_ALL, _reach_read_as_5_ft), (VANGUARD, _no_plans_beyond_5_ft)],
                         ids=["raiders-no-plans", "free-for-all-no-plans", "free-for-all-5-ft", "vanguard-no-plans"])
def test_compare_engines__a_kernel_forgetting_the_reach_diverges(path: Path,
                                                                    wrong: Callable[[Lowered], Lowered]) -> None:
    setup = setup_of(path, "ashfall-1")
    wrong_kernel_diverges(setup, Rewired(setup, wrong), 20, 3)


@pytest.mark.rule("E-37", "TRP-1", "ATK-1")
@pytest.mark.parametrize(("old", "new", "edition", "named"), [
    ("  - side: halberd\n    zone: B\n", "  - side: halberd\n    zone: B\n    tactics: [strike]\n", "ashfall-1",
     "maps and movement with reach weapons (combatant kernel-ai-halberdier)"),
    ("weapons: [halberd]", "weapons: [halberd, combat-knife]", "ashfall-1",
     "the tactical AI with a reach weapon beside another melee weapon (combatant kernel-ai-halberdier)"),
])
def test_check__what_reach_weapons_do_not_cover_is_named(tmp_path: Path, old: str, new: str, edition: str,
                                                         named: str) -> None:
    assert check(variant(tmp_path, RAIDERS, old, new, edition)) == named


@pytest.mark.rule("E-37", "TRP-1")
def test_kernel_ai__a_reach_weapon_beside_edition_2_trip_plays_like_the_reference(tmp_path: Path) -> None:
    """One raider against the halberdier under edition 2 (no Sweeping Strike among several): Trip at 10 ft is played
    (``test_kernel_ai_trips_at_reach`` holds it on its own set)."""
    text = RAIDERS.read_text(encoding="utf-8")
    start = text.index("  - side: raiders\n    zone: A\n    tactics: [strike, strike]")
    end = text.index("  - side: halberd\n    zone: B")
    path = tmp_path / "one.yaml"
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    plays_like_the_reference(EncounterSetup(path, "ashfall-2"), 30)


@pytest.mark.rule("E-37", "SWP-3", "G-35")
@pytest.mark.parametrize(("path", "named"), [
    (RAIDERS, "the tactical AI's Sweeping Strike among several enemies (SWP-3, E-37, combatant kernel-ai-halberdier)"),
    (FREE_FOR_ALL,
     "the tactical AI's Sweeping Strike among several enemies (SWP-3, E-37, combatant kernel-ai-pikeman)"),
    (VANGUARD, "the tactical AI's Sweeping Strike among several enemies (SWP-3, E-37, combatant kernel-ai-vanguard)"),
], ids=lambda p: getattr(p, "stem", ""))
def test_check__the_reach_sets_under_edition_2_are_named(path: Path, named: str) -> None:
    assert check(setup_of(path, "ashfall-2")) == named


@st.composite
def reach_fights(draw: st.DrawFn) -> _Mixed:
    """The random AI fights of ``test_kernel_ai`` (terrain, walls, cover objects, height), some creatures with a halberd
    instead of their weapon, everyone walking 15 ft a Stride (below Brace's 20-ft charge, RX-12), half of them without
    walls."""
    fight = draw(ai_fights())
    members = []
    for c in fight.inline.combatants:
        weapons = ("halberd",) if draw(st.booleans()) else c.creature.weapons
        creature = c.creature.model_copy(update={"weapons": weapons, "speeds": Speeds(walk=15)})
        members.append(dataclasses.replace(c, creature=creature))
    board = fight.inline.board
    if board is not None and draw(st.booleans()):  # walls within 10 ft of a square are often total cover (named)
        board = dataclasses.replace(board, walls=frozenset())
    inline = dataclasses.replace(fight.inline, combatants=tuple(members), board=board)
    return dataclasses.replace(fight, inline=inline)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reach_fights())
@pytest.mark.rule("ATK-1", "RX-21", "COV-1", "COV-2", "POS-4")
def test_random_reach_fights__kernel_matches_reference_or_names_what_it_lacks(setup: _Mixed) -> None:
    plays_like_the_reference_or_is_named(setup, 6, (setup.inline, setup.ai))
    if check(setup) is None and any("halberd" in c.creature.weapons for c in setup.inline.combatants):
        event("played with a halberd")
