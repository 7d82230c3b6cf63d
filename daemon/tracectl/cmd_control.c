// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracectl start, stop, status, record: requests to fxtraced over its
 * socket (control_proto.h). tracectl opens the archive with the caller's
 * own rights and passes it; the manager writes it and opens no path.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <fxt/fxt_sched_uapi.h>
#include <fxt/provider.h>	/* FXT_START_WAIT_ENV */

#include "archive_output.h"
#include "cleanup.h"
#include "control_client.h"
#include "control_proto.h"
#include <fxt/fxt_msg.h>
#include "manager_hint.h"
#include "parse.h"
#include "provider_text.h"
#include "record_categories.h"
#include "start_options.h"
#include "start_triggers.h"
#include "tracectl.h"
#include "usage_error.h"


/* How long a stop waits for the archive by default. */
#define STOP_TIMEOUT_DEFAULT_NS (300ull * 1000000000u)

static void human_size(uint64_t bytes, char *buf, size_t len)
{
	if (bytes >= 10ull << 20)
		snprintf(buf, len, "%lluM", (unsigned long long)(bytes >> 20));
	else if (bytes >= 10ull << 10)
		snprintf(buf, len, "%lluK", (unsigned long long)(bytes >> 10));
	else
		snprintf(buf, len, "%llu", (unsigned long long)bytes);
}

static const char *provider_note(const struct fxt_ctl_provider *p)
{
	if (p->flags & FXT_CTL_PROVIDER_KERNEL)
		return "";
	if (p->flags & FXT_CTL_PROVIDER_NO_STOPPED)
		return " (did not acknowledge stop)";
	if (!(p->flags & FXT_CTL_PROVIDER_ALIVE))
		return " (exited)";
	return "";
}

/* What keeps more records, in the words of the trace's mode. */
static const char *drop_advice(unsigned int mode, const char *size_option)
{
	static char advice[160];

	if (mode == FXT_BUFFERING_STREAMING)
		snprintf(advice, sizeof(advice),
			 "a larger %s gives the writer more time to save each half, a faster disk keeps up",
			 size_option);
	else if (mode == FXT_BUFFERING_CIRCULAR)
		snprintf(advice, sizeof(advice),
			 "circular mode keeps the newest: a larger %s keeps more of the past, --mode streaming keeps all",
			 size_option);
	else
		snprintf(advice, sizeof(advice),
			 "a larger %s, or --mode streaming, keeps more",
			 size_option);
	return advice;
}

static void print_results(const struct control_reply *rep)
{
	char name[PROVIDER_TEXT_NAME_MAX], dropped[PROVIDER_TEXT_DROPS_MAX];
	uint64_t drops = 0, kernel_drops = 0;
	unsigned int implausible = 0;
	size_t i;

	printf("%-24s %8s %10s %10s %8s %8s\n", "PROVIDER", "PID", "RECORDS",
	       "BYTES", "DROPS", "SKIPPED");
	for (i = 0; i < rep->nproviders; i++) {
		const struct fxt_ctl_provider *p = &rep->providers[i];

		provider_text_name(p, name);
		if (p->flags & FXT_CTL_PROVIDER_CATEGORY) {
			/* A share of the kernel row above: not added again. */
			printf("  %-22s %8s %10llu %10s %8s\n", name, "-",
			       (unsigned long long)p->records, "-",
			       provider_text_drops(p, dropped));
			continue;
		}
		printf("%-24s %8u %10llu %10llu %8s %8llu%s\n", name, p->pid,
		       (unsigned long long)p->records,
		       (unsigned long long)p->bytes,
		       provider_text_drops(p, dropped),
		       (unsigned long long)p->skipped, provider_note(p));
		if (p->flags & FXT_CTL_PROVIDER_KERNEL)
			kernel_drops = provider_add_drops(kernel_drops, p);
		else
			drops = provider_add_drops(drops, p);
		implausible += provider_drops_implausible(p);
	}
	if (!rep->nproviders)
		printf("(no provider was connected)\n");
	if (drops)
		printf("Warning: %llu provider records were dropped (DROPS); %s\n",
		       (unsigned long long)drops,
		       drop_advice(rep->result.mode, "--buffer-size"));
	if (kernel_drops)
		printf("Warning: %llu kernel records were dropped (DROPS); %s\n",
		       (unsigned long long)kernel_drops,
		       drop_advice(rep->result.mode, "--kernel-buffer-size"));
	if (implausible)
		printf("Warning: %u provider(s) claimed more dropped records than they could have dropped (DROPS %s): their counts are left out, fxtraced's log names them\n",
		       implausible, PROVIDER_TEXT_IMPLAUSIBLE);
}

/* Whether depmod lists fxt_sched for the running kernel. */
static bool kmod_installed(void)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0;
	struct utsname u;
	bool found = false;
	FILE *f;

	if (uname(&u) < 0)
		return false;
	snprintf(path, sizeof(path), "/lib/modules/%s/modules.dep", u.release);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) > 0)
		found = !strncmp(line, "fxt_sched.ko", 12) ||
			strstr(line, "/fxt_sched.ko");
	free(line);
	fclose(f);
	return found;
}

/*
 * The module's device is missing: name the fix from what this machine
 * has (the manager's sandbox cannot see the installed modules).
 */
static void print_kmod_fix(const char *cmd)
{
	struct utsname u;

	if (access(FXT_SCHED_DEVICE, F_OK) == 0)
		return;
	if (access("/sys/module/fxt_sched", F_OK) == 0)
		fprintf(stderr, "tracectl %s: fxt_sched is loaded but %s is missing: check its udev rule (sudo udevadm trigger)\n",
			cmd, FXT_SCHED_DEVICE);
	else if (kmod_installed())
		fprintf(stderr, "tracectl %s: the fxt_sched module is not loaded: load it: sudo modprobe fxt_sched\n",
			cmd);
	else
		fprintf(stderr, "tracectl %s: no fxt_sched module for kernel %s: install fxt-sched-dkms (sudo apt install fxt-sched-dkms), then: sudo modprobe fxt_sched; or use --kernel=bpf\n",
			cmd, uname(&u) == 0 ? u.release : "?");
}

/* Arms the started trace's triggers; 0, or 1 after saying why not. */
static int arm_triggers(const char *cmd, const struct start_options *o,
			int dir_fd)
{
	struct control_reply rep;
	int r;

	r = control_exchange(cmd, &o->triggers.req, sizeof(o->triggers.req),
			     dir_fd, &rep);
	free(rep.providers);
	free(rep.triggers);
	if (r >= 0)
		r = control_report(cmd, &rep);
	if (r)
		fprintf(stderr, "tracectl %s: the trace runs without triggers; end it with: tracectl stop\n",
			cmd);
	return r ? 1 : 0;
}

static int do_start(const char *cmd, struct start_options *o)
{
	struct fxt_ctl_start req = o->req;
	const char *path = req.output;
	char temp[PATH_MAX];
	_cleanup_close_ int fd = -1, dir_fd = -1;
	struct control_reply rep;
	int r;

	/* The snapshot directory first: the manager creates them through it. */
	if (start_triggers_any(&o->triggers)) {
		dir_fd = start_triggers_open_dir(cmd, &o->triggers);
		if (dir_fd < 0)
			return TRACECTL_EXIT_FAIL;
	}
	fd = archive_output_create(path, req.temp_name, sizeof(req.temp_name));
	archive_output_temp_path(path, req.temp_name, temp, sizeof(temp));
	if (fd >= 0) {
		r = control_exchange(cmd, &req, sizeof(req), fd, &rep);
	} else {
		/* Still ask (for status): a refused caller learns what to do. */
		struct fxt_msg_header status;

		fxt_msg_init(&status, FXT_MSG_CTL_STATUS, sizeof(status));
		r = control_exchange(cmd, &status, sizeof(status), -1, &rep);
	}
	free(rep.providers);
	free(rep.triggers);
	if (r < 0) {
		r = 1;
	} else if (fd < 0 && rep.result.error != -EPERM) {
		fprintf(stderr, "tracectl %s: cannot create %s: %s\n", cmd,
			path, fd == -EINVAL ? "not a regular file" :
			strerror(-fd));
		r = 1;
	} else {
		r = control_report(cmd, &rep);
	}
	if (r) {
		if (fd >= 0)
			archive_output_discard(temp, fd);
		if (o->req.kernel == FXT_CTL_KERNEL_KMOD && rep.result.error &&
		    rep.result.error != -EPERM)
			print_kmod_fix(cmd);
		return TRACECTL_EXIT_FAIL;
	}
	if (rep.result.message[0])
		printf("%s\n", rep.result.message);
	printf("Tracing to %s (mode %s, kernel %s)\n", rep.result.output,
	       start_mode_name(rep.result.mode), rep.result.kernel);
	if (rep.result.memory_budget)
		printf("Memory budget: %llu bytes, %llu in use, %llu per provider buffer\n",
		       (unsigned long long)rep.result.memory_budget,
		       (unsigned long long)rep.result.memory_used,
		       (unsigned long long)rep.result.buffer_size);
	if (start_triggers_any(&o->triggers)) {
		if (arm_triggers(cmd, o, dir_fd))
			return TRACECTL_EXIT_FAIL;
		printf("Triggers armed: snapshots to %s\n", o->triggers.req.dir);
	}
	return TRACECTL_EXIT_OK;
}

/*
 * The table says what the archive holds; then the archive is put in place
 * (its hidden name in the result) and the outcome said. 1 when the
 * archive is incomplete or not at the output.
 */
static int do_stop(const char *cmd, struct control_reply *keep,
		   uint64_t timeout_ns)
{
	const struct fxt_ctl_result *res;
	struct fxt_msg_header req;
	struct control_reply rep;
	int error, placed = 0;

	fxt_msg_init(&req, FXT_MSG_CTL_STOP, sizeof(req));
	if (control_exchange_until(cmd, &req, sizeof(req), -1, &rep,
				   timeout_ns) < 0)
		return TRACECTL_EXIT_FAIL;
	res = &rep.result;
	error = res->error ? res->error : res->archive_error;
	if (res->error && !res->temp_name[0]) {
		free(rep.providers);
		return control_report(cmd, &rep) ? TRACECTL_EXIT_FAIL :
						   TRACECTL_EXIT_OK;
	}
	if (rep.nproviders || !res->message[0])
		print_results(&rep);
	if (res->message[0] && !error)
		printf("Note: %s\n", res->message);
	if (keep) {
		*keep = rep;
		rep.providers = NULL;
	}
	free(rep.providers);
	if (res->temp_name[0])
		placed = archive_output_publish(cmd, res, error);
	/* removed: archive_output_publish() said so */
	if (error && error != -ENOENT)
		fprintf(stderr, "tracectl %s: the archive is incomplete: %s\n",
			cmd, res->error && res->message[0] ? res->message :
			strerror(-error));
	if (!placed)
		printf("Trace written to %s%s\n", res->output,
		       error ? " (incomplete: what the table lists)" : "");
	return error || placed < 0 ? TRACECTL_EXIT_FAIL : TRACECTL_EXIT_OK;
}

int cmd_start(int argc, char **argv)
{
	struct start_options o = { 0 };

	if (start_options_parse("start", argc, argv, &o) < 0)
		return TRACECTL_EXIT_USAGE;
	if (o.help) {
		start_options_usage(stdout, "start");
		return TRACECTL_EXIT_OK;
	}
	if (optind < argc) {
		usage_error(argv[0], "unexpected argument '%s' (to trace a command: tracectl record -- COMMAND)",
			    argv[optind]);
		return TRACECTL_EXIT_USAGE;
	}
	return do_start("start", &o);
}

static bool want_help(int argc, char **argv)
{
	return argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"));
}

int cmd_stop(int argc, char **argv)
{
	uint64_t timeout_ns = STOP_TIMEOUT_DEFAULT_NS;

	if (argc > 1 && !strcmp(argv[1], "--version"))
		tracectl_version_exit();
	if (want_help(argc, argv)) {
		printf("Usage: tracectl stop [--timeout TIME]\n"
		       "Stops the running trace; fxtraced writes the archive and tracectl\n"
		       "prints, per provider, its records, bytes and drops, then renames\n"
		       "the archive into place (a file there is kept as FILE.old). Only\n"
		       "the uid that started the trace does; for others the archive waits\n"
		       "for that uid's stop. After a trace that ended by itself, stop puts\n"
		       "its archive in place. Exits 1 when the archive is incomplete.\n\n"
		       "  --timeout TIME  wait at most TIME for the archive to be written\n"
		       "                  (default 5min; 0: for ever); past it, the trace\n"
		       "                  is stopped and the next stop puts the archive\n"
		       "                  in place\n\n"
		       "Examples:\n  sudo tracectl stop\n"
		       "  tracectl stop --timeout 30s\n"
		       "  FXTRACE_SOCKET=/tmp/fxt.sock tracectl stop\n");
		return TRACECTL_EXIT_OK;
	}
	if (argc == 3 && !strcmp(argv[1], "--timeout")) {
		if (parse_duration_ns(argv[2], &timeout_ns) < 0) {
			usage_error(argv[0], "--timeout %s: give a time, e.g. 30s, or 0 to wait for ever",
				    argv[2]);
			return TRACECTL_EXIT_USAGE;
		}
	} else if (argc == 2 && !strcmp(argv[1], "--timeout")) {
		usage_error(argv[0], "option '--timeout' needs a value");
		return TRACECTL_EXIT_USAGE;
	} else if (argc > 1) {
		return tracectl_stray(argv[0], argv[strcmp(argv[1], "--timeout") ? 1 : 3]);
	}
	return do_stop("stop", NULL, timeout_ns);
}

static void print_budget(const struct fxt_ctl_trigger *t)
{
	char kept[32], max[32], removed[32];

	human_size(t->kept_bytes, kept, sizeof(kept));
	human_size(t->max_bytes, max, sizeof(max));
	human_size(t->removed_bytes, removed, sizeof(removed));
	printf("  budget: %llu of %llu snapshots kept, %s of %s; %llu oldest removed (%s), %llu not kept\n",
	       (unsigned long long)t->kept_files,
	       (unsigned long long)t->max_files, kept, max,
	       (unsigned long long)t->removed_files, removed,
	       (unsigned long long)t->not_kept);
}

static void print_triggers(const struct control_reply *rep)
{
	size_t i;

	for (i = 0; i < rep->ntriggers; i++) {
		const struct fxt_ctl_trigger *t = &rep->triggers[i];
		char when[32] = "?", size[32];
		time_t sec = (time_t)(t->time_ns / 1000000000ull);
		struct tm tm;

		if (t->flags & FXT_CTL_TRIGGER_BUDGET) {
			print_budget(t);
			continue;
		}
		if (!(t->flags & FXT_CTL_TRIGGER_SNAPSHOT)) {
			if (i == 0)
				printf("Triggers: snapshots to %s\n", t->file);
			printf("  trigger %-16s fired %llu, %llu snapshots, %llu suppressed\n",
			       t->name, (unsigned long long)t->fired,
			       (unsigned long long)t->snapshots,
			       (unsigned long long)t->suppressed);
			continue;
		}
		if (gmtime_r(&sec, &tm))
			strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%SZ", &tm);
		human_size(t->bytes, size, sizeof(size));
		if (t->error == -EFBIG)
			printf("  snapshot %-15s %s not kept: larger than the budget\n",
			       t->name, when);
		else if (t->error)
			printf("  snapshot %-15s %s failed: %s\n", t->name, when,
			       strerror(-t->error));
		else
			printf("  snapshot %-15s %s %s %s\n", t->name, when,
			       t->file, size);
	}
}

static void print_status_provider(const struct fxt_ctl_provider *p)
{
	char name[PROVIDER_TEXT_NAME_MAX], drops_buf[PROVIDER_TEXT_DROPS_MAX];
	const char *dropped = provider_text_drops(p, drops_buf);
	char used[32], size[32];

	provider_text_name(p, name);
	if (p->flags & FXT_CTL_PROVIDER_KERNEL) {
		printf("  %s%-24s kernel    %llu records, %s dropped\n",
		       p->flags & FXT_CTL_PROVIDER_CATEGORY ? "  " : "", name,
		       (unsigned long long)p->records, dropped);
		return;
	}
	human_size(p->buffer_used, used, sizeof(used));
	human_size(p->buffer_size, size, sizeof(size));
	printf("  %-24s pid %-7u", name, p->pid);
	if (p->flags & FXT_CTL_PROVIDER_TRACING)
		printf(" buffer %s/%s (%.0f%%), %s dropped%s\n", used, size,
		       p->buffer_size ? 100.0 * (double)p->buffer_used /
					       (double)p->buffer_size : 0.0,
		       dropped, provider_note(p));
	else if (p->flags & FXT_CTL_PROVIDER_OVER_BUDGET)
		printf(" not tracing: its user's buffers reached their budget (fxtraced --user-buffer-budget)\n");
	else if (p->flags & FXT_CTL_PROVIDER_OVER_MEMORY_BUDGET)
		printf(" not tracing: the trace's buffers reached its memory budget (tracectl start --memory-budget)\n");
	else
		printf(" not tracing\n");
}

static void print_status(const struct control_reply *rep)
{
	static const char *const states[] = { "idle", "tracing", "stopping" };
	const struct fxt_ctl_result *res = &rep->result;
	size_t i;

	printf("State: %s\n", res->state < 3 ? states[res->state] : "?");
	if (res->state != FXT_CTL_STATE_IDLE) {
		if (res->name[0])
			printf("Name: %.*s\n", (int)sizeof(res->name) - 1,
			       res->name);
		printf("Mode: %s\nKernel: %s\nOutput: %s\nElapsed: %.1f s\n",
		       start_mode_name(res->mode), res->kernel, res->output,
		       (double)res->elapsed_ns / 1e9);
		if (res->memory_budget)
			printf("Memory budget: %llu bytes, %llu in use (buffers of %llu bytes per provider)\n",
			       (unsigned long long)res->memory_budget,
			       (unsigned long long)res->memory_used,
			       (unsigned long long)res->buffer_size);
	} else if (res->temp_name[0]) {
		printf("Last trace: %s, not yet in place: the tracectl stop of uid %u moves it there from %s\n",
		       res->output, res->owner_uid, res->temp_name);
	} else if (res->output[0]) {
		printf("Last trace: %s\n", res->output);
	}
	if (res->message[0])
		printf("Archive: %s\n", res->message);
	printf("Providers: %zu\n",
	       provider_text_count(rep->providers, rep->nproviders));
	for (i = 0; i < rep->nproviders; i++)
		print_status_provider(&rep->providers[i]);
	print_triggers(rep);
}

int cmd_status(int argc, char **argv)
{
	struct fxt_msg_header req;
	struct control_reply rep;
	int r;

	if (argc > 1 && !strcmp(argv[1], "--version"))
		tracectl_version_exit();
	if (want_help(argc, argv)) {
		printf("Usage: tracectl status\n"
		       "Shows whether a trace runs, its name, mode, kernel backend, output\n"
		       "and memory budget (bytes in use of it),\n"
		       "each connected provider with its buffer fill, and armed triggers\n"
		       "with their last snapshots (tracectl start --trigger).\n\n"
		       "Examples:\n  tracectl status\n"
		       "  FXTRACE_SOCKET=/tmp/fxt.sock tracectl status\n");
		return TRACECTL_EXIT_OK;
	}
	if (argc > 1)
		return tracectl_stray(argv[0], argv[1]);
	fxt_msg_init(&req, FXT_MSG_CTL_STATUS, sizeof(req));
	r = control_request("status", &req, sizeof(req), &rep);
	if (!r)
		print_status(&rep);
	free(rep.providers);
	free(rep.triggers);
	return r ? TRACECTL_EXIT_FAIL : TRACECTL_EXIT_OK;
}

/* Can execvp() run cmd: a path, or a name found in $PATH? */
static bool command_runnable(const char *cmd)
{
	const char *path = getenv("PATH"), *p, *end;
	char file[PATH_MAX];

	if (strchr(cmd, '/'))
		return access(cmd, X_OK) == 0;
	for (p = path && *path ? path : "/bin:/usr/bin"; *p; p = end) {
		end = strchrnul(p, ':');
		if (snprintf(file, sizeof(file), "%.*s/%s", (int)(end - p), p,
			     cmd) < (int)sizeof(file) &&
		    access(end == p ? cmd : file, X_OK) == 0)
			return true;
		if (*end)
			end++;
	}
	return false;
}

/*
 * The start wait the command's providers read (a ceiling: the first call
 * site waits until the provider joined the running trace), unless the
 * caller set one.
 */
#define RECORD_START_WAIT_MS "10000"

/*
 * Asks the manager to tell when a provider of process pid (or of one it
 * started) has joined the trace: the connection, or -1 (no answer then;
 * the command runs all the same).
 */
static int wait_joined_request(pid_t pid)
{
	struct fxt_ctl_wait_joined req;
	int fd = control_connect("record");

	if (fd < 0)
		return -1;
	fxt_msg_init(&req, FXT_MSG_CTL_WAIT_JOINED, sizeof(req));
	req.pid = (__u32)pid;
	req.timeout_ms = (__u32)atoi(RECORD_START_WAIT_MS);
	if (fxt_msg_send(fd, &req, sizeof(req), -1) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * A provider's START acknowledgment may still be on its way to the
 * manager when the command has exited: this long for the answer then.
 */
#define RECORD_JOIN_GRACE_MS 250

/*
 * Until the command exits: the manager's answer to the wait, if it comes
 * (joined: its providers, result.error 0 when one joined).
 */
static void wait_command(pid_t pid, int watch_fd,
			 struct control_reply *joined)
{
	_cleanup_close_ int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	struct pollfd fds[2] = {
		{ .fd = pidfd, .events = POLLIN },
		{ .fd = watch_fd, .events = POLLIN },
	};
	int timeout = -1, n;

	joined->result.error = -ENODATA;
	if (pidfd < 0 || watch_fd < 0)
		return;
	while (fds[1].fd >= 0) {
		n = poll(fds, 2, timeout);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		if (fds[1].revents) {
			if (control_read_reply(watch_fd, joined) < 0)
				joined->result.error = -ENODATA;
			fds[1].fd = -1;
		}
		if (fds[0].revents) {	/* exited: a last look at the answer */
			fds[0].fd = -1;
			timeout = RECORD_JOIN_GRACE_MS;
		}
	}
}

/* The command's exit status as a shell reports it. */
static int run_command(char **argv, pid_t *child,
		       struct control_reply *joined)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;
	_cleanup_close_ int watch_fd = -1;
	int status;
	pid_t pid;

	/* ^C goes to the command; we stay to stop the trace. */
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	/* Piped, our lines stay before the command's own output. */
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "tracectl record: fork: %s\n", strerror(errno));
		return 127;
	}
	if (pid == 0) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		setenv(FXT_START_WAIT_ENV, RECORD_START_WAIT_MS, 0);
		execvp(argv[0], argv);
		fprintf(stderr, "tracectl record: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	*child = pid;
	watch_fd = wait_joined_request(pid);
	wait_command(pid, watch_fd, joined);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 127;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

static bool announced(const struct control_reply *joined, uint32_t id)
{
	size_t i;

	for (i = 0; !joined->result.error && i < joined->nproviders; i++)
		if (joined->providers[i].id == id)
			return true;
	return false;
}

/*
 * Per provider of the command (announced joined by the manager, or the
 * command's own process): what the archive holds of it and what it lost.
 */
static void print_command_providers(const struct control_reply *stop,
				    pid_t child,
				    const struct control_reply *joined)
{
	char name[PROVIDER_TEXT_NAME_MAX], dropped[PROVIDER_TEXT_DROPS_MAX];
	size_t i;

	for (i = 0; i < stop->nproviders; i++) {
		const struct fxt_ctl_provider *p = &stop->providers[i];

		if (p->flags & FXT_CTL_PROVIDER_KERNEL ||
		    (p->pid != (uint32_t)child && !announced(joined, p->id)))
			continue;
		printf("The command's provider %s (pid %u): %llu records written, %s dropped\n",
		       provider_text_name(p, name), p->pid,
		       (unsigned long long)p->records,
		       provider_text_drops(p, dropped));
	}
}

int cmd_record(int argc, char **argv)
{
	struct control_reply joined = { 0 }, stopped = { 0 };
	struct start_options o = { 0 };
	pid_t child = 0;
	int status, r;

	if (start_options_parse("record", argc, argv, &o) < 0)
		return TRACECTL_EXIT_USAGE;
	if (o.help) {
		start_options_usage(stdout, "record");
		return TRACECTL_EXIT_OK;
	}
	if (optind >= argc) {
		usage_error(argv[0], "no command given: put it after --, e.g. tracectl record -- ./my-app");
		return TRACECTL_EXIT_USAGE;
	}
	if (o.req.duration_ns) {
		fprintf(stderr, "tracectl record: --duration does not apply; the trace ends with the command\n");
		return TRACECTL_EXIT_USAGE;
	}
	if (!record_categories_add_proc(o.req.categories,
					sizeof(o.req.categories))) {
		fprintf(stderr, "tracectl record: --categories: no room to add kernel:proc (which process the command started); give a shorter list\n");
		return TRACECTL_EXIT_USAGE;
	}
	if (!command_runnable(argv[optind])) {
		fprintf(stderr, "tracectl record: %s: command not found or not executable; no trace was started\n",
			argv[optind]);
		return 127;
	}
	r = do_start("record", &o);
	if (r)
		return r;
	status = run_command(argv + optind, &child, &joined);
	r = do_stop("record", &stopped, 0);
	print_command_providers(&stopped, child, &joined);
	free(joined.providers);
	free(stopped.providers);
	if (r)
		return r;
	return status;
}

static void snapshot_usage(FILE *out)
{
	fprintf(out,
		"Usage: tracectl snapshot [-o FILE]\n"
		"Writes what the running circular trace holds now (every provider's\n"
		"buffer and the kernel's per-CPU rings) to FILE, a complete archive of\n"
		"its own; the trace goes on and the providers never wait. A record\n"
		"overwritten while it is copied is left out. FILE (default\n"
		"snapshot-DATE-TIME.fxt) is written with your own rights; a file\n"
		"there is kept as FILE.old.\n\n"
		"  -o, --output FILE   where the snapshot goes\n"
		"  -h, --help          this text\n\n"
		"Examples:\n"
		"  sudo tracectl start --mode circular --kernel=bpf\n"
		"  sudo tracectl snapshot -o jank.fxt\n"
		"  tracectl dump --strict jank.fxt | tail\n");
}

static void default_snapshot_name(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	if (!localtime_r(&now, &tm) ||
	    !strftime(buf, len, "snapshot-%Y%m%d-%H%M%S.fxt", &tm))
		snprintf(buf, len, "snapshot.fxt");
}

static int do_snapshot(const char *cmd, const char *output)
{
	struct fxt_ctl_snapshot req;
	char temp[PATH_MAX];
	_cleanup_close_ int fd = -1;
	struct control_reply rep;
	int error, placed, r;

	fxt_msg_init(&req, FXT_MSG_CTL_SNAPSHOT, sizeof(req));
	r = archive_output_resolve(output, req.output, sizeof(req.output));
	if (r >= 0)
		r = fd = archive_output_create(req.output, req.temp_name,
					       sizeof(req.temp_name));
	if (r < 0) {
		fprintf(stderr, "tracectl %s: cannot create %s: %s\n", cmd,
			output, r == -EINVAL ? "not a regular file" :
			strerror(-r));
		return TRACECTL_EXIT_FAIL;
	}
	archive_output_temp_path(req.output, req.temp_name, temp, sizeof(temp));
	r = control_exchange(cmd, &req, sizeof(req), fd, &rep);
	free(rep.providers);
	if (r < 0 || control_report(cmd, &rep)) {
		archive_output_discard(temp, fd);
		return TRACECTL_EXIT_FAIL;
	}
	error = rep.result.archive_error;
	placed = archive_output_publish(cmd, &rep.result, error);
	if (error && error != -ENOENT)
		fprintf(stderr, "tracectl %s: the snapshot is incomplete: %s\n",
			cmd, strerror(-error));
	if (!placed)
		printf("Snapshot written to %s%s\n", rep.result.output,
		       error ? " (incomplete)" : "");
	return error || placed ? TRACECTL_EXIT_FAIL : TRACECTL_EXIT_OK;
}

int cmd_snapshot(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		USAGE_VERSION_LONGOPT,
		{}
	};
	char name[64];
	const char *output = NULL;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'h':
			snapshot_usage(stdout);
			return TRACECTL_EXIT_OK;
		case USAGE_OPT_VERSION:
			tracectl_version_exit();
		default:
			usage_bad_option(argv[0], argv, "o:h");
			return TRACECTL_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return tracectl_stray(argv[0], argv[optind]);
	if (!output) {
		default_snapshot_name(name, sizeof(name));
		output = name;
	}
	return do_snapshot("snapshot", output);
}
