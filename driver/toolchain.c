/* toolchain.c: see toolchain.h. */
#define _GNU_SOURCE
#include "toolchain.h"

#include "arg_list.h"
#include "driver_config.h"

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static char *read_self_path(const char *tool) {
  size_t size = 256;
  for (;;) {
    char *buf = xmalloc(size);
    ssize_t n = readlink("/proc/self/exe", buf, size);
    if (n < 0) {
      fprintf(stderr,
              "%s: cannot read /proc/self/exe (%s): coz-cc needs /proc mounted "
              "to find its plugin and runtime\n",
              tool, strerror(errno));
      exit(1);
    }
    if ((size_t)n < size) {
      buf[n] = '\0';
      return buf;
    }
    free(buf);
    size *= 2;
  }
}

/* Cuts the last path component off `path` in place (keeps "/" for root). */
static void strip_last_component(char *path) {
  char *slash = strrchr(path, '/');
  if (!slash)
    return;
  if (slash == path)
    slash[1] = '\0';
  else
    *slash = '\0';
}

/* The install prefix: the driver's directory minus the bin directory's
 * components (one for "bin"). */
static char *find_prefix(const char *tool) {
  char *prefix = read_self_path(tool);
  strip_last_component(prefix);
  for (const char *p = COZ_BINDIR_REL; *p;) {
    strip_last_component(prefix);
    p = strchr(p, '/');
    if (!p)
      break;
    while (*p == '/')
      p++;
  }
  return prefix;
}

static char *path_join(const char *dir, const char *rel, const char *name) {
  size_t n = strlen(dir) + strlen(rel) + strlen(name) + 3;
  char *out = xmalloc(n);
  snprintf(out, n, "%s/%s%s%s", dir, rel, name[0] ? "/" : "", name);
  return out;
}

/* Runs `program -dumpversion` and returns the major version it prints, or -1
 * if it printed no number. */
static int query_major(const char *program, const char *variable,
                       const char *tool) {
  int fds[2];
  if (pipe(fds) != 0) {
    fprintf(stderr, "%s: pipe failed: %s\n", tool, strerror(errno));
    exit(1);
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_addclose(&actions, fds[1]);
  char *argv[] = {(char *)program, "-dumpversion", NULL};
  pid_t pid;
  /* Marks the probe, so that COZ_CC=coz-cc answers instead of recursing. */
  setenv(COZ_PROBE_VARIABLE, "1", 1);
  int err = posix_spawnp(&pid, program, &actions, NULL, argv, environ);
  unsetenv(COZ_PROBE_VARIABLE);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (err != 0) {
    fprintf(stderr, "%s: cannot run %s=%s (%s): point it at clang-%d\n", tool,
            variable, program, strerror(err), COZ_LLVM_MAJOR);
    exit(1);
  }
  char out[64] = {0};
  size_t used = 0;
  ssize_t n;
  while ((n = read(fds[0], out + used, sizeof out - 1 - used)) > 0 &&
         used + (size_t)n < sizeof out - 1)
    used += (size_t)n;
  close(fds[0]);
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  char *end;
  long major = strtol(out, &end, 10);
  return end == out ? -1 : (int)major;
}

static const char *choose_clang(bool cxx, const char *tool) {
  const char *variable = cxx ? "COZ_CXX" : "COZ_CC";
  const char *override = getenv(variable);
  if (!override || !override[0])
    return cxx ? COZ_CONFIGURED_CLANGXX : COZ_CONFIGURED_CLANG;
  int major = query_major(override, variable, tool);
  if (major < 0) {
    fprintf(stderr,
            "%s: %s=%s printed no version for -dumpversion (is it coz-cc "
            "itself?): set %s to %s-%d (or unset it)\n",
            tool, variable, override, variable, cxx ? "clang++" : "clang",
            COZ_LLVM_MAJOR);
    exit(1);
  }
  if (major != COZ_LLVM_MAJOR) {
    fprintf(stderr,
            "%s: %s=%s is LLVM %d, but libCozPass.so is built for LLVM %d: "
            "set %s to %s-%d (or unset it), or rebuild coz-cc with "
            "-DCOZ_LLVM_VERSION=%d\n",
            tool, variable, override, major, COZ_LLVM_MAJOR, variable,
            cxx ? "clang++" : "clang", COZ_LLVM_MAJOR, major);
    exit(1);
  }
  return override;
}

void toolchain_locate(struct toolchain *tc, bool cxx, const char *tool) {
  tc->clang = choose_clang(cxx, tool);
  char *prefix = find_prefix(tool);
  tc->plugin = path_join(prefix, COZ_LIBDIR_REL, COZ_PLUGIN_NAME);
  tc->runtime = path_join(prefix, COZ_LIBDIR_REL, COZ_RUNTIME_NAME);
  tc->static_runtime =
      path_join(prefix, COZ_LIBDIR_REL, COZ_STATIC_RUNTIME_NAME);
  tc->exports = path_join(prefix, COZ_LIBDIR_REL, COZ_EXPORTS_NAME);
  tc->include_dir = path_join(prefix, COZ_INCDIR_REL, "");
  free(prefix);
}

void toolchain_require(const char *path, const char *what, const char *tool) {
  if (access(path, R_OK) == 0)
    return;
  fprintf(stderr,
          "%s: %s %s is missing (%s): build the whole coz-cc tree (ninja) or "
          "reinstall it\n",
          tool, what, path, strerror(errno));
  exit(1);
}
