/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The running kernel's record (uname, hostname, cmdline, commit) and its config: where it is, its
 * hash, its I/O-scheduler options. */
#include "kernel/info.h"

#include "common/error.h"
#include "kernel/version.h"

#include <errno.h>
#include <openssl/evp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

#define IOR_CONFIG_MAX (16u << 20) /* real configs are 100-300 KiB; this bounds a bad file */

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
}

static int read_cmdline(char *out, size_t len)
{
	FILE *f = fopen("/proc/cmdline", "re");
	if (!f)
		return ior_error_errno(IOR_ERROR, errno, "cannot open '/proc/cmdline'");
	size_t n = fread(out, 1, len - 1, f);
	fclose(f);
	out[n] = '\0';
	while (n && (out[n - 1] == '\n' || out[n - 1] == ' '))
		out[--n] = '\0';
	return IOR_OK;
}

int ior_kernel_config_find(char *path, size_t len, const char *release, const char *boot_dir)
{
	struct utsname u;
	path[0] = '\0';
	/* /proc/config.gz describes the running kernel only */
	if (uname(&u) == 0 && strcmp(u.release, release) == 0 && access("/proc/config.gz", R_OK) == 0) {
		copy(path, len, "/proc/config.gz");
		return IOR_OK;
	}
	char candidate[4096];
	snprintf(candidate, sizeof(candidate), "%s/config-%s", boot_dir ? boot_dir : "/boot", release);
	if (access(candidate, R_OK) == 0)
		copy(path, len, candidate);
	return IOR_OK;
}

/* gzread reads plain files as they are too, so one path serves both forms. */
int ior_kernel_config_load(char **text, size_t *len, const char *path)
{
	*text = NULL;
	*len = 0;
	gzFile gz = gzopen(path, "rb");
	if (!gz)
		return ior_error_errno(IOR_ERROR, errno, "cannot open kernel config '%s'", path);
	size_t cap = 256 * 1024, n = 0;
	char *buf = malloc(cap + 1);
	int r = 0;
	while (buf && (r = gzread(gz, buf + n, (unsigned)(cap - n))) > 0) {
		n += (size_t)r;
		if (n == cap && cap < IOR_CONFIG_MAX) {
			char *bigger = realloc(buf, cap * 2 + 1);
			if (!bigger) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = bigger;
			cap *= 2;
		} else if (n == cap) {
			r = -1;
			break;
		}
	}
	/* a truncated or corrupt stream can end with r == 0: only gzerror tells */
	int errnum = Z_OK;
	const char *zmsg = gzerror(gz, &errnum);
	if (errnum != Z_OK && errnum != Z_STREAM_END && r >= 0)
		r = -1;
	int status = IOR_OK;
	if (!buf)
		status = ior_error_set(IOR_ERROR, "cannot read kernel config '%s': out of memory", path);
	else if (r < 0)
		status = ior_error_set(IOR_ERROR, "cannot read kernel config '%s': %s", path,
				       n >= IOR_CONFIG_MAX ? "larger than 16 MiB" : zmsg);
	gzclose(gz);
	if (status) {
		free(buf);
		return status;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return IOR_OK;
}

int ior_kernel_config_sha256(char hex[65], const void *data, size_t len)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned mdlen = 0;
	hex[0] = '\0';
	if (!EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL) || mdlen != 32)
		return ior_error_set(IOR_ERROR, "cannot compute sha256 of kernel config");
	for (unsigned i = 0; i < mdlen; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
	return IOR_OK;
}

static bool is_iosched_option(const char *name, size_t n)
{
	char opt[128];
	if (n >= sizeof(opt))
		return false;
	memcpy(opt, name, n);
	opt[n] = '\0';
	return strstr(opt, "IOSCHED") || strncmp(opt, "CONFIG_BFQ_", 11) == 0;
}

/* Splits one config line into option name and value ("n" for "# CONFIG_X is not set"). */
static bool parse_line(const char *line, size_t linelen, const char **name, size_t *namelen,
		       const char **value, size_t *valuelen)
{
	static const char unset[] = " is not set";
	if (strncmp(line, "CONFIG_", 7) == 0) {
		const char *eq = memchr(line, '=', linelen);
		if (!eq)
			return false;
		*name = line;
		*namelen = (size_t)(eq - line);
		*value = eq + 1;
		*valuelen = linelen - *namelen - 1;
		return true;
	}
	if (strncmp(line, "# CONFIG_", 9) == 0 && linelen > 2 + sizeof(unset) - 1 &&
	    memcmp(line + linelen - (sizeof(unset) - 1), unset, sizeof(unset) - 1) == 0) {
		*name = line + 2;
		*namelen = linelen - 2 - (sizeof(unset) - 1);
		*value = "n";
		*valuelen = 1;
		return true;
	}
	return false;
}

void ior_kernel_config_iosched(char *out, size_t len, const char *text)
{
	size_t used = 0;
	out[0] = '\0';
	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');
		size_t linelen = nl ? (size_t)(nl - line) : strlen(line);
		const char *name, *value;
		size_t namelen, valuelen;
		if (parse_line(line, linelen, &name, &namelen, &value, &valuelen) &&
		    is_iosched_option(name, namelen)) {
			size_t need = (used ? 1 : 0) + namelen + 1 + valuelen;
			if (used + need >= len)
				break;
			used += (size_t)snprintf(out + used, len - used, "%s%.*s=%.*s", used ? " " : "",
						 (int)namelen, name, (int)valuelen, value);
		}
		line = nl ? nl + 1 : NULL;
	}
}

/* The value of option in a config (its span), false when it is absent. */
static bool find_option(const char *text, const char *option, const char **value, size_t *valuelen)
{
	size_t optlen = strlen(option);
	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');
		size_t linelen = nl ? (size_t)(nl - line) : strlen(line);
		const char *name;
		size_t namelen;
		if (parse_line(line, linelen, &name, &namelen, value, valuelen) && namelen == optlen &&
		    memcmp(name, option, optlen) == 0)
			return true;
		line = nl ? nl + 1 : NULL;
	}
	return false;
}

char ior_kernel_config_value(const char *text, const char *option)
{
	const char *value;
	size_t valuelen;
	if (!find_option(text, option, &value, &valuelen))
		return 'n';
	return valuelen ? (value[0] == '"' && valuelen > 1 ? value[1] : value[0]) : 'n';
}

void ior_kernel_config_string(char *out, size_t len, const char *text, const char *option)
{
	const char *value;
	size_t valuelen, n = 0;
	out[0] = '\0';
	if (!find_option(text, option, &value, &valuelen) || valuelen < 2 || value[0] != '"')
		return;
	/* Kconfig writes a string quoted, with '"' and '\\' escaped by a backslash */
	for (size_t i = 1; i + 1 < valuelen && n + 1 < len; i++)
		out[n++] = value[i] == '\\' && i + 2 < valuelen ? value[++i] : value[i];
	out[n] = '\0';
}

static int read_config(struct ior_kernel_info *out)
{
	ior_kernel_config_find(out->config_path, sizeof(out->config_path), out->release, NULL);
	if (!out->config_path[0])
		return IOR_OK;
	char *text;
	size_t len;
	int rc = ior_kernel_config_load(&text, &len, out->config_path);
	if (rc)
		return rc;
	rc = ior_kernel_config_sha256(out->config_hash, text, len);
	ior_kernel_config_iosched(out->iosched_config, sizeof(out->iosched_config), text);
	ior_kernel_config_string(out->compiler, sizeof(out->compiler), text, "CONFIG_CC_VERSION_TEXT");
	free(text);
	return rc;
}

int ior_kernel_info_read(struct ior_kernel_info *out)
{
	memset(out, 0, sizeof(*out));
	struct utsname u;
	if (uname(&u) != 0)
		return ior_error_errno(IOR_ERROR, errno, "cannot read kernel identity (uname)");
	copy(out->release, sizeof(out->release), u.release);
	copy(out->version, sizeof(out->version), u.version);
	copy(out->machine, sizeof(out->machine), u.machine);
	if (gethostname(out->hostname, sizeof(out->hostname) - 1) != 0)
		copy(out->hostname, sizeof(out->hostname), u.nodename);
	int rc = read_cmdline(out->cmdline, sizeof(out->cmdline));
	if (rc)
		return rc;
	struct ior_kver v;
	if (ior_kver_parse(out->release, &v) == IOR_OK)
		copy(out->commit, sizeof(out->commit), v.commit);
	return read_config(out);
}

void ior_kernel_boot_id(char *out, size_t len)
{
	out[0] = '\0';
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
	if (!f)
		return;
	if (fgets(out, (int)len, f))
		out[strcspn(out, "\n")] = '\0';
	fclose(f);
}

bool ior_kernel_process_alive(int pid, const char *boot_id)
{
	char now[64];
	ior_kernel_boot_id(now, sizeof(now));
	if (!boot_id || strcmp(boot_id, now) != 0 || pid <= 0)
		return false;
	return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}
