"""The battle map as geometry: squares, terrain costs, distance, reach, lines, cover and flanking.

Pure functions over an immutable :class:`~ashfall.grid.board.Board`; no creature state lives here.
"""
