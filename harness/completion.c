/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bash completion script, written from the command descriptors (git's and kubectl's way: the
 * rows the parsers take are the only source). */
#include "harness/completion.h"

#include "engines/engine.h"
#include "matrix/matrix.h"
#include "measure/metric.h"

#include <stdbool.h>
#include <string.h>

#define ROW_SETS_MAX 16 /* a command's row tables: its own and one per subcommand */

/* The helpers every completion needs; the command tables follow them. */
static const char prologue[] =
	"# bash completion for ioregress(1), written from its command descriptors by\n"
	"# ior_completion_bash (harness/completion.c) at build time: change the descriptors, not this.\n"
	"\n"
	"# Offers files matching $1 (\"*.ini\") and directories to walk into, any file for \"\", or\n"
	"# directories only for \"dir\".\n"
	"_ioregress_files()\n"
	"{\n"
	"\tcompopt -o filenames 2>/dev/null\n"
	"\tcase $1 in\n"
	"\tdir) mapfile -t COMPREPLY < <(compgen -d -- \"$cur\") ;;\n"
	"\t'') mapfile -t COMPREPLY < <(compgen -f -- \"$cur\") ;;\n"
	"\t*) mapfile -t COMPREPLY < <(compgen -f -X \"!$1\" -- \"$cur\"; compgen -d -- \"$cur\") ;;\n"
	"\tesac\n"
	"}\n"
	"\n"
	"# Offers the engine names (the [engine NAME] sections) of the matrix files named on the command\n"
	"# line, or of the *.ini files here when none is.\n"
	"_ioregress_engines()\n"
	"{\n"
	"\tlocal w files=()\n"
	"\tfor w in \"${COMP_WORDS[@]}\"; do\n"
	"\t\t[[ $w == *.ini && -f $w ]] && files+=(\"$w\")\n"
	"\tdone\n"
	"\t((${#files[@]})) || files=(*.ini)\n"
	"\tmapfile -t COMPREPLY < <(compgen -W \"$(sed -n 's/^[[:space:]]*\\[engine[[:space:]][[:space:]]*\\([^]]*\\)\\].*/\\1/p' \\\n"
	"\t\t\"${files[@]}\" 2>/dev/null)\" -- \"$cur\")\n"
	"}\n"
	"\n"
	"# Offers Debian kernel packages, apt-cache's linux-image-* names; a word with a '/' is a\n"
	"# PATH/bzImage:MODULES_DIR, so files.\n"
	"_ioregress_kernels()\n"
	"{\n"
	"\tif [[ $cur == */* ]]; then\n"
	"\t\t_ioregress_files ''\n"
	"\t\treturn\n"
	"\tfi\n"
	"\t# what vm run boots (vm/package_release.c): a version after the prefix; no metapackage, debug\n"
	"\t# symbols or signing template\n"
	"\tmapfile -t COMPREPLY < <(apt-cache pkgnames \"${cur:-linux-image-}\" 2>/dev/null |\n"
	"\t\tgrep -E '^linux-image-(unsigned-)?[0-9]' | grep -Ev -- '-(dbg|dbgsym|signed-template)$' | sort)\n"
	"}\n"
	"\n"
	"# Offers the kernel releases the database holds (its kernels table): the --db of the command\n"
	"# line, else ./ioregress.db; read with sqlite3 when it is installed, nothing otherwise.\n"
	"_ioregress_releases()\n"
	"{\n"
	"\tlocal db=ioregress.db i\n"
	"\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
	"\t\tcase ${COMP_WORDS[i]} in\n"
	"\t\t--db) [[ ${COMP_WORDS[i+1]} == = ]] && ((i++)); db=${COMP_WORDS[i+1]} ;;\n"
	"\t\t--db=*) db=${COMP_WORDS[i]#--db=} ;;\n"
	"\t\tesac\n"
	"\tdone\n"
	"\t[[ -f $db ]] && command -v sqlite3 >/dev/null || return\n"
	"\tmapfile -t COMPREPLY < <(compgen -W \"$(sqlite3 -readonly \"$db\" \\\n"
	"\t\t'SELECT DISTINCT release FROM kernels ORDER BY release' 2>/dev/null)\" -- \"$cur\")\n"
	"}\n"
	"\n"
	"";

/* The completion function's start: the word under the cursor and the one before it. */
static const char main_start[] =
	"_ioregress()\n"
	"{\n"
	"\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd='' at=0 i\n"
	"\tCOMPREPLY=()\n"
	"\t# bash splits --format=json at the '=' (COMP_WORDBREAKS): complete the value after it\n"
	"\tif [[ $cur == = ]]; then\n"
	"\t\tcur=''\n"
	"\telif [[ $prev == = ]]; then\n"
	"\t\tprev=${COMP_WORDS[COMP_CWORD-2]}\n"
	"\tfi\n";

/* " --name alias" for every row of rows. */
static void print_words(FILE *out, const struct ior_cmd_opt *rows)
{
	for (const struct ior_cmd_opt *o = rows; o && o->name; o++) {
		fprintf(out, " %s", o->name);
		if (o->alias)
			fprintf(out, " %s", o->alias);
	}
}

/* The command word is the first word that is neither an option nor a global option's value. */
static void print_find_command(FILE *out)
{
	fputs("\tfor ((i = 1; i < COMP_CWORD; i++)); do\n\t\tcase ${COMP_WORDS[i]} in\n", out);
	for (const struct ior_cmd_opt *o = ior_cmd_global_options; o->name; o++) {
		if (o->value == IOR_CMD_FLAG)
			continue;
		fprintf(out, "\t\t%s%s%s)\n", o->name, o->alias ? "|" : "", o->alias ? o->alias : "");
		fputs("\t\t\t[[ ${COMP_WORDS[i+1]} == = ]] && ((i++))\n\t\t\t((i++)) ;;\n", out);
	}
	fputs("\t\t-*|=) ;;\n\t\t*) cmd=${COMP_WORDS[i]} at=$i; break ;;\n\t\tesac\n\tdone\n", out);
}

/* "cmd:--name|cmd:alias" for the case pattern of an option's value. */
static void print_pattern(FILE *out, const char *cmd, const struct ior_cmd_opt *o, bool *first)
{
	fprintf(out, "%s%s:%s", *first ? "\t" : "|", cmd, o->name);
	if (o->alias)
		fprintf(out, "|%s:%s", cmd, o->alias);
	*first = false;
}

/* The helper that offers what a row's complete names. */
static const char *const complete_helpers[] = {
	[IOR_CMD_COMPLETE_ENGINE] = "_ioregress_engines",
	[IOR_CMD_COMPLETE_KERNEL_PACKAGE] = "_ioregress_kernels",
	[IOR_CMD_COMPLETE_RELEASE] = "_ioregress_releases",
	[IOR_CMD_COMPLETE_METRIC] = "_ioregress_metrics list",
	[IOR_CMD_COMPLETE_METRIC_ONE] = "_ioregress_metrics one",
	[IOR_CMD_COMPLETE_SET_KEY] = "_ioregress_set_keys",
};

/* " KEY" for each row of rows not printed before (seen, nseen: what was), each after prefix. */
static void print_keys(FILE *out, const struct ior_option *rows, const char **seen, size_t *nseen, size_t max)
{
	for (const struct ior_option *o = rows; o && o->name; o++) {
		bool dup = false;
		for (size_t i = 0; i < *nseen && !dup; i++)
			dup = !strcmp(seen[i], o->name);
		if (dup)
			continue;
		if (*nseen < max)
			seen[(*nseen)++] = o->name;
		fprintf(out, " %s", o->name);
	}
}

/* The helpers whose words come from the tables: metric names (the metric table) and --set's keys
 * (the matrix's, devices' and every engine's option rows; device and engine names from the matrix
 * files on the command line, as _ioregress_engines finds them). */
static void print_table_helpers(FILE *out)
{
	fputs("# Offers metric names (the metric table); $1 list: NAME,NAME... or all; one: a single name.\n"
	      "_ioregress_metrics()\n{\n\tlocal names='", out);
	for (int m = 0; m < IOR_METRIC_COUNT; m++)
		fprintf(out, "%s%s", m ? " " : "", ior_metric_info((enum ior_metric)m)->name);
	fputs("' pre=''\n"
	      "\tif [[ $1 == list ]]; then\n\t\t[[ $cur == *,* ]] && pre=${cur%,*},\n\t\t[[ -z $pre ]] && names+=' all'\n\tfi\n"
	      "\tmapfile -t COMPREPLY < <(compgen -P \"$pre\" -W \"$names\" -- \"${cur##*,}\")\n}\n\n", out);
	enum { KEYS_MAX = 512 };
	const char *seen[KEYS_MAX];
	size_t nseen = 0;
	fputs("# Offers run --set's keys: matrix.KEY=, defaults.KEY=, and device.NAME.KEY= and engine.NAME.KEY= for\n"
	      "# the [device NAME] and [engine NAME] sections of the matrix files named (or *.ini here).\n"
	      "_ioregress_set_keys()\n{\n\tlocal matrix_keys='", out);
	print_keys(out, ior_matrix_settings_options(), seen, &nseen, KEYS_MAX);
	nseen = 0;
	fputs("' device_keys='", out);
	print_keys(out, ior_matrix_device_options(), seen, &nseen, KEYS_MAX);
	nseen = 0;
	fputs("' engine_keys='", out);
	print_keys(out, ior_matrix_job_options(), seen, &nseen, KEYS_MAX);
	for (size_t e = 0; e < ior_engine_count(); e++)
		print_keys(out, ior_engine_at(e)->options, seen, &nseen, KEYS_MAX);
	fputs("' w k name names=() files=() words=()\n"
	      "\tfor w in \"${COMP_WORDS[@]}\"; do\n\t\t[[ $w == *.ini && -f $w ]] && files+=(\"$w\")\n\tdone\n"
	      "\t((${#files[@]})) || files=(*.ini)\n"
	      "\tfor k in $matrix_keys; do words+=(\"matrix.$k=\"); done\n"
	      "\tfor k in $engine_keys; do words+=(\"defaults.$k=\"); done\n"
	      "\tfor w in device engine; do\n"
	      "\t\tlocal keys=$engine_keys\n\t\t[[ $w == device ]] && keys=$device_keys\n"
	      "\t\tmapfile -t names < <(sed -n \"s/^[[:space:]]*\\[${w}[[:space:]][[:space:]]*\\([^]]*\\)\\].*/\\1/p\" \"${files[@]}\" 2>/dev/null)\n"
	      "\t\tfor name in \"${names[@]}\"; do\n"
	      "\t\t\tfor k in $keys; do words+=(\"$w.$name.$k=\"); done\n"
	      "\t\tdone\n\tdone\n"
	      "\tcompopt -o nospace 2>/dev/null\n"
	      "\tmapfile -t COMPREPLY < <(compgen -W \"${words[*]}\" -- \"$cur\")\n}\n\n", out);
}

static bool several_words(const struct ior_cmd_opt *o)
{
	size_t len = o->arg ? strlen(o->arg) : 0;
	return len > 3 && !strcmp(o->arg + len - 3, "...");
}

/* An option that takes several words ("--kernels PKG..."): each word after it, up to the next
 * option, is one of its values. */
static void print_word_lists(FILE *out, const struct ior_command *const *list, size_t n)
{
	fputs("\tlocal last=''\n\tfor ((i = COMP_CWORD - 1; i > at; i--)); do\n"
	      "\t\tif [[ ${COMP_WORDS[i]} == -* ]]; then\n\t\t\tlast=${COMP_WORDS[i]}\n\t\t\tbreak\n\t\tfi\n\tdone\n"
	      "\tif [[ $cur != -* ]]; then\n\t\tcase $cmd:$last in\n", out);
	for (size_t c = 0; c < n; c++) {
		const struct ior_cmd_opt *sets[ROW_SETS_MAX];
		size_t nsets = ior_cmd_row_sets(list[c], sets, ROW_SETS_MAX);
		for (size_t s = 0; s < nsets; s++)
			for (const struct ior_cmd_opt *o = sets[s]; o && o->name; o++)
				if (o->complete && several_words(o))
					fprintf(out, "\t\t%s:%s)\n\t\t\t%s\n\t\t\treturn ;;\n", list[c]->name, o->name,
						complete_helpers[o->complete]);
	}
	fputs("\t\tesac\n\tfi\n", out);
}

/* The rows of command c of list (every subcommand's too), or the global ones for c == n, under
 * the name completion matches them by ("*" for the global ones); returns how many tables. */
static size_t rows_of(const struct ior_command *const *list, size_t n, size_t c, const struct ior_cmd_opt **sets,
		      const char **cmd)
{
	*cmd = c < n ? list[c]->name : "*";
	if (c < n)
		return ior_cmd_row_sets(list[c], sets, ROW_SETS_MAX);
	sets[0] = ior_cmd_global_options;
	return 1;
}

/* The case arm that offers what follows row o, or nothing when free text or a number follows. */
static void print_value(FILE *out, const char *cmd, const struct ior_cmd_opt *o)
{
	bool one = true;
	if (o->complete && o->value != IOR_CMD_FLAG) {
		print_pattern(out, cmd, o, &one);
		fprintf(out, ")\n\t\t%s\n\t\treturn ;;\n", complete_helpers[o->complete]);
	} else if (o->value == IOR_CMD_CHOICE && o->choices) {
		print_pattern(out, cmd, o, &one);
		fprintf(out, ")\n\t\tmapfile -t COMPREPLY < <(compgen -W '%s' -- \"$cur\")\n\t\treturn ;;\n", o->choices);
	} else if (o->value == IOR_CMD_FILE) {
		print_pattern(out, cmd, o, &one);
		fprintf(out, ")\n\t\t_ioregress_files '%s'\n\t\treturn ;;\n", o->arg && !strcmp(o->arg, "DIR") ? "dir" : "");
	}
}

/* What follows an option that takes a value: its choices, files, what is looked up, or (free text,
 * a number) nothing to offer, which must not fall through to the option list. */
static void print_values(FILE *out, const struct ior_command *const *list, size_t n)
{
	fputs("\tcase $cmd:$prev in\n", out);
	const struct ior_cmd_opt *sets[ROW_SETS_MAX];
	const char *cmd;
	for (size_t c = 0; c <= n; c++)
		for (size_t s = 0, nsets = rows_of(list, n, c, sets, &cmd); s < nsets; s++)
			for (const struct ior_cmd_opt *o = sets[s]; o && o->name; o++)
				print_value(out, cmd, o);
	bool first = true;
	for (size_t c = 0; c <= n; c++)
		for (size_t s = 0, nsets = rows_of(list, n, c, sets, &cmd); s < nsets; s++)
			for (const struct ior_cmd_opt *o = sets[s]; o && o->name; o++)
				if ((o->value == IOR_CMD_TEXT || o->value == IOR_CMD_NUMBER) && !o->complete)
					print_pattern(out, cmd, o, &first);
	if (!first)
		fputs(")\n\t\treturn ;;\n", out);
	fputs("\tesac\n", out);
}

static void print_top_level(FILE *out, const struct ior_command *const *list, size_t n)
{
	fputs("\tif [[ -z $cmd ]]; then\n\t\tif [[ $cur == -* ]]; then\n\t\t\tmapfile -t COMPREPLY < <(compgen -W '", out);
	print_words(out, ior_cmd_global_options);
	fputs(" --version' -- \"$cur\")\n\t\telse\n\t\t\tmapfile -t COMPREPLY < <(compgen -W '", out);
	for (size_t c = 0; c < n; c++)
		fprintf(out, " %s", list[c]->name);
	fputs(" help' -- \"$cur\")\n\t\tfi\n\t\treturn\n\tfi\n", out);
}

/* main.c's help topics: `help engines`, `help engine NAME` (the registry's names), `help COMMAND`. */
static void print_help_topics(FILE *out, const struct ior_command *const *list, size_t n)
{
	fputs("\tif [[ $cmd == help ]]; then\n\t\tif ((COMP_CWORD == at + 1)); then\n"
	      "\t\t\tmapfile -t COMPREPLY < <(compgen -W 'engines engine", out);
	for (size_t c = 0; c < n; c++)
		fprintf(out, " %s", list[c]->name);
	fputs("' -- \"$cur\")\n\t\telif ((COMP_CWORD == at + 2)) && [[ ${COMP_WORDS[at+1]} == engine ]]; then\n"
	      "\t\t\tmapfile -t COMPREPLY < <(compgen -W '", out);
	for (size_t e = 0; e < ior_engine_count(); e++)
		fprintf(out, "%s%s", e ? " " : "", ior_engine_at(e)->name);
	fputs("' -- \"$cur\")\n\t\tfi\n\t\treturn\n\tfi\n", out);
}

/* A command's options, and with subcommands: sub='start run ...' and each one's options beside the
 * command's own, chosen by the word after the command. */
static void print_command(FILE *out, const struct ior_command *cmd)
{
	fprintf(out, "\t%s)\n\t\topts='", cmd->name);
	print_words(out, cmd->options);
	fputs("'", out);
	if (cmd->subs) {
		fputs("\n\t\tsub='", out);
		for (const struct ior_cmd_sub *s = cmd->subs; s->name; s++)
			fprintf(out, "%s%s", s == cmd->subs ? "" : " ", s->name);
		fputs("'\n\t\tcase ${COMP_WORDS[at+1]} in\n", out);
		for (const struct ior_cmd_sub *s = cmd->subs; s->name; s++) {
			fprintf(out, "\t\t%s) opts+='", s->name);
			print_words(out, s->options);
			fputs("' ;;\n", out);
		}
		fputs("\t\tesac", out);
	}
	if (cmd->operand_complete == IOR_CMD_COMPLETE_KERNEL_PACKAGE)
		fputs("\n\t\toperands=kernels", out);
	else if (cmd->operand_files)
		fprintf(out, "\n\t\toperands=files glob='%s'", cmd->operand_glob ? cmd->operand_glob : "");
	fputs(" ;;\n", out);
}

static void print_commands(FILE *out, const struct ior_command *const *list, size_t n)
{
	fputs("\tlocal opts='' operands=no glob='' sub=''\n\tcase $cmd in\n", out);
	for (size_t c = 0; c < n; c++)
		print_command(out, list[c]);
	fputs("\t*) return ;;\n\tesac\n", out);
	/* "ioregress vm <TAB>", "ioregress bisect <TAB>": the subcommand comes before anything else */
	fputs("\tif [[ -n $sub ]] && ((COMP_CWORD == at + 1)); then\n"
	      "\t\tmapfile -t COMPREPLY < <(compgen -W \"$sub\" -- \"$cur\")\n\t\treturn\n\tfi\n", out);
	fputs("\tif [[ $cur == -* || $operands == no ]]; then\n\t\tmapfile -t COMPREPLY < <(compgen -W \"$opts", out);
	print_words(out, ior_cmd_global_options);
	fputs("\" -- \"$cur\")\n\telif [[ $operands == kernels ]]; then\n\t\t_ioregress_kernels\n"
	      "\telse\n\t\t_ioregress_files \"$glob\"\n\tfi\n}\n\ncomplete -F _ioregress ioregress\n", out);
}

int ior_completion_bash(FILE *out, const struct ior_command *const *list, size_t n)
{
	fputs(prologue, out);
	print_table_helpers(out);
	fputs(main_start, out);
	print_find_command(out);
	print_word_lists(out, list, n);
	print_values(out, list, n);
	print_top_level(out, list, n);
	print_help_topics(out, list, n);
	print_commands(out, list, n);
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
