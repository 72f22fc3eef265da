"""The rulebook: every action, reaction and hook one fight plays by, assembled explicitly from rule families.

A :class:`Family` is a named rule family (movement, underwater, vehicles, ...) with one ``install`` function
that adds its actions, reactions and hooks to a :class:`RulebookDraft`, and the feature it needs (None: every
fight uses it). :meth:`Rulebook.build` installs an ordered tuple of families and freezes the result. A family
whose feature the fight lacks is *dormant*: only its actions are kept, so an intent of it is still refused by
its own rule (a Swim on dry land, UW-9) rather than as unknown, while its reactions and hooks are left out and
cost the fight nothing. The engine core (turns, the action economy, event application, reaction
offering) reads the hooks of the rulebook it is given and names no family; the ordered list of the shipped
families and the one place that decides a fight's features live in :mod:`ashfall.engine.catalog`.

Order matters and is kept: hooks of one kind run in the order their families were installed (and, within a
family, the order its ``install`` adds them), so the same families in the same order give the same log.
Appliers (how an event changes the state) are not here: every event applies the same way in every fight, so
any log can be replayed (:mod:`ashfall.engine.apply`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ashfall.core.modifiers import Modifier
from ashfall.engine.reactions import ReactionDef, ReactionVeto, TriggerKind

if TYPE_CHECKING:
    from ashfall.core.modifiers import RollSource
    from ashfall.engine.actions import ActionDef
    from ashfall.engine.harm import AfterCondition, AfterDamage, DamageEnvironment
    from ashfall.engine.state import Combatant, EncounterState
    from ashfall.engine.turns import EndOfRoundHook, EndOfTurnHook, OrderHook, StartOfTurnHook
    from ashfall.families.attacks.engine import AfterHit, AttackHook
    from ashfall.families.attacks.engine_area import AreaHook
    from ashfall.families.hazards.engine_kit import ChangeHook
    from ashfall.families.movement.moves import MovementHook
    from ashfall.families.objects.engine import HitHook, ObjectHook
    from ashfall.families.senses.engine import VisibilityHook

PassivePerception = Callable[["EncounterState"], Sequence[Modifier]]
"""What the battlefield does to every creature's passive Perception (murky water, UW-25)."""
AmbushStealth = Callable[["EncounterState", "Combatant"], Sequence["RollSource"]]
"""What the battlefield does to an ambusher's Stealth roll (an obscured zone, CONC-5)."""
Install = Callable[["RulebookDraft"], None]
"""A family's one entry point: add its actions, reactions and hooks to the draft, in the order they run."""


@dataclass(frozen=True, slots=True)
class Family:
    """A rule family: its name, the feature a fight must have for it to be installed, and its installer.

    Attributes:
        name: The family's name ("movement", "underwater"); unique in a rulebook.
        install: Adds the family's actions, reactions and hooks to a draft.
        needs: The fight feature the family needs (see :func:`ashfall.engine.catalog.features_of`); None when
            every fight uses it.
    """

    name: str
    install: Install
    needs: str | None = None

    def applies_to(self, features: frozenset[str] | None) -> bool:
        """Whether a fight with these features uses the family (None: every family applies)."""
        return self.needs is None or features is None or self.needs in features


@dataclass(slots=True)
class RulebookDraft:
    """A rulebook being assembled: families add to it through these methods, in the order their hooks run."""

    family: str = ""
    active: bool = True
    """False while a dormant family installs: its reactions and hooks are dropped, its actions kept."""
    actions: dict[type, ActionDef] = field(default_factory=dict)
    action_family: dict[type, str] = field(default_factory=dict)
    reactions: dict[str, ReactionDef] = field(default_factory=dict)
    hooks: dict[str, list[tuple[str, str, Any]]] = field(default_factory=dict)
    """Hooks by kind: (family, name, hook), in the order they were added."""

    def action(self, intent_type: type, definition: ActionDef) -> None:
        """Add an action (one definition per intent type)."""
        if intent_type in self.actions:
            raise ValueError(f"{intent_type.__name__} is registered twice")
        self.actions[intent_type] = definition
        self.action_family[intent_type] = self.family

    def reaction(self, definition: ReactionDef) -> None:
        """Add a reaction (offered in the order added, among those its trigger kind answers)."""
        if definition.key in self.reactions:
            raise ValueError(f"reaction {definition.key!r} registered twice")
        if self.active:
            self.reactions[definition.key] = definition

    def _hook(self, kind: str, name: str, hook: Any) -> None:
        if self.active:
            self.hooks.setdefault(kind, []).append((self.family, name, hook))

    def attack_hook(self, name: str, hook: AttackHook) -> None:
        """A layer that changes attack rolls (underwater UW-13..18, rider MNT-5/6, vehicles VEH-5)."""
        self._hook("attack", name, hook)

    def after_hit(self, hook: AfterHit) -> None:
        """Runs after a hit's damage is dealt (cover the shot passed through, STC-11)."""
        self._hook("after_hit", "", hook)

    def movement_hook(self, name: str, hook: MovementHook) -> None:
        """Runs after each step of movement and after forced movement (zones, grapples, escapes)."""
        self._hook("movement", name, hook)

    def order_hook(self, name: str, hook: OrderHook) -> None:
        """Rewrites the initiative order once it is rolled (trained mounts MNT-2, vehicles VEH-3)."""
        self._hook("order", name, hook)

    def start_of_turn(self, name: str, hook: StartOfTurnHook) -> None:
        """Runs at the start of each creature's turn, after its durations advance."""
        self._hook("start_of_turn", name, hook)

    def before_acting(self, name: str, hook: StartOfTurnHook) -> None:
        """Runs at a turn's start once the creature is in the fight (not dead, not gone): a death save (DEATH-2).

        hook(ctx, whose turn), before the surprise and action-budget checks.
        """
        self._hook("before_acting", name, hook)

    def reaction_veto(self, name: str, hook: ReactionVeto) -> None:
        """Stops a creature reacting (returns the rule) or lets it (None): a broken or fled NPC (MOR-20, MOR-22).

        Asked after the core's own checks (reaction spent, down, surprised) and before the conditions.
        """
        self._hook("reaction_veto", name, hook)

    def ambush_stealth(self, hook: AmbushStealth) -> None:
        """Adds roll sources to each ambusher's Stealth (SUR-1): advantage in an obscured zone (CONC-5)."""
        self._hook("ambush_stealth", "", hook)

    def end_of_turn(self, name: str, hook: EndOfTurnHook) -> None:
        """Runs at the end of each creature's turn, before its durations advance."""
        self._hook("end_of_turn", name, hook)

    def end_of_round(self, name: str, hook: EndOfRoundHook) -> None:
        """Runs at the end of each round (ordered by ``turns.END_OF_ROUND_ORDER``, then as added, HAZ-0)."""
        self._hook("end_of_round", name, hook)

    def passive_perception(self, hook: PassivePerception) -> None:
        """Modifies every passive Perception (surprise SUR-1, Hide HID-2): murky water, UW-25."""
        self._hook("passive_perception", "", hook)

    def visibility(self, hook: VisibilityHook) -> None:
        """Adds veils to a square's visibility (water, UW-24..26)."""
        self._hook("visibility", "", hook)

    def after_damage(self, hook: AfterDamage) -> None:
        """Runs after every damage event (morale, concentration, a mount dropping, vehicle tracks)."""
        self._hook("after_damage", "", hook)

    def damage_environment(self, hook: DamageEnvironment) -> None:
        """Gives a damage event's environment adjusters (G-39 step 2; underwater fire and thunder)."""
        self._hook("damage_environment", "", hook)

    def after_condition(self, hook: AfterCondition) -> None:
        """Runs after a condition takes hold (morale's Fear Effect, a mount knocked prone)."""
        self._hook("after_condition", "", hook)

    def area_damage(self, hook: AreaHook) -> None:
        """Deals an area's damage to what else is in it (objects, OBJ)."""
        self._hook("area_damage", "", hook)

    def after_object_damage(self, hook: ObjectHook) -> None:
        """Runs after an object is harmed (chain reactions, improvised objects)."""
        self._hook("after_object_damage", "", hook)

    def on_object_hit(self, hook: HitHook) -> None:
        """Runs after an object is hit by a Strike (a chandelier falls, IEA-5)."""
        self._hook("on_object_hit", "", hook)

    def on_change(self, name: str, hook: ChangeHook) -> None:
        """Runs after every environmental change a hazard makes."""
        self._hook("on_change", name, hook)


def _round_rank(order: tuple[str, ...]) -> Callable[[tuple[str, str, Any]], int]:
    def rank(entry: tuple[str, str, Any]) -> int:
        return order.index(entry[1]) if entry[1] in order else len(order)

    return rank


@dataclass(frozen=True, slots=True, eq=False)
class Rulebook:
    """The actions, reactions and hooks one fight plays by (read-only once built).

    Each hook kind is a tuple of the bare callables in the order they run (read on every Strike and step, so no
    names to skip over); :attr:`hook_names` and :attr:`hook_families` say what each one is.

    Attributes:
        families: The families installed in full, in install order.
        dormant: The families whose feature the fight lacks: only their actions are here.
        features: The fight features the rulebook was built for (None: every family installed in full).
        actions: Action definition by intent type, in install order (the order ``legal_intents`` lists them).
        action_family: The family that installed each action.
        reactions: Reaction definition by key, in install order (the order options are offered).
        reactions_by_kind: The reactions each trigger kind offers, in install order.
    """

    families: tuple[str, ...]
    dormant: tuple[str, ...]
    features: frozenset[str] | None
    actions: Mapping[type, ActionDef]
    action_family: Mapping[type, str]
    reactions: Mapping[str, ReactionDef]
    reactions_by_kind: Mapping[TriggerKind, tuple[ReactionDef, ...]]
    hook_families: Mapping[str, tuple[str, ...]]
    """For each hook kind, the family of each hook, in run order (for tests and explanations)."""
    attack_hooks: tuple[AttackHook, ...] = ()
    after_hit: tuple[AfterHit, ...] = ()
    movement_hooks: tuple[MovementHook, ...] = ()
    order_hooks: tuple[OrderHook, ...] = ()
    start_of_turn: tuple[StartOfTurnHook, ...] = ()
    end_of_turn: tuple[EndOfTurnHook, ...] = ()
    before_acting: tuple[StartOfTurnHook, ...] = ()
    reaction_vetoes: tuple[ReactionVeto, ...] = ()
    ambush_stealth: tuple[AmbushStealth, ...] = ()
    end_of_round: tuple[EndOfRoundHook, ...] = ()
    visibility: tuple[VisibilityHook, ...] = ()
    passive_perception: tuple[PassivePerception, ...] = ()
    after_damage: tuple[AfterDamage, ...] = ()
    damage_environment: tuple[DamageEnvironment, ...] = ()
    after_condition: tuple[AfterCondition, ...] = ()
    area_damage: tuple[AreaHook, ...] = ()
    after_object_damage: tuple[ObjectHook, ...] = ()
    on_object_hit: tuple[HitHook, ...] = ()
    on_change: tuple[ChangeHook, ...] = ()
    hook_names: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """For each hook kind, the name of each hook, in run order (unnamed kinds give "")."""

    @classmethod
    def build(cls, families: Iterable[Family], features: frozenset[str] | None = None,
              *, end_of_round_order: tuple[str, ...] = ()) -> Rulebook:
        """Install ``families`` in order (dormant those the fight's ``features`` leave out) and freeze.

        Args:
            families: The families, in install order (which is the order their hooks run).
            features: The fight's features (None: install every family).
            end_of_round_order: Names of end-of-round hooks that run first, in this order (HAZ-0); the others
                follow in install order.

        Raises:
            ValueError: Two families share a name, or an intent type or reaction key is installed twice.
        """
        draft = RulebookDraft()
        names: list[str] = []
        dormant: list[str] = []
        for family in families:
            if family.name in names or family.name in dormant:
                raise ValueError(f"family {family.name!r} is installed twice")
            draft.active = family.applies_to(features)
            (names if draft.active else dormant).append(family.name)
            draft.family = family.name
            family.install(draft)
        hooks = dict(draft.hooks)
        if "end_of_round" in hooks:
            hooks["end_of_round"] = sorted(hooks["end_of_round"], key=_round_rank(end_of_round_order))
        by_kind = {kind: tuple(d for d in draft.reactions.values() if kind in d.triggers) for kind in TriggerKind}
        kinds = ("attack", "after_hit", "movement", "order", "start_of_turn", "end_of_turn", "end_of_round",
                 "visibility", "passive_perception", "after_damage", "damage_environment", "after_condition",
                 "area_damage", "after_object_damage", "on_object_hit", "on_change", "before_acting",
                 "reaction_veto", "ambush_stealth")
        unknown = set(hooks) - set(kinds)
        if unknown:
            raise ValueError(f"unknown hook kinds {sorted(unknown)}")
        run = {k: tuple(h for _f, _n, h in hooks.get(k, ())) for k in kinds}
        return cls(
            families=tuple(names), dormant=tuple(dormant), features=features,
            actions=MappingProxyType(dict(draft.actions)), action_family=MappingProxyType(dict(draft.action_family)),
            reactions=MappingProxyType(dict(draft.reactions)),
            reactions_by_kind=MappingProxyType({k: v for k, v in by_kind.items() if v}),
            hook_families=MappingProxyType({k: tuple(f for f, _n, _h in hooks.get(k, ())) for k in kinds}),
            attack_hooks=run["attack"], after_hit=run["after_hit"], movement_hooks=run["movement"],
            order_hooks=run["order"], start_of_turn=run["start_of_turn"], end_of_turn=run["end_of_turn"],
            end_of_round=run["end_of_round"], visibility=run["visibility"],
            passive_perception=run["passive_perception"], after_damage=run["after_damage"],
            damage_environment=run["damage_environment"], after_condition=run["after_condition"],
            area_damage=run["area_damage"], after_object_damage=run["after_object_damage"],
            on_object_hit=run["on_object_hit"], on_change=run["on_change"], before_acting=run["before_acting"],
            reaction_vetoes=run["reaction_veto"], ambush_stealth=run["ambush_stealth"],
            hook_names=MappingProxyType({k: tuple(n for _f, n, _h in hooks.get(k, ())) for k in kinds}),
        )

    def __copy__(self) -> Rulebook:
        return self  # read-only: a copied state shares it

    def __deepcopy__(self, memo: dict[int, object]) -> Rulebook:
        return self

    def passive_perception_modifiers(self, state: EncounterState) -> tuple[Modifier, ...]:
        """The battlefield's modifiers to every passive Perception in this state (the ``passive_perception`` hooks)."""
        return tuple(m for hook in self.passive_perception for m in hook(state))

    def answering(self, kind: TriggerKind) -> tuple[ReactionDef, ...]:
        """The reactions a trigger of this kind offers, in install order."""
        return self.reactions_by_kind.get(kind, ())


__all__ = ["AmbushStealth", "Family", "Install", "PassivePerception", "Rulebook", "RulebookDraft"]
