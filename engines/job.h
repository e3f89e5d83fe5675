/* fio job semantics shared by the aio and uring engines: option rows, regions, offsets, latency histogram, CPU accounting, job threads. */
#ifndef IOR_ENGINES_JOB_H
#define IOR_ENGINES_JOB_H

#include <stdbool.h>
#include <stdint.h>

/* CPU time consumed so far, by this thread (thread = true) or the whole process. */
struct ior_cpu {
	double usr_s, sys_s;
};
void ior_cpu_now(struct ior_cpu *out, bool thread);

#endif
