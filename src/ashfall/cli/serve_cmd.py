"""``ashfall serve``: start the GM's table (an HTTP API over an SQLite event store) on this machine.

The web stack (FastAPI, uvicorn) is imported inside the command, so the other commands start as fast as
before. With ``--open ENCOUNTER`` a new table is opened with a fight of that shipped encounter, and its GM
and player URLs and tokens are printed before the server starts.
"""

from pathlib import Path
from typing import Annotated

import typer


def serve_command(
    db: Annotated[Path | None, typer.Option("--db", help="The table database (default "
                                            "~/.local/share/ashfall/tables.db).")] = None,
    host: Annotated[str, typer.Option("--host", help="Address to bind (only this machine by default).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port to listen on.")] = 8000,
    open_: Annotated[str | None, typer.Option("--open", help="Open a new table with a fight of this shipped "
                                              "encounter.")] = None,
) -> None:
    """Start the GM's table: persistent, undoable fights over HTTP with a player view (API docs at /docs)."""
    import uvicorn

    from ashfall.web.app import create_app
    from ashfall.web.service import TableError, default_db

    path = db or default_db()
    app = create_app(path)
    base = f"http://{host}:{port}"
    typer.echo(f"table database: {path}")
    if open_ is not None:
        service = app.state.service
        try:
            table_id, gm_token = service.create_table(f"{open_} table")
            fight_id = service.create_fight(table_id, encounter=open_)
        except TableError as err:
            typer.echo(f"cannot open {open_!r}: {err.message} {err.extra or ''}".rstrip(), err=True)
            raise typer.Exit(2) from err
        pcs = [c["id"] for c in service.gm_view(fight_id)["creatures"] if c["pc"]]
        _, player_token = service.add_player(fight_id, pcs)
        typer.echo(f"fight {fight_id} of table {table_id}: {service.gm_view(fight_id)['name']}")
        typer.echo(f"GM view:     {base}/api/fights/{fight_id}?token={gm_token}")
        typer.echo(f"player view: {base}/api/fights/{fight_id}/view?token={player_token}")
        typer.echo(f"GM screen:     {base}/table/fights/{fight_id}?token={gm_token}")
        typer.echo(f"player screen: {base}/table/fights/{fight_id}/player?token={player_token}")
        typer.echo(f"fights list:   {base}/table?token={gm_token}")
        typer.echo(f"GM token: {gm_token}")
        typer.echo(f"player token ({', '.join(pcs)}): {player_token}")
    typer.echo(f"API: {base}/docs  (OpenAPI: {base}/openapi.json)", err=False)
    uvicorn.run(app, host=host, port=port, log_level="warning")
