"""Intercept of a shot across walls in the fight kernel: the interceptor must see the shooter (RX-26, E-19, COV-3).

Under edition 1 Intercept answers any attack (E-19), so a shot from far off may be Intercepted; the engine offers it
only to a creature that sees the attacker ("a creature you can see": ``can_see``, a line of sight on the maps the
kernel plays). The compiled Intercept read that in the sight table's window about the interceptor (the longest reach
plus Intercept's range) and took a shooter beyond it as seen; it now reads ``Lowered.guard_seen`` (a line of sight
between every two squares, ``kernel_lower.seen_table``), exact at any distance. Held here: in the set the reference
withholds Intercepts that the AI would take, for lack of sight, the shooter far beyond the old window; Intercepts
with sight happen too; the kernel plays the set step for step; a kernel that takes every attacker as seen diverges.
"""

from __future__ import annotations

import dataclasses
import sys
from collections import Counter
from typing import Any

import numpy as np
import pytest

import tests.kernel.kit as kit
from ashfall.engine import Combatant, EncounterState
from ashfall.engine.decisions import Decision
from ashfall.families.reactions import ai as reactions_ai
from ashfall.families.reactions import moves_defensive
from ashfall.grid.geometry import has_line_of_sight
from ashfall.sim.kernel_lower import Lowered, check
from ashfall.sim.kernel_run import KernelSetup
from ashfall.sim.setups import FightSetup
from ashfall.sim.signature import reference_fight

WALLED = kit.ENCOUNTERS / "ai-pistol-shoots-past-a-walled-interceptor.yaml"
OLD_WINDOW = 2
"""The compiled Intercept's old sight window about the interceptor, in squares (5-ft reach plus Intercept's 5 ft)."""


@pytest.mark.rule("RX-26", "E-19", "COV-3", "G-35")
def test_kernel_ai__intercepts_across_walls_like_the_reference() -> None:
    """Under edition 1 (CI's share of the 1,000 seeds); under edition 2, where Intercept answers melee attacks only
    (E-19), the Slinger's pistol bursts at both beside its openers (played), and its Sweeping Strike is named."""
    kit.plays_like_the_reference(kit.setup_of(WALLED, "ashfall-1"), 100)
    assert check(kit.setup_of(WALLED, "ashfall-2")) == (
        "the tactical AI's Sweeping Strike among several enemies (SWP-3, E-37, combatant kernel-ai-slinger-past-walls)")


@pytest.mark.rule("RX-26", "COV-3")
def test_seen_table__is_the_line_of_sight_between_every_two_squares() -> None:
    """The guard's start square does not see the Slinger's (a wall between them, 8 squares apart), the recruit's
    does; the table is ``has_line_of_sight`` on every pair, and it is not symmetric by construction (read from the
    interceptor's square)."""
    setup = kit.setup_of(WALLED, "ashfall-1")
    lo = KernelSetup(setup).lowered
    state = setup.build_fight(kit.seeds(1)[0]).engine.state
    board = state.board
    assert board is not None
    pos = {c.id: c.position for c in state.combatants.values()}
    slinger, guard, recruit = (pos[k] for k in ("kernel-ai-slinger-past-walls", "kernel-walled-guard",
                                                 "kernel-open-recruit"))
    assert slinger is not None and guard is not None and recruit is not None
    assert lo.guard_seen[guard[0], guard[1], slinger[0], slinger[1]] == 0
    assert lo.guard_seen[recruit[0], recruit[1], slinger[0], slinger[1]] == 1
    assert max(abs(guard[0] - slinger[0]), abs(guard[1] - slinger[1])) > OLD_WINDOW
    for r in np.ndindex(board.width, board.height):
        for a in np.ndindex(board.width, board.height):
            if r in board.walls or a in board.walls:
                continue
            expected = r == a or has_line_of_sight(board, (r,), (a,))
            assert lo.guard_seen[r[0], r[1], a[0], a[1]] == expected, (r, a)


def sight_counts(setup: FightSetup, n: int, monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Intercepts in ``n`` reference fights, and Intercept offers withheld for lack of sight (RX-26).

    ``withheld``: an ally within Intercept range of an attacked creature, up, that does not see the attacker (the
    engine's ``can_see`` in ``_intercept_ok``); ``refused``: those the AI would have taken (``_worth_intercepting``),
    by the attack (a shot or a swing) and whether the attacker stood beyond the old sight window about the reactor.
    """
    found: Counter[str] = Counter()
    original = moves_defensive.can_see

    def watched(state: EncounterState, viewer: Combatant, other: Combatant) -> bool:
        seen = original(state, viewer, other)
        caller = sys._getframe(1)
        if caller.f_code.co_name == "_intercept_ok" and not seen:
            trigger: Any = caller.f_locals["trigger"]
            found["withheld"] += 1
            ask = Decision(viewer.id, "reaction", "", (), True, "RX-26", about=other.id)
            if reactions_ai._worth_intercepting(state, viewer, ask):
                (vx, vy), (ox, oy) = viewer.position or (0, 0), other.position or (0, 0)
                far = max(abs(vx - ox), abs(vy - oy)) > OLD_WINDOW
                found[f"refused {'shot' if trigger.get('ranged') else 'swing'}{' beyond' if far else ''}"] += 1
        return seen

    monkeypatch.setattr(moves_defensive, "can_see", watched)
    for seed in kit.seeds(n):
        for e in reference_fight(setup, seed).log:
            if getattr(e, "type", "") == "reaction-spent" and "ntercept" in e.label:
                found["intercepts"] += 1
    return found


@pytest.mark.rule("RX-26", "E-19", "COV-3")
def test_reference_logs__intercepts_of_shots_are_refused_for_lack_of_sight(monkeypatch: pytest.MonkeyPatch) -> None:
    """In 40 reference fights under edition 1 the guard behind the wall is refused Intercepts of shots at the recruit
    that the AI would take, the Slinger beyond the old window, and Intercepts are taken where it sees the Slinger."""
    found = sight_counts(kit.setup_of(WALLED, "ashfall-1"), 40, monkeypatch)
    assert found["refused shot beyond"] >= 5 and found["intercepts"] >= 3, found


def _sees_everyone(lo: Lowered) -> Lowered:
    """Every attacker taken as seen by every interceptor (wrong: a wall blocks sight, RX-26)."""
    return dataclasses.replace(lo, guard_seen=np.ones_like(lo.guard_seen))


def _sees_nobody(lo: Lowered) -> Lowered:
    """No attacker ever seen by an interceptor (wrong: Intercepts with a line of sight are taken)."""
    return dataclasses.replace(lo, guard_seen=np.zeros_like(lo.guard_seen))


@pytest.mark.rule("RX-26", "E-19")
@pytest.mark.parametrize("wrong", [_sees_everyone, _sees_nobody], ids=["sees-everyone", "sees-nobody"])
def test_compare_engines__a_kernel_wrong_about_the_interceptors_sight_diverges(wrong: Any) -> None:
    setup = kit.setup_of(WALLED, "ashfall-1")
    assert check(setup) is None
    kit.wrong_kernel_diverges(setup, kit.Rewired(setup, wrong), 20, 3)

