/* Merging: every run in every file is combined, experiments of the same
 * (line, speedup) are summed across runs and files, `samples` and
 * `runtime time=` deltas add up, and a point record never attaches to an
 * experiment of another file. Uses real files through
 * cr_profile_read_file. */
#include "check.h"

#include <unistd.h>

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    exit(2);
  }
  fputs(text, f);
  fclose(f);
}

/* File 1, two runs (two startups):
 *   run 1: speedup 0 (1e9, 100), speedup .25 (1e9, 110)
 *   run 2: speedup .5 (1e9, 125), samples d.c:3 count=40, runtime 2e9
 * File 2, one run:
 *   speedup 0 (3e9, 300), .75 (1e9, 140), 1 (1e9, 150),
 *   samples d.c:3 count=60, runtime 3e9
 * Merged baseline: (4e9, 400) -> p0 = 1e7 ns;
 *   y(.25) = 1 - (1e9/110)/1e7 = 0.0909090909
 *   y(.5) = 0.2, y(.75) = 0.2857142857, y(1) = 0.3333333333
 * Runs: 3. Samples of d.c:3: 100. Runtime: 5e9. */
static const char file1[] =
    "startup\ttime=1\tpid=1\n"
    "experiment\tselected=d.c:3\tspeedup=0\tduration=1000000000\n"
    "throughput-point\tname=p\tdelta=100\n"
    "experiment\tselected=d.c:3\tspeedup=0.25\tduration=1000000000\n"
    "throughput-point\tname=p\tdelta=110\n"
    "shutdown\ttime=2\tpid=1\n"
    "startup\ttime=3\tpid=2\n"
    "experiment\tselected=d.c:3\tspeedup=0.5\tduration=1000000000\n"
    "throughput-point\tname=p\tdelta=125\n"
    "samples\tlocation=d.c:3\tcount=40\n"
    "runtime\ttime=2000000000\tpid=2\n";
static const char file2[] =
    "throughput-point\tname=p\tdelta=999\n" /* no experiment in this file */
    "startup\ttime=4\tpid=3\n"
    "experiment\tselected=d.c:3\tspeedup=0\tduration=3000000000\n"
    "throughput-point\tname=p\tdelta=300\n"
    "experiment\tselected=d.c:3\tspeedup=0.75\tduration=1000000000\n"
    "throughput-point\tname=p\tdelta=140\n"
    "experiment\tselected=d.c:3\tspeedup=1\tduration=1000000000\n"
    "throughput-point\tname=p\tdelta=150\n"
    "samples\tlocation=d.c:3\tcount=60\n"
    "runtime\ttime=3000000000\tpid=3\n";

int main(void) {
  char dir[] = "/tmp/coz-report-merge-XXXXXX";
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 2;
  }
  char p1[64], p2[64], missing[64];
  snprintf(p1, sizeof p1, "%s/one.coz", dir);
  snprintf(p2, sizeof p2, "%s/two.coz", dir);
  snprintf(missing, sizeof missing, "%s/missing.coz", dir);
  write_file(p1, file1);
  write_file(p2, file2);

  struct fixture f;
  fixture_init(&f);
  struct cr_diag d = {f.diag_out, 100};
  CHECK(cr_profile_read_file(&f.p, p1, &d) == 0);
  CHECK(cr_profile_read_file(&f.p, missing, &d) == -1);
  CHECK(cr_profile_read_file(&f.p, p2, &d) == 0);
  fflush(f.diag_out);
  /* The orphan point record of file 2 is reported with its line number. */
  char want[128];
  snprintf(want, sizeof want,
           "%s:1: throughput-point record is not preceded by an experiment",
           p2);
  CHECK_CONTAINS(f.messages, want);
  snprintf(want, sizeof want, "cannot read '%s': No such file", missing);
  CHECK_CONTAINS(f.messages, want);
  CHECK(f.p.malformed == 1);
  CHECK(f.p.files_read == 2);
  CHECK(f.p.runs == 3);
  CHECK(f.p.n_experiments == 6);
  CHECK_NEAR(f.p.runtime_ns, 5e9, 1e-3);
  fixture_analyse(&f);
  CHECK(f.r.runs == 3);
  const struct cr_row *row = find_row(&f, "d.c:3", "p");
  CHECK(row != NULL);
  if (row) {
    CHECK(at(row, 0)->experiments == 2);
    CHECK(at(row, 0)->delta == 400);
    CHECK_NEAR(at(row, 0)->duration, 4e9, 1e-3);
    CHECK_NEAR(y_at(row, 250), 0.0909090909, 1e-9);
    CHECK_NEAR(y_at(row, 500), 0.2, 1e-9);
    CHECK_NEAR(y_at(row, 750), 0.2857142857, 1e-9);
    CHECK_NEAR(y_at(row, 1000), 0.3333333333, 1e-9);
    /* No selected-samples in these records: no phase correction even
     * though samples and runtime records exist. */
    CHECK(!row->phase_applied);
  }
  long line = -1;
  for (size_t i = 0; i < f.p.n_lines; i++)
    if (strcmp(f.p.lines[i].name, "d.c:3") == 0)
      line = (long)i;
  CHECK(line >= 0 && f.p.lines[line].samples == 100);
  fixture_free(&f);
  unlink(p1);
  unlink(p2);
  rmdir(dir);
  return check_done("test_merge");
}
