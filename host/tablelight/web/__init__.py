"""The table's web pages on Starlette and uvicorn: the public board page and each seat's page.

* :mod:`.access`: seat tokens, join codes, the host token (all from :mod:`secrets`);
* :mod:`.guard`: Host and Origin checks, body limits, security headers, idle connections;
* :mod:`.desk`: what each seat and the shared screen may see, computed on the table's thread;
* :mod:`.app`: the routes; :mod:`.server`: uvicorn in a thread; :mod:`.share`: addresses, links, QR codes.
"""
