"""An inline duel for the simulator's tests: two swordsmen next to each other, no armor, no morale."""

from ashfall.content.schema import Attributes, Creature, MoraleProfile
from ashfall.grid.board import Board
from ashfall.sim.setups import InlineCombatant, InlineSetup

SWORD_DIE = 10  # salvaged-sword: 1d10 + MIG (DMG-2)
PROFICIENCY = 2


def fencer(cid: str, *, mig: int, agi: int, hp: int, initiative_bonus: int = 0) -> Creature:
    return Creature(
        id=cid, name=cid.title(), hp=hp, proficiency=PROFICIENCY, attributes=Attributes(MIG=mig, AGI=agi),
        weapons=("salvaged-sword",), weapon_proficiencies=frozenset({"simple", "martial"}),
        initiative_bonus=initiative_bonus, morale=MoraleProfile(immune=True),
    )


ALICE = fencer("alice", mig=3, agi=1, hp=30, initiative_bonus=100)  # always acts first (INIT-1, INIT-2)
BOB = fencer("bob", mig=2, agi=2, hp=36)


def duel(plan: tuple[str, ...] = ("strike", "strike", "strike"), *, board: bool = True) -> InlineSetup:
    """Alice at (1, 1) and Bob at (2, 1): adjacent, so nobody needs to move."""
    return InlineSetup(
        "inline duel",
        (InlineCombatant("alice", "a", ALICE, (1, 1) if board else None, plan),
         InlineCombatant("bob", "b", BOB, (2, 1) if board else None, plan)),
        board=Board(4, 3) if board else None,
    )
