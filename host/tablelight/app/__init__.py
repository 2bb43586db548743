"""The whole table in a web page: the builder of the static app and the Python its worker runs.

* :mod:`.engine`: what the page's Web Worker runs in Pyodide: a game through the table core
  (:class:`~tablelight.table.service.Table` on :class:`~tablelight.table.loop.TableLoop`, no
  threads) and the desk's snapshots (:class:`~tablelight.web.desk.Desk`) as JSON;
* :mod:`.wheel`: the slim tablelight wheel the worker installs (pure Python: core, games, table,
  the board protocol, the wire format, the desk);
* :mod:`.build`: ``tablelight app build DIR`` (the page, the worker, the pinned Pyodide files from
  npm, the wheel, a service worker and a manifest); :mod:`.serve`: ``tablelight app serve``.
"""
