/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Stop-request flag set from signal handlers; see common/stop.h. */
#include "common/stop.h"
#include "common/error.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

static volatile sig_atomic_t stop_signal;

static void on_signal(int signo)
{
	stop_signal = signo;
}

int ior_stop_install_handlers(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a blocking read or sleep returns EINTR so the loop sees the flag. */
	const int signals[] = { SIGINT, SIGTERM, SIGHUP };
	for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
		if (sigaction(signals[i], &sa, NULL) != 0)
			return ior_error_errno(IOR_ERROR, errno, "cannot install signal handler");
	return IOR_OK;
}

void ior_stop_request(int signo)
{
	stop_signal = signo ? signo : SIGTERM;
}

bool ior_stop_requested(void)
{
	return stop_signal != 0;
}

int ior_stop_signal(void)
{
	return stop_signal;
}

void ior_stop_reset(void)
{
	stop_signal = 0;
}
