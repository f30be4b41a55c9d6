/* Confidence intervals: every point gets a non-empty 95% interval around
 * its estimate, intervals shrink as experiments are added, the output is
 * deterministic for a given seed, and the intervals cover the true value
 * about as often as they claim. */
#include "check.h"

#include <math.h>
#include <stdint.h>

/* Deterministic noise for the synthetic profiles. */
static uint64_t lcg_state;
static double noise(void) { /* uniform in [-1, 1) */
  lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(lcg_state >> 11) * 0x1p-52 - 1;
}

/* n experiments per speedup 0, .25, .5, .75, 1 on line e.c:1; the true
 * program speedup is 0.4 * s, i.e. the visit rate at speedup s is
 * rate0 / (1 - 0.4 s); each experiment's count carries +-10% noise. */
static char *synthetic(unsigned n, uint64_t seed) {
  lcg_state = seed;
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  for (unsigned i = 0; i < n; i++)
    for (int k = 0; k <= 4; k++) {
      double rate = 1e-5 / (1 - 0.4 * 0.25 * k); /* visits per ns */
      double delta = rate * 1e8 * (1 + 0.1 * noise());
      fprintf(f,
              "experiment\tselected=e.c:1\tspeedup=%.2f\tduration=100000000\n"
              "throughput-point\tname=p\tdelta=%.0f\n",
              0.25 * k, delta);
    }
  fclose(f);
  return buf;
}

static void analyse_text(struct fixture *f, const char *text) {
  fixture_init(f);
  fixture_parse(f, "ci.coz", text);
  fixture_analyse(f);
}

/* One profile of a coverage trial, analysed (and its text freed): the row
 * of line e.c:1, point p, or NULL. */
static const struct cr_row *analyse_trial(struct fixture *c, char *text) {
  fixture_init(c);
  c->o.replicates = 300;
  c->o.top = 0;
  fixture_parse(c, "trial.coz", text);
  fixture_analyse(c);
  free(text);
  return find_row(c, "e.c:1", "p");
}

/* A/A rows: lines whose speedups change nothing, each measured once at
 * every speedup 5-100% (+-20% uniform noise on each experiment's visits,
 * the spread of memcached's 100 ms experiments) against a pooled baseline
 * of 500; four profiles of 100 lines. The rows of one profile share its
 * baseline's error, so their slopes move together: the mean is taken over
 * the four. While the fits weighed each point by visits / r^2, a weight
 * that grew with the measured rate's cube, the slopes averaged +0.029 and
 * 76 of the 400 intervals lay above 0 (2.5% expected), none below; A/A
 * profiles made of memcached's baselines showed the same (docs/report.md).
 * Now -0.005, 5 above and none below. And the intervals' lower halves
 * are not the longer: with the visits as weights but kept as counted in
 * the replicates, y's curvature in the drawn rate stretched them down by
 * 0.074 more than the upper halves on average (10 below 0, none above,
 * and slower answers on the convergence profiles: docs/results.md);
 * with the replicates' visits following their drawn rate, +0.059. */
static void check_flat_rows(void) {
  enum { PROFILES = 4, LINES = 100, BASE = 5, STEPS = 20 };
  unsigned above = 0, below = 0, rows = 0;
  double sum = 0, skew = 0;
  for (int p = 0; p < PROFILES; p++) {
    lcg_state = 77 + (uint64_t)p;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    for (int l = 0; l < LINES; l++)
      for (int k = -BASE; k < STEPS; k++)
        fprintf(f,
                "experiment\tselected=f.c:%d\tspeedup=%.2f\t"
                "duration=100000000\n"
                "throughput-point\tname=p\tdelta=%.0f\n",
                l + 1, k < 0 ? 0 : 0.05 * (k + 1), 1e4 * (1 + 0.2 * noise()));
    fclose(f);
    struct fixture c;
    analyse_trial(&c, buf); /* no e.c:1 here: the rows are read below */
    CHECK(c.r.n_rows == LINES);
    for (size_t i = 0; i < c.r.n_rows; i++) {
      const struct cr_row *r = &c.r.rows[i];
      above += r->slope_lo > 0;
      below += r->slope_hi < 0;
      sum += r->slope;
      skew += (r->slope_hi - r->slope) - (r->slope - r->slope_lo);
      rows++;
    }
    fixture_free(&c);
  }
  printf("A/A rows: %u of %u slope intervals above 0, %u below; mean slope "
         "%+.4f; upper minus lower half-width %+.4f\n",
         above, rows, below, sum / rows, skew / rows);
  CHECK(above <= rows * 4 / 100);
  CHECK(fabs(sum / rows) < 0.015);
  CHECK(skew / rows > -0.02);
}

int main(void) {
  /* 3 experiments per speedup, then the same 3 plus 21 more. */
  struct fixture small, large;
  char *t3 = synthetic(3, 42), *t24 = synthetic(24, 42);
  CHECK(strncmp(t3, t24, strlen(t3)) == 0); /* data is only added */
  analyse_text(&small, t3);
  analyse_text(&large, t24);
  const struct cr_row *rs = find_row(&small, "e.c:1", "p");
  const struct cr_row *rl = find_row(&large, "e.c:1", "p");
  CHECK(rs && rl);
  if (rs && rl) {
    for (int pm = 250; pm <= 1000; pm += 250) {
      const struct cr_measure *a = at(rs, pm), *b = at(rl, pm);
      CHECK(a && b);
      if (!a || !b)
        continue;
      /* Non-empty and around the estimate. */
      CHECK(a->lo < a->y && a->y < a->hi);
      CHECK(b->lo < b->y && b->y < b->hi);
      /* Eight times the data: narrower (about sqrt(8) = 2.8 times). */
      double wa = a->hi - a->lo, wb = b->hi - b->lo;
      printf("speedup %d%%: CI width %.4f with 3 experiments, %.4f with 24 "
             "(ratio %.2f)\n",
             pm / 10, wa, wb, wa / wb);
      if (!(wb < wa / 1.5)) {
        fprintf(stderr, "speedup %d: width %.4f with 3 exps, %.4f with 24\n",
                pm, wa, wb);
        check_failures++;
      }
    }
    CHECK(rs->slope_lo < rs->slope && rs->slope < rs->slope_hi);
    CHECK(rl->slope_hi - rl->slope_lo < (rs->slope_hi - rs->slope_lo) / 1.5);
    CHECK(rl->pred_lo[1] < rl->pred[1] && rl->pred[1] < rl->pred_hi[1]);
    /* The truth (0.4 s) is inside the large profile's intervals. */
    CHECK(rl->slope_lo < 0.4 && 0.4 < rl->slope_hi);
    CHECK(at(rl, 500)->lo < 0.2 && 0.2 < at(rl, 500)->hi);
  }

  /* Deterministic: the same input gives the same intervals; another seed
   * gives other (but similar) ones. */
  struct fixture again, reseeded;
  analyse_text(&again, t24);
  fixture_init(&reseeded);
  reseeded.o.seed = 12345;
  fixture_parse(&reseeded, "ci.coz", t24);
  fixture_analyse(&reseeded);
  const struct cr_row *ra = find_row(&again, "e.c:1", "p");
  const struct cr_row *rr = find_row(&reseeded, "e.c:1", "p");
  CHECK(ra && rr && rl);
  if (ra && rr && rl) {
    CHECK(at(ra, 500)->lo == at(rl, 500)->lo);
    CHECK(at(ra, 500)->hi == at(rl, 500)->hi);
    CHECK(at(rr, 500)->lo != at(rl, 500)->lo);
    CHECK_NEAR(at(rr, 500)->lo, at(rl, 500)->lo, 0.02);
  }
  fixture_free(&again);
  fixture_free(&reseeded);
  fixture_free(&small);
  fixture_free(&large);
  free(t3);
  free(t24);

  /* One experiment per speedup: the Poisson fallback still gives a
   * non-empty interval (delta ~ 1000 => about +-6% on the rate). */
  struct fixture one;
  char *t1 = synthetic(1, 7);
  analyse_text(&one, t1);
  free(t1);
  const struct cr_row *r1 = find_row(&one, "e.c:1", "p");
  CHECK(r1 != NULL);
  if (r1)
    for (int pm = 250; pm <= 1000; pm += 250) {
      const struct cr_measure *m = at(r1, pm);
      CHECK(m && m->lo < m->y && m->y < m->hi && m->hi - m->lo > 0.02);
    }
  fixture_free(&one);

  /* Coverage: over 200 independent synthetic profiles, the 95% interval
   * at speedup .5 should contain the true 0.2 about 95% of the time, with
   * 2 and with 6 experiments per speedup (measured: 193/200 and 195/200).
   * The bar, 90%, allows for the binomial spread of 200 trials (sd 1.5%).
   * A resample of each speedup's own experiments covered 78% at 2. */
  for (unsigned per = 2; per <= 6; per += 4) {
    unsigned covered = 0, trials = 200;
    for (unsigned t = 0; t < trials; t++) {
      struct fixture c;
      const struct cr_row *r = analyse_trial(&c, synthetic(per, 1000 + t));
      if (r && at(r, 500)->lo <= 0.2 && 0.2 <= at(r, 500)->hi)
        covered++;
      fixture_free(&c);
    }
    printf("coverage of the true value at s=50%%, %u experiments per "
           "speedup: %u/%u\n",
           per, covered, trials);
    CHECK(covered >= trials * 90 / 100);
  }

  /* Coverage of the slope on a curve that is not a line (the accuracy
   * suite's pipeline: y = s up to 75%, then 0.84), against a baseline of
   * 10 times as many experiments (a profile of many lines pools them), with
   * the pipeline's recorded noise: steady visits, noisy effective durations
   * (the recording: visits 6% apart, durations 18% at 100%). The truth is
   * the slope under the design's expected weights (the visits). While
   * replicates made the visits follow the drawn rate, weight and error
   * moved together and the recorded pipeline's slope interval covered
   * 92.3%; here, with durations noisier still, 350/400. With the visits
   * kept as counted, 376/400; with the visits as the weights, following
   * the drawn rate in proportion (no longer its cube), 391/400 (387 and
   * 391 with other seeds). The bar, 92%, is below that spread and far
   * above 87%. */
  {
    const double ys[5] = {0, 0.25, 0.5, 0.75, 0.84};
    const double spread[5] = {0.05, 0.05, 0.05, 0.15, 0.4}; /* durations */
    const unsigned per = 10, base = 100, trials = 400;
    double w[5], sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int k = 0; k < 5; k++) {
      w[k] = (k ? per : base) * 65.0; /* the visits expected */
      sw += w[k], sx += w[k] * 0.25 * k, sy += w[k] * ys[k];
    }
    for (int k = 0; k < 5; k++) {
      sxx += w[k] * (0.25 * k - sx / sw) * (0.25 * k - sx / sw);
      sxy += w[k] * (0.25 * k - sx / sw) * (ys[k] - sy / sw);
    }
    double truth = sxy / sxx;
    unsigned covered = 0;
    for (unsigned t = 0; t < trials; t++) {
      lcg_state = 5000 + t;
      char *buf = NULL;
      size_t len = 0;
      FILE *f = open_memstream(&buf, &len);
      for (int k = 0; k < 5; k++)
        for (unsigned i = 0; i < (k ? per : base); i++) {
          double visits = round(65 * (1 + 0.1 * noise()));
          double rate = 6.5e-7 / (1 - ys[k]); /* visits per ns */
          double dur = visits / rate * (1 + spread[k] * noise());
          fprintf(f,
                  "experiment\tselected=e.c:1\tspeedup=%.2f\tduration=%.0f\n"
                  "throughput-point\tname=p\tdelta=%.0f\n",
                  0.25 * k, dur, visits);
        }
      fclose(f);
      struct fixture c;
      const struct cr_row *r = analyse_trial(&c, buf);
      if (r && r->slope_lo <= truth && truth <= r->slope_hi)
        covered++;
      fixture_free(&c);
    }
    printf("coverage of the true slope %.3f of a bent curve, %u experiments "
           "per speedup, %u at the baseline: %u/%u\n",
           truth, per, base, covered, trials);
    CHECK(covered >= trials * 92 / 100);
  }
  check_flat_rows();
  return check_done("test_ci");
}
