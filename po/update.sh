#!/bin/sh
# update.sh SRC OUT.pot: extract the catalogue's template from the sources,
# the one xgettext call the build, tests/cli/translations.sh and
# po/convert_tables.py share.  msgids are the English texts: the UI table
# (N_() in workbench/core/i18n.c), any _()/N_() literal, and the narration
# the labs pass to harness/report.h (the format argument of each report_*
# call; a narration passed in a variable is marked N_() where it is
# written).  It does not touch po/zh_CN.po: `msgmerge -U po/zh_CN.po OUT.pot`
# does, and leaves new msgids untranslated for you to fill.
set -eu
src=$1
out=$2
cd "$src"
find workbench labs -name '*.c' | LC_ALL=C sort >"$out.files"
xgettext --from-code=UTF-8 --language=C --add-comments=TRANSLATORS: \
	--package-name=workbench --msgid-bugs-address=none --sort-by-file \
	--keyword=_ --keyword=N_ --keyword=i18n_text:2 \
	--keyword=report_step:2 --flag=report_step:2:c-format \
	--keyword=report_conclusion:2 --flag=report_conclusion:2:c-format \
	--keyword=report_cannot:2 --flag=report_cannot:2:c-format \
	--keyword=report_check:4 --keyword=report_checkf:4 \
	--files-from="$out.files" -o "$out"
rm -f "$out.files"
