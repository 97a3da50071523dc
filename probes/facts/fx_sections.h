/* The sections of a facts snapshot; each writes one top-level JSON member. */
#ifndef LABGATE_PROBES_FACTS_FX_SECTIONS_H
#define LABGATE_PROBES_FACTS_FX_SECTIONS_H

#include "fx_args.h"
#include "fx_json.h"

void fx_section_os(fx_json* j);                           /* "hostname", "os" */
void fx_section_kernel(fx_json* j);                       /* "kernel" */
void fx_section_boot(fx_json* j);                         /* "boot" */
void fx_section_sysctl(fx_json* j, const fx_args* a);     /* "sysctl", "sysctl_conf" */
void fx_section_modules(fx_json* j, const fx_args* a);    /* "modules" */
void fx_section_interfaces(fx_json* j, const fx_args* a); /* "interfaces" */
void fx_section_services(fx_json* j, const fx_args* a);   /* "services" */
void fx_section_processes(fx_json* j);                    /* "processes" */
void fx_section_cpu(fx_json* j);                          /* "cpu" */
void fx_section_clock(fx_json* j);                        /* "clock" */
void fx_iface_mcast_route(fx_json* j, const char* ifname); /* "multicast_route" of an interface */
void fx_cpu_tuning(fx_json* j); /* isolation, NUMA, idle states, THP, tuned: members of "cpu" */

#endif
