"""`python -m paperterm`."""

from paperterm.cli import main

raise SystemExit(main())
