/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a stored name and a sample value may be: the one check import and merge both apply. */
#ifndef IOR_DB_ACCEPT_H
#define IOR_DB_ACCEPT_H

#include <stdbool.h>
#include <stddef.h>

/* Whether text may be stored as a name (a host, kernel, device, scheduler, engine, unit): names
 * reach terminals and reports, where a control character (C0, DEL, C1 such as U+009B, the
 * terminal's CSI) acts and a bidirectional control (U+202E, U+2066..U+2069, U+200E/F, U+061C) or
 * a line or paragraph separator (U+2028, U+2029) reorders or breaks the line. False with why set
 * to "control character 0x1b at character 3" or "U+202E (a bidirectional control) at character 5". */
bool ior_db_name_ok(const char *text, char *why, size_t len);

/* NULL when v may be stored as a sample's value, else what is wrong ("is out of range" for an
 * infinity or NaN, "is negative"). */
const char *ior_db_value_problem(double v);

#endif
