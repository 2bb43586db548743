"""Run every check_*.test_* function (MicroPython has no pytest). Raises on the first failure."""

import check_auth
import check_hosts
import check_link
import check_scene
import check_testinput
import check_wire

count = 0
for module in (check_wire, check_scene, check_link, check_testinput, check_hosts, check_auth):
    for name in sorted(dir(module)):
        if name.startswith("test_"):
            getattr(module, name)()
            count += 1
print("portable checks passed:", count)
