#!/bin/sh
# exercise_output.sh - the exercise screen keeps a bounded log of what the
# learner's code prints (tui/lab.c, drain): code that prints 3000 lines
# and then exits shows at most LAB_LOG_MAX (2000) of them, then one note
# "… more output, not shown"; line 3000 is never kept.  The check itself
# ends FAIL (no verdict: exit, cli/labsuper.c).
. "$(dirname "$0")/../lib/common.sh"

SRC=$(cd "$(dirname "$0")/../.." && pwd)
ID=snowflake-next
DB="$T/progress.db"
export WORKBENCH_RUN_BASE="$T/runs" XDG_DATA_HOME="$T/data"
mkdir -p "$WORKBENCH_RUN_BASE" && chmod 700 "$WORKBENCH_RUN_BASE"
mkdir -p "$T/content/lessons/en"
ln -s "$SRC/exercises" "$T/content/exercises"
cat >"$T/content/lessons/en/01-exercise-fixture.md" <<'MD'
# Exercise fixture

## The generator

Write it yourself.

```exercise
snowflake-next
```
MD
cat >"$T/learner.c" <<'C'
#include "api.h"
#include <stdio.h>
#include <stdlib.h>
int wbx_snowflake_next(struct wbx_snowflake *g, int64_t *id)
{
	(void)g;
	(void)id;
	for (int i = 1; i <= 3000; i++)
		printf("printed line %04d\n", i);
	exit(0);
}
C
cat >"$T/ed" <<ED
#!/bin/sh
cp "$T/learner.c" "\$1"
ED
chmod +x "$T/ed"
export VISUAL= EDITOR="$T/ed"

tui_start 100 30 "--content $T/content --db $DB --lang en"
wait_for "Exercise fixture"
keys Enter
wait_for "Try it yourself $ID"
wait_for "▶│ Try it yourself"
keys Enter
wait_for "Try it yourself $ID —"
wait_for "FAIL ✘" 120
keys G
wait_for "ended before its verdict"
screen | grep -q "printed line 3000" && fail "line 3000 of the output was kept"
wait_for "more output, not shown"
keys q q q
echo ok
