/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * How an archive made by tracectl record says which process was the
 * command: fxtraced writes, in a provider section of its own named
 * FXT_RECORD_COMMAND_PROVIDER, an instant event of category
 * FXT_RECORD_COMMAND_CATEGORY named FXT_RECORD_COMMAND_NAME on the
 * command's main thread (inline thread: pid = tid = the command's pid),
 * at the time record asked. A plain FXT instant: any FXT reader shows it
 * on that thread. The processes the command starts are found from the
 * kernel:proc fork records (kproc.h), which record enables.
 */
#ifndef FXT_RECORD_COMMAND_H
#define FXT_RECORD_COMMAND_H

#define FXT_RECORD_COMMAND_PROVIDER "fxtraced"
#define FXT_RECORD_COMMAND_CATEGORY "fxtrace"
#define FXT_RECORD_COMMAND_NAME "command"

#endif /* FXT_RECORD_COMMAND_H */
