/*
 * content.c - content root discovery and chapter listing (see content.h).
 *
 * The binary must work in three places without configuration: the build
 * tree (content is the source tree), an installed prefix (content under
 * share/workbench) and an explicit --content directory for tests.
 */
#include "core/content.h"
#include "core/lesson.h"
#include "core/utf8.h"
#include "base/wb.h"

#include <cmark-gfm.h>

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef WB_SOURCE_DIR
#define WB_SOURCE_DIR "."
#endif
#ifndef WB_SHARE_DIR
#define WB_SHARE_DIR "/usr/local/share/workbench"
#endif

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

char *content_root(const char *explicit_dir)
{
	if (explicit_dir && *explicit_dir)
		return wb_xstrdup(explicit_dir);
	const char *env = getenv("WORKBENCH_CONTENT");
	if (env && *env)
		return wb_xstrdup(env);

	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			/* A build tree has CMakeCache.txt beside the binary. */
			char *cache = wb_xasprintf("%s/CMakeCache.txt", exe);
			int in_build = is_file(cache);
			free(cache);
			if (in_build && is_dir(WB_SOURCE_DIR "/lessons"))
				return wb_xstrdup(WB_SOURCE_DIR);
			char *share = wb_xasprintf("%s/../share/workbench", exe);
			char *lessons = wb_xasprintf("%s/lessons", share);
			int ok = is_dir(lessons);
			free(lessons);
			if (ok)
				return share;
			free(share);
		}
	}
	return wb_xstrdup(WB_SHARE_DIR);
}

int content_valid_chapter_id(const char *id)
{
	if (!id || strlen(id) < 4 || strlen(id) > 64)
		return 0;
	if (id[0] < '0' || id[0] > '9' || id[1] < '0' || id[1] > '9' || id[2] != '-')
		return 0;
	for (const char *p = id + 3; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-'))
			return 0;
	return 1;
}

int content_find_chapter(const struct chapter_list *l, const char *word, size_t *index)
{
	size_t len = strlen(word), found = 0;
	if (!len)
		return WB_ENOENT;
	for (size_t i = 0; i < l->n; i++) {
		if (!strcmp(l->items[i].id, word)) {
			*index = i;
			return 0;
		}
	}
	for (size_t i = l->n; i-- > 0;) {
		if (!strncmp(l->items[i].id, word, len)) {
			*index = i;
			found++;
		}
	}
	return found == 0 ? WB_ENOENT : found == 1 ? 0 : WB_EINVAL;
}

char *content_lesson_path(const char *root, const char *lang, const char *id)
{
	return wb_xasprintf("%s/lessons/%s/%s.md", root, lang, id);
}

/* Reads the first "# " line of a Markdown file, skipping a BOM and
 * anything before it; NULL when there is none within the first 64 KiB. */
static char *read_title(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char line[4096];
	char *title = NULL;
	size_t seen = 0;
	int in_fence = 0;
	while (!title && seen < 65536 && fgets(line, sizeof line, f)) {
		seen += strlen(line);
		char *s = line;
		if (!strncmp(s, "\xEF\xBB\xBF", 3))
			s += 3;
		if (!strncmp(s, "```", 3) || !strncmp(s, "~~~", 3))
			in_fence = !in_fence;
		if (in_fence || strncmp(s, "# ", 2) != 0)
			continue;
		s += 2;
		size_t len = strcspn(s, "\r\n");
		while (len && (s[len - 1] == ' ' || s[len - 1] == '#'))
			len--;
		title = wb_xstrndup(s, len);
	}
	fclose(f);
	return title;
}

static int cmp_chapter(const void *a, const void *b)
{
	return strcmp(((const struct chapter_info *)a)->id, ((const struct chapter_info *)b)->id);
}

int content_list_chapters(const char *root, const char *lang, struct chapter_list *out)
{
	out->items = NULL;
	out->n = 0;
	char *dir = wb_xasprintf("%s/lessons/%s", root, lang);
	DIR *d = opendir(dir);
	if (!d) {
		free(dir);
		return WB_ENOENT;
	}
	size_t cap = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len < 4 || strcmp(e->d_name + len - 3, ".md") != 0)
			continue;
		char *id = wb_xstrndup(e->d_name, len - 3);
		if (!content_valid_chapter_id(id)) {
			free(id);
			continue;
		}
		char *path = wb_xasprintf("%s/%s", dir, e->d_name);
		if (!is_file(path)) {
			free(id);
			free(path);
			continue;
		}
		if (out->n == cap) {
			cap = cap ? cap * 2 : 8;
			out->items = wb_xrealloc(out->items, cap * sizeof *out->items);
		}
		char *title = read_title(path);
		out->items[out->n++] = (struct chapter_info){
			.id = id, .title = title ? title : wb_xstrdup(id), .path = path};
	}
	closedir(d);
	free(dir);
	if (out->n)
		qsort(out->items, out->n, sizeof *out->items, cmp_chapter);
	return 0;
}

void chapter_list_free(struct chapter_list *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++) {
		free(l->items[i].id);
		free(l->items[i].title);
		free(l->items[i].path);
	}
	free(l->items);
	l->items = NULL;
	l->n = 0;
}

int content_lang_ok(const char *lang)
{
	return lang && (!strcmp(lang, "en") || !strcmp(lang, "zh"));
}

const char *content_pick_lang(const char *explicit_lang)
{
	if (explicit_lang && *explicit_lang)
		return !strncmp(explicit_lang, "zh", 2) ? "zh" : "en";
	const char *vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
	for (size_t i = 0; i < WB_ARRAY_LEN(vars); i++) {
		const char *v = getenv(vars[i]);
		if (v && *v)
			return !strncmp(v, "zh", 2) ? "zh" : "en";
	}
	return "en";
}

/* ---- glossary ---------------------------------------------------------- */

char *content_glossary_path(const char *root, const char *lang)
{
	return wb_xasprintf("%s/lessons/%s/%s", root, lang, CONTENT_GLOSSARY_FILE);
}

static int dropped_in_slug(uint32_t cp)
{
	if (cp < 0x80)
		return !((cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') ||
			 (cp >= '0' && cp <= '9') || cp == '-' || cp == '_' || cp == ' ');
	return (cp >= 0xA1 && cp <= 0xBF) || cp == 0xD7 || cp == 0xF7 ||
	       (cp >= 0x2000 && cp <= 0x2BFF) || (cp >= 0x3000 && cp <= 0x303F) ||
	       (cp >= 0xFF01 && cp <= 0xFF0F) || (cp >= 0xFF1A && cp <= 0xFF20) ||
	       (cp >= 0xFF3B && cp <= 0xFF40) || (cp >= 0xFF5B && cp <= 0xFF65);
}

char *content_heading_slug(const char *heading)
{
	struct wb_buf b = {0};
	const char *p = heading;
	while (*p == ' ' || *p == '\t')
		p++;
	size_t left = strlen(p);
	while (left && (p[left - 1] == ' ' || p[left - 1] == '\t'))
		left--;
	while (left) {
		uint32_t cp;
		size_t n = utf8_decode(p, left, &cp);
		if (n == 0)
			n = 1;
		if (cp == ' ' || cp == '\t')
			wb_buf_puts(&b, "-");
		else if (cp >= 'A' && cp <= 'Z')
			wb_buf_printf(&b, "%c", (char)(cp - 'A' + 'a'));
		else if (!dropped_in_slug(cp))
			wb_buf_append(&b, p, n);
		p += n;
		left -= n;
	}
	return wb_buf_steal(&b);
}

static char *trim_dup(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return wb_xstrndup(s, n);
}

/* "会话（session）" -> term "会话", alt "session"; no parentheses at the
 * end: term is the whole heading, alt NULL. */
static void split_term(const char *h, char **term, char **alt)
{
	size_t len = strlen(h);
	while (len && h[len - 1] == ' ')
		len--;
	const char *open = NULL;
	size_t close_len = 0;
	if (len >= 3 && !strncmp(h + len - 3, "）", 3)) {
		close_len = 3;
		for (const char *q = h; q + 3 <= h + len - 3; q++)
			if (!strncmp(q, "（", 3))
				open = q;
	} else if (len && h[len - 1] == ')') {
		close_len = 1;
		for (const char *q = h; q < h + len - 1; q++)
			if (*q == '(')
				open = q;
	}
	if (!open || open == h) {
		*term = trim_dup(h, len);
		*alt = NULL;
		return;
	}
	size_t open_len = *open == '(' ? 1 : 3;
	*term = trim_dup(h, (size_t)(open - h));
	*alt = trim_dup(open + open_len, (size_t)(h + len - close_len - (open + open_len)));
	if (!**alt) {
		free(*alt);
		*alt = NULL;
	}
}

void content_glossary_parse(const char *text, size_t len, struct glossary *out)
{
	out->e = NULL;
	out->n = 0;
	struct lesson *l = NULL;
	if (lesson_parse("glossary", "", text, len, &l) != 0)
		return;
	size_t cap = 0;
	for (cmark_node *c = cmark_node_first_child(l->doc); c; c = cmark_node_next(c)) {
		if (cmark_node_get_type(c) != CMARK_NODE_HEADING ||
		    cmark_node_get_heading_level(c) != 2)
			continue;
		if (out->n == cap) {
			cap = cap ? cap * 2 : 32;
			out->e = wb_xrealloc(out->e, cap * sizeof *out->e);
		}
		struct glossary_entry *e = &out->e[out->n++];
		e->heading = lesson_plain_text(c);
		split_term(e->heading, &e->term, &e->alt);
		e->slug = content_heading_slug(e->heading);
		e->line = cmark_node_get_start_line(c);
	}
	lesson_free(l);
}

int content_glossary_load(const char *root, const char *lang, struct glossary *out)
{
	out->e = NULL;
	out->n = 0;
	char *path = content_glossary_path(root, lang);
	char *text;
	size_t len;
	int rc = wb_read_file(path, &text, &len);
	free(path);
	if (rc)
		return rc;
	content_glossary_parse(text, len, out);
	free(text);
	return 0;
}

void glossary_free(struct glossary *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->n; i++) {
		free(g->e[i].heading);
		free(g->e[i].term);
		free(g->e[i].alt);
		free(g->e[i].slug);
	}
	free(g->e);
	g->e = NULL;
	g->n = 0;
}

static int same_word(const char *a, const char *w, size_t wlen)
{
	if (!a || strlen(a) != wlen)
		return 0;
	for (size_t i = 0; i < wlen; i++) {
		unsigned char x = (unsigned char)a[i], y = (unsigned char)w[i];
		if (x >= 'A' && x <= 'Z')
			x = (unsigned char)(x - 'A' + 'a');
		if (y >= 'A' && y <= 'Z')
			y = (unsigned char)(y - 'A' + 'a');
		if (x != y)
			return 0;
	}
	return 1;
}

int content_glossary_find(const struct glossary *g, const char *word)
{
	while (*word == ' ')
		word++;
	size_t n = strlen(word);
	while (n && word[n - 1] == ' ')
		n--;
	if (!n)
		return -1;
	for (size_t i = 0; i < g->n; i++)
		if (same_word(g->e[i].term, word, n) || same_word(g->e[i].alt, word, n) ||
		    same_word(g->e[i].heading, word, n))
			return (int)i;
	return -1;
}
