#!/usr/bin/env python3
"""narration_literals.py SRC: the narration format literals the labs pass
to harness/report.h (steps, expected values, conclusions, could-not-run
notes) and whether labs/harness/narration_zh_*.def translates each.

Prints one line per missing literal, "FILE:LINE: <literal>", and exits 1
when any is missing.  The call's arguments are split at top-level commas
(strings, parentheses and brackets respected); the narration argument is
checked only when it is made of string literals alone (a variable, a
ternary or a literal joined with a macro such as PRId64 is left out: the
labs keep such texts few, and their .def entries are written by hand).
"""
import glob, os, re, sys

src = sys.argv[1]
STR = r'"(?:[^"\\]|\\.)*"'
# function -> index of its narration argument
CALLS = {'report_step': 1, 'report_conclusion': 1, 'report_cannot': 1,
         'report_check': 3, 'report_checkf': 3}


def strip_comments(code):
    return re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), code, flags=re.S)


def literal(text):
    """The value of adjacent C string literals, escapes kept as written."""
    return ''.join(m[1:-1] for m in re.findall(STR, text))


def args_at(code, i):
    """The top-level arguments of the call whose '(' is at code[i]."""
    depth, out, cur, j = 0, [], [], i + 1
    while j < len(code):
        c = code[j]
        if c == '"':
            m = re.match(STR, code[j:])
            cur.append(m.group(0))
            j += len(m.group(0))
            continue
        if c == "'":
            m = re.match(r"'(?:[^'\\]|\\.)*'", code[j:])
            cur.append(m.group(0))
            j += len(m.group(0))
            continue
        if c in '([{':
            depth += 1
        elif c in ')]}':
            if depth == 0:
                out.append(''.join(cur))
                return out
            depth -= 1
        elif c == ',' and depth == 0:
            out.append(''.join(cur))
            cur = []
            j += 1
            continue
        cur.append(c)
        j += 1
    return out


have = set()
for d in glob.glob(os.path.join(src, 'labs/harness/narration_zh_*.def')):
    code = strip_comments(open(d, encoding='utf-8').read())
    for m in re.finditer(r'\bNARR\s*\(', code):
        a = args_at(code, m.end() - 1)
        if len(a) == 2:
            have.add(literal(a[0]))

missing = 0
for f in sorted(glob.glob(os.path.join(src, 'labs/**/*.c'), recursive=True)):
    code = strip_comments(open(f, encoding='utf-8').read())
    for m in re.finditer(r'\b(' + '|'.join(CALLS) + r')\s*\(', code):
        if code[:m.start()].rstrip().endswith(('void', 'int', 'enum report_verdict')):
            continue  # a declaration, not a call
        a = args_at(code, m.end() - 1)
        k = CALLS[m.group(1)]
        if len(a) <= k:
            continue
        arg = a[k].strip()
        if not re.fullmatch(r'(?:\s*' + STR + r')+', arg):
            continue
        s = literal(arg)
        if not re.search(r'[A-Za-z]{2}', re.sub(r'%[-+ #0-9.*hljztL]*[a-zA-Z]', '', s)):
            continue  # no words: a number, a value
        if s not in have:
            line = code.count('\n', 0, m.start()) + 1
            print(f"{os.path.relpath(f, src)}:{line}: {s}")
            missing += 1
print(f"{missing} narration literal(s) without a Chinese text", file=sys.stderr)
sys.exit(1 if missing else 0)
