/* The HTML page: one SVG plot per row, every profile-derived string
 * escaped, the source text of each line when the file can be read, no
 * external resource, sort buttons for each ranking. (The browser test,
 * browser_test.js, checks the page really works in Chromium.) */
#include "check.h"

#include <unistd.h>

static size_t count(const char *hay, const char *needle) {
  size_t n = 0;
  for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
    n++;
  return n;
}

int main(void) {
  char dir[] = "/tmp/coz-report-html-XXXXXX";
  if (!mkdtemp(dir))
    return 2;
  char src[128];
  snprintf(src, sizeof src, "%s/work.c", dir);
  FILE *s = fopen(src, "w");
  if (!s)
    return 2;
  fputs("int main(void) {\n  if (a < b && c > d) work(\"x\");\n}\n", s);
  fclose(s);

  /* Two lines; one named by the readable source file (line 2), one whose
   * name tries to inject markup. */
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  const char *names[2] = {src, "<script>alert('x')</script>\".c:7"};
  for (int l = 0; l < 2; l++)
    for (int k = 0; k <= 4; k++)
      fprintf(f,
              "experiment\tselected=%s%s\tspeedup=%.2f\tduration=%.0f\n"
              "throughput-point\tname=p&<b>\tdelta=1000\n",
              names[l], l == 0 ? ":2" : "", 0.25 * k,
              1e9 * (1 - (l + 1) * 0.1 * k));
  fclose(f);
  struct fixture fx;
  fixture_init(&fx);
  fixture_parse(&fx, "page.coz", text);
  free(text);
  fixture_analyse(&fx);
  CHECK(fx.r.n_rows == 2);
  char *html = render(&fx, cr_write_html);
  CHECK(count(html, "<svg class=\"plot\"") == 2);
  CHECK(count(html, "<section class=\"row\"") == 2);
  /* Markup from the profile is escaped, never live. */
  CHECK(count(html, "<script>") == 1); /* only the page's own script */
  CHECK_CONTAINS(html, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"
                       "&quot;.c:7");
  CHECK_CONTAINS(html, "p&amp;&lt;b&gt;");
  CHECK(!strstr(html, "<b>"));
  /* The source text of the readable line, escaped. */
  CHECK_CONTAINS(html, "<pre class=\"src\">  if (a &lt; b &amp;&amp; c &gt; d) "
                       "work(&quot;x&quot;);</pre>");
  CHECK(count(html, "<pre class=\"src\">") == 1);
  /* Self-contained: nothing is fetched. */
  CHECK(!strstr(html, " src=") && !strstr(html, " href=") &&
        !strstr(html, "@import") && !strstr(html, "url("));
  CHECK_CONTAINS(html, "data-sort=\"lower\"");
  CHECK_CONTAINS(html, "data-sort=\"slope\"");
  CHECK_CONTAINS(html, "data-sort=\"max\"");
  CHECK_CONTAINS(html, "data-sort=\"min\"");
  /* A CI band per plot. */
  CHECK(count(html, "<polygon class=\"ci\"") == 2);
  /* And a prediction curve with a vertex every 5% (21 of them). */
  CHECK(count(html, "<polyline class=\"fit\"") == 2);
  const char *fit = strstr(html, "<polyline class=\"fit\" points=\"");
  size_t commas = 0;
  for (const char *c = fit; c && *c && *c != '/'; c++)
    commas += *c == ',';
  CHECK(commas == 21);
  free(html);
  fixture_free(&fx);

  /* Nothing to plot: the page says why. */
  fixture_init(&fx);
  fixture_parse(&fx, "empty.coz", "startup\ttime=1\n");
  fx.p.files_read = 1;
  fixture_analyse(&fx);
  html = render(&fx, cr_write_html);
  CHECK(count(html, "<svg") == 0);
  CHECK_CONTAINS(html, "<p class=\"guidance\">nothing to plot: the profile "
                       "holds no experiment");
  free(html);
  fixture_free(&fx);
  cr_source_cache_free();
  unlink(src);
  rmdir(dir);
  return check_done("test_html");
}
