// SPDX-License-Identifier: GPL-2.0-only
/* fxtraced: the fxtrace manager. Runs in the foreground. */
#include <errno.h>
#include <getopt.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <systemd/sd-daemon.h>

#include "fxtrace_config.h"
#include "log.h"
#include "manager.h"
#include "parse.h"
#include "provider_buffer.h"
#include "usage_error.h"

struct options {
	const char *socket_path;
	const char *state_dir;
	uid_t allow_uid[MANAGER_ALLOW_UID_MAX];
	unsigned int n_allow_uid;
	uint64_t buffer_size;
	uint64_t user_buffer_budget;
	bool user_buffer_budget_set;
	uint64_t stop_timeout_ns;
	uint64_t idle_exit_ns;
	bool idle_exit_set;
	uint64_t mem_interval_ns;
	bool mem_interval_set;
	bool verbose;
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: fxtraced [OPTIONS]\n"
		"The fxtrace manager: hands trace buffers to providers and writes\n"
		"trace archives for tracectl. Runs in the foreground.\n\n"
		"  --socket PATH       listen on PATH (default $%s, else %s,\n"
		"                      or the socket passed by systemd)\n"
		"  --allow-uid UID     also let UID (number or name) control traces;\n"
		"                      by default only root and group '%s' may\n"
		"  --state-dir DIR     keep the running trace's state in DIR, so that\n"
		"                      fxtraced started again after a crash resumes\n"
		"                      it (default $RUNTIME_DIRECTORY, else the\n"
		"                      socket's directory); only a directory of\n"
		"                      fxtraced's uid that no one else can write\n"
		"                      (not /tmp, nor through another user's\n"
		"                      symbolic link), else none\n"
		"  --buffer-size SIZE  default buffer per provider (default 1M)\n"
		"  --user-buffer-budget SIZE\n"
		"                      buffer memory the providers of one user (not\n"
		"                      root) may hold in a trace; those past it get\n"
		"                      no buffer (default 64M; 0: no limit)\n"
		"  --stop-timeout TIME how long a stop waits for providers to\n"
		"                      acknowledge (default 1s, at most 1h)\n"
		"  --idle-exit TIME    socket-activated: exit after TIME without\n"
		"                      trace or connection (default 30s; 0: never)\n"
		"  --mem-interval TIME with kernel:mem, sample /proc/meminfo and\n"
		"                      /proc/vmstat this often (default 100ms;\n"
		"                      0: never)\n"
		"  -v, --verbose       log debug messages\n"
		"  -h, --help\n"
		"      --version\n\n"
		"Examples:\n"
		"  sudo systemctl start fxtraced\n"
		"  sudo fxtraced\n"
		"  fxtraced --socket /tmp/fxt.sock --allow-uid $(id -u) &\n"
		"  FXTRACE_SOCKET=/tmp/fxt.sock tracectl status\n",
		FXT_SOCKET_ENV, FXT_MANAGER_SOCKET, FXT_CTL_GROUP);
}

static int parse_uid(const char *s, uid_t *uid)
{
	struct passwd *pw;
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (*s && !*end && !errno && v < (uid_t)-1) {
		*uid = (uid_t)v;
		return 0;
	}
	pw = getpwnam(s);
	if (!pw)
		return -ENOENT;
	*uid = pw->pw_uid;
	return 0;
}

/*
 * An option with bounds, a size or a time, and where it goes; given is
 * set when it is, for an option whose 0 means something (NULL: its
 * value says it, never 0).
 */
struct bounded_option {
	int key;
	int (*parse)(const char *s, uint64_t *out);
	uint64_t min, max;
	bool zero_ok;		/* 0 passes too: none, never */
	uint64_t *value;
	bool *given;
	const char *hint;	/* what to give instead */
};

/* arg of option name (key c), within its bounds. */
static int parse_limit(int c, const char *name, const char *arg,
		       struct options *o)
{
	const struct bounded_option options[] = {
		{ 'b', parse_size, PROVIDER_BUFFER_MIN_SIZE,
		  PROVIDER_BUFFER_MAX_SIZE, false, &o->buffer_size, NULL,
		  "give 4K..1G, e.g. 4M" },
		{ 'B', parse_size, 0, UINT64_MAX, true,
		  &o->user_buffer_budget, &o->user_buffer_budget_set,
		  "give a size, e.g. 64M, or 0 for no limit" },
		/* Kept in microseconds: up to the last one of the maximum. */
		{ 't', parse_duration_ns, 1000,
		  MANAGER_STOP_TIMEOUT_MAX_USEC * 1000 + 999, false,
		  &o->stop_timeout_ns, NULL, "give 1ms..1h, e.g. 5s" },
		{ 'i', parse_duration_ns, 1000000, UINT64_MAX, true,
		  &o->idle_exit_ns, &o->idle_exit_set,
		  "give 0 (never) or at least 1ms, e.g. 30s" },
		{ 'M', parse_duration_ns, 10000000ull, 3600000000000ull, true,
		  &o->mem_interval_ns, &o->mem_interval_set,
		  "give 0 (never) or 10ms..1h, e.g. 100ms" },
	};
	const struct bounded_option *b = options;
	uint64_t v;

	while (b->key != c)
		b++;
	if (b->parse(arg, b->value) < 0)
		goto bad;
	v = *b->value;
	if (!(b->zero_ok && !v) && (v < b->min || v > b->max))
		goto bad;
	if (b->given)
		*b->given = true;
	return 0;
bad:
	fprintf(stderr, "fxtraced: --%s %s: %s\n", name, arg, b->hint);
	return -EINVAL;
}

static int parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "allow-uid", required_argument, NULL, 'u' },
		{ "state-dir", required_argument, NULL, 'S' },
		{ "buffer-size", required_argument, NULL, 'b' },
		{ "user-buffer-budget", required_argument, NULL, 'B' },
		{ "stop-timeout", required_argument, NULL, 't' },
		{ "idle-exit", required_argument, NULL, 'i' },
		{ "mem-interval", required_argument, NULL, 'M' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{}
	};
	int c, index;

	opterr = 0;	/* said in one line below */
	while ((c = getopt_long(argc, argv, "vh", longopts, &index)) != -1) {
		switch (c) {
		case 's':
			o->socket_path = optarg;
			break;
		case 'S':
			if (optarg[0] != '/') {
				fprintf(stderr, "fxtraced: --state-dir %s: give an absolute path\n",
					optarg);
				return -EINVAL;
			}
			o->state_dir = optarg;
			break;
		case 'u':
			if (o->n_allow_uid == MANAGER_ALLOW_UID_MAX ||
			    parse_uid(optarg, &o->allow_uid[o->n_allow_uid++]) < 0) {
				fprintf(stderr, "fxtraced: --allow-uid %s: no such user (or too many)\n",
					optarg);
				return -EINVAL;
			}
			break;
		case 'b':
		case 'B':
		case 't':
		case 'i':
		case 'M':
			if (parse_limit(c, longopts[index].name, optarg, o) < 0)
				return -EINVAL;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			usage(stdout);
			exit(EXIT_SUCCESS);
		case 'V':
			printf("fxtraced %s\n", FXTRACE_VERSION);
			exit(EXIT_SUCCESS);
		default:
			usage_bad_option("fxtraced", argv, "vh");
			return -EINVAL;
		}
	}
	if (optind < argc) {
		usage_error("fxtraced", "unexpected argument '%s'", argv[optind]);
		return -EINVAL;
	}
	return 0;
}

/*
 * Every connection costs a descriptor and we use no select(): take the
 * hard limit, as systemd advises (its default soft limit is 1024).
 */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	struct manager *m = NULL;
	int r;

	if (parse_args(argc, argv, &o) < 0)
		return 2;
	log_level_set(o.verbose ? LOG_DEBUG : LOG_INFO);
	/* Past RLIMIT_FSIZE a write fails with EFBIG, handled like ENOSPC. */
	signal(SIGXFSZ, SIG_IGN);
	raise_fd_limit();
	r = manager_new(&m);
	if (r < 0) {
		log_error_errno(r, "Failed to allocate the manager");
		return EXIT_FAILURE;
	}
	memcpy(m->allow_uid, o.allow_uid, sizeof(o.allow_uid));
	m->n_allow_uid = o.n_allow_uid;
	if (o.buffer_size)
		m->default_buffer_size = (o.buffer_size + 7) & ~7ull;
	if (o.user_buffer_budget_set)
		m->user_buffer_budget = o.user_buffer_budget;
	if (o.stop_timeout_ns)
		m->stop_timeout_usec = o.stop_timeout_ns / 1000;
	if (o.idle_exit_set)
		m->idle_exit_usec = o.idle_exit_ns / 1000;
	if (o.mem_interval_set)
		m->mem_interval_ns = o.mem_interval_ns;
	r = manager_start(m, o.socket_path, o.state_dir);
	if (r >= 0)
		r = manager_run(m);
	(void)sd_notify(0, "STOPPING=1");
	manager_free(m);
	return r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
