#!/usr/bin/env python3
"""narration_literals.py SRC: the narration format literals the labs pass
to harness/report.h (steps, expected values, conclusions, could-not-run
notes) and whether labs/harness/narration_zh_*.def translates each.

Prints one line per missing literal, "FILE:LINE: <literal>", and exits 1
when any is missing.  A call whose text is not a literal (a variable, a
ternary) is not checked: the labs keep such texts as literals on purpose.
"""
import glob, os, re, sys

src = sys.argv[1]
STR = r'"(?:[^"\\]|\\.)*"'
LIT = r'((?:\s*' + STR + r')+)'
calls = [
    re.compile(r'report_(?:step|conclusion|cannot)\s*\(\s*[^,;]+?,' + LIT),
    re.compile(r'report_checkf?\s*\(\s*[^,;]+?,\s*[^,;]+?,\s*[^,;]+?,' + LIT),
]


def literal(text):
    """The C string value of adjacent literals, escapes kept as written."""
    return ''.join(m[1:-1] for m in re.findall(STR, text))


def strip_comments(code):
    return re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), code, flags=re.S)


have = set()
for d in glob.glob(os.path.join(src, 'labs/harness/narration_zh_*.def')):
    code = strip_comments(open(d, encoding='utf-8').read())
    for m in re.finditer(r'NARR\s*\(' + LIT + r'\s*,' + LIT + r'\s*\)', code):
        have.add(literal(m.group(1)))

missing = 0
for f in sorted(glob.glob(os.path.join(src, 'labs/**/*.c'), recursive=True)):
    code = strip_comments(open(f, encoding='utf-8').read())
    for rx in calls:
        for m in rx.finditer(code):
            s = literal(m.group(1))
            if re.search(r'[A-Za-z]{2}', s.replace('%s', '').replace('%d', '')) and s not in have:
                line = code.count('\n', 0, m.start()) + 1
                print(f"{os.path.relpath(f, src)}:{line}: {s}")
                missing += 1
print(f"{missing} narration literal(s) without a Chinese text", file=sys.stderr)
sys.exit(1 if missing else 0)
