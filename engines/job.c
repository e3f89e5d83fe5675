/* fio job semantics shared by the aio and uring engines (see job.h). */
#include "engines/job.h"

#include <sys/resource.h>

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

void ior_cpu_now(struct ior_cpu *out, bool thread)
{
	struct rusage ru;
	if (getrusage(thread ? RUSAGE_THREAD : RUSAGE_SELF, &ru) < 0) {
		out->usr_s = out->sys_s = 0;
		return;
	}
	out->usr_s = tv_s(ru.ru_utime);
	out->sys_s = tv_s(ru.ru_stime);
}
