"""The table's web pages on Starlette and uvicorn: the public board page and each seat's page.

* :mod:`.access`: seat tokens, join codes, the host token (all from :mod:`secrets`);
* :mod:`.guard`: Host and Origin checks, body size and time limits, security headers;
* :mod:`.limits`: how many connections strangers may hold (never crowding out the seats' and
  the host's), request deadlines, uvicorn's logs kept off the terminal; :mod:`.throttle`: wrong codes;
* :mod:`.desk`: what each seat and the shared screen may see, a listener of the table's events, on its event loop;
* :mod:`.app`: the routes; :mod:`.server`: uvicorn on the table's event loop (a thread for ``tablelight sim``); :mod:`.pulse`: what the pages' sockets wait on; :mod:`.share`: addresses, links, QR codes.
"""
