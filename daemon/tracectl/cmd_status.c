// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracectl status: the trace's state, its providers with their buffer
 * fill, its triggers and their last snapshots, as fxtraced tells them.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <fxt/fxt_msg.h>

#include "control_client.h"
#include "provider_text.h"
#include "start_options.h"
#include "tracectl.h"

static void human_size(uint64_t bytes, char *buf, size_t len)
{
	if (bytes >= 10ull << 20)
		snprintf(buf, len, "%lluM", (unsigned long long)(bytes >> 20));
	else if (bytes >= 10ull << 10)
		snprintf(buf, len, "%lluK", (unsigned long long)(bytes >> 10));
	else
		snprintf(buf, len, "%llu", (unsigned long long)bytes);
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
		       dropped, provider_text_note(p));
	else if (p->flags & FXT_CTL_PROVIDER_OVER_BUDGET)
		printf(" not tracing: its user's buffers reached their budget (fxtraced --user-buffer-budget)\n");
	else if (p->flags & FXT_CTL_PROVIDER_OVER_MEMORY_BUDGET)
		printf(" not tracing: the trace's buffers reached its memory budget (tracectl start --memory-budget)\n");
	else
		printf(" not tracing\n");
}

/* The kernel's stack losses, one reason a line (they are not providers). */
static void print_losses(const struct control_reply *rep)
{
	char name[PROVIDER_TEXT_NAME_MAX];
	bool first = true;
	size_t i;

	for (i = 0; i < rep->nproviders; i++) {
		const struct fxt_ctl_provider *p = &rep->providers[i];

		if (!(p->flags & FXT_CTL_PROVIDER_LOSS))
			continue;
		if (first)
			printf("Stack losses:\n");
		first = false;
		printf("  %-24s %llu\n", provider_text_name(p, name),
		       (unsigned long long)p->records);
	}
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
		if (!(rep->providers[i].flags & FXT_CTL_PROVIDER_LOSS))
			print_status_provider(&rep->providers[i]);
	print_losses(rep);
	print_triggers(rep);
}

int cmd_status(int argc, char **argv)
{
	struct fxt_msg_header req;
	struct control_reply rep;
	int r;

	if (tracectl_help_or_version(argc, argv)) {
		printf("Usage: tracectl status\n"
		       "Shows whether a trace runs, its name, mode, kernel backend, output\n"
		       "and memory budget (bytes in use of it),\n"
		       "each connected provider with its buffer fill, with stack samples\n"
		       "what they lost so far by reason (\"Stack losses\"), and armed\n"
		       "triggers with their last snapshots (tracectl start --trigger).\n\n"
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
