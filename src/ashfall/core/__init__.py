"""The foundation every rule stands on: rule references, injected randomness, dice and modifiers."""
