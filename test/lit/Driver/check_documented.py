"""Fails unless every diagnostic id of `stencilc --list-diagnostics` has a
`## <id>` section in docs/diagnostics.md with the same level and text, an
example (a fenced code block) and a `- **Fix**:` line saying what to do."""
import re
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
    # A section ends at the next heading ("# " or "## ", not "#include").
    section = re.split(r"\n##? ", doc.split(heading, 1)[1], maxsplit=1)[0]
    if "- **Level**: " + level + "\n" not in section:
        missing.append(ident + " (level differs)")
    if text not in section:
        missing.append(ident + " (text differs)")
    if "\n```" not in section:
        missing.append(ident + " (no example)")
    fix = section.split("\n- **Fix**:", 1)
    if len(fix) < 2 or not fix[1].strip():
        missing.append(ident + " (no fix)")
if missing:
    print("undocumented diagnostics:\n  " + "\n  ".join(missing))
    sys.exit(1)
print("%d diagnostics documented" % len(rows))
