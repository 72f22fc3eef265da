"""Pure resolution: functions of (state, intent, rng, ruleset) returning structured, explained results.

Nothing here formats text, reads flags, touches files or the clock.
"""
