/*
 * timeline_lesson.c - names and paths of the lessons' ```timeline blocks
 * (timeline_lesson.h).  The name is checked against [a-z0-9-] so that a
 * lesson can never point the reader at a file outside
 * lessons/timelines/.  It reads no file.
 */
#include "core/timeline_lesson.h"
#include "base/wb.h"

#include <stdlib.h>
#include <string.h>

int timeline_block_info(const char *info)
{
	return info && !strncmp(info, "timeline", 8) && (info[8] == '\0' || info[8] == ' ');
}

char *timeline_block_name(const char *literal)
{
	const char *p = literal ? literal : "";
	while (*p) {
		size_t len = strcspn(p, "\n");
		const char *s = p, *e = p + len;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			e--;
		if (e > s)
			return wb_xstrndup(s, (size_t)(e - s));
		p += len;
		if (*p == '\n')
			p++;
	}
	return NULL;
}

int timeline_name_ok(const char *name)
{
	size_t n = name ? strlen(name) : 0;
	if (n < 1 || n > 64)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9') ||
		      name[i] == '-'))
			return 0;
	return 1;
}

char *timeline_lesson_path(const char *lesson_path, const char *name)
{
	if (!lesson_path || !timeline_name_ok(name))
		return NULL;
	const char *slash = strrchr(lesson_path, '/');
	if (!slash)
		return wb_xasprintf("../timelines/%s.jsonl", name);
	return wb_xasprintf("%.*s/../timelines/%s.jsonl", (int)(slash - lesson_path), lesson_path,
			    name);
}
