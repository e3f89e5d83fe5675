int blk_mq(void) { return 0; }
