"""Every action, activity and reaction the engine knows, one module per family.

Importing this package registers nothing: each module has an ``install(book)`` function, and
:mod:`ashfall.engine.catalog` installs them into a rulebook in a fixed order (the order ``legal_intents``
lists actions and reactions are offered).
"""
