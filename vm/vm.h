/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Booting kernels under qemu with ioregress inside: kernels fetched or given, the initramfs, boots
 * with watchdogs, results brought back. */
#ifndef IOR_VM_VM_H
#define IOR_VM_VM_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ior_db;
struct ior_vm_target_opts;

/* How one boot ended: exactly one per boot, stored in vm_boots.outcome. */
enum ior_vm_outcome {
	IOR_VM_OK,           /* the guest's run finished with status 0 */
	IOR_VM_TEST_FAILED,  /* the guest's run ended non-zero (a cell failed, a bad matrix) */
	IOR_VM_PANIC,        /* the kernel panicked (or oopsed: oops=panic) */
	IOR_VM_HANG,         /* no heartbeat from the guest within the limit, or past the total limit */
	IOR_VM_BOOT_FAILED,  /* no sign of init by the boot deadline, or qemu stopped before it */
	IOR_VM_INFRA_ERROR,  /* qemu, the initramfs or the results disk failed: not the kernel's fault */
	IOR_VM_INTERRUPTED,  /* stopped by a signal to vm run (SIGINT, SIGTERM) */
};
const char *ior_vm_outcome_name(enum ior_vm_outcome o);

/* A kernel ready to boot: a Debian package unpacked in the cache, or a built one. */
struct ior_vm_kernel {
	char spec[512];            /* as given */
	char image[PATH_MAX];      /* the bzImage */
	char modules[PATH_MAX];    /* the module tree's parent (…/lib/modules), "" without modules */
	char release[128];         /* the module tree's name: uname -r inside */
	char package_version[128]; /* the Debian package's version, "" for a built kernel */
	char config[PATH_MAX];     /* a built kernel's .config (kernel build's record beside the image), or "" */
	char deb[PATH_MAX];        /* a package's .deb in the cache (installed as it is on a real machine), or "" */
	char package[256];         /* its package name (spec for a name, the Package field for a .deb file), or "" */
};

/* KERNEL is a Debian package name (fetched with apt-get download into cache_dir/, unpacked
 * with dpkg-deb -x, depmod run on the copy; reused on later calls), a kernel package's PATH.deb
 * (make bindeb-pkg's; unpacked into cache_dir/ the same way) or PATH/bzImage:MODULES_DIR
 * (MODULES_DIR is …/lib/modules/RELEASE, or …/lib/modules holding one release; a build.info that
 * `kernel build` left beside the image gives config). */
int ior_vm_kernel_resolve(struct ior_vm_kernel *k, const char *spec, const char *cache_dir);
/* The kernel release a kernel image package installs, from its name alone, by the distributions'
 * naming rule: linux-image-RELEASE and linux-image-RELEASE-unsigned (Debian),
 * linux-image-unsigned-RELEASE (Ubuntu). That is the guest's `uname -r`, so the release its
 * samples are stored under (kernels.release), known before anything is downloaded; vm run's
 * vm_boots.kernel_release (the module tree's name) confirms it after the boot. IOR_EINVALID,
 * naming the package, for a name that names no release: a metapackage (linux-image-cloud-amd64),
 * debug symbols (-dbg, -dbgsym), the signed images' template (-signed-template), or no kernel image
 * package at all. */
int ior_vm_package_release(const char *package, char *release, size_t len);
/* Checks a package name against apt's lists before anything is fetched: IOR_OK for a bootable
 * linux-image package apt knows (or when apt-cache cannot run); otherwise IOR_EINVALID (a release
 * string, a metapackage, a debug package) or IOR_ENOTFOUND, each with the bootable names that hold
 * what was given ("did you mean 'linux-image-6.1.0-47-cloud-amd64', ...?"). */
int ior_vm_package_check(const char *name);
/* "vm: downloading 'NAME' VERSION (26.4 MB) with apt-get download" on stderr, size from apt-cache. */
void ior_vm_package_announce(const char *name);
/* $XDG_CACHE_HOME/ioregress/kernels, or ~/.cache/ioregress/kernels; "" when neither is set (never a
 * shared directory). The cache and its entries must be the caller's or root's (common/trust.h). */
void ior_vm_default_cache(char *out, size_t len);

/* What goes into a guest besides the kernel's modules. */
struct ior_vm_guest {
	const char *ioregress;   /* the ioregress binary to run inside (its libraries come along) */
	const char *busybox;     /* a static busybox */
	const char *matrix;      /* the matrix file, NULL for a boot that only reaches init */
	const char *host_name;   /* the guest's host name: one name for every kernel so they compare */
};

/* The ioregress a guest runs by default: ioregress-guest beside the binary self (the build tree) or in
 * its libexec directory (installed), true; else self itself, false. The guest binary is built from the
 * same sources with only the guest's commands and links neither libgit2 nor libarchive: 15 shared
 * libraries instead of 39, no ICU (issue 38). */
bool ior_vm_guest_binary(const char *self, char *out, size_t len);

/* Whether guest is this very binary or the guest binary built with it: the same schema, so its
 * database can be made on the host. */
bool ior_vm_guest_is_ours(const char *guest);

/* Writes a newc cpio archive at path: busybox, ioregress with the shared libraries its ELF
 * needs, the kernel's virtio and scheduler modules (decompressed, dependencies first, with a
 * depmod index for exactly those), the matrix and the init; with a matrix, when the guest runs
 * this very binary, its database /results/guest.db made empty at the current schema (the guest
 * then runs no schema step). tmpdir holds the staging tree. */
int ior_vm_initramfs_write(const char *path, const struct ior_vm_kernel *k, const struct ior_vm_guest *g,
			   const char *tmpdir);

/* The initramfs for k and g from the cache: cache_dir/initramfs/SHA256.cpio, keyed by everything the
 * writer reads (the files by their identity: path, inode, size and times; the matrix by its text),
 * written there first when absent (hit false). The archives used last are kept, the rest removed. */
int ior_vm_initramfs_cached(char *path, size_t len, const struct ior_vm_kernel *k, const struct ior_vm_guest *g,
			    const char *cache_dir, const char *tmpdir, bool *hit);

/* The shared libraries an ELF file needs, recursively (DT_NEEDED through the default library
 * directories), and its interpreter: paths[0..*n), each at most PATH_MAX. */
int ior_vm_elf_libraries(const char *elf, char (*paths)[PATH_MAX], size_t max, size_t *n);

/* The machine every boot of a vm run gets. */
struct ior_vm_machine {
	const char *qemu;          /* qemu-system-x86_64 */
	const char *accel;         /* "auto" (KVM after a probe boot succeeds, else TCG), "kvm", "tcg" */
	unsigned cpus, memory_mb, scratch_mb;
	double boot_timeout_s;     /* no sign of init by then: boot-failed */
	double idle_timeout_s;     /* no heartbeat from the guest for this long (plus what the last one announced): hang */
	bool live;                 /* show the guest's heartbeats on stderr: a live line on a terminal, a line per
				    * cell (and every 30 s) in a log */
	const char *scratch_image; /* a filled image every boot uses as /dev/vda; NULL: a fresh sparse one per boot */
	double total_timeout_s;    /* the whole boot */
};
void ior_vm_machine_default(struct ior_vm_machine *m);

/* The memory (MiB) a guest needs for a matrix whose scratch loop devices hold device_files bytes of
 * file and whose largest cell creates cell_files of its own (ior_matrix_file_bytes); 512 at least. */
unsigned ior_vm_memory_needed(uint64_t device_files, uint64_t cell_files);
/* m->memory_mb 0 (not given) becomes what the matrix needs, said in said when more than 512; a given
 * one too small for the devices' files to fit /tmp is IOR_EINVALID, one below the estimate a warning
 * in said. said is "" when there is nothing to say. */
int ior_vm_size_memory(struct ior_vm_machine *m, uint64_t device_files, uint64_t cell_files, char *said, size_t len);

/* One boot's record (the vm_boots row) and what it brought back. */
struct ior_vm_boot {
	enum ior_vm_outcome outcome;
	char reason[1024];         /* a hang's holds the sysrq dump's findings: blocked, running, the run's tasks */
	int guest_status;          /* -1 when none came back */
	char accel[8], cache_mode[16], pinned[64], qemu_version[64];
	double boot_s, total_s;    /* boot_s: qemu start to init's first line; -1 when never seen */
	char *console;             /* the serial console (and qemu's stderr), NUL-terminated */
	size_t console_len;
	char guest_db[PATH_MAX];   /* the guest's database, extracted under the boot's workdir; "" if none */
	char boot_id[40];          /* a real machine's boot id once the kernel answered (vm/target.h); "" for qemu */
};
void ior_vm_boot_free(struct ior_vm_boot *b);

/* Boots kernel k with initramfs under machine m (accel already decided: "kvm" or "tcg"),
 * with a fresh scratch disk and results disk in workdir, watches the console, and fills b.
 * Returns IOR_OK whatever the guest did (b->outcome says), IOR_EINTERRUPTED on a stop request
 * (qemu is killed first), an error only when nothing could be tried. */
int ior_vm_boot_once(const struct ior_vm_machine *m, const char *accel, const struct ior_vm_kernel *k,
		     const char *initramfs, bool probe, const char *workdir, struct ior_vm_boot *b);

/* "kvm" when /dev/kvm opens and a probe boot of k under KVM reaches init, else "tcg"; why in reason.
 * The first probe answers for the rest of the process (a bisection's boots are vm runs of their own). */
void ior_vm_choose_accel(const struct ior_vm_machine *m, const struct ior_vm_kernel *k, const char *initramfs,
			 const char *workdir, char *accel, size_t len, char *reason, size_t rlen);

/* Options of a whole `vm run`. */
struct ior_vm_run_opts {
	struct ior_vm_machine machine;
	struct ior_vm_guest guest;
	const char *cache_dir;
	unsigned boots;            /* rounds: every kernel once per round, the order rotated (A B C, B C A, ...);
				    * with boots_auto the most rounds (--max-boots) */
	bool boots_auto;           /* --boots auto: after each round from the second ask decided() and stop when
				    * every cell of interest is decided */
	/* boots_auto's question after round `round` of vm run vm_run: *done when no more boots are needed.
	 * releases[i] is kernel i's release ("" when it could not be resolved). */
	int (*decided)(void *ctx, struct ior_db *db, const char *vm_run, const char *const *releases, size_t n,
		       unsigned round, bool *done);
	void *decided_ctx;
	bool boot_only;            /* boot to init and power off: the bare boot time */
	int scratch_fill;          /* enum ior_fill: what the scratch disk holds, written once before the first boot */
	bool progress;             /* one line per boot on stderr */
	/* where the kernels boot (vm/target.h): NULL for a qemu guest on this machine, the default */
	const struct ior_vm_target_opts *target;
};

struct ior_vm_run_summary {
	unsigned boots, ok, failed; /* failed: any outcome but ok */
	double fill_s;              /* the scratch disk's fill, once per vm run, part of no sample; -1 none */
	bool fill_kept;             /* the scratch disk was an earlier vm run's, kept in the cache: no fill */
	uint64_t fill_bytes;
	char accel[8];
	char accel_reason[256];
	unsigned rounds;            /* rounds booted */
	char vm_run[160];           /* this vm run's name in vm_boots.vm_run */
	char host[128];             /* a real machine's name, its runs' host; "" for qemu (guest.host_name) */
};

/* vm run's defaults with the storage their strings point into (so not to be copied): the default
 * machine, one boot per kernel, the default cache, "<host>-vm" as every guest's host name (check
 * and report compare cells of one host), /bin/busybox and the guest binary of this one inside
 * (ior_vm_guest_binary). */
struct ior_vm_run_setup {
	struct ior_vm_run_opts o;
	char cache[PATH_MAX], host[128], self[PATH_MAX], guest_binary[PATH_MAX * 2];
};
void ior_vm_run_defaults(struct ior_vm_run_setup *v);

/* Boots every kernel in rounds (opts->boots of them, or with boots_auto until decided() is done),
 * the order rotated each round, records each boot (with its round as boot_index and the vm run's
 * name as vm_run) in db (vm_boots, with its console log) and merges each guest's database into db. A kernel that fails is recorded
 * and the next one starts; a kernel that cannot be resolved is recorded as infra-error. */
int ior_vm_run(struct ior_db *db, const struct ior_vm_run_opts *opts, const char *const *kernels, size_t n,
	       struct ior_vm_run_summary *s);

#endif
