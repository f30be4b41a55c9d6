/* coz_options.c: see coz_options.h. */
#include "coz_options.h"

#include "driver_config.h"

#include <stdlib.h>
#include <string.h>

enum value_rule {
  VALUE_NONE,          /* a flag: no "=value" */
  VALUE_SITE_OPT_NAME, /* FILE:LINE or FILE:LINE=NAME */
  VALUE_SITE_NAME,     /* FILE:LINE=NAME */
  VALUE_WORD,          /* any non-empty text */
};

struct option_spec {
  const char *name; /* without the leading "--coz-" */
  enum value_rule rule;
  const char *value_help;
  bool for_pass; /* forwarded in COZ_PASS_ARGS */
  const char *help;
};

static const struct option_spec option_table[] = {
    {"progress", VALUE_SITE_OPT_NAME, "FILE:LINE[=NAME]", true,
     "a throughput progress point at LINE of FILE (named NAME, default "
     "FILE:LINE)"},
    {"begin", VALUE_SITE_NAME, "FILE:LINE=NAME", true,
     "a transaction NAME starts when LINE of FILE runs (latency point)"},
    {"end", VALUE_SITE_NAME, "FILE:LINE=NAME", true,
     "a transaction NAME ends when LINE of FILE runs (latency point)"},
    {"skip", VALUE_WORD, "FUNCTION", true,
     "leave FUNCTION uninstrumented (no checkpoints, no markers)"},
    {"no-candidates", VALUE_NONE, NULL, true,
     "mark no candidate progress points (without a progress point, the "
     "program's main loops and handlers stand in: coz-report suggest)"},
    {"verbose", VALUE_NONE, NULL, false,
     "print the clang command line on stderr before running it"},
    {"help", VALUE_NONE, NULL, false, "print this list and exit"},
};

enum { OPTION_COUNT = sizeof option_table / sizeof option_table[0] };

static const struct option_spec *find_option(const char *name, size_t len) {
  for (int i = 0; i < OPTION_COUNT; i++)
    if (strlen(option_table[i].name) == len &&
        memcmp(option_table[i].name, name, len) == 0)
      return &option_table[i];
  return NULL;
}

static bool is_digits(const char *s, size_t len) {
  if (len == 0)
    return false;
  for (size_t i = 0; i < len; i++)
    if (s[i] < '0' || s[i] > '9')
      return false;
  return true;
}

/* FILE:LINE with a non-empty FILE and a positive decimal LINE; the part from
 * the first '=' on (if any) is the point's name. */
static bool valid_site(const char *value, bool name_required) {
  const char *eq = strchr(value, '=');
  size_t site_len = eq ? (size_t)(eq - value) : strlen(value);
  const char *colon = NULL;
  for (size_t i = 0; i < site_len; i++)
    if (value[i] == ':')
      colon = value + i;
  if (!colon || colon == value)
    return false;
  const char *line = colon + 1;
  size_t line_len = site_len - (size_t)(line - value);
  /* At most 9 digits, like the pass: a line number fits in 32 bits. */
  if (line_len > 9 || !is_digits(line, line_len) || strtol(line, NULL, 10) <= 0)
    return false;
  if (eq && eq[1] == '\0')
    return false;
  return eq || !name_required;
}

static bool valid_value(const struct option_spec *spec, const char *value) {
  switch (spec->rule) {
  case VALUE_NONE:
    return value == NULL;
  case VALUE_SITE_OPT_NAME:
    return value && valid_site(value, false);
  case VALUE_SITE_NAME:
    return value && valid_site(value, true);
  case VALUE_WORD:
    return value && value[0] != '\0';
  }
  return false;
}

void coz_options_consume(struct coz_options *opts, const char *arg,
                         const char *tool) {
  const char *name = arg + strlen(COZ_OPTION_PREFIX);
  const char *eq = strchr(name, '=');
  size_t name_len = eq ? (size_t)(eq - name) : strlen(name);
  const struct option_spec *spec = find_option(name, name_len);
  if (!spec) {
    fprintf(stderr,
            "%s: unknown option '%s': run '%s --coz-help' for the list\n", tool,
            arg, tool);
    exit(1);
  }
  const char *value = eq ? eq + 1 : NULL;
  if (!valid_value(spec, value)) {
    if (spec->rule == VALUE_NONE)
      fprintf(stderr, "%s: '%s' takes no value: write --coz-%s\n", tool, arg,
              spec->name);
    else
      fprintf(stderr, "%s: bad option '%s': write --coz-%s=%s\n", tool, arg,
              spec->name, spec->value_help);
    exit(1);
  }
  if (spec->for_pass)
    arg_list_push(&opts->pass_args, arg);
  else if (strcmp(spec->name, "help") == 0)
    opts->help = true;
  else if (strcmp(spec->name, "verbose") == 0)
    opts->verbose = true;
}

void coz_options_print_help(FILE *out, const char *tool) {
  fprintf(out,
          "usage: %s [clang options] [--coz-* options] inputs...\n"
          "Compiles and links like clang, adding causal-profiling "
          "instrumentation.\n"
          "Every other argument goes to clang unchanged.\n\noptions:\n",
          tool);
  for (int i = 0; i < OPTION_COUNT; i++) {
    const struct option_spec *spec = &option_table[i];
    fprintf(out, "  --coz-%s%s%s\n      %s\n", spec->name,
            spec->value_help ? "=" : "",
            spec->value_help ? spec->value_help : "", spec->help);
  }
  fprintf(out,
          "\nenvironment:\n"
          "  COZ_CC, COZ_CXX\n"
          "      clang (clang++) to run instead of the configured one; must be "
          "of the\n      plugin's LLVM major (%d)\n"
          "  COZ_PASS_ARGS\n"
          "      more pass options, one per line (plain clang + -fpass-plugin "
          "reads it too)\n"
          "The profiled program reads COZ_OUTPUT (profile file) and the "
          "other COZ_* variables\nof runtime/flags.def; see README.md.\n",
          COZ_LLVM_MAJOR);
}

char *coz_options_pass_env(const struct coz_options *opts,
                           const char *inherited) {
  size_t len = inherited ? strlen(inherited) + 1 : 0;
  for (size_t i = 0; i < opts->pass_args.count; i++)
    len += strlen(opts->pass_args.items[i]) + 1;
  if (len == 0)
    return NULL;
  char *env = xmalloc(len + 1);
  char *p = env;
  if (inherited && inherited[0]) {
    /* The pass splits a value without a newline at blanks: once ours are
     * added, a blank-separated one must become lines to mean the same. */
    int by_line = strchr(inherited, '\n') != NULL;
    for (const char *c = inherited; *c; c++)
      *p++ = !by_line && (*c == ' ' || *c == '\t') ? '\n' : *c;
    *p++ = '\n';
  }
  /* Every option ends with a newline, so the pass reads the value by lines
   * even when it holds one option: a name or path may contain blanks
   * (`--coz-skip=ns::f()::{lambda(int)#1}::operator()(int) const`). */
  for (size_t i = 0; i < opts->pass_args.count; i++) {
    size_t n = strlen(opts->pass_args.items[i]);
    memcpy(p, opts->pass_args.items[i], n);
    p += n;
    *p++ = '\n';
  }
  *p = '\0';
  return env;
}
