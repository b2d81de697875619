"""Fails unless each generated file has #line directives, and every one that
names the generated file itself gives the next line its true number there."""
import os
import re
import sys

for path in sys.argv[1:]:
    lines = open(path, encoding="utf-8").read().split("\n")
    name = os.path.basename(path)
    mapped = back = 0
    for number, line in enumerate(lines, start=1):
        m = re.match(r'#line (\d+) "(.*)"$', line)
        if not m:
            continue
        if os.path.basename(m.group(2)) == name:
            back += 1
            if int(m.group(1)) != number + 1:
                print("%s:%d: %s: the next line is %d" % (path, number, line, number + 1))
                sys.exit(1)
        else:
            mapped += 1
    if not mapped or not back:
        print("%s: %d directives to the source, %d back" % (path, mapped, back))
        sys.exit(1)
    print("%s: %d directives to the source, %d back, all exact" % (name, mapped, back))
