/* rhel5_exec PROGRAM [ARGS...]: runs PROGRAM under a seccomp filter that makes
 * this kernel answer like RHEL 5's 2.6.18: x86-64 system calls above 279 fail
 * with ENOSYS, except the three RHEL 5 backported (284 eventfd, 285 fallocate,
 * 299 recvmmsg), and socket()/socketpair() with SOCK_CLOEXEC or SOCK_NONBLOCK
 * in the type fail with EINVAL. A probe that gives the same output with and
 * without it uses nothing newer than 2.6.18.
 * Raw BPF rather than libseccomp: the filter is a dozen instructions and reads
 * best as the numbers it compares. */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define LAST_2_6_18_SYSCALL 279 /* sync_file_range is 277, vmsplice 278, move_pages 279 */
#define X32_SYSCALL_BIT 0x40000000u
#define NEW_SOCKET_FLAGS 0x80800u /* SOCK_CLOEXEC (02000000) | SOCK_NONBLOCK (04000), from 2.6.27 */

/* Instruction positions, so every jump below names where it goes. */
enum {
  kLoadArch,
  kIsX86_64,
  kRefuseArch,
  kLoadNr,
  kIsX32,
  kIsEventfd,
  kIsFallocate,
  kIsRecvmmsg,
  kIsNewer,
  kIsSocket,
  kIsSocketpair,
  kLoadType,
  kHasNewFlags,
  kEinval,
  kEnosys,
  kAllow
};
#define LOAD(field) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field))
/* Jump from instruction `at` to `yes` when the test holds, else to `no`. */
#define JUMP(at, op, k, yes, no) BPF_JUMP(BPF_JMP | (op) | BPF_K, (k), (yes) - (at)-1, (no) - (at)-1)
#define RET(v) BPF_STMT(BPF_RET | BPF_K, (v))
#define ERR(e) RET(SECCOMP_RET_ERRNO | ((e)&SECCOMP_RET_DATA))

static struct sock_filter kFilter[] = {
    /* A 32-bit entry (int 0x80) would bypass the number checks: refuse it. */
    [kLoadArch] = LOAD(arch),
    [kIsX86_64] = JUMP(kIsX86_64, BPF_JEQ, AUDIT_ARCH_X86_64, kLoadNr, kRefuseArch),
    [kRefuseArch] = ERR(ENOSYS),
    [kLoadNr] = LOAD(nr),
    [kIsX32] = JUMP(kIsX32, BPF_JGE, X32_SYSCALL_BIT, kEnosys, kIsEventfd), /* no x32 ABI then */
    [kIsEventfd] = JUMP(kIsEventfd, BPF_JEQ, 284, kAllow, kIsFallocate),    /* RHEL 5's backports */
    [kIsFallocate] = JUMP(kIsFallocate, BPF_JEQ, 285, kAllow, kIsRecvmmsg),
    [kIsRecvmmsg] = JUMP(kIsRecvmmsg, BPF_JEQ, 299, kAllow, kIsNewer),
    [kIsNewer] = JUMP(kIsNewer, BPF_JGT, LAST_2_6_18_SYSCALL, kEnosys, kIsSocket),
    [kIsSocket] = JUMP(kIsSocket, BPF_JEQ, __NR_socket, kLoadType, kIsSocketpair),
    [kIsSocketpair] = JUMP(kIsSocketpair, BPF_JEQ, __NR_socketpair, kLoadType, kAllow),
    [kLoadType] = LOAD(args[1]), /* the type's low 32 bits (little-endian) */
    [kHasNewFlags] = JUMP(kHasNewFlags, BPF_JSET, NEW_SOCKET_FLAGS, kEinval, kAllow),
    [kEinval] = ERR(EINVAL),
    [kEnosys] = ERR(ENOSYS),
    [kAllow] = RET(SECCOMP_RET_ALLOW),
};

int main(int argc, char** argv) {
  struct sock_fprog prog = {(unsigned short)(sizeof kFilter / sizeof kFilter[0]), kFilter};
  if (argc < 2 || strcmp(argv[1], "--help") == 0) {
    fprintf(stderr,
            "usage: rhel5_exec PROGRAM [ARGS...]\n"
            "Runs PROGRAM with the system calls of RHEL 5's 2.6.18 kernel only.\n");
    return 2;
  }
  /* Without no_new_privs an unprivileged process may not install a filter. */
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
    fprintf(stderr, "rhel5_exec: cannot install the seccomp filter: %s\n", strerror(errno));
    return 126;
  }
  execvp(argv[1], argv + 1);
  fprintf(stderr, "rhel5_exec: cannot run %s: %s\n", argv[1], strerror(errno));
  return 127;
}
