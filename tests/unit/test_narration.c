/* test_narration.c - the Chinese narration tables: every Chinese format
 * has exactly the English one's printf conversions, in order (so the
 * lab's arguments always fit: a mismatch would be undefined behaviour at
 * run time, which -Wformat cannot see), no English key appears twice, no
 * text is empty, and lookup finds every key and passes unknown or English
 * texts through. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness/narration.h"

/* The conversions of a printf format, e.g. "%s|%lld|%.1f|" for
 * "a %s b %lld c %.1f"; %% is not a conversion. */
static void conversions(const char *fmt, char *out, size_t len)
{
	size_t o = 0;
	out[0] = '\0';
	for (const char *p = fmt; *p; p++) {
		if (*p != '%')
			continue;
		if (p[1] == '%') {
			p++;
			continue;
		}
		const char *start = p++;
		while (*p && strchr("-+ #0123456789.*hljztL", *p))
			p++;
		if (!*p)
			break;
		int n = snprintf(out + o, len - o, "%.*s|", (int)(p - start + 1), start);
		if (n < 0 || (size_t)n >= len - o)
			break;
		o += (size_t)n;
	}
}

static void test_same_conversions(void **state)
{
	(void)state;
	size_t n;
	const struct narration_pair *t = narration_table(&n);
	assert_true(n > 0);
	for (size_t i = 0; i < n; i++) {
		char en[256], zh[256];
		conversions(t[i].en, en, sizeof en);
		conversions(t[i].zh, zh, sizeof zh);
		if (strcmp(en, zh) != 0)
			fail_msg("conversions differ: \"%s\" has %s, its Chinese \"%s\" has %s",
				 t[i].en, en, t[i].zh, zh);
		assert_true(t[i].en[0] && t[i].zh[0]);
	}
}

static void test_unique_and_found(void **state)
{
	(void)state;
	size_t n;
	const struct narration_pair *t = narration_table(&n);
	for (size_t i = 0; i < n; i++) {
		for (size_t k = i + 1; k < n; k++)
			if (!strcmp(t[i].en, t[k].en))
				fail_msg("\"%s\" is translated twice", t[i].en);
		assert_string_equal(narration_text("zh", t[i].en), t[i].zh);
		assert_ptr_equal(narration_text("en", t[i].en), t[i].en);
	}
	const char *other = "a text no lab writes";
	assert_ptr_equal(narration_text("zh", other), other);
	assert_null(narration_text("zh", NULL));
}

/* Known-wrong tables fail the conversion check. */
static void test_checker_catches_mismatch(void **state)
{
	(void)state;
	char a[64], b[64];
	conversions("B got token %lld at %s", a, sizeof a);
	conversions("B 在 %s 拿到 token %lld", b, sizeof b); /* order swapped */
	assert_string_not_equal(a, b);
	conversions("100%% done %d", a, sizeof a);
	conversions("完成 100%% %d", b, sizeof b);
	assert_string_equal(a, b);
	conversions("%s and %s", a, sizeof a);
	conversions("%s", b, sizeof b); /* one missing */
	assert_string_not_equal(a, b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_conversions),
		cmocka_unit_test(test_unique_and_found),
		cmocka_unit_test(test_checker_catches_mismatch),
	};
	return cmocka_run_group_tests_name("narration", tests, NULL, NULL);
}
