"""Built-in Landover maps as JSON data (a package so that the files ship with the wheel)."""
