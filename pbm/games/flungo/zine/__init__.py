"""The zine: one issue per resolved turn of a competition, mailed and archived.

Pipeline: :func:`pbm.games.flungo.zine.source.load_reports` (stored ``TurnReport`` values) →
:func:`pbm.games.flungo.zine.model.build_issue` (ONE issue model, from the turn's events and the
earlier
reports) → :mod:`pbm.games.flungo.zine.render` (HTML, 80-column text, Typst PDF) →
:func:`pbm.games.flungo.zine.deliver.send_issue` (each player's mail, by the choice kept by
:mod:`pbm.games.flungo.zine.delivery`) and :func:`pbm.games.flungo.zine.archive.build_archive` (the
static site, with
:mod:`pbm.games.flungo.zine.atom`). Pictures are in :mod:`pbm.games.flungo.zine.charts`, figures
and careers in
:mod:`pbm.games.flungo.zine.stats`, match reports in :mod:`pbm.games.flungo.zine.story`, colours in
:mod:`pbm.games.flungo.zine.palette`. ``pbm zine`` (``pbm.cli.zine``) builds, serves and demos it.
"""
