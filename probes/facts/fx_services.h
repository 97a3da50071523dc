/* Shared pieces of the services section (SysV/xinetd in fx_services.c,
 * systemd in fx_systemd.c). */
#ifndef LABGATE_PROBES_FACTS_FX_SERVICES_H
#define LABGATE_PROBES_FACTS_FX_SERVICES_H

#include "fx_args.h"
#include "fx_json.h"

/** A growable list of unique names. */
typedef struct fx_nameset {
  char** names;
  size_t n, cap;
} fx_nameset;
void fx_nameset_add(fx_nameset* s, const char* name);
int fx_nameset_has(const fx_nameset* s, const char* name);
void fx_nameset_free(fx_nameset* s);

/** Reports the SysV (or xinetd) state of `name`; 0 if neither knows it. */
int fx_sysv_service(fx_json* j, const char* name);
/** Adds every service named by an rc link or an xinetd file. */
void fx_sysv_names(fx_nameset* out);

/** Reports the systemd state of `name`; 0 if no unit file and no link names it. */
int fx_systemd_service(fx_json* j, const char* name);
/** Adds every service enabled in a .wants/.requires directory. */
void fx_systemd_names(fx_nameset* out);

/** "running" fact from process evidence alone (process or pidfile), for both
 * init systems; `lock` is an extra path whose existence means running (may be NULL). */
void fx_running_fact(fx_json* j, const char* name, const char* lock);

#endif
