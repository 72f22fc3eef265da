"""The ``ashfall`` command line: a thin typer adapter over the engine, with rich presenters."""
