"""Ruleset switches that pick one of several readings are enums, whether set by preset, code or house-rule text."""

from __future__ import annotations

import pytest

from ashfall.ruleset import preset
from ashfall.ruleset.sections import Diagonals, InitiativeProficiency, SecondWindAdds


@pytest.mark.rule("G-37", "E-21", "E-30")
@pytest.mark.parametrize(("name", "diagonals", "initiative", "second_wind"), [
    ("ashfall-2", Diagonals.FIVE, InitiativeProficiency.ALWAYS, SecondWindAdds.LEVEL),
    ("ashfall-1", Diagonals.FIVE, InitiativeProficiency.COMBAT_TRAINED, SecondWindAdds.END),
])
def test_e_21__edition_switches_are_enums(name: str, diagonals: Diagonals, initiative: InitiativeProficiency,
                                          second_wind: SecondWindAdds) -> None:
    rs = preset(name)
    assert rs.turn.diagonals is diagonals
    assert rs.turn.initiative_proficiency is initiative
    assert rs.healing.second_wind_adds is second_wind


@pytest.mark.rule("G-37")
def test_g_37__an_option_given_as_text_becomes_its_enum_and_a_wrong_one_is_refused() -> None:
    assert preset().with_options(turn={"diagonals": "alternating"}).turn.diagonals is Diagonals.ALTERNATING
    with pytest.raises(ValueError, match="diagonals"):
        preset().with_options(turn={"diagonals": "sideways"})
