/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Stop requests: signal handlers raise the flag, long loops (engines, the run loop) poll it and unwind cleanly. */
#ifndef IOR_COMMON_STOP_H
#define IOR_COMMON_STOP_H

#include <stdbool.h>

/* Installs handlers for SIGINT, SIGTERM and SIGHUP that only record the signal. */
int ior_stop_install_handlers(void);

void ior_stop_request(int signo);
bool ior_stop_requested(void);
/* The signal that asked for the stop, 0 when none. */
int ior_stop_signal(void);
void ior_stop_reset(void);

#endif
