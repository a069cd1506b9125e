/* test_narration.c - the narration and interface lookups through the
 * gettext catalogue the build compiled (build/locale): a Chinese run gets
 * the catalogue's text for a narration msgid, with the same conversions,
 * an English run and an unknown text pass through unchanged (the same
 * pointer), and NULL stays NULL.  That every msgid has its Chinese text,
 * with matching conversions, is tests/cli/translations.sh's (msgfmt -c,
 * msgattrib); this is the runtime side. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/l10n.h"
#include "core/i18n.h"
#include "harness/narration.h"

static void test_catalogue_found(void **state)
{
	(void)state;
	const char *dir = l10n_dir();
	if (!dir)
		fail_msg("no catalogue: build/locale/zh_CN/LC_MESSAGES/workbench.mo missing?");
}

static void test_chinese_narration(void **state)
{
	(void)state;
	const char *en = "%s; the lab cannot go on";
	const char *zh = narration_text("zh", en);
	assert_string_equal(zh, "%s；实验无法继续");
	assert_ptr_equal(narration_text("en", en), en);
	const char *other = "a text no lab writes";
	assert_ptr_equal(narration_text("zh", other), other);
	assert_null(narration_text("zh", NULL));
	assert_null(narration_text(NULL, NULL));
}

/* A 64-bit conversion written with PRId64 is "%<PRId64>" in the
 * catalogue; glibc gives it back as this platform's conversion. */
static void test_sysdep_format(void **state)
{
	(void)state;
	const char *en = "A holds %s on session %s; its fencing token is its suffix: %" PRId64;
	const char *zh = narration_text("zh", en);
	assert_ptr_not_equal(zh, en);
	assert_non_null(strstr(zh, "%" PRId64));
	char buf[256];
	snprintf(buf, sizeof buf, zh, "/lock/n-1", "0x1", (int64_t)42);
	assert_non_null(strstr(buf, "：42"));
}

static void test_interface(void **state)
{
	(void)state;
	assert_string_equal(i18n("zh", M_LAB_TITLE), "实验");
	assert_string_equal(i18n("en", M_LAB_TITLE), "Lab");
	assert_string_equal(i18n(NULL, M_LAB_TITLE), "Lab");
	assert_string_equal(i18n("zh", M_COUNT), "");
	for (int m = 0; m < M_COUNT; m++) {
		const char *en = i18n("en", (enum msg)m);
		assert_true(en[0]);
		/* every entry is in the catalogue: a Chinese text differs */
		if (!strcmp(en, i18n("zh", (enum msg)m)))
			fail_msg("M_ entry %d \"%s\" has no Chinese text at run time", m, en);
	}
	const char *t = "Statistics";
	assert_string_equal(i18n_text("zh", t), "统计");
	assert_ptr_equal(i18n_text("en", t), t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_catalogue_found),
		cmocka_unit_test(test_chinese_narration),
		cmocka_unit_test(test_sysdep_format),
		cmocka_unit_test(test_interface),
	};
	return cmocka_run_group_tests_name("narration", tests, NULL, NULL);
}
