// SPDX-License-Identifier: GPL-2.0-only
#include "log.h"
#include "log_burst.h"

static void summarize(struct log_burst *b)
{
	if (!b->count)
		return;
	log_warning("%llu more %s in the last %llu s (%llu in all)",
		    (unsigned long long)b->count, b->what,
		    (unsigned long long)(b->interval_usec / 1000000u),
		    (unsigned long long)b->total);
	b->count = 0;
}

/* The end of an interval: a summary if anything came, else the spell ends. */
static int on_interval(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct log_burst *b = userdata;

	if (!b->count)
		return sd_event_source_set_enabled(s, SD_EVENT_OFF);
	summarize(b);
	(void)sd_event_source_set_time_relative(s, b->interval_usec);
	return sd_event_source_set_enabled(s, SD_EVENT_ONESHOT);
}

bool log_burst_take(struct log_burst *b, sd_event *event)
{
	int enabled = SD_EVENT_OFF;

	b->total++;
	if (b->timer)
		(void)sd_event_source_get_enabled(b->timer, &enabled);
	if (enabled != SD_EVENT_OFF) {
		if (b->taken < b->burst) {
			b->taken++;
			return true;
		}
		b->count++;
		return false;
	}
	b->taken = 1;
	if (!b->timer &&
	    sd_event_add_time_relative(event, &b->timer, CLOCK_MONOTONIC,
				       b->interval_usec, 0, on_interval,
				       b) >= 0) {
		(void)sd_event_source_set_description(b->timer,
						      "fxt-log-burst");
		return true;
	}
	if (b->timer) {
		(void)sd_event_source_set_time_relative(b->timer,
							b->interval_usec);
		(void)sd_event_source_set_enabled(b->timer, SD_EVENT_ONESHOT);
	}
	return true;
}

void log_burst_done(struct log_burst *b)
{
	summarize(b);
	b->timer = sd_event_source_disable_unref(b->timer);
}
