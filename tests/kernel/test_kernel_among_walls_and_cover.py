"""The fight kernel among walls, cover objects and height: what lies between two squares, read as the engine reads it.

The sight table is the engine's own ``situation`` (cover, high ground) and ``has_line_of_sight`` over every pair of
squares near enough to matter; the kernel then refuses total cover as a target, a square to attack from and an
Attack of Opportunity (COV-3), lets only an interceptor that sees the attacker intercept (RX-26) and reads each
attack's cover into the attack tables (COV-1, COV-2, X-01's switch). The melee among cover plays the reference
engine's fights draw for draw (``test_kernel_matches_reference`` runs it with the other sets); a kernel that
ignores the cover or the walls must diverge.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from ashfall.rules.defense import Cover
from ashfall.sim.engines import choose_engine
from ashfall.sim.kernel_lower import SIGHT_TOTAL, Sights, read_sights, seen_table
from ashfall.sim.kernel_run import KernelSetup
from ashfall.sim.setups import EncounterSetup, FightSetup
from ashfall.sim.signature import FightSignature, compare_engines, reference_signature
from tests.kernel.kit import AMONG_COVER, OWN, seeds, setup_of


def _sight_table(edition: str = OWN) -> tuple[Sights, int]:
    fight = setup_of(AMONG_COVER, edition).build_fight(0)
    state = fight.engine.state
    sights = read_sights(state, list(state.combatants.values()))
    return sights, (sights.table.shape[2] - 1) // 2


def _entry(sights: Sights, r: int, attacker: tuple[int, int], target: tuple[int, int]) -> tuple[int, int]:
    (ax, ay), (tx, ty) = attacker, target
    view, flags = sights.table[ax, ay, tx - ax + r, ty - ay + r]
    return int(view), int(flags)


@pytest.mark.rule("COV-3", "G-37")
def test_sight__two_walls_meeting_at_a_corner_give_total_cover_and_block_sight() -> None:
    sights, r = _sight_table()
    seen = seen_table(setup_of(AMONG_COVER, OWN).build_fight(0).engine.state)  # an interceptor's sight (RX-26)
    for attacker, target in (((5, 3), (6, 2)), ((3, 3), (2, 2))):  # walls at (5, 2), (6, 3); (3, 2), (2, 3)
        view, flags = _entry(sights, r, attacker, target)
        assert flags == SIGHT_TOTAL
        assert sights.views[view][0] is Cover.TOTAL
        assert seen[attacker[0], attacker[1], target[0], target[1]] == 0
        assert seen[target[0], target[1], attacker[0], attacker[1]] == 0


@pytest.mark.rule("COV-1", "COV-2", "G-37")
@pytest.mark.parametrize(("attacker", "target", "cover"), [
    ((1, 3), (2, 2), Cover.HEAVY),  # past heavy cover at (1, 2) and a wall at (2, 3): the weaker counts
    ((9, 3), (10, 2), Cover.PARTIAL),  # past a barricade at (9, 2) and a wall at (10, 3)
    ((4, 2), (3, 1), Cover.NONE),  # past one wall's corner: the other grazing line is clear
])
def test_sight__a_diagonal_attack_past_two_cover_objects_meets_the_weaker(
        attacker: tuple[int, int], target: tuple[int, int], cover: Cover) -> None:
    sights, r = _sight_table()
    view, flags = _entry(sights, r, attacker, target)
    assert (sights.views[view][0], flags) == (cover, 0)


@pytest.mark.rule("POS-4")
def test_sight__the_platform_gives_high_ground_down_only() -> None:
    sights, r = _sight_table()
    assert sights.views[_entry(sights, r, (6, 2), (5, 1))[0]][1]
    assert not sights.views[_entry(sights, r, (5, 1), (6, 2))[0]][1]


@pytest.mark.rule("COV-1", "X-01")
def test_attack_tables__cover_counts_against_melee_only_under_the_switch() -> None:
    """Under the editions' default cover's DV counts against ranged attacks only (X-01): the tables say so."""
    for edition, differs in ((OWN, True), ("ashfall-2", False)):
        lowered = KernelSetup(setup_of(AMONG_COVER, edition)).lowered
        sights, _ = _sight_table(edition)
        plain = sights.views.index((Cover.NONE, False))
        partial = sights.views.index((Cover.PARTIAL, False))
        beside = 2  # the situation code's "within 5 ft"
        a, t = lowered.ids.index("kernel-cutter"), lowered.ids.index("kernel-warden")
        open_table = lowered.outcome[a, t, 0, 0, 0, beside + 4 * plain]
        covered = lowered.outcome[a, t, 0, 0, 0, beside + 4 * partial]
        assert bool((open_table != covered).any()) is differs


class BrokenSight:
    """The kernel with its sight table broken on purpose: a runner the harness must catch."""

    def __init__(self, setup: FightSetup, broken: str) -> None:
        self.kernel = KernelSetup(setup)
        lowered = self.kernel.lowered
        sight = lowered.sight.copy()
        if broken == "no-cover":  # every pair of squares read as the open view: cover never counts (COV-1, COV-2)
            open_view = _sight_table()[0].views.index((Cover.NONE, False))
            sight[..., 0] = open_view
        else:  # walls that neither give total cover nor block sight (COV-3, RX-26)
            sight[..., 1] = 0
        self.kernel.lowered = dataclasses.replace(lowered, sight=sight)

    def __call__(self, setup: FightSetup, seed: int) -> FightSignature:
        return self.kernel.signature(seed)


@pytest.mark.rule("COV-1", "COV-3")
@pytest.mark.parametrize("broken", ["no-cover", "walls-see-through"])
def test_compare_engines__a_kernel_blind_to_walls_or_cover_diverges(broken: str) -> None:
    setup = setup_of(AMONG_COVER, OWN)
    report = compare_engines(setup, seeds(30), reference_signature, BrokenSight(setup, broken))
    assert len(report.divergences) >= 3
    assert report.divergences[0].explanation


@pytest.mark.rule("CONC-2", "X-15")
@pytest.mark.parametrize(("light", "named"), [
    ("light: {ambient: dim}\n", "light and obscurement on the move"),
    ("light: {squares: {dark: [[6, 4]]}}\n", "light and obscurement on the move"),
])
def test_choose_engine__light_on_the_move_stays_on_the_reference_engine(
        tmp_path: Path, light: str, named: str) -> None:
    """Whether a creature sees another would depend on more than the walls between them: named, not mirrored."""
    text = AMONG_COVER.read_text(encoding="utf-8")
    path = tmp_path / "dim.yaml"
    path.write_text(text.replace("map:\n", light + "map:\n", 1), encoding="utf-8")
    choice = choose_engine(EncounterSetup(path), "auto")
    assert choice.engine == "reference"
    assert choice.notice is not None and named in choice.notice
