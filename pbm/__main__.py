"""``python -m pbm`` runs the command line."""

from pbm.cli import main

main()
