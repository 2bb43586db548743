"""The roster pool of the lab (and examples of roster files): one army a file, read by ``games/farside/lab_setup.py``."""
