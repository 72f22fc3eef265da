"""The tactical AI's thrown weapons where a target stands behind total cover, in the fight kernel (COV-3, ATK-2, E-05).

A throw at a target behind total cover has no odds (``base_for``) and the engine refuses it. The AI then has no plan
with the throw against that target from that square, counts no throw of an enemy's from behind it among the fire a
square invites (``ranged_threat``), treats a thrown option whose targets within its limit all stand behind total cover
as one with nothing to throw at where it stands (``TacticalPolicy._wanted``: walks to squares within its normal range
are weighed), and closes in only to a square with a line of fire (``_approach``). The kernel reads the AI's view
table at any distance (``OptionTables.total``: the views of total cover). Held here: the sets meet the case (two AI
javelin throwers, one in a walled pen, one behind a wall; a scripted Warrior with every enemy behind a wall, whose
target the AI picks), the kernel
plays them step for step, its decision and its pick equal the AI's on every state, and a kernel that reads total
cover as open ground diverges. A gun behind total cover is held in ``test_kernel_ai_fires_behind_total_cover``.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from ashfall.ai import TacticalPolicy
from ashfall.ai.board_cache import gap_ft
from ashfall.ai.choice import Choice
from ashfall.engine import Engine, Stand
from ashfall.sim.kernel_lower import Lowered
from ashfall.sim.kernel_run import KernelSetup
from ashfall.sim.setups import FightSetup
from ashfall.sim.signature import FightSignature
from tests.kernel.kit import ENCOUNTERS, plays_like_the_reference, seeds, setup_of, variant, wrong_kernel_diverges
from tests.kernel.test_kernel_ai import _expected, _kernel_choice
from tests.kernel.test_kernel_ai_throws_out_of_range import BRUTE, _Counted, _decisions
from tests.kernel.test_kernel_target_choice import _Recorder, picks_recorded

WALL = ENCOUNTERS / "ai-javelin-throwers-behind-walls.yaml"
YARD = ENCOUNTERS / "scripted-warrior-chooses-from-behind-walls.yaml"


def walled_off(engine: Engine, actor: str) -> bool:
    """Whether ``actor`` has a thrown option whose targets within its limit all stand behind total cover (COV-3).

    ``TacticalPolicy._wanted`` then finds no setting where it stands (no odds behind total cover, ``base_for``) and
    weighs walks to squares within the option's normal range: the case the kernel reads ``OptionTables.total`` for.
    """
    view = TacticalPolicy()._view(engine, engine.state.get(actor), brutal=False)
    mine = view.spaces.get(actor, ())
    for o in view.options:
        if not o.ranged:
            continue
        near = [t for t in view.targets if gap_ft(mine, view.spaces[t.id]) <= o.limit_ft]
        if near and view.setting(None, o, full=False) is None:
            return True
    return False


class _WalledCounted(_Counted):
    """The tactical AI with the kernel's decision compared at every choice, counting the choices made walled off.

    Counted by walled off or open, the reason and the ranged option of its plan (``thrown``, or the gun's id).
    """

    __slots__ = ()

    def choose(self, engine: Engine, actor: str) -> Choice | None:
        if engine.state.active_id != actor or engine.state.ended:
            return TacticalPolicy.choose(self, engine, actor)
        walled = walled_off(engine, actor)
        choice = TacticalPolicy.choose(self, engine, actor)
        if choice is not None and isinstance(choice.intent, Stand):
            return choice  # the compiled turn stands up before it decides (ACT-5)
        self.seen.append((_expected(choice), _kernel_choice(self.kernel, engine, actor)))
        plan = choice.candidate.plan if choice is not None and choice.candidate is not None else None
        how = "" if plan is None or not plan.option.ranged else \
            " thrown" if plan.option.thrown else f" {plan.option.weapon_id}"
        reason = choice.reason.value if choice is not None else "none"
        self.counts[f"{'walled' if walled else 'open'} {reason}{how}"] += 1
        return choice


class _WalledRecorder(_Recorder):
    """``_Recorder`` that also counts the picks made with every enemy in range behind total cover."""

    def __init__(self, kernel: KernelSetup) -> None:
        super().__init__(kernel)
        self.walled = 0

    def __call__(self, engine: Engine, actor: str) -> str | None:
        self.walled += walled_off(engine, actor)
        return super().__call__(engine, actor)


SETS = [(WALL, "ashfall-1"), (WALL, "ashfall-2"), (YARD, "ashfall-1")]


@pytest.mark.rule("COV-3", "ATK-2", "E-05", "E-18", "E-37")
@pytest.mark.parametrize(("path", "edition"), SETS, ids=[f"{p.stem}-{e}" for p, e in SETS])
def test_kernel_ai__throws_from_behind_total_cover_like_the_reference(path: Path, edition: str) -> None:
    plays_like_the_reference(setup_of(path, edition), 100)  # CI's share of the 1,000 seeds


@pytest.mark.rule("COV-3", "ATK-2", "E-05")
@pytest.mark.parametrize("edition", ["ashfall-1", "ashfall-2"])
def test_kernel_ai_decide__equals_tactical_policy_choose_behind_a_wall(edition: str) -> None:
    """Every decision of 8 fights; walled off from its enemy the AI walks out to throw or closes in, then throws."""
    walled_decisions(WALL, edition, "thrown", 15)


def walled_decisions(path: Path, edition: str, how: str, least: int) -> None:
    """Every decision of 8 fights of a walled set equals the kernel's: at least 10 made walled off, 8 of them walks out
    to attack with the ranged option ``how`` (``thrown`` or a gun's id) or approaches, ``least`` attacks with it in the
    open, and never one into a wall."""
    found = _decisions(path, edition, 8, _WalledCounted)
    walled = sum(v for k, v in found.items() if k.startswith("walled"))
    assert walled >= 10, found
    assert found[f"walled move-to-attack {how}"] + found["walled approach"] >= 8, found
    assert found[f"open attack {how}"] >= least, found
    assert not any(k.startswith(f"walled attack {how}") for k in found), found  # never an attack into a wall


@pytest.mark.rule("COV-3", "ATK-2")
def test_kernel_chosen__equals_target_choice_from_behind_walls() -> None:
    """The kernel's pick is ``preferred_target``'s on every state of 8 fights; many are made walled off."""
    setup = setup_of(YARD, "ashfall-1")
    kernel = KernelSetup(setup)
    decisions = walled = not_nearest = 0
    for seed in seeds(8, sweep=89):
        recorder = picks_recorded(setup, seed, _WalledRecorder(kernel))
        decisions += len(recorder.seen)
        walled += recorder.walled
        not_nearest += recorder.not_nearest
    assert decisions > 40 and walled >= 8 and not_nearest >= 5, (decisions, walled, not_nearest)


def _open_ground(lo: Lowered) -> Lowered:
    """Total cover read as open ground where the AI decides whether it has a throw and where to close in (wrong)."""
    o = lo.ai.options
    options = dataclasses.replace(o, total=np.zeros_like(o.total))
    return dataclasses.replace(lo, ai=dataclasses.replace(lo.ai, options=options))


class _Wrong:
    def __init__(self, setup: FightSetup) -> None:
        self.kernel = KernelSetup(setup)
        self.kernel.lowered = _open_ground(self.kernel.lowered)

    def __call__(self, setup: FightSetup, seed: int) -> FightSignature:
        return self.kernel.signature(seed)


@pytest.mark.rule("COV-3")
@pytest.mark.parametrize(("path", "edition", "count", "least"), [
    (WALL, "ashfall-1", 20, 10), (WALL, "ashfall-2", 20, 10), (YARD, "ashfall-1", 20, 5)])
def test_compare_engines__a_kernel_reading_total_cover_as_open_ground_diverges(path: Path, edition: str, count: int,
                                                                              least: int) -> None:
    setup = setup_of(path, edition)
    assert KernelSetup(setup).lowered.ai.options.total.any()
    wrong_kernel_diverges(setup, _Wrong(setup), count, least)


@pytest.mark.rule("COV-3", "ATK-2")
def test_kernel_ai__a_wall_across_the_long_road_is_played(tmp_path: Path) -> None:
    """The knife thrower's long road with a wall square across it (a throw through it meets total cover; once named):
    played step for step."""
    road = variant(tmp_path, BRUTE, ".......:.............\n    A......:", ".......:#............\n    A......:",
                   "ashfall-1")
    plays_like_the_reference(road, 20)


@pytest.mark.rule("COV-3", "RX-29", "G-31")
def test_options_problem__a_gun_behind_total_cover_is_played(tmp_path: Path) -> None:
    """A pistol in place of the javelins, fired past the walls (its rounds, the Return Fire it draws; once named):
    played step for step (``test_kernel_ai_fires_behind_total_cover``)."""
    plays_like_the_reference(variant(tmp_path, WALL, "weapons: [salvaged-sword, javelin]",
                                     "weapons: [salvaged-sword, pistol]", "ashfall-1"), 20)
