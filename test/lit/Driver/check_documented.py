"""Fails unless every diagnostic id of `stencilc --list-diagnostics` has a
`## <id>` section (with the same level and text) in docs/diagnostics.md."""
import sys

table, doc_path = sys.argv[1], sys.argv[2]
doc = open(doc_path, encoding="utf-8").read()
missing = []
rows = [line.rstrip("\n").split("\t") for line in open(table, encoding="utf-8") if line.strip()]
for ident, level, text in rows:
    heading = "## " + ident + "\n"
    if heading not in doc:
        missing.append(ident + " (no section)")
        continue
    section = doc.split(heading, 1)[1].split("\n## ", 1)[0]
    if text not in section:
        missing.append(ident + " (text differs)")
if missing:
    print("undocumented diagnostics:\n  " + "\n  ".join(missing))
    sys.exit(1)
print("%d diagnostics documented" % len(rows))
