/* deny_perf: runs a command with perf_event_open failing with an errno of
 * choice, the way a container's seccomp profile or perf_event_paranoid=3
 * denies it, without root tricks: PR_SET_NO_NEW_PRIVS plus a seccomp BPF
 * filter, inherited by every process the command starts.
 *
 *   deny_perf EACCES|EPERM|ENOSYS COMMAND [ARG...] */
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

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#else
#error "deny_perf: add this architecture's AUDIT_ARCH_*"
#endif

static int errno_named(const char *name) {
  if (strcmp(name, "EACCES") == 0)
    return EACCES;
  if (strcmp(name, "EPERM") == 0)
    return EPERM;
  if (strcmp(name, "ENOSYS") == 0)
    return ENOSYS;
  return -1;
}

int main(int argc, char **argv) {
  int err = argc > 2 ? errno_named(argv[1]) : -1;
  if (err < 0) {
    fprintf(stderr, "usage: deny_perf EACCES|EPERM|ENOSYS COMMAND [ARG...]\n");
    return 2;
  }
  struct sock_filter code[] = {
      /* Another architecture's syscall numbers mean other calls: allow. */
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 0, 3),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_perf_event_open, 0, 1),
      BPF_STMT(BPF_RET | BPF_K,
               SECCOMP_RET_ERRNO | ((unsigned)err & SECCOMP_RET_DATA)),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog = {sizeof code / sizeof *code, code};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
    perror("deny_perf: installing the seccomp filter");
    return 2;
  }
  /* The filter must really deny, or tests built on it would prove nothing. */
  if (syscall(__NR_perf_event_open, NULL, 0, -1, -1, 0) != -1 || errno != err) {
    fprintf(stderr, "deny_perf: the filter does not deny perf_event_open\n");
    return 2;
  }
  execvp(argv[2], argv + 2);
  perror("deny_perf: exec");
  return 127;
}
