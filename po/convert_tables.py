#!/usr/bin/env python3
"""convert_tables.py SRC: turn the old hand-rolled string tables into
po/zh_CN.po (a one-off converter, kept for branches that still add to the
old tables: run it after merging one).

Reads the English/Chinese pairs of
  * workbench/core/i18n.c entries written the old way,
    [M_NAME] = {"English", "Chinese"},  (rewritten in place to
    [M_NAME] = N_("English"), so the file keeps one source of truth), and
  * labs/harness/narration_zh_*.def, NARR("English", "Chinese") (the files
    are deleted once converted),
then extracts the catalogue's template with po/update.sh's xgettext call
and fills every template msgid from the pairs and the existing
po/zh_CN.po, through msgmerge --compendium (so references, c-format flags
and wrapping are gettext's own).  A PRId64 written between literals
becomes <PRId64>, as xgettext writes it.

Prints the pairs no source uses (mark their literal with N_() in the
source) and the template msgids left without Chinese; exits 1 when two
pairs give one English text different Chinese texts.  It does not
translate anything itself and never drops an existing translation.
"""
import glob, os, re, subprocess, sys, tempfile

src = sys.argv[1] if len(sys.argv) > 1 else '.'
STR = r'"(?:[^"\\]|\\.)*"'


def strip_comments(code):
    return re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), code, flags=re.S)


def literal(text):
    """Adjacent C literals joined, escapes kept (C and PO escapes agree
    for what these files use); a PRI macro between them -> <PRIxx>."""
    out = []
    for m in re.finditer(STR + r'|\b(?:NARR_\w*?)?(PRI[a-zA-Z0-9]+)\b', text):
        out.append(m.group(1) and '<%s>' % m.group(1) or m.group(0)[1:-1])
    return ''.join(out)


def args_at(code, i):
    depth, out, cur, j = 0, [], [], i + 1
    while j < len(code):
        c = code[j]
        if c == '"':
            m = re.match(STR, code[j:])
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


FMT = r'%[-+ #0-9.*hljztL]*[a-zA-Z]|%<PRI\w+>'
HEADER = r'''# Chinese (simplified) messages of the workbench: the interface
# (workbench/core/i18n.c) and the labs' narration (harness/report.h).
# Written with the code, in the project's own words; po/README.md says
# how to add a message.
msgid ""
msgstr ""
"Project-Id-Version: workbench\n"
"Report-Msgid-Bugs-To: \n"
"PO-Revision-Date: 2026-12-01 00:00+0000\n"
"Last-Translator: workbench authors\n"
"Language-Team: Chinese (simplified)\n"
"Language: zh_CN\n"
"MIME-Version: 1.0\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Content-Transfer-Encoding: 8bit\n"
"Plural-Forms: nplurals=1; plural=0;\n"

'''
pairs = {}  # English (po escaped) -> (Chinese, where)
clash = 0


def add(en, zh, where):
    global clash
    if en in pairs and pairs[en][0] != zh:
        print(f"{where}: \"{en}\" is \"{zh}\" here but \"{pairs[en][0]}\" in {pairs[en][1]}")
        clash += 1
        return
    pairs.setdefault(en, (zh, where))


# 1. i18n.c: old entries -> pairs, rewritten as N_().
i18n = os.path.join(src, 'workbench/core/i18n.c')
code = open(i18n, encoding='utf-8').read()
old = re.compile(r'\[(M_\w+)\]\s*=\s*\{\s*((?:' + STR + r'\s*)+),\s*((?:' + STR + r'\s*)+)\}')
for m in old.finditer(code):
    add(literal(m.group(2)), literal(m.group(3)), 'i18n.c ' + m.group(1))
code = old.sub(lambda m: '[%s] = N_("%s")' % (m.group(1), literal(m.group(2))), code)
open(i18n, 'w', encoding='utf-8').write(code)

# 2. the narration tables -> pairs; the files go.
defs = sorted(glob.glob(os.path.join(src, 'labs/harness/narration_zh_*.def')))
for d in defs:
    code = strip_comments(open(d, encoding='utf-8').read())
    for m in re.finditer(r'\bNARR\s*\(', code):
        a = args_at(code, m.end() - 1)
        if len(a) == 2:
            add(literal(a[0]), literal(a[1]), os.path.basename(d))

# 3. the template, filled from the pairs and the existing catalogue.
po = os.path.join(src, 'po/zh_CN.po')
with tempfile.TemporaryDirectory() as tmp:
    pot = os.path.join(tmp, 'workbench.pot')
    subprocess.run(['sh', os.path.join(src, 'po/update.sh'), src, pot], check=True)
    used = set()
    for m in re.finditer(r'^msgid ((?:".*"\n)+)', open(pot, encoding='utf-8').read(), re.M):
        used.add(''.join(s[1:-1] for s in m.group(1).split('\n') if s))
    used.discard('')
    comp = os.path.join(tmp, 'pairs.po')
    with open(comp, 'w', encoding='utf-8') as f:
        f.write('msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n')
        for en, (zh, _) in pairs.items():
            f.write(f'msgid "{en}"\nmsgstr "{zh}"\n\n')
        # A text without words ("%s: %s", "2^12 = 4096") is its own
        # translation.
        for en in used:
            if en not in pairs and not re.search(r'[A-Za-z]{2}', re.sub(FMT, '', en)):
                f.write(f'msgid "{en}"\nmsgstr "{en}"\n\n')
    base = po if os.path.exists(po) else '/dev/null'
    out = os.path.join(tmp, 'zh_CN.po')
    subprocess.run(['msgmerge', '--quiet', '--no-fuzzy-matching', '--compendium', comp,
                    '--lang=zh_CN', '-o', out, base, pot], check=True)
    text = open(out, encoding='utf-8').read()
    if base == '/dev/null':
        text = re.sub(r'\A.*?\n\n', lambda m: HEADER, text, count=1, flags=re.S)
    open(po, 'w', encoding='utf-8').write(text)

for en, (zh, where) in pairs.items():
    if en not in used:
        print(f"{where}: not in any source (mark it N_()): \"{en}\"")
for d in defs:
    os.remove(d)
stats = subprocess.run(['msgfmt', '-c', '--statistics', '-o', '/dev/null', po],
                       capture_output=True, text=True).stderr.strip()
print(f"{len(pairs)} pairs, {len(used)} template msgids; msgfmt: {stats}")
sys.exit(1 if clash else 0)
