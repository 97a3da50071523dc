/* Only in the dynamically linked probes (pingpong-dyn, stream-dyn), which a
 * kernel-bypass stack can hook through LD_PRELOAD: before main, says on stderr
 * which LD_PRELOAD entries this very process has mapped (/proc/self/maps), so
 * the harness can prove the stack was in use rather than trust that it was.
 * ld.so maps every preload before any constructor runs, so this sees them all. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char* base_of(const char* p) {
  const char* s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* The path in /proc/self/maps that `entry` was mapped from, or NULL. A name
 * matches a mapped file whose name starts with it ("libxlio.so" is mapped as the
 * file its symlink points to, "libxlio.so.1.2"); a path also by its real path. */
static const char* mapped_from(const char* entry, char* line, size_t len, FILE* maps) {
  char real[PATH_MAX];
  const char* want = base_of(entry);
  int have_real = entry[0] == '/' && realpath(entry, real) != NULL;
  rewind(maps);
  while (fgets(line, (int)len, maps) != NULL) {
    char* path = strchr(line, '/');
    if (path == NULL) continue;
    path[strcspn(path, "\n")] = 0;
    if ((have_real && strcmp(path, real) == 0) || strncmp(base_of(path), want, strlen(want)) == 0)
      return path;
  }
  return NULL;
}

__attribute__((constructor)) static void lg_preload_report(void) {
  const char* env = getenv("LD_PRELOAD");
  char list[4096], line[PATH_MAX + 256];
  char* save = NULL;
  char* entry;
  FILE* maps;
  if (env == NULL || *env == 0) {
    fprintf(stderr, "labgate-preload: LD_PRELOAD is not set\n");
    return;
  }
  maps = fopen("/proc/self/maps", "r");
  snprintf(list, sizeof list, "%s", env);
  for (entry = strtok_r(list, ": ", &save); entry != NULL; entry = strtok_r(NULL, ": ", &save)) {
    const char* path = maps ? mapped_from(entry, line, sizeof line, maps) : NULL;
    if (path)
      fprintf(stderr, "labgate-preload: mapped %s as %s\n", entry, path);
    else
      fprintf(stderr, "labgate-preload: not mapped %s\n", entry);
  }
  if (maps) fclose(maps);
}
