/* Every subcommand's entry point; the table that maps verbs to them is in main.c. */
#ifndef IOR_HARNESS_COMMANDS_H
#define IOR_HARNESS_COMMANDS_H

#include "harness/command.h"

int cmd_run(int argc, char **argv, struct ior_cmd_ctx *ctx);
int cmd_probe(int argc, char **argv, struct ior_cmd_ctx *ctx);
int cmd_report(int argc, char **argv, struct ior_cmd_ctx *ctx);
int cmd_import(int argc, char **argv, struct ior_cmd_ctx *ctx);
int cmd_check(int argc, char **argv, struct ior_cmd_ctx *ctx);
int cmd_schedulers(int argc, char **argv, struct ior_cmd_ctx *ctx);
int cmd_recover(int argc, char **argv, struct ior_cmd_ctx *ctx);

#endif
