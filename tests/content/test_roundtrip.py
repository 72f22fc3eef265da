"""Properties: any shipped entry written back to YAML loads to the same model, in any file order."""

import random
from typing import Any

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from ashfall.content.library import Library
from ashfall.content.loader import default_library, library_from_text

LIB = default_library()
SECTION_ITEMS: dict[str, tuple[Any, ...]] = {
    "creatures": LIB.creatures(),
    "weapons": LIB.weapons(),
    "armor": LIB.armors(),
    "shields": LIB.shields(),
}
PICK = st.fixed_dictionaries({
    key: st.lists(st.sampled_from(items), unique_by=lambda m: m.id, max_size=len(items))
    for key, items in SECTION_ITEMS.items()
})


@settings(max_examples=40, deadline=None)
@given(PICK, st.randoms(use_true_random=False))
def test_entries_dumped_to_yaml__load_back_equal(picked: dict[str, list[Any]], rnd: random.Random) -> None:
    data = {key: [m.model_dump(mode="json") for m in models] for key, models in picked.items()}
    # A fresh base library, so creatures' weapons must come along: add every weapon they use.
    used = {w for c in picked["creatures"] for w in c.weapons}
    have = {w.id for w in picked["weapons"]}
    data["weapons"] += [LIB.weapon(w).model_dump(mode="json") for w in sorted(used - have)]
    used_armor = {c.armor for c in picked["creatures"] if c.armor} - {a.id for a in picked["armor"]}
    data["armor"] += [LIB.armor(a).model_dump(mode="json") for a in sorted(used_armor)]
    used_shields = {c.shield for c in picked["creatures"] if c.shield} - {s.id for s in picked["shields"]}
    data["shields"] += [LIB.shield(s).model_dump(mode="json") for s in sorted(used_shields)]
    for items in data.values():
        rnd.shuffle(items)
    loaded = library_from_text(yaml.safe_dump(data, sort_keys=False), "dump.yaml", base=Library())
    for creature in picked["creatures"]:
        assert loaded.creature(creature.id) == creature
        assert loaded.weapons_of(creature) == LIB.weapons_of(creature)
    for weapon in picked["weapons"]:
        assert loaded.weapon(weapon.id) == weapon
    for armor in picked["armor"]:
        assert loaded.armor(armor.id) == armor
    for shield in picked["shields"]:
        assert loaded.shield(shield.id) == shield
