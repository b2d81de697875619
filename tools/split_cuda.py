#!/usr/bin/env python3
"""split_cuda.py - a stencilc CUDA file split into one file a stencil.

    tools/split_cuda.py GEN.stencil.cu OUT_DIR

nvcc compiles one file on one core, and ptxas spends minutes on the passes of
many steps: split, the stencils compile at once (the time loops' test built in
83 s on the GPU machine where the whole file had taken minutes). Each part is
the file's prelude (includes, declarations, helpers), every section of one
stencil ("// Stencil 'NAME' ..." up to the next stencil's), and the closing
of the file's namespaces; each registers its stencils as the whole file did.
Writes OUT_DIR/NN_NAME.cu in the order of the file. Exits 1, writing nothing,
where the file is not laid out so (no section, or not closing the two
namespaces it opens last): compile the file whole then.
"""
import os
import re
import sys

SECTION = re.compile(r"^// Stencil '([^']+)'")
CLOSING = ["} // namespace", "} // namespace stencilc_generated"]


def split(text):
    """(prelude, [(name, section text)], closing) or None."""
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if SECTION.match(line)]
    # The file ends with the two closings, then an empty last line.
    body_end = len(lines)
    while body_end > 0 and not lines[body_end - 1].strip():
        body_end -= 1
    if not starts or lines[body_end - 2:body_end] != CLOSING:
        return None
    end = body_end - 2
    parts = {}
    for first, last in zip(starts, starts[1:] + [end]):
        name = SECTION.match(lines[first]).group(1)
        parts.setdefault(name, []).extend(lines[first:last])
    prelude = "\n".join(lines[:starts[0]])
    return prelude, list(parts.items()), "\n".join(CLOSING) + "\n"


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: split_cuda.py GEN.stencil.cu OUT_DIR")
    source, out_dir = sys.argv[1], sys.argv[2]
    try:
        with open(source) as fh:
            result = split(fh.read())
    except (OSError, UnicodeDecodeError) as error:
        sys.exit(f"split_cuda: {source}: {error}")
    if result is None:
        print(f"split_cuda: {source}: not a stencilc CUDA file of sections", file=sys.stderr)
        sys.exit(1)
    prelude, parts, closing = result
    try:
        os.makedirs(out_dir, exist_ok=True)
        for number, (name, lines) in enumerate(parts):
            stem = re.sub(r"[^A-Za-z0-9_]", "_", name)
            path = os.path.join(out_dir, f"{number:02d}_{stem}.cu")
            with open(path, "w") as fh:
                fh.write(prelude + "\n" + "\n".join(lines) + "\n" + closing)
    except OSError as error:
        sys.exit(f"split_cuda: {out_dir}: {error}")
    print(f"split_cuda: {source}: {len(parts)} stencils in {out_dir}")


if __name__ == "__main__":
    main()
