/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The axes of a cell key a comparison can run along (compare --by, a matrix's compare key): their names and lookup. */
#ifndef IOR_COMMON_AXIS_H
#define IOR_COMMON_AXIS_H

/* A cell key is (host, kernel, engine with its parameters, device, scheduler): comparing along
 * one axis pairs the cells that agree on all the others. */
enum ior_axis {
	IOR_AXIS_KERNEL,     /* check's case: the same cell on two kernels */
	IOR_AXIS_SCHEDULER,
	IOR_AXIS_DEVICE,
	IOR_AXIS_ENGINE,     /* the engines' parameters may differ: they are what differs */
	IOR_AXIS_HOST,
	IOR_AXIS_COUNT,
};

const char *ior_axis_name(enum ior_axis a);
/* The axis named name; IOR_EINVALID naming the axes (and the nearest one) otherwise. */
int ior_axis_find(enum ior_axis *out, const char *name);
/* Of a cell key's fields, the one axis names: every key (a stored cell, a table cell, a filter) asks
 * this one switch. */
const char *ior_axis_pick(enum ior_axis a, const char *host, const char *kernel, const char *engine,
			  const char *device, const char *scheduler);

#endif
