"""Hypothesis: random fights inside the kernel's slice play identically on the kernel and the reference engine.

Random stat blocks (HP, temporary HP, attributes, proficiency, a melee weapon from the library, armor, a shield, DR,
resistances, vulnerabilities, immunities, initiative bonuses), one to three combatants a side, two or three
sides, off the map or on random squares of an open 5 x 5 map, random plans of Strike / Power Strike / All-Out
Attack with any target rule, player characters and NPCs that make death saves (with the dying track's options:
massive damage, what it counts, damage to a stabilised creature, stabilised HP, NPCs falling dying), both
editions, short and long round limits, and fights of one or two a side that start apart on a wide grid
(the approach: nearest by position, paths around the others and through random terrain, flanking, Attacks of
Opportunity, Intercept as the AI judges it; in half of them random walls, cover objects and height, with cover
counting against melee attacks in half of those): the kernel plays the supported ones
draw for draw, and the rest are named (maps where someone must move, flanking, Intercept …), never played wrong.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from ashfall.content.schema import Attributes, Creature, CreatureKind, DrEntry, MoraleProfile
from ashfall.core.types import DamageType
from ashfall.encounters.schema import TargetRule
from ashfall.grid.board import Board, CoverLevel, CoverObject, Terrain
from ashfall.ruleset import preset
from ashfall.sim.kernel_lower import check
from ashfall.sim.kernel_run import KernelSetup
from ashfall.sim.policy import Policy, ScriptedTactics
from ashfall.sim.setups import InlineCombatant, InlineSetup
from ashfall.sim.signature import compare_engines, reference_signature
from tests.kernel.kit import EDITIONS, InlineWithPolicies, seeds

MELEE = ("salvaged-sword", "greataxe", "combat-knife", "spear", "sledgehammer", "halberd", "chainsaw")
BRAWL = ("salvaged-sword", "greataxe", "sledgehammer", "chainsaw", "salvaged-sword", "combat-knife")
"""Weapons of fights on the move: mostly the 5-ft ones that neither throw nor brace (the kernel's approach)."""
ARMOR = (None, "scrap-leathers", "flak-vest", "combat-plate")
PHYSICAL = (DamageType.SLASHING, DamageType.PIERCING, DamageType.BLUDGEONING)
PLAN_STEPS = ("strike", "power-strike", "all-out-attack")
TERRAIN = (Terrain.DIFFICULT, Terrain.GREATER_DIFFICULT, Terrain.WATER, Terrain.IMPASSABLE)
COVER = (CoverObject(CoverLevel.PARTIAL, name="low wall"), CoverObject(CoverLevel.HEAVY, name="heavy cover"),
         CoverObject(CoverLevel.HEAVY, blocks_movement=False, name="scrap heap"),
         CoverObject(CoverLevel.PARTIAL, blocks_movement=False, name="brush", light=True))
"""Cover objects of fights on the move: partial and heavy, some of them walked through (total cover: walls)."""
TARGETS = (None, TargetRule.NEAREST, TargetRule.WEAKEST, TargetRule.STRONGEST, TargetRule.HIGHEST_THREAT)


@dataclass(frozen=True, slots=True)
class Planned(InlineWithPolicies):
    """An inline fight whose plans also carry a target rule (InlineSetup's plans attack the nearest)."""

    targets: tuple[TargetRule | None, ...]
    ai_answers: bool = True

    def policy(self, index: int, combatant: InlineCombatant) -> Policy:
        return ScriptedTactics(combatant.plan, target=self.targets[index])

    def answers(self) -> bool:
        return self.ai_answers  # as an encounter file's fight: the AI answers decisions (else: the first option)


@st.composite
def creatures(draw: st.DrawFn, cid: str, weapons: tuple[str, ...] = MELEE) -> Creature:
    resist = draw(st.sets(st.sampled_from(PHYSICAL), max_size=1))
    vulnerable = draw(st.sets(st.sampled_from(PHYSICAL), max_size=1)) - resist
    immune = draw(st.sets(st.sampled_from(PHYSICAL), max_size=1)) - resist - vulnerable
    dr = draw(st.integers(0, 3))
    return Creature(
        id=cid, name=cid.title(), hp=draw(st.integers(1, 40)), temp_hp=draw(st.integers(0, 8)),
        proficiency=draw(st.integers(0, 4)),
        attributes=Attributes(MIG=draw(st.integers(-1, 5)), AGI=draw(st.integers(-1, 5))),
        weapons=(draw(st.sampled_from(weapons)),), armor=draw(st.sampled_from(ARMOR)),
        shield=draw(st.sampled_from([None, None, "riot-shield"])),
        weapon_proficiencies=draw(st.sampled_from([frozenset({"simple", "martial"}), frozenset({"simple"})])),
        initiative_bonus=draw(st.integers(-2, 3)), resistances=frozenset(resist), vulnerabilities=frozenset(vulnerable),
        immunities=frozenset(immune),
        dr=(DrEntry(amount=dr, source="hide", physical_only=draw(st.booleans())),) if dr else (),
        morale=MoraleProfile(immune=True),
        kind=draw(st.sampled_from([CreatureKind.NPC, CreatureKind.NPC, CreatureKind.PC])),
        uses_death_saves=draw(st.sampled_from([False, False, True])),
    )


@st.composite
def fights(draw: st.DrawFn, moving: bool = False, among_walls: bool = False) -> Planned:
    n_sides = draw(st.integers(2, 3))
    on_map = moving or draw(st.booleans())
    spread = moving or (on_map and draw(st.booleans()))  # a wide grid: creatures apart, someone approaches first
    side = 6 if spread else 3
    squares = iter(draw(st.permutations([(x, y) for x in range(1, side + 1) for y in range(1, side + 1)])))
    members: list[InlineCombatant] = []
    targets: list[TargetRule | None] = []
    for s in range(n_sides):
        for m in range(draw(st.integers(1, 3 if n_sides == 2 and not spread else 2))):
            cid = f"c{s}{m}"
            plan = tuple(draw(st.lists(st.sampled_from(PLAN_STEPS), min_size=1, max_size=3)))
            members.append(InlineCombatant(cid, f"side{s}", draw(creatures(cid, BRAWL if spread else MELEE)),
                                           next(squares) if on_map else None, plan))
            targets.append(draw(st.sampled_from(TARGETS)))
    ruleset = preset(draw(st.sampled_from(EDITIONS)))
    if draw(st.booleans()):  # the dying track's options (MASS-1, G-50, DEATH-14, X-08, G-38, DEATH-3, DEATH-11)
        ruleset = ruleset.with_options(
            damage={"massive_damage": draw(st.booleans()),
                    "massive_damage_basis": draw(st.sampled_from(["after-temp-hp", "before-temp-hp"])),
                    "stabilized_damage_resumes_dying": draw(st.booleans())},
            dying={"stabilised_hp": draw(st.integers(0, 1)), "npcs_die_at_zero": draw(st.booleans()),
                   "failures_to_die": draw(st.integers(2, 4)), "crit_failures": draw(st.integers(1, 3))})
    limit = draw(st.sampled_from([2, 5, 30]))
    terrain: dict[tuple[int, int], Terrain] = {}
    if spread and draw(st.booleans()):  # terrain prices the steps of the approach (MOV-2..5, X-03)
        taken = {c.position for c in members}
        free = [(x, y) for x in range(side + 2) for y in range(side + 2) if (x, y) not in taken]
        terrain = draw(st.dictionaries(st.sampled_from(free), st.sampled_from(TERRAIN), max_size=8))
    walls, cover, elevation = walled(draw, members, side + 2, among_walls) if spread else (frozenset(), {}, {})
    if cover and draw(st.booleans()):  # cover against melee attacks too (X-01's switch)
        ruleset = ruleset.with_options(defense={"cover_applies": "all-attacks"})
    board = Board(side + 2, side + 2, terrain, walls, cover, elevation) if on_map else None
    return Planned(InlineSetup("random fight", tuple(members), ruleset, board, limit), tuple(targets),
                   moving or draw(st.sampled_from([True, True, True, False])))


def walled(draw: st.DrawFn, members: list[InlineCombatant], width: int, always: bool = False
           ) -> tuple[frozenset[tuple[int, int]], dict[tuple[int, int], CoverObject], dict[tuple[int, int], int]]:
    """Walls, cover objects and height on the free squares of a wide grid, in half the fights (COV-1..3, POS-4)."""
    if not always and not draw(st.booleans()):
        return frozenset(), {}, {}
    taken = {c.position for c in members}
    free = [(x, y) for x in range(width) for y in range(width) if (x, y) not in taken]
    walls = frozenset(draw(st.sets(st.sampled_from(free), max_size=8)))
    open_squares = [sq for sq in free if sq not in walls]
    cover = draw(st.dictionaries(st.sampled_from(open_squares), st.sampled_from(COVER), max_size=8))
    elevation = draw(st.dictionaries(st.sampled_from(free), st.sampled_from([5, 10]), max_size=6))
    return walls, cover, elevation


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fights())
def test_random_fights__kernel_matches_reference_or_names_what_it_lacks(setup: Planned) -> None:
    problem = check(setup)
    event(f"not on the kernel: {problem.split(' (')[0]}" if problem else "played on both engines")
    if problem is not None:
        assert problem.strip()  # the notice names a feature; the reference engine plays this one
        return
    kernel = KernelSetup(setup)
    event("with an approach on the grid" if kernel.lowered.moves else "without moving")
    board = setup.inline.board
    if kernel.lowered.moves and board is not None and (board.walls or board.cover or board.elevation):
        event("on the move among walls, cover objects or height")
    report = compare_engines(setup, seeds(6), reference_signature, lambda _, seed: kernel.signature(seed))
    fight = [(c.id, c.side, c.plan, rule, c.creature.model_dump(exclude_defaults=True))
             for c, rule in zip(setup.inline.combatants, setup.targets, strict=True)]
    assert report.identical, (setup.inline.ruleset.name, setup.inline.round_limit, fight, report.first)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fights(moving=True))
def test_random_fights_on_the_move__kernel_matches_reference_or_names_what_it_lacks(setup: Planned) -> None:
    """Fights that start apart on a wide grid (with terrain, walls, cover or height or not), the AI answering
    reactions: every one."""
    test_random_fights__kernel_matches_reference_or_names_what_it_lacks.hypothesis.inner_test(setup)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fights(moving=True, among_walls=True))
@pytest.mark.rule("COV-1", "COV-2", "COV-3", "POS-4", "RX-26", "G-37")
def test_random_fights_among_walls_and_cover__kernel_matches_reference_or_names_what_it_lacks(setup: Planned) -> None:
    """Fights that start apart on a wide grid among random walls, cover objects and height: every one."""
    test_random_fights__kernel_matches_reference_or_names_what_it_lacks.hypothesis.inner_test(setup)
