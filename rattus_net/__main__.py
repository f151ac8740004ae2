"""`python -m rattus_net` is the same as the `rattus` command."""

from rattus_net.cli import main

raise SystemExit(main())
