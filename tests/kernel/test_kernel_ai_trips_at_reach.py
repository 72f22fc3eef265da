"""Edition 2's Trip at a reach weapon's full reach in the fight kernel (E-37, TRP-1..4, ATK-1, C-PRO).

"Trip works at weapon reach range — if you wield a polearm with 10-ft reach, you can Trip a target 10 feet away"
(TRP-1). The tactical AI with a halberd weighs Trip and Feint where it stands from 10 ft as from 5 (``openers``:
``legal(Trip(…, weapon))`` at the weapon's reach, Feint within its melee reach, FNT-1), and its plans against a
prone target from 10 ft, where it stands or from a square it walks to (the opener tables, ``opener_tables``, are
lowered for the codes beyond 5 ft too, as ``lower_ai``'s plan tables are for a reach weapon); its attacks on a prone
target from 10 ft and a prone reach creature's Attack of Opportunity from 10 ft are asked of ``resolve_attack`` too
(``prone_attack_tables``: melee advantage for every melee attack on a prone target under X-02's default). Held here:
the set meets it (Trips from 10 ft, attacks on the prone brute from 10 ft, the brute standing up inside the
halberd's reach), the kernel plays it step for step, its decisions equal ``TacticalPolicy.choose``, and kernels that
never trip at reach or read a prone target at 10 ft as up diverge.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from ashfall.ai import TacticalPolicy
from ashfall.ai.board_cache import gap_ft
from ashfall.ai.choice import Choice
from ashfall.core.types import Condition
from ashfall.engine import Engine, Trip
from ashfall.sim import kernel_maneuvers as km
from ashfall.sim.kernel_lower import Lowered, check
from ashfall.sim.setups import FightSetup
from ashfall.sim.signature import reference_fight
from tests.kernel.kit import (
    ENCOUNTERS,
    OWN,
    Rewired,
    plays_like_the_reference,
    seeds,
    setup_of,
    wrong_kernel_diverges,
)
from tests.kernel.test_kernel_ai import _Checked
from tests.kernel.test_kernel_ai_throws_out_of_range import _Counted, _decisions

VANGUARD = ENCOUNTERS / "ai-halberd-vanguard-trips-at-reach.yaml"
FREE_FOR_ALL = ENCOUNTERS / "ai-halberdiers-trip-in-a-free-for-all.yaml"
"""Two AI halberdiers, a sword and an axe on four sides, under edition 2 without Sweeping Strike (its own ruleset)."""
ED2 = "ashfall-2"


@pytest.mark.rule("E-37", "TRP-1", "TRP-2", "TRP-3", "TRP-4", "ATK-1", "C-PRO", "ACT-5", "RX-21")
@pytest.mark.parametrize(("path", "edition", "count"), [(VANGUARD, ED2, 150), (VANGUARD, "ashfall-1", 60),
                                                        (FREE_FOR_ALL, OWN, 100)],
                         ids=["vanguard-ashfall-2", "vanguard-ashfall-1", "free-for-all-own"])
def test_trips_at_reach__play_every_step_of_the_reference_fight(path: Path, edition: str, count: int) -> None:
    plays_like_the_reference(setup_of(path, edition), count)


def _trip_counts(setup: FightSetup, n: int) -> Counter[str]:
    """Trips, attacks on a prone target and Stands in ``n`` reference fights, by the distance between the two."""
    found: Counter[str] = Counter()
    for seed in seeds(n, sweep=setup.load_spec().seed or 0):
        state = setup.build_fight(seed).engine.state
        pos = {k: c.position for k, c in state.combatants.items()}
        long = {k for k, c in state.combatants.items() if any(w.reach > 5 for w in c.weapons)}
        prone: set[str] = set()
        tripper = ""
        for e in reference_fight(setup, seed).log:
            kind = getattr(e, "type", "")
            if kind == "moved":
                pos[e.actor] = e.to
            elif kind == "actions-spent" and e.label in ("trip", "stand"):
                tripper = e.actor if e.label == "trip" else ""
                near = [_feet(pos[e.actor], pos[k]) for k in long - {e.actor}]
                if e.label == "stand" and near and min(near) <= 10:
                    found["stand in a halberd's reach"] += 1
            elif kind == "check-rolled" and tripper and e.actor != tripper:
                who = "halberd" if tripper in long else "short"
                found[f"{who} trip at {_feet(pos[tripper], pos[e.actor])} ft"] += 1
                tripper = ""
            elif kind == "condition-added" and e.applied.condition in (Condition.PRONE, Condition.DAZED):
                found[e.applied.condition.value] += 1
                prone |= {e.target} if e.applied.condition is Condition.PRONE else set()
            elif kind == "condition-removed" and e.applied.condition is Condition.PRONE:
                prone.discard(e.target)
            elif kind == "attack-rolled" and e.target in prone:
                found[f"{e.label} on a prone target at {_feet(pos[e.actor], pos[e.target])} ft"] += 1
            if kind == "attack-rolled" and e.actor in long:
                found[f"halberd {e.label} at {_feet(pos[e.actor], pos[e.target])} ft"] += 1
            if kind == "attack-rolled" and e.actor in prone:
                found[f"{e.label} from the ground at {_feet(pos[e.actor], pos[e.target])} ft"] += 1
    return found


def _feet(a: tuple[int, int] | None, b: tuple[int, int] | None) -> int:
    assert a is not None and b is not None
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) * 5


@pytest.mark.rule("TRP-1", "TRP-3", "TRP-4", "C-PRO", "ACT-5", "ATK-1")
def test_halberd_vanguard__trips_from_10_ft_and_attacks_the_prone_brute_from_there() -> None:
    """In 30 reference fights the halberdier trips across the fence from 10 ft (35 times; 160 from 5 ft once the brute
    is round it), strikes the brute lying prone from 10 ft (48), makes its Attack of Opportunity from 10 ft, and the
    brute stands up inside the halberd's reach (124); a win by 10 dazes it now and then (59)."""
    found = _trip_counts(setup_of(VANGUARD, ED2), 30)
    assert found["halberd trip at 10 ft"] >= 20 and found["halberd trip at 5 ft"] >= 50, found
    assert found["prone"] >= 60 and found["dazed"] >= 10 and found["stand in a halberd's reach"] >= 50, found
    assert found["Strike on a prone target at 10 ft"] >= 25, found
    assert found["halberd Attack of Opportunity at 10 ft"] >= 10, found


@pytest.mark.rule("TRP-1", "TRP-3", "C-PRO", "ATK-1")
def test_halberdiers_free_for_all__trip_from_10_ft_among_four_sides() -> None:
    """In 60 reference fights the halberds trip from 10 ft (32) and 5 ft, the others trip too (the halberdiers
    among them), and prone creatures are struck from a halberd's 10 ft (28)."""
    found = _trip_counts(setup_of(FREE_FOR_ALL, OWN), 60)
    assert found["halberd trip at 10 ft"] >= 20 and found["short trip at 5 ft"] >= 50, found
    assert found["Strike on a prone target at 10 ft"] >= 15 and found["dazed"] >= 10, found


class _TripCounted(_Counted):
    """The tactical AI with the kernel's decision compared at every choice, counting its Trips by distance."""

    __slots__ = ()

    def choose(self, engine: Engine, actor: str) -> Choice | None:
        state = engine.state
        if state.get(actor).has(Condition.PRONE):  # it stands first (ACT-5): the compiled turn does before ``decide``
            self.counts["stand"] += 1
            return TacticalPolicy.choose(self, engine, actor)
        choice = _Checked.choose(self, engine, actor)
        if choice is not None and isinstance(choice.intent, Trip):
            c, t = state.get(actor), state.get(choice.intent.target)
            self.counts[f"trip from {gap_ft(c.space, t.space)} ft"] += 1
        elif choice is not None and choice.candidate is not None:
            t = state.get(choice.candidate.plan.target)
            lying = "prone" if t.has(Condition.PRONE) else "up"
            self.counts[f"{choice.reason.value} {lying}"] += 1
        return choice


@pytest.mark.rule("E-37", "TRP-1", "C-PRO", "ATK-1")
def test_kernel_ai_decide__equals_tactical_policy_choose_tripping_at_reach() -> None:
    """Every decision of 8 fights of each set equals the AI's; it trips from 10 ft and attacks targets lying prone."""
    found = _decisions(VANGUARD, ED2, 8, _TripCounted)
    assert found["trip from 10 ft"] >= 5 and found["attack prone"] >= 5, found
    brawl = _decisions(FREE_FOR_ALL, OWN, 8, _TripCounted)
    assert brawl["trip from 10 ft"] >= 2 and brawl["attack prone"] >= 5, brawl


def _no_trips_beyond_5_ft(lo: Lowered) -> Lowered:
    """The AI's opener tables beyond 5 ft without openers (wrong): the plain plans, so it never trips at reach."""
    ai = lo.ai
    frac, drop, first = ai.open_frac.copy(), ai.open_drop.copy(), ai.open_first.copy()
    far = [code for code in range(first.shape[3]) if not code & 2]
    for variant in range(first.shape[0]):
        frac[variant][:, :, far] = ai.plan_frac[:, :, far]
        drop[variant][:, :, far] = ai.plan_drop[:, :, far]
        first[variant][:, :, far] = ai.plan_first[:, :, far]
    return dataclasses.replace(lo, ai=dataclasses.replace(ai, open_frac=frac, open_drop=drop, open_first=first))


def _prone_read_as_up_beyond_5_ft(lo: Lowered) -> Lowered:
    """A prone target's attack tables beyond 5 ft as those of a target up (wrong: no advantage from 10 ft, C-PRO)."""
    outcome, draws = lo.outcome.copy(), lo.draws.copy()
    far = [code for code in range(draws.shape[5]) if not code & 2]
    outcome[:, :, :, :, km.PRONE_UP][:, :, :, :, far] = lo.outcome[:, :, :, :, 0][:, :, :, :, far]
    draws[:, :, :, :, km.PRONE_UP][:, :, :, :, far] = lo.draws[:, :, :, :, 0][:, :, :, :, far]
    return dataclasses.replace(lo, outcome=outcome, draws=draws)


@pytest.mark.rule("E-37", "TRP-1", "C-PRO")
@pytest.mark.parametrize(("wrong", "least"), [(_no_trips_beyond_5_ft, 10), (_prone_read_as_up_beyond_5_ft, 5)],
                         ids=["never-trips-at-reach", "prone-read-as-up-at-reach"])
def test_compare_engines__a_kernel_wrong_about_trip_at_reach_diverges(wrong: Callable[[Lowered], Lowered],
                                                                      least: int) -> None:
    setup = setup_of(VANGUARD, ED2)
    wrong_kernel_diverges(setup, Rewired(setup, wrong), 30, least)


@pytest.mark.rule("E-37", "TRP-1")
def test_check__the_halberd_vanguard_is_played_under_edition_2() -> None:
    assert check(setup_of(VANGUARD, ED2)) is None
