"""Markdown helpers of tests/integration/readme_commands.sh (Python 3 standard library only).

    markdown_check.py blocks README.md OUTDIR   # one file per fenced code block + OUTDIR/manifest
    markdown_check.py links FILE.md...          # every relative link points to an existing file
    markdown_check.py tables FILE.md...         # every table row belongs to a well-formed table

`blocks` writes OUTDIR/<n>.<lang> and a manifest line per block, tab-separated:
n, line of the opening fence, language (or "none"), marker. The marker is the text of a comment
`<!-- readme-test: MARKER -->` on the line right before the fence, or "run" without one.
`links` and `tables` print one line per problem (file:line: what) and exit 1 if there is any.
"""
import os
import re
import sys

FENCE = re.compile(r"^(```+|~~~+)\s*([A-Za-z0-9_+-]*)\s*$")
MARKER = re.compile(r"^<!--\s*readme-test:\s*(.*?)\s*-->\s*$")
# [text](target) or [text](target "title"); images ![alt](target) alike.
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")


def fenced_blocks(lines):
    """Yields (line number of the opening fence, language, marker, body lines)."""
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, lang, start = m.group(1), m.group(2) or "none", i
        marker = "run"
        if i > 0:
            mm = MARKER.match(lines[i - 1].strip())
            if mm:
                marker = mm.group(1)
        body = []
        i += 1
        while i < len(lines) and not lines[i].startswith(fence[:3]):
            body.append(lines[i])
            i += 1
        if i >= len(lines):
            raise SystemExit(f"line {start + 1}: code block never closed")
        yield start + 1, lang, marker, body
        i += 1


def prose_lines(lines):
    """Yields (line number, text) of the lines outside fenced code blocks."""
    in_block = None
    for n, line in enumerate(lines, 1):
        m = FENCE.match(line)
        if in_block is None and m:
            in_block = m.group(1)[:3]
            continue
        if in_block is not None:
            if line.startswith(in_block):
                in_block = None
            continue
        yield n, line


def cmd_blocks(readme, outdir):
    with open(readme, encoding="utf-8") as f:
        lines = f.read().split("\n")
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "manifest"), "w", encoding="utf-8") as man:
        for n, (line, lang, marker, body) in enumerate(fenced_blocks(lines), 1):
            with open(os.path.join(outdir, f"{n}.{lang}"), "w", encoding="utf-8") as out:
                out.write("\n".join(body) + "\n")
            man.write(f"{n}\t{line}\t{lang}\t{marker}\n")
    return 0


def cmd_links(files):
    problems = 0
    for path in files:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        for n, line in prose_lines(lines):
            for target in LINK.findall(INLINE_CODE.sub("", line)):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                    continue  # http(s), mailto: not checked here; an anchor of this page
                file_part = target.split("#", 1)[0]
                resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part))
                if not os.path.exists(resolved):
                    print(f"{path}:{n}: link to {target}: no such file ({resolved})")
                    problems += 1
    return 1 if problems else 0


def cells(row):
    """The cells of a table row: split on | that is not escaped as \\|."""
    inner = row.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return re.split(r"(?<!\\)\|", inner)


def cmd_tables(files):
    problems = 0
    separator = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
    for path in files:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        width = None
        for n, line in prose_lines(lines):
            is_row = line.lstrip().startswith("|")
            if not is_row:
                width = None
            elif width is None:
                # First row of a table: the next line must be its separator.
                nxt = lines[n] if n < len(lines) else ""
                if not separator.match(nxt):
                    print(f"{path}:{n}: table row without a header and separator line above it")
                    problems += 1
                    width = -1
                else:
                    width = len(cells(line))
                    if len(cells(nxt)) != width:
                        print(f"{path}:{n + 1}: separator has {len(cells(nxt))} cells, header {width}")
                        problems += 1
            elif width > 0 and len(cells(line)) != width:
                print(f"{path}:{n}: row has {len(cells(line))} cells, the header {width}")
                problems += 1
    return 1 if problems else 0


def main(argv):
    if len(argv) >= 3 and argv[1] == "blocks":
        return cmd_blocks(argv[2], argv[3])
    if len(argv) >= 2 and argv[1] == "links":
        return cmd_links(argv[2:])
    if len(argv) >= 2 and argv[1] == "tables":
        return cmd_tables(argv[2:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
