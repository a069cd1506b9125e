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
	[M_LABS] = {"labs passed", "实验通过"},
	[M_LOAD_FAILED] = {"Cannot open %s: %s", "无法打开 %s：%s"},
	[M_GRADE_AGAIN] = {"Again", "没掌握"},
	[M_GRADE_PARTLY] = {"Partly", "部分掌握"},
	[M_GRADE_GOT] = {"Got it", "已掌握"},
	[M_GRADE_AGAIN_MEANS] = {"Again: I could not recall the key points",
				 "没掌握：没能回忆起要点"},
	[M_GRADE_PARTLY_MEANS] = {"Partly: I recalled some points, or only with real effort",
				  "部分掌握：想起了一部分要点，或者费了很大劲才想起"},
	[M_GRADE_GOT_MEANS] = {"Got it: I recalled every point without help",
			       "已掌握：不看提示就想起了每个要点"},
	[M_IVL_TOMORROW] = {"tomorrow", "明天"},
	[M_IVL_DAYS] = {"%d d", "%d 天"},
	[M_IVL_MONTHS] = {"%.1f mo", "%.1f 个月"},
	[M_IVL_YEARS] = {"%.1f y", "%.1f 年"},
	[M_IVL_ITEM] = {"%s%s: %s", "%s%s：%s"},
	[M_IVL_NEXT] = {"Next review: %s", "下次复习：%s"},
	[M_HOME_CHAPTER_DUE] = {"%d due", "%d 题到期"},
	[M_HOME_DUE_NEW] = {"%d due today, %d new: r review · s self-test · p statistics",
			    "今天到期 %d 题，新题 %d 道：r 复习 · s 自测 · p 统计"},
	[M_KIND_RECALL] = {"recall", "回忆题"},
	[M_KIND_CHOICE] = {"choice", "选择题"},
	[M_KIND_NUMERIC] = {"numeric", "数值题"},
	[M_QUIZ_TITLE] = {"Self-test: %s", "自测：%s"},
	[M_QUIZ_REVIEW_TITLE] = {"Review: questions due today", "复习：今天到期的题目"},
	[M_QUIZ_PROGRESS] = {"Question %zu of %zu", "第 %zu 题，共 %zu 题"},
	[M_QUIZ_YOUR_ANSWER] = {"Your answer", "你的回答"},
	[M_QUIZ_EDIT_HINT] = {"Tab done: reveal the answer · Esc command keys",
			      "Tab 写完：查看参考答案 · Esc 命令键"},
	[M_QUIZ_NOT_WRITTEN] = {"(you chose not to write an answer)", "（你选择了不写答案）"},
	[M_QUIZ_REFERENCE] = {"Reference answer", "参考答案"},
	[M_QUIZ_RUBRIC] = {"Rubric: tick the points you covered", "评分要点：勾选你答到的要点"},
	[M_QUIZ_SUGGESTED] = {"Suggested grade: %s (%d of %d points ticked)",
			      "建议评分：%s（勾选了 %d/%d 分）"},
	[M_QUIZ_REVEAL_HINT] = {"Space tick · a/p/g grade · Enter accept %s · u undo",
				"Space 勾选 · a/p/g 评分 · Enter 采用“%s” · u 撤销"},
	[M_QUIZ_CHOICE_HINT] = {"Space choose · Enter submit · u undo · q pause · A abandon",
				"Space 选择 · Enter 提交 · u 撤销 · q 暂停 · A 放弃"},
	[M_QUIZ_CHOICE_MULTI] = {"Choose every correct option", "选出所有正确选项"},
	[M_QUIZ_NUMERIC_PROMPT] = {"Your answer (a number): ", "你的答案（数字）："},
	[M_QUIZ_NOT_NUMBER] = {"'%s' is not a number", "“%s”不是数字"},
	[M_QUIZ_CORRECT] = {"Correct", "正确"},
	[M_QUIZ_WRONG] = {"Not correct", "不正确"},
	[M_QUIZ_EXPECTED] = {"Expected %s", "正确答案：%s"},
	[M_QUIZ_NEXT_HINT] = {"Enter next question · u undo", "Enter 下一题 · u 撤销"},
	[M_QUIZ_SAVED] = {"Saved: %s, %d/%d points", "已保存：%s，%d/%d 分"},
	[M_QUIZ_UNDONE] = {"Grade undone: answer the question again", "已撤销评分：请重新作答"},
	[M_QUIZ_NOTHING_TO_UNDO] = {"Nothing to undo in this test", "本次测验没有可撤销的评分"},
	[M_QUIZ_PAUSED] = {"Test paused: s on its chapter resumes it",
			   "测验已暂停：在该章节上按 s 继续"},
	[M_QUIZ_SUMMARY] = {"Test finished", "测验完成"},
	[M_QUIZ_POINTS] = {"Points %d of %d (%d%%)", "得分 %d/%d（%d%%）"},
	[M_QUIZ_TIME] = {"Time %d:%02d", "用时 %d:%02d"},
	[M_QUIZ_WEAKEST] = {"Weakest questions (Enter rereads the lesson):",
			    "最薄弱的题目（Enter 重读课文）："},
	[M_QUIZ_ALL_GOT] = {"Every question got full points.", "每道题都拿到了满分。"},
	[M_QUIZ_NO_QUESTIONS] = {"Chapter %s has no questions in this language",
				 "第 %s 章在这个语言下没有题目"},
	[M_QUIZ_NONE_DUE] = {"No questions are due for review today", "今天没有需要复习的题目"},
	[M_QUIZ_OTHER_RUNNING] = {"Another self-test is in progress: %s, %zu of %zu answered.",
				  "另一场自测正在进行：%s，已答 %zu/%zu 题。"},
	[M_QUIZ_OTHER_KEYS] = {"c continue that test · A abandon it and start this one · q back",
			       "c 继续那场测验 · A 放弃它并开始本场 · q 返回"},
	[M_QUIZ_BLOCKED] =
		{"A closed-book self-test of this chapter is in progress (%zu of %zu answered).",
		 "本章的闭卷自测正在进行（已答 %zu/%zu 题）。"},
	[M_QUIZ_BLOCKED_WHY] = {"The lesson stays closed until the test is finished or abandoned.",
				"测验结束或放弃之前，课文保持关闭。"},
	[M_QUIZ_BLOCKED_KEYS] =
		{"c continue the test · A abandon the test and open the lesson · q back",
		 "c 继续测验 · A 放弃测验并打开课文 · q 返回"},
	[M_QUIZ_ABANDON_ASK] = {"Abandon this test? Graded answers are kept. y yes · n no",
				"放弃本次测验？已评分的回答会保留。y 是 · n 否"},
	[M_QUIZ_ABANDONED] = {"Test abandoned; graded answers were kept",
			      "已放弃测验；已评分的回答已保留"},
	[M_QUIZ_SAVE_FAILED] = {"Could not save the answer: %s", "无法保存回答：%s"},
	[M_QUIZ_RESUMED] = {"Resumed: %zu of %zu answered", "已继续：已答 %zu/%zu 题"},
	[M_QUIZ_CMD_HINT] = {"^P pause · ^R undo · ^X abandon · F1 all keys · letters still type",
			     "^P 暂停 · ^R 撤销 · ^X 放弃 · F1 全部按键 · 字母照常输入"},
	[M_QUIZ_OPTIONS] = {"Options", "选项"},
	[M_QUIZ_SUMMARY_HINT] = {"Enter reread the lesson · q back", "Enter 重读课文 · q 返回"},
	[M_HOME_DUE] = {"%d due today: r review · s self-test · p statistics",
			"今天到期 %d 题：r 复习 · s 自测 · p 统计"},
	[M_HOME_TEST_RUNNING] = {"Self-test in progress: %s, %zu of %zu answered (s resumes)",
				 "自测进行中：%s，已答 %zu/%zu 题（按 s 继续）"},
	[M_STATS_TITLE] = {"Statistics", "统计"},
	[M_STATS_MASTERY] = {"Mastery per chapter (share of questions last graded Got it)",
			     "各章掌握度（最后一次评为“已掌握”的题目比例）"},
	[M_STATS_POINTS] = {"Points per test, oldest first (tests: %zu)",
			    "每次测验得分，从旧到新（共 %zu 次）"},
	[M_STATS_NO_TESTS] = {"No tests yet", "还没有测验"},
	[M_STATS_DUE] = {"Questions due in the next 14 days", "未来 14 天到期的题数"},
	[M_STATS_HINT] = {"j/k scroll · q back", "j/k 滚动 · q 返回"},
	[M_STATS_TODAY] = {"today", "今天"},
	[M_PLAIN_WRITE] = {"Write your answer; end it with a line holding only \".\" (a first line "
			   "\".\" skips writing):",
			   "写下你的回答，以单独一行“.”结束（第一行就输入“.”表示不写）："},
	[M_PLAIN_TICK] =
		{"Which rubric points did you cover? Numbers separated by spaces, \"all\", or "
		 "Enter for none:",
		 "你答到了哪些要点？输入编号并用空格分隔，all 表示全部，直接回车表示都没有："},
	[M_PLAIN_GRADE] = {"Your grade: a = Again, p = Partly, g = Got it (Enter = %s):",
			   "你的评分：a = 没掌握，p = 部分掌握，g = 已掌握（回车 = %s）："},
	[M_PLAIN_CHOOSE] = {"Your choice: option numbers separated by spaces:",
			    "你的选择：输入选项编号，用空格分隔："},
	[M_PLAIN_BAD_INPUT] = {"Please answer with numbers from 1 to %zu",
			       "请输入 1 到 %zu 之间的编号"},
	[M_PLAIN_COMMANDS] = {"At any prompt: :undo undoes the last grade, :quit pauses, :abandon "
			      "abandons the test.",
			      "任何提示下：:undo 撤销上一次评分，:quit 暂停，:abandon 放弃测验。"},
	[M_PLAIN_CORRECT_OPTIONS] = {"Correct options: %s", "正确选项：%s"},
	[M_QUIZ_NUMERIC_HINT] = {"Enter submit · Esc command keys", "Enter 提交 · Esc 命令键"},
	[M_PLAIN_PAUSED] = {"Test paused: run the same command again to resume it.",
			    "测验已暂停：再次运行同一命令即可继续。"},
	[M_QUIZ_BUSY] =
		{"The progress database is busy: another program is writing to it (another "
		 "workbench, a backup or a database shell).",
		 "进度数据库正忙：另一个程序正在写入（另一个 workbench、备份或数据库命令行）。"},
	[M_QUIZ_BUSY_NOTHING] = {"Nothing was changed; try again.", "没有做任何改动；请再试一次。"},
	[M_PLAIN_BUSY_CHOICE] =
		{"Enter: try again · :quit: pause the test (this answer is not saved)",
		 "回车：再试一次 · :quit：暂停测验（这次回答不保存）"},
	[M_PLAIN_BUSY_CHOICE_STOP] = {"Enter: try again · :quit: stop (nothing is changed)",
				      "回车：再试一次 · :quit：停止（不做任何改动）"},
	[M_PLAIN_NUMERIC_PROMPT] = {"Your answer (a number): (\".\" or an empty line skips)",
				    "你的答案（数字）：（输入“.”或直接回车表示跳过）"},
	[M_PLAIN_SKIPPED] = {"Skipped", "已跳过"},
	[M_PLAIN_WEAKEST] = {"Weakest questions:", "最薄弱的题目："},
	[M_PLAIN_REREAD] = {"To reread the chapter: workbench lesson show %s",
			    "重读这一章：workbench lesson show %s"},
	[M_QUIZ_GRADED_ELSEWHERE] = {"[%s] was already graded in another window (%s); this answer "
				     "was not saved.",
				     "[%s] 已在另一个窗口评分（%s）；这次回答没有保存。"},
	[M_QUIZ_ENDED_ELSEWHERE] = {"This test was ended in another window; this answer was not "
				    "saved.",
				    "本次测验已在另一个窗口结束；这次回答没有保存。"},
	[M_QUIZ_UNDO_ELSEWHERE] = {"Nothing undone: the newest grade of this test was given in "
				   "another window.",
				   "没有撤销：本次测验最新的评分来自另一个窗口。"},
	[M_QUIZ_ABANDON_OTHER_ASK] = {"Abandon that test and start this one? Graded answers are "
				      "kept. y yes · n no",
				      "放弃那场测验并开始本场？已评分的回答会保留。y 是 · n 否"},
	[M_QUIZ_BLOCKED_ABANDON_ASK] = {"Abandon the test and open the lesson? Graded answers are "
					"kept. y yes · n no",
					"放弃测验并打开课文？已评分的回答会保留。y 是 · n 否"},
	[M_QUIZ_DRAFT_KEPT] = {"Test paused; your unfinished answer is kept: s on its chapter "
			       "resumes it",
			       "测验已暂停；未写完的回答已保留：在该章节上按 s 继续"},
	[M_QUIZ_DRAFT_RESTORED] = {"Your unfinished answer is back in the box",
				   "未写完的回答已放回文本框"},
	[M_QUIZ_LENGTH_TITLE] = {"Closed-book self-test: %s", "闭卷自测：%s"},
	[M_QUIZ_LENGTH_SHORT] = {"%zu questions: across the chapter's sections, weak ones first",
				 "%zu 题：覆盖本章各节，薄弱题优先"},
	[M_QUIZ_LENGTH_MEDIUM] = {"%zu questions: the same rule, a longer test",
				  "%zu 题：同样的规则，更长的测验"},
	[M_QUIZ_LENGTH_ALL] = {"all %zu questions", "全部 %zu 题"},
	[M_QUIZ_LENGTH_WHY] = {"The lesson closes once you grade the first answer, and opens "
			       "again when the test is finished or abandoned; q pauses it.",
			       "评完第一道题后课文关闭，测验完成或放弃后重新打开；q 暂停测验。"},
	[M_QUIZ_LENGTH_KEYS] = {"j/k or 1-3 choose · Enter start · q back",
				"j/k 或 1-3 选择 · Enter 开始 · q 返回"},
	[M_QUIZ_TRIMMED] = {"Resumed: %zu of %zu answered (--limit %zu: at most %zu more)",
			    "已继续：已答 %zu/%zu 题（--limit %zu：最多再答 %zu 题）"},
	[M_QUIZ_LANG_SWITCHED] = {"The test continues in English; nothing graded changed",
				  "测验改用中文继续；已评分的内容不变"},
	[M_QUIZ_LANG_KEPT] = {"Some questions of this test have no English version: it stays in "
			      "Chinese",
			      "本测验有的题目没有中文版：继续用英文"},
	[M_QUIZ_LANG_FAILED] = {"Cannot switch the test's language (%s); it goes on as it was",
				"无法切换测验语言（%s）；测验照旧继续"},
	[M_LAB_TITLE] = {"Lab", "实验"},
	[M_LAB_EXPECTED] = {"expected: ", "预期："},
	[M_LAB_OBSERVED] = {"observed: ", "实际："},
	[M_LAB_RUNNING] = {"running… Esc cancels", "运行中… Esc 取消"},
	[M_LAB_CANCELLING] = {"cancelling…", "正在取消…"},
	[M_LAB_CANCELLED] = {"cancelled", "已取消"},
	[M_LAB_PASS] = {"PASS ✔", "通过 ✔"},
	[M_LAB_CANNOT] = {"could not run", "无法运行"},
	[M_LAB_FAIL] = {"FAIL ✘", "未通过 ✘"},
	[M_LAB_CHECKS_HELD] = {"checks held", "项检查成立"},
	[M_LAB_NO_RECIPE] = {"This lab has no separate recipe", "这个实验没有单独的配方源码"},
	[M_LAB_CANNOT_START] = {"cannot start the lab: %s", "无法启动实验：%s"},
	[M_HELP_WORD] = {"help", "帮助"},
	[M_HELP_THIS] = {"this help", "本帮助"},
	/* the glossary screen (tui/glossary.c) */
	[M_GLOSSARY_HINT] = {"t terms  / search  q back  ? help",
			     "t 术语列表  / 搜索  q 返回  ? 帮助"},
	[M_GLOSSARY_TERMS] = {"Terms (Enter goes there, Esc closes)",
			      "术语（Enter 跳转，Esc 关闭）"},
	[M_GLOSSARY_MISSING] = {"There is no English glossary", "没有中文术语表"},
	[M_GLOSSARY_NO_TERM] = {"\"%s\" is not in the glossary", "术语表里没有“%s”"},
	[M_TABLE_CUT] = {"(Table cut here: the table at line %d has %zu cells; the reader lays out "
			 "at most %u table cells per lesson.)",
			 "（表格在此截断：第 %d 行的表格有 %zu 个单元格；阅读器每课最多排版 %u "
			 "个表格单元格。）"},
	/* wt-labux */
	[M_LAB_CONTROL_OK] = {"  (the control failed, as expected: a pass)",
			      "  （对照组如预期失败：算通过）"},
	[M_LAB_CONCLUSION] = {"What this run showed:", "本次运行证明了："},
	[M_LAB_EVIDENCE] = {"Evidence (%zu lines)", "证据（%zu 行）"},
	[M_LAB_CANCEL_DONE] = {"Cancelled: the %d processes the run started are stopped and its "
			       "run folder is removed.",
			       "已取消：本次运行启动的 %d 个进程都已停止，运行目录已删除。"},
	[M_LAB_CANCEL_FORCED] =
		{"Cancelled: the lab did not stop in time and was killed; its "
		 "processes die with it, and its run folder is removed when the "
		 "next lab starts.",
		 "已取消：实验没有及时停止，已被强制结束；它的进程随之结束，运行目录"
		 "会在下一个实验启动时删除。"},
	[M_LAB_NO_CARD] = {"No lab card on screen: scroll to a Lab box (Tab picks one of several)",
			   "屏幕上没有实验卡片：滚动到实验框（多个时按 Tab 选择）"},
	[M_SEARCH_PROMPT_LAST] = {"Search (Enter: \"%s\"): ", "搜索（Enter：“%s”）："},
	[M_SOURCE_STATUS] = {"line %zu of %zu  col %d", "第 %zu/%zu 行  第 %d 列"},
	[M_SOURCE_NOT_FOUND] = {"Cannot open %s: %s", "无法打开 %s：%s"},
	[M_HELP_SCROLL] = {"j/k Space/b scroll · q closes", "j/k Space/b 滚动 · q 关闭"},
	[M_QUIZ_FULL] = {"No space left on device: the answer was not saved; nothing saved before "
			 "is lost.",
			 "设备上没有剩余空间：这次回答没有保存；之前保存的内容都没有丢失。"},
	[M_PLAIN_FULL_CHOICE] =
		{"Free some space and press Enter to try again · :quit: pause the "
		 "test (this answer is not saved)",
		 "请腾出一些空间，然后按回车重试 · :quit：暂停测验（这次回答不保存）"},
	[M_QUIZ_FULL_RETRY] = {"Free some space and press the same key to try again.",
			       "请腾出一些空间，然后再按同一个键重试。"},
	[M_TEST_NOT_STARTED] = {"Cannot start the test: %s", "无法开始测验：%s"},
	[M_TEST_FULL] =
		{"No space left on device: the test was not started; nothing saved before "
		 "is lost. Free some space and press s again.",
		 "设备上没有剩余空间：测验没有开始；之前保存的内容都没有丢失。请腾出一些空间后再按 "
		 "s。"},
	[M_DB_LOCKED] = {"The progress database %s is locked by another program.",
			 "进度数据库 %s 被另一个程序锁住了。"},
	[M_DB_LOCKED_WHY] =
		{"An open sqlite3 shell, a backup or another workbench holds it "
		 "exclusively. Nothing was changed; the workbench starts as soon as it "
		 "is released.",
		 "可能是打开的 sqlite3、备份程序或另一个 workbench 独占了它。没有做任何改动；"
		 "它一释放，workbench 就会启动。"},
	[M_DB_LOCKED_WAIT] = {"Trying again in %d s · r: try now · q: quit",
			      "%d 秒后重试 · r：立即重试 · q：退出"},
	[M_DB_LOCKED_TRYING] = {"Trying again…", "正在重试…"},
	/* wt-uxa */
	[M_QUIZ_GOT_NONE_ASK] = {"Got it with 0 of %d points ticked? y grade Got it · n back",
				 "一个要点都没勾（共 %d 分），仍评“已掌握”？y 是 · n 返回"},
	[M_READER_PICK_SECTION] = {"Pick the section about [%s] (Enter jumps)",
				   "请选择与 [%s] 相关的一节（Enter 跳转）"},
	/* wt-timeline */
	[M_TL_MS] = {"ms", "毫秒"},
	[M_TL_NOTE_SCALE] = {"Times are ms since the run started; spacing between ticks is "
			     "compressed.",
			     "时间是运行开始后的毫秒数；刻度之间的间距经过压缩。"},
	[M_TL_NOTE_BREAKS] = {"Times are ms since the run started; each ≈ leaves out idle time "
			      "(%s ms in all); spacing between ticks is compressed.",
			      "时间是运行开始后的毫秒数；每个 ≈ 省略一段空闲时间（共 %s "
			      "毫秒）；刻度之间的间距经过压缩。"},
	[M_TL_NOTE_WITNESS] = {"Heavy bars (━) are the checker's witness: operations %s.",
			       "粗线（━）是检查器给出的见证：操作 %s。"},
	[M_TL_EMPTY] = {"No operations or marks were recorded.", "没有记录到任何操作或标记。"},
	[M_TL_TITLE] = {"Timeline", "时间线"},
	[M_TL_NO_HISTORY] = {"This run recorded no operation history, so there is no timeline "
			     "to show. t: back to the run",
			     "这次运行没有记录操作历史，所以没有时间线可显示。t：返回运行记录"},
	[M_TL_MISSING] = {"(The timeline '%s' cannot be shown here: its history file is missing "
			  "or damaged, or the page is too narrow.)",
			  "（时间线“%s”无法在此显示：它的历史文件缺失或损坏，或者页面太窄。）"},
	/* wt-perf */
	[M_LABALL_LAB] = {"lab", "实验"},
	[M_LABALL_SECONDS] = {"seconds", "秒"},
	[M_LABALL_VERDICT] = {"verdict", "结果"},
	[M_LABALL_NOT_RUN] = {"not run", "未运行"},
	[M_LABALL_TOTAL] =
		{"%d labs in %.1f s: %d passed, %d failed, %d could not run, %d not run",
		 "%d 个实验，共 %.1f 秒：%d 个通过，%d 个未通过，%d 个无法运行，%d 个未运行"},
	/* wt-labtime */
	[M_LABALL_STORY] = {"story", "故事"},
	[M_LABALL_SERVER] = {"servers", "服务器"},
	[M_LABALL_OTHER] = {"other", "其余"},
	[M_LABALL_SPLIT] = {"of which %.1f s waiting for the stories, %.1f s starting and "
			    "stopping servers, %.1f s the rest",
			    "其中等待故事所需 %.1f 秒，启动和停止服务器 %.1f 秒，其余 %.1f 秒"},
};

const char *i18n(const char *lang, enum msg m)
{
	int zh = lang && !strncmp(lang, "zh", 2);
	if ((int)m < 0 || m >= M_COUNT)
		return "";
	return strings[m][zh];
}
