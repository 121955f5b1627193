"""The zine: one issue per resolved turn of a competition, mailed and archived.

Pipeline: :func:`pbm.zine.source.load_reports` (stored ``TurnReport`` values) →
:func:`pbm.zine.model.build_issue` (ONE issue model, from the turn's events and the earlier
reports) → :mod:`pbm.zine.render` (HTML, 80-column text, Typst PDF) →
:func:`pbm.zine.deliver.send_issue` (each player's mail, by the choice kept by
:mod:`pbm.zine.delivery`) and :func:`pbm.zine.archive.build_archive` (the static site, with
:mod:`pbm.zine.atom`). Pictures are in :mod:`pbm.zine.charts`, figures and careers in
:mod:`pbm.zine.stats`, match reports in :mod:`pbm.zine.story`, colours in
:mod:`pbm.zine.palette`. ``pbm zine`` (``pbm.cli.zine``) builds, serves and demos it.
"""
