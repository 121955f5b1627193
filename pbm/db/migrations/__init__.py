"""Alembic migrations, shipped in the package (script_location ``pbm.db:migrations``)."""
