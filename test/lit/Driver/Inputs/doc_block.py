"""Prints the output lines of a documented command: the lines after the line
'$ <command>' up to the end of its fenced block. Usage: doc_block.py FILE COMMAND"""
import sys

path, command = sys.argv[1], sys.argv[2]
lines = open(path, encoding="utf-8").read().splitlines()
start = lines.index("$ " + command)  # ValueError (a failure) when the doc lost it
for line in lines[start + 1:]:
    if line.startswith("```"):
        break
    print(line)
