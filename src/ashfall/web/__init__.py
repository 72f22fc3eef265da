"""The GM's table: an HTTP service over the engine with an SQLite event store (``ashfall serve``)."""
