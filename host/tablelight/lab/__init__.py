"""The designers' lab: many bot games per rule variant, played in parallel, with statistics.

``tablelight lab GAME`` (``tablelight.cli.lab``) builds a plan (:mod:`.plan`), plays
it (:mod:`.runner`, :mod:`.play`; optionally on Dask, :mod:`.cluster`), streams every
game to a results file (:mod:`.results`) and turns the games into statistics
(:mod:`.aggregate`, :mod:`.stats`) shown as text, JSON or an HTML report (:mod:`.report`).
"""
