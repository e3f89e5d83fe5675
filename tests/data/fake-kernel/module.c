/* SPDX-License-Identifier: GPL-2.0-or-later */
/* a stand-in module: its text is the module built */
int fake;
