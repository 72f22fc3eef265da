"""Riders, vehicles and water in encounter files: ``mounted_on``, ``station``, ``moving`` and ``underwater``.

A combatant with ``mounted_on: <combatant id>`` starts the fight riding that mount or aboard that
vehicle, in its square (MNT-4): it gives no position of its own. A mount must be a single creature of
the rider's side, larger than the rider (ACT-6), not riding anything itself, and carries one rider. A
vehicle (a stat block with a ``vehicle`` block) carries its crew (``station``: pilot, gunner, engineer,
commander; the first free one if not given) and passengers up to its seats (VEH-2); ``moving: true``
marks a vehicle moving as the fight starts (VEH-5). ``underwater: clear|murky|dark`` makes the whole
fight underwater (UW).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ashfall.content.library import close_matches, suggestion_text
from ashfall.content.schema import Creature, CrewStation
from ashfall.encounters.report import Report

if TYPE_CHECKING:
    from ashfall.encounters.roster import Declared

PASSENGER = CrewStation.PASSENGER.value
Riding = dict[tuple[int, int], tuple[str, str]]
"""(entry index, creature number) -> (the mount or vehicle id, the crew station or "")."""


def _placement_problems(e: Declared, report: Report) -> None:
    for key in ("position", "positions", "zone"):
        if getattr(e.spec, key) is not None:
            report.add((*e.path, key), f"a rider takes its mount's square (MNT-4): give no {key}")


def _seat(vehicle: Creature, taken: Counter[str], wanted: str | None) -> str | None:
    """The station a creature takes aboard (a wanted one if free), else a passenger seat, else None."""
    profile = vehicle.vehicle
    assert profile is not None
    free = [s.value for s in profile.stations if taken[s.value] < list(profile.stations).count(s)]
    seats = profile.passengers - taken[PASSENGER]
    if wanted is not None:
        return wanted if wanted in free or (wanted == PASSENGER and seats > 0) else None
    return free[0] if free else (PASSENGER if seats > 0 else None)


def check_riding(entries: Sequence[Declared], ids: Mapping[int, list[tuple[str, str]]], report: Report) -> Riding:
    """Check every ``mounted_on``, ``station`` and ``moving``; return each rider's mount and station."""
    owner = {cid: e for e in entries for cid, _name in ids.get(e.index, [])}
    riders: Counter[str] = Counter()
    aboard: dict[str, Counter[str]] = {}
    out: Riding = {}
    for e in entries:
        spec = e.spec
        if spec.moving is not None and (e.creature is None or e.creature.vehicle is None):
            report.add((*e.path, "moving"), "moving is for vehicles (VEH-5)")
        if spec.mounted_on is None:
            if spec.station is not None:
                report.add((*e.path, "station"), "a station needs mounted_on: the vehicle it is aboard (VEH-2)")
            continue
        path = (*e.path, "mounted_on")
        _placement_problems(e, report)
        mount = owner.get(spec.mounted_on)
        if mount is None:
            report.add(path, f"no combatant {spec.mounted_on!r} to ride" + suggestion_text(
                close_matches(spec.mounted_on, owner)))
            continue
        if mount is e:
            report.add(path, "a creature cannot ride itself")
            continue
        if mount.spec.side != spec.side:
            report.add(path, f"{spec.mounted_on} fights for {mount.spec.side!r}; a rider's mount or vehicle is on "
                             "its own side")
        if mount.spec.mounted_on is not None:
            report.add(path, f"{spec.mounted_on} rides something itself")
        if e.creature is None or mount.creature is None:
            continue
        for k, (cid, _name) in enumerate(ids.get(e.index, [])):
            if mount.creature.vehicle is not None:
                taken = aboard.setdefault(spec.mounted_on, Counter())
                seat = _seat(mount.creature, taken, spec.station.value if spec.station else None)
                if seat is None:
                    report.add(path, f"{spec.mounted_on} has no {spec.station.value if spec.station else 'free'} "
                                     f"station or seat left for {cid} (VEH-2)")
                    break
                taken[seat] += 1
                out[(e.index, k)] = (spec.mounted_on, seat)
                continue
            if spec.station is not None:
                report.add((*e.path, "station"), f"{spec.mounted_on} is a mount, not a vehicle: no stations")
                break
            if mount.creature.size.rank <= e.creature.size.rank:
                report.add(path, f"{spec.mounted_on} ({mount.creature.size.value}) is not larger than {cid} "
                                 f"({e.creature.size.value}) (ACT-6)")
                break
            riders[spec.mounted_on] += 1
            if riders[spec.mounted_on] > 1:
                report.add(path, f"{spec.mounted_on} already carries a rider (ACT-6)")
                break
            out[(e.index, k)] = (spec.mounted_on, "")
    return out


__all__ = ["Riding", "check_riding"]
