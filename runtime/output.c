/* output.c: formats records as Coz's "type<TAB>key=value" lines or as JSON
 * lines (jansson), and appends them to the profile. */
#include "output.h"
#include "config.h"
#include "fd_floor.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The profile's absolute path: resolved at start-up, so that a program
 * that changes directory still appends where it was started. */
static char out_path[PATH_MAX];

/* Whether path's file can be appended to, or created: without creating it
 * (a process that runs no experiment leaves no file behind). */
static bool writable(const char *path) {
  if (access(path, F_OK) == 0)
    return access(path, W_OK) == 0;
  char dir[PATH_MAX];
  size_t n = strlen(path);
  while (n > 0 && path[n - 1] != '/')
    n--;
  if (n == 0)
    return access(".", W_OK | X_OK) == 0;
  memcpy(dir, path, n);
  dir[n] = '\0';
  return access(dir, W_OK | X_OK) == 0;
}

bool coz_output_prepare(bool explicit) {
  const char *path = coz_config.OUTPUT;
  void (*say)(const char *, ...) = explicit ? coz_log_error : coz_log_notice;
  if (!*path) {
    say("COZ_OUTPUT is empty: set it to a writable file path; profiling is "
        "off, the program runs normally");
    return false;
  }
  size_t len = 0;
  if (path[0] != '/') {
    if (!getcwd(out_path, sizeof out_path - 1))
      out_path[0] = '\0';
    len = strlen(out_path);
    if (len > 0 && out_path[len - 1] != '/')
      out_path[len++] = '/';
  }
  if (len + strlen(path) >= sizeof out_path || !writable(path)) {
    say("cannot create or append to the profile %s: set COZ_OUTPUT to a "
        "writable path; profiling is off, the program runs normally",
        path);
    return false;
  }
  strcpy(out_path + len, path);
  return true;
}

const char *coz_output_path(void) { return out_path; }

static void append(struct coz_out *o, const char *s, size_t n) {
  if (o->failed)
    return;
  if (o->len + n + 1 > o->cap) {
    size_t cap = o->cap ? o->cap : 1024;
    while (o->len + n + 1 > cap)
      cap *= 2;
    char *b = realloc(o->buf, cap);
    if (!b) {
      o->failed = true;
      return;
    }
    o->buf = b;
    o->cap = cap;
  }
  memcpy(o->buf + o->len, s, n);
  o->len += n;
  o->buf[o->len] = '\0';
}

void coz_out_raw(struct coz_out *o, const char *s, size_t n) {
  append(o, s, n);
}

/* Tabs and newlines would split a record: names never contain them in
 * practice, but a user-chosen name could. */
static void append_clean(struct coz_out *o, const char *s) {
  for (; *s; s++) {
    char c = (*s == '\t' || *s == '\n' || *s == '\r') ? ' ' : *s;
    append(o, &c, 1);
  }
}

static bool json_mode(void) { return coz_config.FORMAT == COZ_FORMAT_JSON; }

void coz_out_begin(struct coz_out *o, const char *type) {
  if (json_mode()) {
    o->json = json_object();
    json_object_set_new(o->json, "type", json_string(type));
  } else {
    append(o, type, strlen(type));
  }
}

void coz_out_str(struct coz_out *o, const char *key, const char *value) {
  if (json_mode()) {
    json_object_set_new(o->json, key, json_string(value ? value : ""));
    return;
  }
  append(o, "\t", 1);
  append(o, key, strlen(key));
  append(o, "=", 1);
  append_clean(o, value ? value : "");
}

void coz_out_u64(struct coz_out *o, const char *key, uint64_t value) {
  if (json_mode()) {
    json_object_set_new(o->json, key, json_integer((json_int_t)value));
    return;
  }
  char num[24];
  snprintf(num, sizeof num, "%llu", (unsigned long long)value);
  coz_out_str(o, key, num);
}

void coz_out_double(struct coz_out *o, const char *key, double value) {
  if (json_mode()) {
    json_object_set_new(o->json, key, json_real(value));
    return;
  }
  char num[32];
  snprintf(num, sizeof num, "%.2f", value);
  coz_out_str(o, key, num);
}

void coz_out_end(struct coz_out *o) {
  if (json_mode()) {
    char *s = json_dumps(o->json, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (s) {
      append(o, s, strlen(s));
      free(s);
    } else {
      o->failed = true;
    }
    json_decref(o->json);
    o->json = NULL;
  }
  append(o, "\n", 1);
}

/* The profile's descriptor, kept open at a high number (fd_floor.h) so
 * that writing a block takes no low number from the program; with the
 * identity of the file it opened, checked before each write: a daemon that
 * closes every descriptor it did not open closes it too, and a number the
 * program reuses for a file of its own must never be written to. Profiler
 * thread, or the exiting thread once it has stopped. */
static int out_fd = -1;
static struct stat out_id;
static int reader_fd = -1; /* the profile so far, opened before main */

void coz_output_preopen(void) {
  struct stat st;
  if (stat(out_path, &st) != 0 || !S_ISREG(st.st_mode))
    return; /* created at the first write, if any */
  int fd = coz_fd_floor((int)syscall(SYS_openat, AT_FDCWD, out_path,
                                     O_WRONLY | O_APPEND | O_CLOEXEC));
  if (fd >= 0 && syscall(SYS_fstat, fd, &out_id) == 0)
    out_fd = fd;
  else if (fd >= 0)
    coz_fd_close(fd);
  reader_fd = coz_fd_floor(
      (int)syscall(SYS_openat, AT_FDCWD, out_path, O_RDONLY | O_CLOEXEC));
}

int coz_output_take_reader(void) {
  int fd = reader_fd;
  reader_fd = -1;
  return fd;
}

static int profile_fd(void) {
  struct stat now;
  if (out_fd >= 0 && syscall(SYS_fstat, out_fd, &now) == 0 &&
      now.st_dev == out_id.st_dev && now.st_ino == out_id.st_ino)
    return out_fd;
  /* Raw system calls: the runtime interposes open and write. */
  int fd = coz_fd_floor((int)syscall(SYS_openat, AT_FDCWD, out_path,
                                     O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
                                     0644));
  if (fd >= 0 && syscall(SYS_fstat, fd, &out_id) != 0) {
    coz_fd_close(fd);
    fd = -1;
  }
  out_fd = fd;
  return fd;
}

void coz_out_flush(struct coz_out *o) {
  if (!o->failed && o->len > 0) {
    int fd = profile_fd();
    ssize_t n = -1;
    if (fd >= 0) {
      do
        n = syscall(SYS_write, fd, o->buf, o->len);
      while (n < 0 && errno == EINTR);
    }
    /* A path that opens but does not take writes (/proc files, /dev/full,
     * a full disk): say so once, and keep the program running. */
    static atomic_flag said = ATOMIC_FLAG_INIT;
    if ((n < 0 || (size_t)n != o->len) && !atomic_flag_test_and_set(&said))
      coz_log_error("cannot write the profile %s (%s): set COZ_OUTPUT to a "
                    "writable file; the profile is incomplete",
                    out_path, n < 0 ? strerror(errno) : "short write");
  }
  o->len = 0;
  o->failed = false;
}

void coz_out_free(struct coz_out *o) {
  free(o->buf);
  o->buf = NULL;
  o->len = o->cap = 0;
}
