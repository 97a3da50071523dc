/* File access for the facts probe: every path is a path as seen on the target
 * ("/proc/cmdline"); with --root it is read below the root directory instead,
 * symlinks resolved inside that root. Reads are capped and never block. */
#ifndef LABGATE_PROBES_FACTS_FX_FS_H
#define LABGATE_PROBES_FACTS_FX_FS_H

#include <stddef.h>
#include <sys/stat.h>

#define FX_FILE_CAP (1024 * 1024) /* bytes read from any one file, at most */
#define FX_PATH_MAX 4096
#define FX_DIR_CAP 65536 /* entries listed from any one directory, at most */

/* Errors are errno values, plus these two of our own (see fx_strerror). */
#define FX_ERR_NOTREG 100001 /* not a regular file (a FIFO would block, a device lies) */
#define FX_ERR_BADROOT 100002

/** Sets the root directory; NULL or "/" means the live system. 0 or an error. */
int fx_set_root(const char* dir);
/** 1 when reading a recorded tree below --root, 0 on the live system. */
int fx_under_root(void);
/** The root as given ("/" on the live system), for the snapshot header. */
const char* fx_root(void);
/** strerror() that also knows the FX_ERR_* codes. */
const char* fx_strerror(int err);

/** Text read from a file: NUL-terminated, `len` bytes (NULs inside kept). */
typedef struct fx_text {
  char* data;
  size_t len;
  int truncated; /* the file was longer than FX_FILE_CAP */
} fx_text;

/** Reads a regular file whole (up to the cap). Returns 0 or an error; on error
 * `t` is empty but valid. Always release with fx_text_free. */
int fx_read(const char* path, fx_text* t);
void fx_text_free(fx_text* t);

/** Reads a small file into `out`, trailing whitespace trimmed. 0 or an error. */
int fx_read_small(const char* path, char* out, size_t outsz);

/** The target of symlink `path` itself (not followed). 0 or an error. */
int fx_readlink(const char* path, char* out, size_t outsz);

/** stat() (following symlinks) or lstat() of a target path. 0 or an error. */
int fx_stat(const char* path, struct stat* st);
int fx_lstat(const char* path, struct stat* st);

/** Sorted names in a directory (without . and ..), at most FX_DIR_CAP. */
typedef struct fx_names {
  char** names;
  size_t n;
  int truncated;
} fx_names;
int fx_list(const char* path, fx_names* out);
void fx_names_free(fx_names* n);

#endif
