#!/bin/sh
# --help and the man page name the same options: every long option a
# program's --help shows is in its page (task-edit's in task-add(1) too,
# which it refers to), and every option the page's SYNOPSIS or option
# list gives is in --help.
# store: none
. "$AC_TOP/tests/lib.sh"

progs=$(cd "$AC_TOP/cmd" && ls *.c | sed 's/\.c$//')

# help_options PROG: the long options its --help shows, less those it
# names of another program (task-ls's "task-rm --undo").
help_options() {
	"$1" --help | sed "s/\(task-[a-z]*\|llm-call\) --[a-z-]*/[&]/g; s/\[$1 \(--[a-z-]*\)\]/\1/g; s/\[[a-z-]* --[a-z-]*\]//g" |
		grep -o -- "--[a-z][a-z-]*" | sort -u
}

# page_options PAGE...: the long options the pages name anywhere.
page_options() {
	sed 's/\\-/-/g' "$@" | grep -o 'Fl -[a-z][a-z-]*' | sed 's/^Fl /-/' | sort -u
}

# listed_options PAGE: the long options of its SYNOPSIS and .It lines.
listed_options() {
	sed 's/\\-/-/g' "$1" | sed -n '/^\.Sh SYNOPSIS/,/^\.Sh DESCRIPTION/p; /^\.It Fl/p' |
		grep -o 'Fl -[a-z][a-z-]*' | sed 's/^Fl /-/' | sort -u
}

test_expect_success 'every long option of --help is in the man page' '
	for p in $progs; do
		pages="$AC_TOP/man/man1/$p.1" &&
		if [ "$p" = task-edit ]; then pages="$pages $AC_TOP/man/man1/task-add.1"; fi &&
		help_options "$p" >help &&
		page_options $pages >page &&
		comm -23 help page >missing &&
		{ test ! -s missing || { echo "$p: not in its page: $(cat missing)"; return 1; }; }
	done
'

test_expect_success 'every option the man page lists is in --help' '
	for p in $progs; do
		"$p" --help | grep -o -- "--[a-z][a-z-]*" | sort -u >help &&
		listed_options "$AC_TOP/man/man1/$p.1" >listed &&
		comm -13 help listed >extra &&
		{ test ! -s extra || { echo "$p: not in --help: $(cat extra)"; return 1; }; }
	done
'

test_done
