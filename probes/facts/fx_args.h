/* The facts probe's command line: what to gather, and from which root. */
#ifndef LABGATE_PROBES_FACTS_FX_ARGS_H
#define LABGATE_PROBES_FACTS_FX_ARGS_H

#define FX_MAX_SYSCTLS 4096
#define FX_MAX_MODULES 256
#define FX_MAX_IFACES 256
#define FX_MAX_SERVICES 1024

/* Sections, selectable with --sections (default: all). */
enum {
  FX_SEC_OS = 1 << 0,         /* hostname, OS release */
  FX_SEC_KERNEL = 1 << 1,     /* release, version, running cmdline */
  FX_SEC_BOOT = 1 << 2,       /* the boot loader's default kernel line */
  FX_SEC_SYSCTL = 1 << 3,     /* --sysctl keys */
  FX_SEC_MODULES = 1 << 4,    /* --module names */
  FX_SEC_INTERFACES = 1 << 5, /* --iface names or --all-interfaces */
  FX_SEC_SERVICES = 1 << 6,   /* SysV/xinetd or systemd */
  FX_SEC_PROCESSES = 1 << 7,  /* running processes */
  FX_SEC_CPU = 1 << 8,        /* topology, C-states, cpufreq, clocksource */
  FX_SEC_CLOCK = 1 << 9,      /* the kernel's clock synchronisation (adjtimex) */
  FX_SEC_ALL = (1 << 10) - 1
};

typedef struct fx_args {
  const char* root; /* NULL: live system */
  unsigned sections;
  const char* sysctls[FX_MAX_SYSCTLS];
  int n_sysctls;
  const char* modules[FX_MAX_MODULES];
  int n_modules;
  const char* ifaces[FX_MAX_IFACES];
  int n_ifaces;
  int all_ifaces;
  const char* services[FX_MAX_SERVICES];
  int n_services;
  char* sysctl_file_text; /* owns the keys read from --sysctl-file */
} fx_args;

/** Parses argv into `a`. Returns 0, or prints the problem (naming the
 * argument) on stderr and returns 2 (usage error), or 1 after --help. */
int fx_parse_args(int argc, char** argv, fx_args* a);

/** The usage text. */
void fx_usage(void);

#endif
