"""The tactical AI's guns where a target stands behind total cover, in the fight kernel (COV-3, G-31, RX-29..31).

A shot at a target behind total cover has no odds (``base_for``) and the engine refuses it (``refuse_untargetable``).
The AI then has no plan with its gun against that target from that square, counts no loaded gun of an enemy's from
behind it among the fire a square invites (``ranged_threat``), treats a gun whose targets within its long range all
stand behind total cover as one with nothing to shoot at where it stands (``TacticalPolicy._wanted``: walks to squares
within its normal range are weighed), and closes in only to a square with a line of fire (``_approach``); the kernel
reads these as it does for a throw (``OptionTables.total``). What a gun adds: its rounds (spent per shot and per
Return Fire, G-31) and the Return Fire a hit sets off (RX-29..31), which the AI declines towards a shooter walled off
from it (``reactions.ai._walled_off``) and the engine refuses (``return_fire_weapon``). On the maps the kernel plays
that never happens: total cover comes from walls alone (``kernel_lower._sight_problem`` names cover objects of total
cover), walls are what blocks sight, and the kernel names total cover one way only (``options_problem``), so a
creature hit by a shot, or an Interceptor that sees the shooter (RX-26), always has a line of fire back. Held here:
that premise on the set's map, the set plays step for step, every decision equals the AI's, Return Fire happens in
the reference logs, and kernels reading total cover as open ground, or without Return Fire, diverge.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import tests.kernel.kit as kit
from ashfall.ai.sight import Sights
from ashfall.grid.board import Terrain
from ashfall.grid.geometry import has_line_of_sight
from ashfall.sim.kernel_lower import Lowered, check
from ashfall.sim.kernel_run import KernelSetup
from ashfall.sim.kernel_weapons_lower import _walled
from ashfall.sim.signature import reference_fight
from tests.kernel.test_kernel_ai_throws_behind_total_cover import _open_ground, walled_decisions

PISTOLS = kit.ENCOUNTERS / "ai-pistols-fire-back-across-walls.yaml"
EDITIONS = ["ashfall-1", "ashfall-2"]


@pytest.mark.rule("COV-3", "G-31", "RX-29", "RX-30", "RX-31", "E-05", "E-18", "E-37")
@pytest.mark.parametrize("edition", EDITIONS)
def test_kernel_ai__fires_guns_from_behind_total_cover_like_the_reference(edition: str) -> None:
    kit.plays_like_the_reference(kit.setup_of(PISTOLS, edition), 100)  # CI's share of the 1,000 seeds


@pytest.mark.rule("COV-3", "RX-29")
def test_options_problem__guns_behind_total_cover_are_played_with_return_fire() -> None:
    """Both fire back (RX-29: the AI plays each, trained with its pistol) and some squares are walled off."""
    setup = kit.setup_of(PISTOLS, "ashfall-1")
    assert check(setup) is None
    lo = KernelSetup(setup).lowered
    assert lo.ai.options.total.any()
    assert (lo.ai.ranged.fire_back == 50).all()  # the pistol's normal range (RX-31)


@pytest.mark.rule("COV-3", "RX-26", "RX-29")
def test_set_map__total_cover_is_both_ways_and_exactly_no_line_of_sight() -> None:
    """The premise that keeps ``_walled_off`` from ever declining a Return Fire on the kernel: on every pair of
    squares total cover holds both ways and exactly where no line of sight does (so a shooter's target, or an
    Interceptor that sees it, has a line of fire back)."""
    setup = kit.setup_of(PISTOLS, "ashfall-1")
    state = setup.build_fight(kit.seeds(1)[0]).engine.state
    board = state.board
    assert board is not None
    a, t = list(state.combatants.values())[:2]
    sights = Sights(state)
    squares = [(x, y) for x in range(board.width) for y in range(board.height)
               if board.terrain_at((x, y)) is not Terrain.IMPASSABLE]
    walled = 0
    for a_sq in squares:
        for t_sq in squares:
            if a_sq == t_sq:
                continue
            total = _walled(sights, a, a_sq, t, t_sq)
            assert total == _walled(sights, t, t_sq, a, a_sq)
            assert total == (not has_line_of_sight(board, (a_sq,), (t_sq,)))
            walled += total
    assert walled > 100, walled


@pytest.mark.rule("COV-3", "G-31", "E-05")
@pytest.mark.parametrize("edition", EDITIONS)
def test_kernel_ai_decide__equals_tactical_policy_choose_with_a_pistol_behind_a_wall(edition: str) -> None:
    """Every decision of 8 fights; walled off from its enemy the AI walks out to shoot or closes in, then shoots."""
    walled_decisions(PISTOLS, edition, "pistol", 5)


@pytest.mark.rule("RX-29", "RX-30", "G-31")
@pytest.mark.parametrize("edition", EDITIONS)
def test_reference_logs__shots_and_return_fire_across_the_walls_happen(edition: str) -> None:
    """In 20 reference fights the pistols fire and answer each other's hits, every shot along a line of fire."""
    setup = kit.setup_of(PISTOLS, edition)
    found = kit.log_counts(setup, 20)
    assert found["shots"] >= 30 and found["return fire"] >= 15, found
    walked_first = 0  # fights whose first attack roll comes after a move: nobody has a shot from its start
    for seed in kit.seeds(20):
        kinds = [getattr(e, "type", "") for e in reference_fight(setup, seed).log]
        walked_first += "moved" in kinds[:kinds.index("attack-rolled")] if "attack-rolled" in kinds else 0
    assert walked_first == 20, walked_first


def _no_return_fire(lo: Lowered) -> Lowered:
    """Nobody fires back (wrong: both are trained with their loaded pistols, RX-29)."""
    r = lo.ai.ranged
    ranged = dataclasses.replace(r, fire_back=np.full_like(r.fire_back, -1))
    return dataclasses.replace(lo, ai=dataclasses.replace(lo.ai, ranged=ranged))


@pytest.mark.rule("COV-3", "RX-29")
@pytest.mark.parametrize(("edition", "wrong", "least"), [
    ("ashfall-1", _open_ground, 10), ("ashfall-2", _open_ground, 10), ("ashfall-1", _no_return_fire, 5),
    ("ashfall-2", _no_return_fire, 5)], ids=["open-1", "open-2", "no-fire-back-1", "no-fire-back-2"])
def test_compare_engines__a_wrong_kernel_diverges_with_pistols_behind_walls(
        edition: str, wrong: Callable[[Lowered], Lowered], least: int) -> None:
    setup = kit.setup_of(PISTOLS, edition)
    kit.wrong_kernel_diverges(setup, kit.Rewired(setup, wrong), 20, least)


PARTNER = """  - side: wardens
    position: [12, 5]
    creature:
      id: kernel-ai-wall-partner
      name: Partner
      hp: 20
      attributes: {MIG: 2, AGI: 2, END: 1}
      weapons: [greataxe]
      weapon_proficiencies: [simple, martial]
victory:"""


@pytest.mark.rule("RX-26", "E-19", "COV-3")
def test_kernel_ai__a_shot_an_ally_could_intercept_across_walls_plays_like_the_reference(tmp_path: Path) -> None:
    """With a partner beside the Gunman, under edition 1 (Intercept answers shots, E-19) the partner may Intercept a
    shot at the Gunman only when it sees the Slinger (RX-26), which the compiled Intercept reads at any distance
    (``Lowered.guard_seen``; ``test_kernel_ai_intercepts_across_walls``): played step for step, up to a withdrawal
    where the Gunman withdraws (DOD-1: the kernel stops at its Dodge). Under edition 2 the Slinger's bursts at two
    are named first (G-35)."""
    setup = kit.variant(tmp_path, PISTOLS, "victory:", PARTNER, "ashfall-1")
    assert check(setup) is None
    kit.stops_at_the_dodge(setup, 20)
