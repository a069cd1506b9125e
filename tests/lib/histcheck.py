"""histcheck.py - reads a history file of `workbench lab run --history`
(docs/histories.md) and checks that it is what the format says.

  histcheck.py json FILE   JSON lines: index, process, type, f, value, time
  histcheck.py edn FILE    Jepsen EDN maps, parsed by the small reader below

Both: indexes 0, 1, ... in file order; times never go back; type one of
invoke/ok/fail/info.  EDN also: :process an integer, and each process is
single-threaded as Jepsen requires (an invocation, then its completion,
before the next invocation; nothing after an :info).  Prints
"types=invoke,ok,info lines=N" on success (the types seen, sorted), exits 1
with file:line on the first problem.  A reader of just the EDN this writer
uses (maps of keywords, integers, nil and strings), not a general one.
"""
import json
import re
import sys

TYPES = {"invoke", "ok", "fail", "info"}


def die(path, n, msg):
    print("%s:%d: %s" % (path, n, msg))
    sys.exit(1)


TOKEN = re.compile(r'\s*(?:(,)|(\{)|(\})|(:[A-Za-z][\w.*+!?-]*)|(-?\d+)|(nil)|("(?:[^"\\]|\\.)*"))')


def edn_string(tok):
    body, out, i = tok[1:-1], [], 0
    esc = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}
    while i < len(body):
        c = body[i]
        if c == "\\":
            d = body[i + 1]
            if d == "u":
                out.append(chr(int(body[i + 2:i + 6], 16)))
                i += 6
                continue
            if d not in esc:
                raise ValueError("bad escape \\" + d)
            out.append(esc[d])
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def edn_map(line):
    """One EDN map of keyword keys: returns a dict (keys without ':')."""
    pos, items = 0, []
    while pos < len(line.rstrip("\n")):
        m = TOKEN.match(line, pos)
        if not m:
            raise ValueError("unreadable at column %d" % (pos + 1))
        pos = m.end()
        if m.group(1):
            continue
        items.append(m)
    if not items or not items[0].group(2) or not items[-1].group(3):
        raise ValueError("not one map")
    body, out = items[1:-1], {}
    if len(body) % 2:
        raise ValueError("odd number of forms in the map")
    for k, v in zip(body[0::2], body[1::2]):
        if not k.group(4):
            raise ValueError("a key that is not a keyword")
        if v.group(4):
            val = ("kw", v.group(4)[1:])
        elif v.group(5):
            val = int(v.group(5))
        elif v.group(6):
            val = None
        elif v.group(7):
            val = edn_string(v.group(7))
        else:
            raise ValueError("a value that is not a scalar")
        out[k.group(4)[1:]] = val
    return out


def main():
    fmt, path = sys.argv[1], sys.argv[2]
    seen, last_t, lines = set(), -1, 0
    open_op, dead = {}, set()
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            lines = n
            try:
                o = json.loads(line) if fmt == "json" else edn_map(line)
            except ValueError as e:
                die(path, n, "not a %s line: %s" % (fmt, e))
            keys = {"index", "process", "type", "f", "value", "time"}
            if not keys <= set(o):
                die(path, n, "missing %s" % sorted(keys - set(o)))
            typ = o["type"][1] if fmt == "edn" and isinstance(o["type"], tuple) else o["type"]
            if typ not in TYPES:
                die(path, n, "type %r" % (o["type"],))
            if fmt == "edn" and not isinstance(o["type"], tuple):
                die(path, n, ":type is not a keyword")
            if o["index"] != n - 1:
                die(path, n, "index %r, want %d" % (o["index"], n - 1))
            if not isinstance(o["time"], int) or o["time"] < last_t:
                die(path, n, "time %r goes back" % (o["time"],))
            last_t = o["time"]
            seen.add(typ)
            if fmt == "edn":
                p = o["process"]
                if not isinstance(p, int):
                    die(path, n, ":process %r is not an integer" % (p,))
                if p in dead:
                    die(path, n, "process %d used after an :info" % p)
                if typ == "invoke":
                    if p in open_op:
                        die(path, n, "process %d invoked while its op is open" % p)
                    open_op[p] = n
                else:
                    if p not in open_op:
                        die(path, n, "process %d completes nothing" % p)
                    del open_op[p]
                    if typ == "info":
                        dead.add(p)
    print("types=%s lines=%d" % (",".join(sorted(seen)), lines))


if __name__ == "__main__":
    main()
