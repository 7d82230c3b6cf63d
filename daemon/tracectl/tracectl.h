/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef FXT_TRACECTL_H
#define FXT_TRACECTL_H

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

#define TRACECTL_EXIT_OK 0
#define TRACECTL_EXIT_FAIL 1
#define TRACECTL_EXIT_USAGE 2

#endif /* FXT_TRACECTL_H */
