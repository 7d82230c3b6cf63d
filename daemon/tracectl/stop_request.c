// SPDX-License-Identifier: GPL-2.0-only
/* Stopping the trace: see stop_request.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fxt/fxt_msg.h>
#include <fxt/provider.h> /* FXT_START_WAIT_ENV */

#include "archive_output.h"
#include "provider_text.h"
#include "stop_request.h"
#include "tracectl.h"

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

/* The stack samples' losses that are not zero, on one line. */
static void print_losses(const struct control_reply *rep)
{
	char name[PROVIDER_TEXT_NAME_MAX];
	size_t i, said = 0;

	for (i = 0; i < rep->nproviders; i++) {
		const struct fxt_ctl_provider *p = &rep->providers[i];

		if (!(p->flags & FXT_CTL_PROVIDER_LOSS) || !p->records)
			continue;
		printf("%s%s %llu", said++ ? ", " : "Stack losses: ",
		       provider_text_name(p, name),
		       (unsigned long long)p->records);
	}
	if (said)
		printf(" (see tracectl summary)\n");
}

static void print_results(const struct control_reply *rep)
{
	char name[PROVIDER_TEXT_NAME_MAX], dropped[PROVIDER_TEXT_DROPS_MAX];
	uint64_t drops = 0, kernel_drops = 0, missed_drops = 0;
	unsigned int implausible = 0, missed = 0;
	size_t i;

	printf("%-24s %8s %10s %10s %8s %8s\n", "PROVIDER", "PID", "RECORDS",
	       "BYTES", "DROPS", "SKIPPED");
	for (i = 0; i < rep->nproviders; i++) {
		const struct fxt_ctl_provider *p = &rep->providers[i];

		if (p->flags & FXT_CTL_PROVIDER_LOSS)
			continue; /* print_losses() */
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
		       (unsigned long long)p->skipped, provider_text_note(p));
		if (p->flags & FXT_CTL_PROVIDER_KERNEL)
			kernel_drops = provider_add_drops(kernel_drops, p);
		else if (p->flags & FXT_CTL_PROVIDER_MISSED_START)
			missed_drops = provider_add_drops(missed_drops, p);
		else
			drops = provider_add_drops(drops, p);
		implausible += provider_drops_implausible(p);
		missed += !!(p->flags & FXT_CTL_PROVIDER_MISSED_START);
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
	if (missed)
		printf("Warning: %llu records of %u provider(s) that started during the trace were dropped (DROPS), among them events before they joined it: start them with %s=1000 (they wait up to 1 s to join) or under tracectl record; for the rest, %s\n",
		       (unsigned long long)missed_drops, missed,
		       FXT_START_WAIT_ENV,
		       drop_advice(rep->result.mode, "--buffer-size"));
	if (implausible)
		printf("Warning: %u provider(s) claimed more dropped records than they could have dropped (DROPS %s): their counts are left out, fxtraced's log names them\n",
		       implausible, PROVIDER_TEXT_IMPLAUSIBLE);
	print_losses(rep);
}

/*
 * The table says what the archive holds; then the archive is put in place
 * (its hidden name in the result) and the outcome said. 1 when the
 * archive is incomplete or not at the output.
 */
int stop_request(const char *cmd, struct control_reply *keep,
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
