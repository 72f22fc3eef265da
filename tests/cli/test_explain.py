"""The fight presenter: events to plain-text lines with faces, modifiers and rule IDs (no rules logic here)."""

from __future__ import annotations

from ashfall.engine import events as ev
from ashfall.explain import event_lines, log_lines, names_of
from ashfall.rules.health import Health

NAMES = {"w": "Warrior", "r": "Raider"}
ROLL = ev.RollRecord((4, 15), 15, "advantage", (ev.Part("MIG", 4, "ATK-1"), ev.Part("flanking", 2, "AMOD-1")),
                     (ev.Source(True, "melee vs prone", "X-02"),), 21)
ATTACK = ev.AttackRolled("w", "r", "greataxe", "Strike", ROLL, 13, (ev.Part("base", 10, "DV-1"),
                                                                  ev.Part("crate", 2, "COV-1")), "hit",
                         ("ATK-4",), True)


def test_explain__attack_headline_and_breakdown_name_every_rule() -> None:
    headline, *detail = event_lines(ATTACK, NAMES)
    assert headline == "Warrior: Strike at Raider with greataxe: 21 vs DV 13 -> HIT [ATK-4]"
    assert detail[0] == "    d20 [4, 15] advantage, kept 15 +4 MIG [ATK-1] +2 flanking [AMOD-1] = 21"
    assert "    advantage: melee vs prone [X-02]" in detail
    assert "    DV 13 = +10 base [DV-1] +2 crate [COV-1]" in detail
    assert event_lines(ATTACK, NAMES, explain=False) == [headline]


def test_explain__damage_dice_faces_and_ledger_rows() -> None:
    rolled = ev.DamageRolled("w", "r", (ev.RolledPart("Greataxe", "slashing", "2d12", (3, 9), 0, True, 12, "DMG-2"),
                                        ev.RolledPart("MIG", "slashing", "", (), 4, False, 4, "DMG-2")), True, 16)
    assert event_lines(rolled, NAMES) == [
        "critical damage to Raider: 2d12 doubled on the crit [3, 9] = 12 slashing (Greataxe) [DMG-2] "
        "+4 slashing (MIG) [DMG-2] = 16"
    ]
    taken = ev.DamageTaken("r", "w", 11, (ev.LedgerLine("dr", "slashing", 16, 11, "DR-1", "armor"),),
                           Health.full(20).evolve(hp=9))
    assert event_lines(taken, NAMES) == ["Raider takes 11 damage -> 9/20 HP [DMG-1]",
                                         "    dr: slashing 16 -> 11 (armor) [DR-1]"]


def test_explain__bookkeeping_only_when_explaining_and_unknown_events_never_break() -> None:
    used = ev.ResourceUsed("w", "movement", 30, "ACT-2")
    assert event_lines(used, NAMES, explain=False) == []
    assert event_lines(used, NAMES) == ["Warrior: movement +30 [ACT-2]"]

    class Strange:
        actor = "w"
        type = "strange-thing"
        rule = "G-99"

    assert event_lines(Strange(), NAMES) == ["Warrior: strange-thing [G-99]"]
    assert event_lines(Strange(), NAMES, explain=False) == []


def test_explain__a_log_reads_in_order_with_round_headings() -> None:
    lines = log_lines([ev.RoundStarted(1), ev.TurnStarted("w", 1, 3, 0), ev.CombatEnded("party", 1)], NAMES)
    assert lines == ["== Round 1 ==", "Warrior's turn: 3 actions [AE-1]",
                     "The fight is over after round 1: party wins [INIT-2]"]


def test_explain__repeated_names_are_numbered() -> None:
    assert names_of([("a", "Raider"), ("w", "Warrior"), ("b", "Raider")]) == {"a": "Raider 1", "w": "Warrior",
                                                                             "b": "Raider 2"}
