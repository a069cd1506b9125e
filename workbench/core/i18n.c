/*
 * i18n.c - UI strings (see i18n.h).  Keep both columns the same meaning;
 * format directives must match between languages.
 */
#include "core/i18n.h"

#include <string.h>

static const char *const strings[M_COUNT][2] = {
	[M_APP_TITLE] = {"workbench: distributed coordination engineering",
			 "workbench：分布式协调工程学习台"},
	[M_HOME_HINT] = {"Enter open  L 中文  ? help  q quit",
			 "Enter 打开  L English  ? 帮助  q 退出"},
	[M_NO_CHAPTERS] = {"No chapters found in %s", "在 %s 中没有找到章节"},
	[M_READ] = {"read", "已读"},
	[M_TOC_TITLE] = {"Contents (Enter jumps, Esc closes)", "目录（Enter 跳转，Esc 关闭）"},
	[M_HELP_TITLE] = {"Keys on this screen", "本屏按键"},
	[M_HELP_CLOSE] = {"Press any key to close", "按任意键关闭"},
	[M_SEARCH_PROMPT] = {"Search: ", "搜索："},
	[M_SEARCH_NONE] = {"No match for \"%s\"", "没有找到“%s”"},
	[M_SEARCH_HITS] = {"Match %zu of %zu for \"%s\"", "第 %zu/%zu 处“%s”"},
	[M_TOO_SMALL] = {"Terminal too small (%dx%d). Please make it at least %dx%d.",
			 "终端太小（%dx%d），请至少调到 %dx%d。"},
	[M_LANG_MISSING] = {"This chapter has no English version", "这一章还没有中文版"},
	[M_LAB_NOT_BUILT] = {"Lab %s is not in this build yet", "本版本尚未包含实验 %s"},
	[M_READER_HINT] = {"? help", "? 帮助"},
	[M_NO_SECTIONS] = {"This chapter has no sections", "这一章没有小节"},
	[M_LABS] = {"labs", "实验"},
	[M_LOAD_FAILED] = {"Cannot open %s: %s", "无法打开 %s：%s"},
};

const char *i18n(const char *lang, enum msg m)
{
	int zh = lang && !strncmp(lang, "zh", 2);
	if ((int)m < 0 || m >= M_COUNT)
		return "";
	return strings[m][zh];
}
