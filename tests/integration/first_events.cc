// SPDX-License-Identifier: GPL-2.0-only
/*
 * first-events [THREADS [EVENTS]]: THREADS threads (default 2), released
 * together, each writing EVENTS instants (default 13) from its first
 * instruction on: no call site runs before them, so the threads race to
 * start the library's connection. Prints how many it wrote, for a test
 * that counts them in the archive.
 */
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include <fxt/provider.h>

static std::atomic<bool> go;

static void worker(int n, int events)
{
	while (!go.load(std::memory_order_acquire))
		;
	for (int i = 0; i < events; i++)
		TRACE_INSTANT("first", "first-event", TRACE_SCOPE_THREAD,
			      TRACE_ARG_I32("worker", n),
			      TRACE_ARG_I32("i", i));
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? std::atoi(argv[1]) : 2;
	int events = argc > 2 ? std::atoi(argv[2]) : 13;
	std::vector<std::thread> workers;

	if (threads < 1 || events < 0) {
		std::fprintf(stderr, "usage: first-events [THREADS [EVENTS]]\n");
		return 2;
	}
	for (int t = 0; t < threads; t++)
		workers.emplace_back(worker, t, events);
	go.store(true, std::memory_order_release);
	for (auto &w : workers)
		w.join();
	std::printf("first-events: %d events\n", threads * events);
	return 0;
}
