/* What the next boot will use: the default entry's kernel line of GRUB legacy
 * (/boot/grub/grub.conf, RHEL 5; `default=N` picks the Nth `title`), or for
 * GRUB 2 hosts the GRUB_CMDLINE_LINUX* lines of /etc/default/grub. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fx_fact.h"
#include "fx_fs.h"
#include "fx_sections.h"
#include "fx_str.h"

/* "key=value" or "key value" at the start of a grub.conf line; returns the value
 * or NULL when the line is another key. */
static char* grub_key(char* line, const char* key) {
  size_t n = strlen(key);
  if (strncmp(line, key, n) != 0) return NULL;
  if (line[n] != '=' && !isspace((unsigned char)line[n])) return NULL;
  line += n;
  while (*line == '=' || isspace((unsigned char)*line)) line++;
  return line;
}

/* GRUB legacy's `default saved` reads the entry number from /boot/grub/default. */
static int saved_default(long long* out) {
  char buf[64];
  char* sp;
  if (fx_read_small("/boot/grub/default", buf, sizeof buf) != 0) return 0;
  sp = strpbrk(buf, " \t\n");
  if (sp) *sp = 0;
  return fx_parse_ll(buf, out);
}

static int grub_legacy(fx_json* j, const char* path) {
  fx_text t;
  char *cur, *end, *line, src[FX_PATH_MAX + 16], title_src[FX_PATH_MAX + 16] = "";
  char default_src[FX_PATH_MAX + 16], kernel_src[FX_PATH_MAX + 16] = "";
  char title[1024] = "", image[1024] = "", args[4096] = "";
  long long def = 0;
  int lineno = 0, entry = -1, found_kernel = 0, def_err = 0;
  const char* def_note = "no default line: GRUB boots entry 0";
  if (fx_read(path, &t) != 0) return 0;
  snprintf(default_src, sizeof default_src, "%s", path);
  cur = t.data, end = t.data + t.len;
  while ((line = fx_next_line(&cur, end)) != NULL) {
    char* v;
    lineno++;
    line = fx_trim(line);
    if (!*line || *line == '#') continue;
    if (entry < 0 && (v = grub_key(line, "default")) != NULL) {
      snprintf(default_src, sizeof default_src, "%s:%d", path, lineno);
      def_note = NULL;
      if (strncmp(v, "saved", 5) == 0) {
        def_note = "default=saved: entry number from /boot/grub/default";
        if (!saved_default(&def)) def_err = 1;
      } else if (!fx_parse_ll(v, &def)) {
        def_err = 1;
      }
    } else if ((v = grub_key(line, "title")) != NULL) {
      entry++;
      if (entry == def) {
        fx_copy(title, sizeof title, v);
        snprintf(title_src, sizeof title_src, "%s:%d", path, lineno);
      }
    } else if (entry == def && !found_kernel && (v = grub_key(line, "kernel")) != NULL) {
      size_t n = strcspn(v, " \t");
      found_kernel = 1;
      fx_copy(image, sizeof image, v);
      if (n < sizeof image) image[n] = 0;
      fx_copy(args, sizeof args, v + n);
      fx_collapse_ws(args);
      snprintf(kernel_src, sizeof kernel_src, "%s:%d", path, lineno);
    }
  }
  fx_text_free(&t);
  fx_fact_str(j, "loader", "grub-legacy", path, 0);
  fx_fact_begin(j, "default_entry");
  if (def_err)
    fx_json_null(j, "value");
  else
    fx_json_int(j, "value", def);
  fx_fact_end(j, default_src, 0, def_err ? "unreadable default entry number" : def_note);
  if (def_err || def < 0 || def > entry) {
    snprintf(src, sizeof src, "%s", path);
    fx_fact_str_note(j, "default_title", NULL, src, 0, "the default entry does not exist");
    fx_fact_str_note(j, "kernel_image", NULL, src, 0, "the default entry does not exist");
    fx_fact_str_note(j, "kernel_args", NULL, src, 0, "the default entry does not exist");
    return 1;
  }
  fx_fact_str(j, "default_title", title, title_src, 0);
  if (!found_kernel) {
    fx_fact_str_note(j, "kernel_image", NULL, title_src, 0, "the default entry has no kernel line");
    fx_fact_str_note(j, "kernel_args", NULL, title_src, 0, "the default entry has no kernel line");
    return 1;
  }
  fx_fact_str(j, "kernel_image", image, kernel_src, 0);
  fx_fact_str(j, "kernel_args", args, kernel_src, 0);
  return 1;
}

/* GRUB 2: the arguments grub-mkconfig puts on normal entries. */
static int grub2_defaults(fx_json* j) {
  const char* path = "/etc/default/grub";
  fx_text t;
  char *cur, *end, *line, args[4096] = "", src[FX_PATH_MAX + 32];
  int lineno = 0, lines[2] = {0, 0};
  if (fx_read(path, &t) != 0) return 0;
  cur = t.data, end = t.data + t.len;
  while ((line = fx_next_line(&cur, end)) != NULL) {
    int which;
    char* v;
    lineno++;
    line = fx_trim(line);
    if (strncmp(line, "GRUB_CMDLINE_LINUX=", 19) == 0)
      which = 0, v = line + 19;
    else if (strncmp(line, "GRUB_CMDLINE_LINUX_DEFAULT=", 27) == 0)
      which = 1, v = line + 27;
    else
      continue;
    lines[which] = lineno;
    if (args[0]) strncat(args, " ", sizeof args - strlen(args) - 1);
    strncat(args, fx_unquote(v), sizeof args - strlen(args) - 1);
  }
  fx_text_free(&t);
  fx_collapse_ws(args);
  if (lines[0] && lines[1])
    snprintf(src, sizeof src, "%s:%d,%d", path, lines[0] < lines[1] ? lines[0] : lines[1],
             lines[0] < lines[1] ? lines[1] : lines[0]);
  else if (lines[0] || lines[1])
    snprintf(src, sizeof src, "%s:%d", path, lines[0] + lines[1]);
  else
    snprintf(src, sizeof src, "%s", path);
  fx_fact_str(j, "loader", "grub2", path, 0);
  fx_fact_str_note(j, "kernel_image", NULL, path, 0, "GRUB 2: grub-mkconfig picks the image");
  fx_fact_str_note(j, "kernel_args", args, src, 0,
                   "GRUB_CMDLINE_LINUX and GRUB_CMDLINE_LINUX_DEFAULT, applied by grub-mkconfig");
  return 1;
}

void fx_section_boot(fx_json* j) {
  fx_json_open(j, "boot");
  if (!grub_legacy(j, "/boot/grub/grub.conf") && !grub_legacy(j, "/boot/grub/menu.lst") &&
      !grub2_defaults(j)) {
    fx_fact_str_note(j, "loader", NULL, "/boot/grub/grub.conf", 0,
                     "no /boot/grub/grub.conf, /boot/grub/menu.lst or /etc/default/grub");
  }
  fx_json_close(j);
}
