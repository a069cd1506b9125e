/*
 * narration.c - a lab's narration in Chinese (see narration.h): one
 * gettext lookup in the workbench catalogue through base/l10n.
 *
 * The Chinese texts are in po/zh_CN.po with the interface's, one domain
 * for the whole program (the labs run inside the workbench binary).
 * English is the msgid itself and is never looked up.
 */
#include "harness/narration.h"

#include <string.h>

#include "base/l10n.h"

const char *narration_text(const char *lang, const char *en)
{
	if (!en || !lang || strcmp(lang, "zh") != 0)
		return en;
	return l10n_zh(en);
}
