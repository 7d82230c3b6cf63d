/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef FXT_TRACECTL_H
#define FXT_TRACECTL_H

#include <stdbool.h>

/*
 * Each subcommand gets argv starting at its own name (argv[0] is the
 * subcommand) and returns the process exit status: 0 success, 1 failure
 * of the work, 2 bad usage.
 */
int cmd_start(int argc, char **argv);
int cmd_stop(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_snapshot(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_summary(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_why(int argc, char **argv);

/* --version of tracectl and each subcommand: prints it, exits 0. */
__attribute__((noreturn)) void tracectl_version_exit(void);
/*
 * Of the commands without options: argv[1] --version prints the version
 * and exits; true when it asks for --help (-h).
 */
bool tracectl_help_or_version(int argc, char **argv);
/*
 * An argument a subcommand does not take, as a usage error (an unknown
 * option when it starts with '-'): TRACECTL_EXIT_USAGE. prog is argv[0]
 * of the subcommand ("tracectl stop").
 */
int tracectl_stray(const char *prog, const char *arg);

/*
 * A bad value of an option: "tracectl CMD: --OPTION ARG: " and what to
 * give (fmt) on stderr; -EINVAL.
 */
int tracectl_bad_value(const char *cmd, const char *option, const char *arg,
		       const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * The one input FILE of the commands that read an archive, at optind: 0,
 * or -1 after a usage error (none, or more than one).
 */
int tracectl_one_input(const char *prog, int argc, char **argv);

#define TRACECTL_EXIT_OK 0
#define TRACECTL_EXIT_FAIL 1
#define TRACECTL_EXIT_USAGE 2

#endif /* FXT_TRACECTL_H */
