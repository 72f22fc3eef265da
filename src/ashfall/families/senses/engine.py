"""Seeing on the battlefield: how obscured a square is, and how concealed one creature is to another.

Glue between the environment's layers and the pure rules of :mod:`ashfall.families.senses.rules`. A
square's layers are its light (dim light is lightly obscured, darkness heavily, CONC-2, CONC-8), its
veil (fog, smoke, magical darkness: zones and spreading hazards set ``environment.veils``) and what
the rulebook's ``visibility`` hooks add (the underwater layer adds water visibility, UW-24..26). Each layer
keeps its :class:`~ashfall.families.senses.rules.Cause`, because senses clear causes, not levels:
darkvision sees through darkness but not fog (X-17).

The attack pipeline asks :func:`concealment_sources`; Hide, Search and "a creature you can see"
checks ask :func:`stealth_sources`, :func:`obscured_from_all`, :func:`search_sources` and :func:`sees`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType

from ashfall.core.modifiers import RollSource, dis
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition
from ashfall.engine.environment import Light
from ashfall.engine.rulebook import RulebookDraft
from ashfall.engine.state import Combatant, EncounterState
from ashfall.families.senses import rules as conc
from ashfall.families.senses.rules import Cause, Obscurement, Party, Sight, Veil
from ashfall.grid.board import Square
from ashfall.grid.geometry import has_line_of_sight, space_distance_ft

E_34 = rule("E-34")

LIGHT_VEILS: Mapping[Light, Veil | None] = MappingProxyType({
    Light.BRIGHT: None,
    Light.DIM: Veil(Obscurement.LIGHT, Cause.DIM_LIGHT),  # CONC-2
    Light.DARK: Veil(Obscurement.HEAVY, Cause.DARKNESS),  # CONC-8
})
"""The obscurement each light level lays on a square."""

VisibilityHook = Callable[[EncounterState, Combatant | None, Square, int | None], Iterable[Veil]]
"""Extra layers obscuring ``square`` to ``viewer`` at ``distance_ft`` (viewer and distance are None when
the question is about the square alone). The underwater layer registers one for water visibility."""

"""Hooks adding obscurement layers; called in order for every square looked at."""


def layers_at(state: EncounterState, square: Square, viewer: Combatant | None = None,
              distance_ft: int | None = None) -> tuple[Veil, ...]:
    """Every layer obscuring a square: its light, its veil, and the hooks' layers."""
    env = state.environment
    found: list[Veil] = []
    light = LIGHT_VEILS[env.light_at(square)]
    if light is not None:
        found.append(light)
    veil = env.veils.get(square)
    if veil is not None and veil.level is not Obscurement.NONE:
        found.append(veil)
    for hook in state.rulebook.visibility:
        found.extend(hook(state, viewer, square, distance_ft))
    return tuple(found)


def obscurement_at(state: EncounterState, square: Square) -> tuple[Obscurement, Cause | None]:
    """The obscurement of a square for normal sight: the heaviest of its light, veil and hook layers."""
    top = conc.strongest(layers_at(state, square))
    return (top.level, top.cause) if top is not None else (Obscurement.NONE, None)


def distance_between(a: Combatant, b: Combatant) -> int:
    """Feet between two combatants (0 in a theater-of-mind fight)."""
    return space_distance_ft(a.space, b.space) if a.space and b.space else 0


def party(state: EncounterState, c: Combatant, viewer: Combatant | None = None,
          distance_ft: int | None = None) -> Party:
    """A creature as concealment sees it: senses, the layers on each square of its space, its conditions.

    Off the map (theater of mind) only the ambient light obscures it.
    """
    if c.space:
        squares = tuple(layers_at(state, sq, viewer, distance_ft) for sq in c.space)
    else:
        ambient = LIGHT_VEILS[state.environment.ambient]
        squares = ((ambient,) if ambient is not None else (),)
    return Party(c.creature.senses, squares, c.condition_set, state.environment.underwater is not None)


def pair(state: EncounterState, a: Combatant, b: Combatant) -> tuple[Party, Party, int]:
    """Both creatures as each other sees them, and the distance between them."""
    d = distance_between(a, b)
    return party(state, a, b, d), party(state, b, a, d), d


def concealment_sources(state: EncounterState, attacker: Combatant, target: Combatant) -> tuple[RollSource, ...]:
    """The concealment matrix's advantage and disadvantage on one attack (G-06; CONC-3, CONC-10, CONC-13 ...).

    Invisible and Blinded come from the rules core's condition table, so they are left out here.
    """
    a, t, d = pair(state, attacker, target)
    return conc.attack_sources(a, t, d, state.ruleset, with_conditions=False)


def sees(state: EncounterState, viewer: Combatant, other: Combatant) -> Sight:
    """Whether ``viewer`` can see ``other``: a line of sight, and concealment allows it (X-15, CONC-19)."""
    if state.board is not None and viewer.space and other.space and not has_line_of_sight(
        state.board, viewer.space, other.space
    ):
        return Sight(False, rule("COV-3"))
    v, o, d = pair(state, viewer, other)
    return conc.sees(v, o, d, state.ruleset)


def can_see(state: EncounterState, viewer: Combatant, other: Combatant) -> bool:
    """Whether ``viewer`` can see ``other`` ("a creature you can see": Intercept, Return Fire, Counterspell …).

    Not blinded, the other neither hidden nor invisible, and :func:`sees` (a line of sight, and not lost in
    obscurement for the viewer's senses: X-15, CONC-19).
    """
    if Condition.BLINDED in viewer.condition_set or {Condition.INVISIBLE, Condition.HIDDEN} & other.condition_set:
        return False
    return sees(state, viewer, other).seen


def stealth_sources(state: EncounterState, c: Combatant) -> tuple[RollSource, ...]:
    """Advantage on Stealth while in an obscured zone (CONC-5)."""
    return conc.stealth_sources(party(state, c), state.ruleset)


def hidden_by_obscurement(state: EncounterState, watcher: Combatant, hider: Combatant) -> RuleId | None:
    """CONC-17 when heavy obscurement hides ``hider`` from ``watcher`` without cover (Thermal Optics aside, VIS-8)."""
    w, h, d = pair(state, watcher, hider)
    return conc.hidden_from(w, h, d, state.ruleset)


def obscured_from_all(state: EncounterState, hider: Combatant, watchers: Sequence[Combatant]) -> RuleId | None:
    """The rule when the hider may Hide without cover: concealed from every watcher (or, unwatched, in a zone).

    Concealment is either tier of obscurement (HID-1, 000:1109 and 617–621; CONC-17 for heavy), see
    :func:`ashfall.families.senses.rules.hide_rule`.
    """
    if not watchers:
        return conc.hide_rule(conc.zone_level(party(state, hider)), state.ruleset)
    found = [hidden_by_obscurement(state, w, hider) for w in watchers]
    return found[0] if all(found) else None


def search_sources(state: EncounterState, searcher: Combatant, hiders: Sequence[Combatant]) -> tuple[RollSource, ...]:
    """Edition 1: a Search for creatures that are all lightly obscured or worse has disadvantage (E-34)."""
    if not hiders or not state.ruleset.concealment.light_obscured_perception_disadvantage:
        return ()
    for h in hiders:
        s, o, d = pair(state, searcher, h)
        if conc.view(s, o, d, state.ruleset, detect=True).level is Obscurement.NONE:
            return ()
    return (dis(E_34, "searching lightly obscured areas"),)



def _ambush_stealth(state: EncounterState, c: Combatant) -> tuple[RollSource, ...]:
    """The ``ambush_stealth`` hook: :func:`stealth_sources` (CONC-5)."""
    return stealth_sources(state, c)


def install(book: RulebookDraft) -> None:
    """Add this family's hooks: advantage on an ambusher's Stealth in an obscured zone (CONC-5, SUR-1)."""
    book.ambush_stealth(_ambush_stealth)


__all__ = ["LIGHT_VEILS", "VisibilityHook", "concealment_sources", "distance_between",
           "hidden_by_obscurement", "install", "layers_at", "obscured_from_all", "obscurement_at", "pair", "party",
           "search_sources", "sees", "stealth_sources"]
