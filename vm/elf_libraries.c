/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The shared libraries an ELF executable needs, read from its dynamic section (not a fixed list),
 * and its interpreter. */
#include "vm/vm.h"

#include "common/error.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Where glibc's loader looks without an ld.so.cache (the initramfs has none). */
static const char *const library_dirs[] = {
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib",
};

struct elf_view {
	const unsigned char *base;
	size_t size;
	const Elf64_Ehdr *eh;
};

static const Elf64_Phdr *phdr(const struct elf_view *e, size_t i)
{
	return (const Elf64_Phdr *)(e->base + e->eh->e_phoff + i * e->eh->e_phentsize);
}

/* A virtual address's file offset, through the PT_LOAD that maps it. */
static bool vaddr_offset(const struct elf_view *e, uint64_t vaddr, uint64_t *off)
{
	for (size_t i = 0; i < e->eh->e_phnum; i++) {
		const Elf64_Phdr *p = phdr(e, i);
		if (p->p_type == PT_LOAD && vaddr >= p->p_vaddr && vaddr < p->p_vaddr + p->p_filesz) {
			*off = vaddr - p->p_vaddr + p->p_offset;
			return *off < e->size;
		}
	}
	return false;
}

static bool in_list(char (*paths)[PATH_MAX], size_t n, const char *p)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(paths[i], p) == 0)
			return true;
	return false;
}

static int add(char (*paths)[PATH_MAX], size_t max, size_t *n, const char *p)
{
	if (in_list(paths, *n, p))
		return IOR_OK;
	if (*n == max)
		return ior_error_set(IOR_ERROR, "more than %zu shared libraries", max);
	snprintf(paths[(*n)++], PATH_MAX, "%s", p);
	return IOR_OK;
}

static int find_library(const char *name, char *out, size_t len)
{
	for (size_t i = 0; i < sizeof(library_dirs) / sizeof(library_dirs[0]); i++) {
		snprintf(out, len, "%s/%s", library_dirs[i], name);
		if (access(out, R_OK) == 0)
			return IOR_OK;
	}
	return ior_error_set(IOR_ENOTFOUND, "shared library '%s' is in none of the default library directories", name);
}

static int walk(const char *path, char (*paths)[PATH_MAX], size_t max, size_t *n, int depth);

/* The interpreter and each DT_NEEDED of one mapped file, then theirs. */
static int walk_view(const struct elf_view *e, const char *path, char (*paths)[PATH_MAX], size_t max, size_t *n,
		     int depth)
{
	const Elf64_Dyn *dyn = NULL;
	size_t ndyn = 0;
	for (size_t i = 0; i < e->eh->e_phnum; i++) {
		const Elf64_Phdr *p = phdr(e, i);
		if (p->p_type == PT_INTERP && p->p_offset + p->p_filesz <= e->size) {
			char interp[PATH_MAX];
			snprintf(interp, sizeof(interp), "%.*s", (int)p->p_filesz, (const char *)e->base + p->p_offset);
			int rc = add(paths, max, n, interp);
			if (rc)
				return rc;
		} else if (p->p_type == PT_DYNAMIC && p->p_offset + p->p_filesz <= e->size) {
			dyn = (const Elf64_Dyn *)(e->base + p->p_offset);
			ndyn = p->p_filesz / sizeof(*dyn);
		}
	}
	uint64_t strtab = 0, off;
	for (size_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++)
		if (dyn[i].d_tag == DT_STRTAB)
			strtab = dyn[i].d_un.d_ptr;
	if (!dyn)
		return IOR_OK; /* static */
	if (!vaddr_offset(e, strtab, &off))
		return ior_error_set(IOR_EINVALID, "'%s': dynamic string table outside the file", path);
	for (size_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++) {
		if (dyn[i].d_tag != DT_NEEDED)
			continue;
		if (off + dyn[i].d_un.d_val >= e->size)
			return ior_error_set(IOR_EINVALID, "'%s': DT_NEEDED outside the string table", path);
		const char *name = (const char *)e->base + off + dyn[i].d_un.d_val;
		char lib[PATH_MAX];
		int rc = find_library(name, lib, sizeof(lib));
		if (!rc && !in_list(paths, *n, lib) && !(rc = add(paths, max, n, lib)))
			rc = walk(lib, paths, max, n, depth + 1);
		if (rc)
			return ior_error_wrap(rc, "'%s' needs it", path);
	}
	return IOR_OK;
}

static int walk(const char *path, char (*paths)[PATH_MAX], size_t max, size_t *n, int depth)
{
	if (depth > 16)
		return ior_error_set(IOR_EINVALID, "'%s': library dependencies nest deeper than 16", path);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ior_error_errno(IOR_ENOTFOUND, errno, "cannot open '%s'", path);
	struct stat st;
	struct elf_view e = { 0 };
	int rc = fstat(fd, &st) == 0 && st.st_size >= (off_t)sizeof(Elf64_Ehdr)
			 ? IOR_OK : ior_error_set(IOR_EINVALID, "'%s' is not an ELF file", path);
	void *map = MAP_FAILED;
	if (!rc) {
		e.size = (size_t)st.st_size;
		map = mmap(NULL, e.size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map == MAP_FAILED)
			rc = ior_error_errno(IOR_ERROR, errno, "cannot map '%s'", path);
	}
	close(fd);
	if (!rc) {
		e.base = map;
		e.eh = map;
		if (memcmp(e.eh->e_ident, ELFMAG, SELFMAG) || e.eh->e_ident[EI_CLASS] != ELFCLASS64 ||
		    e.eh->e_phoff + (uint64_t)e.eh->e_phnum * e.eh->e_phentsize > e.size ||
		    e.eh->e_phentsize != sizeof(Elf64_Phdr))
			rc = ior_error_set(IOR_EINVALID, "'%s' is not a 64-bit ELF file", path);
		else
			rc = walk_view(&e, path, paths, max, n, depth);
	}
	if (map != MAP_FAILED)
		munmap(map, e.size);
	return rc;
}

int ior_vm_elf_libraries(const char *elf, char (*paths)[PATH_MAX], size_t max, size_t *n)
{
	*n = 0;
	return walk(elf, paths, max, n, 0);
}
