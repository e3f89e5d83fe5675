/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A repository URL in its https form and the name kernel CI knows its tree by. */
#include "kernel/tree_name.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* The trees dashboards know by another name than their repository's: the end of the path (without
 * ".git") and the name. */
static const struct {
	const char *path_end, *name;
} known_trees[] = {
	{ "/torvalds/linux", "mainline" },
	{ "/next/linux-next", "next" },
	{ "/stable/linux", "stable" },
	{ "/stable/linux-stable", "stable" },
	{ "/stable/linux-stable-rc", "stable-rc" },
};

bool ior_git_https_url(char *out, size_t len, const char *url)
{
	static const char *const schemes[] = { "https://", "http://", "git://", "ssh://" };
	if (len)
		out[0] = '\0';
	if (!url || !*url)
		return false;
	const char *host = NULL;
	for (size_t i = 0; !host && i < sizeof(schemes) / sizeof(schemes[0]); i++)
		if (!strncasecmp(url, schemes[i], strlen(schemes[i])))
			host = url + strlen(schemes[i]);
	size_t at = strcspn(url, ":/");
	bool scp = !host && url[at] == ':' && url[at + 1] != '/' && memchr(url, '@', at); /* git@host:path */
	if (!host && !scp)
		return false;
	if (scp)
		host = url;
	const char *user = strchr(host, '@'), *slash = strchr(host, scp ? ':' : '/');
	if (user && (!slash || user < slash))
		host = user + 1;
	slash = strchr(host, scp ? ':' : '/');
	size_t hostlen = slash ? (size_t)(slash - host) : strlen(host);
	size_t port = strcspn(host, ":");   /* ssh://host:22/path: the port is ssh's */
	if (!scp && port < hostlen)
		hostlen = port;
	if (!hostlen)
		return false;
	const char *path = slash ? slash + 1 : "";
	snprintf(out, len, "https://%.*s/%s", (int)hostlen, host, path);
	return true;
}

void ior_git_tree_name(char *out, size_t len, const char *url)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s", url ? url : "");
	size_t n = strlen(path);
	while (n && path[n - 1] == '/')
		path[--n] = '\0';
	if (n > 4 && !strcmp(path + n - 4, ".git"))
		path[n -= 4] = '\0';
	for (size_t i = 0; i < sizeof(known_trees) / sizeof(known_trees[0]); i++) {
		size_t e = strlen(known_trees[i].path_end);
		if (n > e && !strcmp(path + n - e, known_trees[i].path_end)) {
			snprintf(out, len, "%s", known_trees[i].name);
			return;
		}
	}
	const char *last = strrchr(path, '/');
	if (!last)
		last = strrchr(path, ':');
	snprintf(out, len, "%s", last ? last + 1 : path);
}
