/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Log lines any local user can cause at will (a connection that does not
 * speak the protocol, a refused controller): the first of a spell (or
 * the first burst) is logged, the others counted and summed up in one
 * line per interval; the spell ends with an interval without any.
 */
#ifndef FXT_LOG_BURST_H
#define FXT_LOG_BURST_H

#include <stdbool.h>
#include <stdint.h>

#include <systemd/sd-event.h>

struct log_burst {
	const char *what;	/* "connections that do not speak the protocol" */
	uint64_t interval_usec;
	unsigned int burst;	/* lines a spell logs before counting; 0: 1 */
	unsigned int taken;	/* lines of this spell logged */
	uint64_t count;		/* not logged yet */
	uint64_t total;
	sd_event_source *timer;
};

/*
 * true: log this one (one of the first of a spell); false: it is counted
 * and will be in the summary line.
 */
bool log_burst_take(struct log_burst *b, sd_event *event);
/* Logs what is counted and frees the timer. */
void log_burst_done(struct log_burst *b);

#endif /* FXT_LOG_BURST_H */
