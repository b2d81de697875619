"""Runs a command whose standard output is a pipe nobody reads, and prints
"exit N" (negative N: killed by signal -N)."""
import os
import subprocess
import sys

read_end, write_end = os.pipe()
os.close(read_end)
code = subprocess.run(sys.argv[1:], stdout=write_end).returncode
print("exit", code)
