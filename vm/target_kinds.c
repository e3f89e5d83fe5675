/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --target's value read into a kind and an address, the kinds' table, and their shared defaults. */
#include "vm/target.h"

#include "common/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FORMS "qemu, local or ssh://[user@]host[:port]"

static const char *const boot_names[] = { [IOR_VM_TARGET_KEXEC] = "kexec", [IOR_VM_TARGET_BOOTLOADER] = "bootloader" };
static const char *const shutdown_names[] = { [IOR_VM_TARGET_SHUTDOWN_CLEAN] = "clean",
					      [IOR_VM_TARGET_SHUTDOWN_FORCE] = "force" };

/* The index of name in names, 0 (the default) when it is none of them. */
static unsigned name_index(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; name && i < n; i++)
		if (!strcmp(names[i], name))
			return (unsigned)i;
	return 0;
}

const char *ior_vm_target_boot_name(enum ior_vm_target_boot b)
{
	return boot_names[b];
}

enum ior_vm_target_boot ior_vm_target_boot_from(const char *name)
{
	return (enum ior_vm_target_boot)name_index(boot_names, sizeof(boot_names) / sizeof(boot_names[0]), name);
}

const char *ior_vm_target_shutdown_name(enum ior_vm_target_shutdown s)
{
	return shutdown_names[s];
}

enum ior_vm_target_shutdown ior_vm_target_shutdown_from(const char *name)
{
	return (enum ior_vm_target_shutdown)name_index(shutdown_names, sizeof(shutdown_names) / sizeof(shutdown_names[0]),
						       name);
}

/* A user or host name goes to ssh as an argument: no leading '-' (an option), nothing a remote or
 * local shell or ssh's own syntax would read (blanks, quotes, '@', '/', '%'). */
static bool name_char(char c, bool host)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' ||
	       c == '_' || (host && c == ':');
}

static int check_name(const char *text, const char *s, size_t len, bool host, const char *what)
{
	if (!len)
		return ior_error_set(IOR_EINVALID, "--target '%s': the %s is empty (the forms: " FORMS ")", text, what);
	if (s[0] == '-')
		return ior_error_set(IOR_EINVALID, "--target '%s': a %s cannot start with '-'", text, what);
	for (size_t i = 0; i < len; i++)
		if (!name_char(s[i], host))
			return ior_error_set(IOR_EINVALID, "--target '%s': '%c' cannot be part of a %s", text, s[i], what);
	return IOR_OK;
}

static int parse_port(const char *text, const char *p, unsigned *port)
{
	char *end;
	unsigned long v = strtoul(p, &end, 10);
	if (!*p || *end || p[0] == '+' || p[0] == '-' || v < 1 || v > 65535)
		return ior_error_set(IOR_EINVALID, "--target '%s': the port '%s' is not a number from 1 to 65535", text, p);
	*port = (unsigned)v;
	return IOR_OK;
}

/* [user@]host[:port] or [user@][v6]:port */
static int parse_ssh(struct ior_vm_target_url *u, const char *text, const char *rest)
{
	const char *at = strchr(rest, '@'), *host = at ? at + 1 : rest;
	int rc = IOR_OK;
	if (at) {
		if ((size_t)(at - rest) >= sizeof(u->user))
			return ior_error_set(IOR_EINVALID, "--target '%s': the user name is too long", text);
		if ((rc = check_name(text, rest, (size_t)(at - rest), false, "user name")))
			return rc;
		snprintf(u->user, sizeof(u->user), "%.*s", (int)(at - rest), rest);
	}
	const char *port = NULL;
	size_t hlen;
	if (host[0] == '[') {
		const char *close = strchr(host, ']');
		if (!close)
			return ior_error_set(IOR_EINVALID, "--target '%s': '[' without ']' around an IPv6 address", text);
		host++;
		hlen = (size_t)(close - host);
		if (close[1] == ':')
			port = close + 2;
		else if (close[1])
			return ior_error_set(IOR_EINVALID, "--target '%s': '%s' after the address (only :PORT may follow)", text,
					     close + 1);
		if ((rc = check_name(text, host, hlen, true, "host")))
			return rc;
	} else {
		const char *colon = strchr(host, ':');
		hlen = colon ? (size_t)(colon - host) : strlen(host);
		port = colon ? colon + 1 : NULL;
		if (memchr(host, '/', hlen) || (port && strchr(port, '/')))
			return ior_error_set(IOR_EINVALID, "--target '%s': a target takes no path (the forms: " FORMS ")", text);
		if ((rc = check_name(text, host, hlen, false, "host")))
			return rc;
	}
	if (hlen >= sizeof(u->host))
		return ior_error_set(IOR_EINVALID, "--target '%s': the host name is too long", text);
	snprintf(u->host, sizeof(u->host), "%.*s", (int)hlen, host);
	if (port && (rc = parse_port(text, port, &u->port)))
		return rc;
	snprintf(u->name, sizeof(u->name), "%s", text);
	return IOR_OK;
}

int ior_vm_target_parse(struct ior_vm_target_url *u, const char *text)
{
	memset(u, 0, sizeof(*u));
	if (!strcmp(text, "qemu"))
		return IOR_OK;
	if (!strcmp(text, "local")) {
		u->kind = IOR_VM_TARGET_LOCAL;
		snprintf(u->name, sizeof(u->name), "local");
		return IOR_OK;
	}
	if (strlen(text) >= sizeof(u->name))
		return ior_error_set(IOR_EINVALID, "--target '%.40s...': too long", text);
	if (!strncmp(text, "ssh://", 6)) {
		u->kind = IOR_VM_TARGET_SSH;
		return parse_ssh(u, text, text + 6);
	}
	if (strstr(text, "://"))
		return ior_error_set(IOR_EINVALID, "--target '%s': '%.*s' is no kind of target (the forms: " FORMS ")", text,
				     (int)(strstr(text, "://") - text), text);
	return ior_error_set(IOR_EINVALID, "--target '%s': not a target (the forms: " FORMS "%s)", text,
			     strchr(text, '.') || strchr(text, '@') ? "; a host is written ssh://HOST" : "");
}

void ior_vm_target_opts_default(struct ior_vm_target_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->boot = IOR_VM_TARGET_KEXEC;
	/* a server's firmware alone may take minutes on a reboot; a kexec skips it (63 s under TCG, FACTS.md) */
	o->boot_timeout_s = 600;
	o->run_timeout_s = 6 * 3600;
	o->connect_timeout_s = 15;
	o->retries = 2;
	o->remote_ioregress = "ioregress";
}

const struct ior_vm_target_ops *ior_vm_target_ops_of(enum ior_vm_target_kind kind)
{
	switch (kind) {
	case IOR_VM_TARGET_SSH:
		return &ior_vm_target_ssh;
	case IOR_VM_TARGET_LOCAL:
		return &ior_vm_target_local;
	case IOR_VM_TARGET_QEMU:
		break;
	}
	return &ior_vm_target_qemu;
}
