/* libFuzzer target: the whole path from profile bytes to every output.
 *
 * The first two bytes pick --min-points and --sort, so short inputs reach
 * the analysis, the bootstrap and the three renderers, not only the parser.
 * Source text is not read (a fuzzed name may be any path). */
#include "causal/analysis.h"
#include "causal/answer.h"
#include "causal/out_html.h"
#include "causal/out_json.h"
#include "causal/out_text.h"
#include "causal/profile_parse.h"
#include "causal/profile_store.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  struct cr_options o;
  cr_options_default(&o);
  o.replicates = 16; /* enough to exercise the bootstrap, fast */
  if (size >= 2) {
    o.min_points = 1 + data[0] % 6;
    o.sort = (enum cr_sort)(data[1] % CR_SORT_N);
  }
  struct cr_profile p;
  cr_profile_init(&p);
  struct cr_diag diag = {NULL, 0};
  cr_profile_parse(&p, "fuzz.coz", (const char *)data, size, &diag);
  p.files_read = 1;
  struct cr_result r;
  if (cr_analyse(&p, &o, &r) == 0) {
    FILE *sink = fopen("/dev/null", "w");
    if (sink) {
      const char *in[] = {"fuzz.coz"};
      struct cr_report rep = {&p, &o, &r, in, 1, NULL, 0, 0};
      cr_write_text(sink, &rep);
      cr_write_json(sink, &rep);
      cr_write_html(sink, &rep);
      fclose(sink);
    }
    cr_result_free(&r);
  }
  cr_profile_free(&p);
  return 0;
}
