/* SPDX-License-Identifier: GPL-2.0-or-later */
int blk_mq(void) { return 0; }
