"""Talent and spell names in stat blocks are checked at load against the names the rules read (issue 9)."""

from __future__ import annotations

import pytest

from ashfall.content import names
from ashfall.content.loader import library_from_text
from ashfall.families.spells.rules_spellbook import SPELLS
from ashfall.files.yaml_marks import InputError


def ghoul(talents: str) -> str:
    return f"creatures:\n  - id: ghoul\n    name: Ghoul\n    hp: 9\n    talents: {talents}\n"


def test_talents__typos_are_errors_with_line_and_suggestion() -> None:
    with pytest.raises(InputError) as caught:
        library_from_text(ghoul("[sentinal, covering-fyre]"), "m.yaml")
    assert [str(p) for p in caught.value.problems] == [
        "m.yaml:5: creatures[0].talents[0]: unknown talent or spell 'sentinal'; did you mean 'sentinel'?",
        "m.yaml:5: creatures[0].talents[1]: unknown talent or spell 'covering-fyre'; did you mean 'covering-fire'?",
    ]


@pytest.mark.parametrize("name", sorted(names.TALENT_NAMES))
def test_talents__every_known_talent_and_spell_loads(name: str) -> None:
    assert name in library_from_text(ghoul(f"[{name}]")).creature("ghoul").talents


def test_spell_names__are_exactly_the_engine_spellbook() -> None:
    assert set(names.SPELLS) == set(SPELLS)


def test_talent_names__are_the_constants_the_rules_and_engine_read() -> None:
    from ashfall.families.attacks.moves_finishing import CDG_IMMUNE, TWF_ABILITY
    from ashfall.families.attacks.moves_legacy import EXTRA_ATTACK
    from ashfall.families.dying.ai import SECOND_WIND_TALENT
    from ashfall.families.psionics.moves import PSI_STRIKE
    from ashfall.families.spells.moves_counterspell import FOCUS
    from ashfall.families.suppression.moves import COVERING_FIRE
    from ashfall.rules.damage_defenses import MAGICAL_NATURAL_WEAPONS

    read = {SECOND_WIND_TALENT, FOCUS, CDG_IMMUNE, TWF_ABILITY, EXTRA_ATTACK, PSI_STRIKE, COVERING_FIRE,
            MAGICAL_NATURAL_WEAPONS, names.SENTINEL}
    assert read == set(names.TALENTS)
