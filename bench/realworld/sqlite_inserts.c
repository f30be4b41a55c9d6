/* The SQLite case study's workload (bench/realworld/sqlite.py).
 *
 *   sqlite_inserts THREADS ROWS DIR
 *
 * THREADS threads each open their own database file DIR/db-N.sqlite (a new
 * one: the file is removed first) and insert rows into their own table, one
 * autocommit transaction per row, as the Coz paper's SQLite benchmark did:
 * the threads share no table and no connection, only SQLite's global state
 * (its allocator, its mutexes). ROWS rows in all: each thread takes the next
 * row number from a shared counter, so that the threads finish together (a
 * thread left alone at the end would run at another speed than two). The
 * journal is kept in memory and writes are not synced, so the time is
 * SQLite's code and not the disk's. One insert done is the progress point:
 * the study passes --coz-progress=sqlite_inserts.c:LINE of its line.
 *
 * Prints "BENCH elapsed_ns=N" (the threads' work, from before the first is
 * started to after the last is joined) and "rows=N"; exit status 1 with a
 * message on any SQLite error. */
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct worker {
  pthread_t tid;
  int index;
  const char *dir;
  long done;
};

static long total_rows;
static _Atomic long next_row;

static void fail(sqlite3 *db, const char *what) {
  fprintf(stderr, "sqlite_inserts: %s: %s\n", what,
          db ? sqlite3_errmsg(db) : "out of memory");
  exit(1);
}

static void exec(sqlite3 *db, const char *sql) {
  if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
    fail(db, sql);
}

static sqlite3 *open_db(const struct worker *w) {
  char path[4096];
  snprintf(path, sizeof path, "%s/db-%d.sqlite", w->dir, w->index);
  unlink(path);
  sqlite3 *db = NULL;
  if (sqlite3_open(path, &db) != SQLITE_OK)
    fail(db, path);
  exec(db, "PRAGMA locking_mode=EXCLUSIVE");
  exec(db, "PRAGMA journal_mode=MEMORY");
  exec(db, "PRAGMA synchronous=OFF");
  exec(db, "CREATE TABLE t(k INTEGER PRIMARY KEY, a INTEGER, b TEXT)");
  return db;
}

/* A row's text column: 40 characters that depend on the row. */
static void row_text(long i, char *out, size_t len) {
  unsigned long x = (unsigned long)i * 2654435761u + 12345;
  for (size_t j = 0; j + 1 < len; j++) {
    x = x * 6364136223846793005ul + 1442695040888963407ul;
    out[j] = (char)('a' + (x >> 59));
  }
  out[len - 1] = '\0';
}

static void *insert_rows(void *arg) {
  struct worker *w = arg;
  sqlite3 *db = open_db(w);
  sqlite3_stmt *ins = NULL;
  if (sqlite3_prepare_v2(db, "INSERT INTO t(a, b) VALUES (?1, ?2)", -1, &ins,
                         NULL) != SQLITE_OK)
    fail(db, "prepare");
  char text[41];
  for (long i; (i = next_row++) < total_rows;) {
    row_text(i, text, sizeof text);
    sqlite3_bind_int64(ins, 1, i * 7919 % 100003);
    sqlite3_bind_text(ins, 2, text, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(ins) != SQLITE_DONE)
      fail(db, "insert");
    w->done++; /* one insert done: the progress point's line */
    sqlite3_reset(ins);
  }
  sqlite3_finalize(ins);
  if (sqlite3_close(db) != SQLITE_OK)
    fail(db, "close");
  return NULL;
}

static long arg_long(const char *text, const char *what) {
  char *end;
  long v = strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || v <= 0) {
    fprintf(stderr, "sqlite_inserts: %s '%s' is not a positive number\n",
            what, text);
    exit(2);
  }
  return v;
}

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: sqlite_inserts THREADS ROWS DIR\n");
    return 2;
  }
  long threads = arg_long(argv[1], "THREADS");
  total_rows = arg_long(argv[2], "ROWS");
  struct worker *ws = calloc((size_t)threads, sizeof *ws);
  if (!ws)
    fail(NULL, "calloc");
  long long t0 = now_ns();
  for (long i = 0; i < threads; i++) {
    ws[i] = (struct worker){.index = (int)i, .dir = argv[3]};
    if (pthread_create(&ws[i].tid, NULL, insert_rows, &ws[i]) != 0)
      fail(NULL, "pthread_create");
  }
  long total = 0;
  for (long i = 0; i < threads; i++) {
    pthread_join(ws[i].tid, NULL);
    total += ws[i].done;
  }
  printf("BENCH elapsed_ns=%lld\nrows=%ld\n", now_ns() - t0, total);
  free(ws);
  return 0;
}
