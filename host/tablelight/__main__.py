from tablelight.cli.main import main

raise SystemExit(main())
