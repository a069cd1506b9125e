/*
 * pager.c - the pager's moves (tui/pager.h): one rule for every scrolling
 * screen.  A page keeps one line of the last page in view; half a page is
 * rows / 2.  Nothing here clamps or draws.
 */
#include "tui/pager.h"

int pager_target(int action, long top, long rows, long max_top, long *target)
{
	switch (action) {
	case PAGER_DOWN: *target = top + 1; return 1;
	case PAGER_UP: *target = top - 1; return 1;
	case PAGER_PGDN: *target = top + rows - 1; return 1;
	case PAGER_PGUP: *target = top - rows + 1; return 1;
	case PAGER_HALFDN: *target = top + rows / 2; return 1;
	case PAGER_HALFUP: *target = top - rows / 2; return 1;
	case PAGER_TOP: *target = 0; return 1;
	case PAGER_BOTTOM: *target = max_top; return 1;
	}
	return 0;
}
