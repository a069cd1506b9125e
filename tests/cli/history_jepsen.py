"""history_jepsen.py - reads a history file of `workbench lab run --history`
the way Jepsen's and Porcupine's users do, and judges it with their
register and lock models (tests/cli/history_jepsen.sh drives it).

  history_jepsen.py FILE EVENTS LAB

FILE is the history (.edn or .jsonl by its name); EVENTS the same run's
`lab run --json` output, for the lab's own checker verdicts and witnesses.
The reader is independent of the workbench's code:

  EDN    one map per line, read by the small EDN reader below; an
         invocation and its completion are paired by :process alone, as
         Jepsen (knossos.history/complete) pairs them.
  JSON   one object per line; paired by "op", the op id, as Porcupine's
         Event.Id pairs a call and its return (a lab process may have two
         ops open at once: pairing by process alone is not enough there).

Both: :index/"index" is 0, 1, ... in file order; times never go back;
every completion has an open invocation with the same f; the op id of a
completion is its invocation's; no op id is used twice; a witness op of
the lab's checkers is an invocation line of the file.  Then, by LAB:

  zk-stale-read    register (initial "0", read/write): the whole file is
                   not linearizable (the lab's plain-read verdict); the
                   lab's witness alone is not; the file without the
                   witness's read is (the sync-then-read verdict).
  zk-create-lost,  lock with an owner (acquire/release by :name, other f
  zk-lock-chain    dropped as Knossos users filter them): linearizable, as
                   the lab's mutual-exclusion verdict says.
  zk-fencing       the lock as above; and each resource's accepted writes
                   (ok, :result "fenced ..." or "unfenced ...") against a
                   fenced resource (an accepted token is >= every token
                   accepted before): fenced valid, unfenced not, as the
                   lab's two token verdicts say.

Linearizability is a brute-force search over orders consistent with real
time (A before B when A completed strictly before B was invoked), with a
memo of (ops left, state): lab histories hold tens of ops.  A fail op took
no effect and is dropped; an info op (or one never completed) may take
effect at any time after its invocation, or never.

Prints one line per verdict reproduced and exits 0; exits 1 with
FILE:LINE or the disagreement on the first problem.
"""
import json
import re
import sys

INF = float("inf")


def die(msg):
    print("history_jepsen: " + msg)
    sys.exit(1)


# --- EDN: maps of keyword keys; keywords, integers, nil, strings ---------

EDN_TOKEN = re.compile(
    r'\s*(?:(,)|(\{)|(\})|(:[A-Za-z][\w.*+!?/-]*)|(-?\d+)|(nil|true|false)|("(?:[^"\\]|\\.)*"))'
)


def edn_map(line):
    pos, forms = 0, []
    text = line.rstrip("\n")
    while pos < len(text):
        m = EDN_TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ValueError("unreadable at column %d" % (pos + 1))
        pos = m.end()
        if not m.group(1):
            forms.append(m)
    if len(forms) < 2 or not forms[0].group(2) or not forms[-1].group(3):
        raise ValueError("not one map")
    body, out = forms[1:-1], {}
    if len(body) % 2:
        raise ValueError("odd number of forms")
    for k, v in zip(body[0::2], body[1::2]):
        if not k.group(4):
            raise ValueError("a key that is not a keyword")
        if v.group(4):
            val = ("kw", v.group(4)[1:])
        elif v.group(5):
            val = int(v.group(5))
        elif v.group(6):
            val = {"nil": None, "true": True, "false": False}[v.group(6)]
        elif v.group(7):
            val = json.loads(v.group(7))  # EDN's string escapes are JSON's
        else:
            raise ValueError("a value that is not a scalar")
        key = k.group(4)[1:]
        if key in out:
            raise ValueError("key :%s twice" % key)
        out[key] = val
    return out


def kw(v):
    return v[1] if isinstance(v, tuple) else v


def text(v):
    """A value as the labs' strings: 0 and "0" are the same value."""
    return None if v is None else str(v)


# --- reading and pairing ----------------------------------------------------


def read_ops(path):
    """Returns the ops: dicts with id, name, f, value (invocation),
    cvalue/result (completion), type, inv, ret (INF unless ok/fail)."""
    edn = not path.endswith(".jsonl")
    ops, open_by, ids, last_t = [], {}, set(), -1
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            where = "%s:%d" % (path, n)
            try:
                o = edn_map(line) if edn else json.loads(line)
            except ValueError as e:
                die("%s: not a history line: %s" % (where, e))
            for k in ("index", "op", "process", "type", "f", "value", "time"):
                if k not in o:
                    die("%s: no %s" % (where, k))
            typ, f = kw(o["type"]), kw(o["f"])
            if o["index"] != n - 1:
                die("%s: index %r, want %d" % (where, o["index"], n - 1))
            if not isinstance(o["time"], int) or o["time"] < last_t:
                die("%s: time %r goes back" % (where, o["time"]))
            last_t = o["time"]
            if edn and not isinstance(o["process"], int):
                die("%s: :process is not an integer" % where)
            key = o["process"] if edn else o["op"]
            name = o.get("name", o["process"]) if edn else o["process"]
            if typ == "invoke":
                if key in open_by:
                    die("%s: %s %r invoked while its op is open" % (where, "process" if edn else "op", key))
                if o["op"] in ids:
                    die("%s: op id %r used twice" % (where, o["op"]))
                ids.add(o["op"])
                op = {"id": o["op"], "line": o["index"], "name": name, "f": f, "value": text(o["value"]),
                      "type": "invoke", "inv": o["time"], "ret": INF, "cvalue": None, "result": None}
                open_by[key] = op
                ops.append(op)
            elif typ in ("ok", "fail", "info"):
                op = open_by.pop(key, None)
                if op is None:
                    die("%s: a completion with no open invocation" % where)
                if op["f"] != f or op["id"] != o["op"]:
                    die("%s: completes %s #%s but %s #%s is open" % (where, f, o["op"], op["f"], op["id"]))
                op["type"], op["cvalue"] = typ, text(o["value"])
                op["result"] = text(o.get("result"))
                if typ != "info":
                    op["ret"] = o["time"]
            else:
                die("%s: type %r" % (where, typ))
    return ops


# --- models and the search --------------------------------------------------


def linearizable(ops, init, step):
    """ops: dicts with inv, ret, type; step(state, op) -> new state or None."""
    ops = [o for o in ops if o["type"] != "fail"]
    memo = set()

    def go(left, state):
        if not any(ops[i]["type"] == "ok" for i in left):
            return True
        if (left, state) in memo:
            return False
        memo.add((left, state))
        for i in left:
            if any(ops[j]["ret"] < ops[i]["inv"] for j in left if j != i):
                continue  # some op left certainly came first
            nxt = step(state, ops[i])
            if nxt is not None and go(left - {i}, nxt):
                return True
        return False

    return go(frozenset(range(len(ops))), init)


def register_step(state, op):
    if op["f"] == "read":
        return state if op["type"] == "ok" and op["cvalue"] == state else None
    return op["value"]  # write


def register_ops(ops):
    """Register operations: ok reads (others say nothing), writes."""
    return [o for o in ops if (o["f"] == "read" and o["type"] == "ok") or o["f"] == "write"]


def lock_step(state, op):
    """state: the holder's name, "" when free."""
    if op["f"] == "acquire":
        return op["name"] if state == "" else None
    return "" if state == op["name"] else None  # a release by the holder


def lock_ops(ops):
    return [o for o in ops if o["f"] in ("acquire", "release")]


def lock_linearizable(ops):
    return linearizable(lock_ops(ops), "", lock_step)


def token_step(state, op):
    t = int(op["value"])
    return t if t >= state else None


def verdict(ok):
    return "valid" if ok else "invalid"


# --- the lab's own verdicts -----------------------------------------------


def lab_checkers(events):
    out = {}
    with open(events, encoding="utf-8") as fh:
        for line in fh:
            if line.startswith('{"t":"checker"'):
                e = json.loads(line)
                out[e["name"]] = (e["result"], e.get("witness", []))
    return out


def expect(name, lab, mine):
    if lab != mine:
        die("%s: the lab says %s, the file read Jepsen's way says %s" % (name, lab, mine))
    print("%s: %s (lab: %s)" % (name, mine, lab))


def main():
    path, events, lab = sys.argv[1:4]
    ops = read_ops(path)
    checkers = lab_checkers(events)
    by_id = {o["id"]: o for o in ops}
    for name, (_, wit) in checkers.items():
        for w in wit:
            if w not in by_id:
                die("%s: witness op %d is not in %s" % (name, w, path))
    if lab == "zk-stale-read":
        plain, wit = checkers["plain-read-history-not-linearizable"]
        reg = register_ops(ops)
        expect("plain-read-history-not-linearizable (whole file)", plain,
               verdict(linearizable(reg, "0", register_step)))
        alone = [by_id[w] for w in wit]
        expect("plain-read-history-not-linearizable (witness alone, lines %s)"
               % ",".join(str(o["line"]) for o in alone), plain,
               verdict(linearizable(register_ops(alone), "0", register_step)))
        stale = [w for w in wit if by_id[w]["f"] == "read"]
        if len(stale) != 1:
            die("the witness %s has not one read" % wit)
        rest = [o for o in reg if o["id"] != stale[0]]
        expect("sync-then-read-history-linearizable (file without the stale read)",
               checkers["sync-then-read-history-linearizable"][0],
               verdict(linearizable(rest, "0", register_step)))
    elif lab in ("zk-create-lost", "zk-lock-chain", "zk-fencing"):
        expect("lock-history-mutual-exclusion", checkers["lock-history-mutual-exclusion"][0],
               verdict(lock_linearizable(ops)))
    if lab == "zk-fencing":
        for res, name in (("fenced", "fenced-history-token-order"),
                          ("unfenced", "control-unfenced-history-out-of-order")):
            w = [o for o in ops if o["f"] == "write" and o["type"] == "ok"
                 and (o["result"] or "").startswith(res + " ")]
            if len(w) < 2:
                die("%s: %d accepted writes with a result naming the resource" % (name, len(w)))
            expect(name + " (%d accepted writes, tokens kept)" % len(w), checkers[name][0],
                   verdict(linearizable(w, -1, token_step)))
    print("%s: %d ops paired" % (path, len(ops)))


if __name__ == "__main__":
    main()
