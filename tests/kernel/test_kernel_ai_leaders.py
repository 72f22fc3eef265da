"""The tactical AI's leaders in the fight kernel (MOR-8, MOR-25, G-04): where a Rally can be legal, and where not.

A leader's Rally (``families.dying.ai.rally``) is only ever offered for a falling-back or broken morale group of
the leader's own side, which only a failed group check makes; with no group on its side (morale off by the
ruleset, E-33, or the encounter, MOR-38; its side immune, MOR-37) the AI plays a leader as any other creature, and
Leader Down (MOR-8) never fires either. A leader that rallies is in ``test_kernel_ai_flight.py``.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from ashfall.sim.kernel_lower import check
from ashfall.sim.setups import FightSetup
from ashfall.sim.signature import reference_fight
from tests.kernel.kit import ENCOUNTERS, plays_like_the_reference, seeds, setup_of, variant

LEADER_OFF = ENCOUNTERS / "ai-pack-with-a-leader-and-morale-off.yaml"
LEADER_ID = "kernel-ai-hunter-axe"


def morale_counts(setup: FightSetup, n: int, leader: str) -> Counter[str]:
    """Morale checks, rallies and the leader's own actions in the reference logs of ``n`` fights."""
    found: Counter[str] = Counter()
    for seed in seeds(n):
        for e in reference_fight(setup, seed).log:
            kind = getattr(e, "type", "")
            if kind == "morale-checked":
                found["rallies" if e.kind == "rally" else "checks"] += 1
            elif kind == "morale-changed":
                found["changes"] += 1
            elif kind == "actions-spent" and e.actor.startswith(leader):
                found["leader actions"] += 1
                found["rallies"] += "rally" in e.label.lower()
    return found


@pytest.mark.rule("MOR-25", "G-04", "MOR-38", "E-33")
@pytest.mark.parametrize("edition", ["ashfall-1", "ashfall-2"])
def test_kernel_ai__a_leader_whose_side_has_no_morale_plays_every_step_like_the_reference(edition: str) -> None:
    plays_like_the_reference(setup_of(LEADER_OFF, edition), 100)


@pytest.mark.rule("MOR-8", "MOR-25", "G-04", "MOR-38")
@pytest.mark.parametrize("edition", ["ashfall-1", "ashfall-2"])
def test_kernel_ai__a_leader_with_morale_off_never_rallies_nor_checks_in_the_reference(edition: str) -> None:
    found = morale_counts(setup_of(LEADER_OFF, edition), 100, LEADER_ID)
    assert found["leader actions"] > 300  # the leader fights in every fight ...
    assert found["rallies"] == found["checks"] == found["changes"] == 0  # ... and morale never moves


@pytest.mark.rule("MOR-25", "G-04", "E-33")
def test_kernel_ai__a_leader_checking_morale_on_an_open_map_is_named_under_edition_2_played_under_edition_1(
        tmp_path: Path) -> None:
    on = "  - {name: hunters, morale: off}\n"
    named = variant(tmp_path, LEADER_OFF, on, "  - {name: hunters}\n", "ashfall-2")
    assert check(named) is not None  # its rally is played; what it lacks here is falling back by the edge (G-03)
    played = variant(tmp_path, LEADER_OFF, on, "  - {name: hunters}\n", "ashfall-1")  # no morale rules (E-33)
    plays_like_the_reference(played, 30)
