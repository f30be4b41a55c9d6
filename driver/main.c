/* coz-cc / coz-c++: clang with causal-profiling instrumentation.
 *
 * A drop-in for cc and c++: every user argument reaches clang unchanged and
 * in order; the driver only adds what profiling needs for the mode the
 * command line is in, takes out its own --coz-* options, and then becomes
 * clang (exec), so clang's exit status is the driver's. One source, two
 * names: the C++ driver is chosen by the name it is run as. */
#define _GNU_SOURCE
#include "arg_list.h"
#include "cli_scan.h"
#include "coz_options.h"
#include "driver_config.h"
#include "response_file.h"
#include "toolchain.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* -Wl,--wrap=NAME for every checkpoint: the -static runtime intercepts
 * synchronization calls that were not compiled by the pass this way. */
static const char *const wrap_flags[] = {
#define COZ_CHECKPOINT(ROLE, RET, NAME, ...) "-Wl,--wrap=" #NAME,
#include "checkpoints.def"
#undef COZ_CHECKPOINT
};

static const char *const runtime_dependencies[] = {COZ_RUNTIME_DEPENDENCIES};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

static bool named_for_cxx(const char *tool) {
  return strstr(tool, "++") || strstr(tool, "cxx");
}

/* Adds one user argument: --coz-* options are consumed; everything else is
 * forwarded as written. */
static void take_plain_arg(const char *arg, struct coz_options *opts,
                           struct arg_list *expanded,
                           struct arg_list *forwarded, const char *tool) {
  if (is_coz_option(arg)) {
    coz_options_consume(opts, arg, tool);
    return;
  }
  arg_list_push(expanded, arg);
  arg_list_push(forwarded, arg);
}

static bool has_coz_option(const struct arg_list *args) {
  for (size_t i = 0; i < args->count; i++)
    if (is_coz_option(args->items[i]))
      return true;
  return false;
}

/* A response file is forwarded as "@file" (clang reads it again) unless it
 * holds --coz-* options; then its contents go inline without them. */
static void take_response_file(const char *arg, struct coz_options *opts,
                               struct arg_list *expanded,
                               struct arg_list *forwarded, const char *tool) {
  struct arg_list contents = {0};
  if (response_file_expand(arg + 1, &contents, tool) != 0) {
    take_plain_arg(arg, opts, expanded, forwarded, tool);
    return;
  }
  bool inline_contents = has_coz_option(&contents);
  for (size_t i = 0; i < contents.count; i++) {
    const char *item = contents.items[i];
    if (is_coz_option(item)) {
      coz_options_consume(opts, item, tool);
      continue;
    }
    arg_list_push(expanded, item);
    if (inline_contents)
      arg_list_push(forwarded, item);
  }
  if (!inline_contents)
    arg_list_push(forwarded, arg);
  arg_list_free(&contents);
}

static void split_user_args(int argc, char **argv, struct coz_options *opts,
                            struct arg_list *expanded,
                            struct arg_list *forwarded, const char *tool) {
  for (int i = 1; i < argc; i++) {
    if (argv[i][0] == '@')
      take_response_file(argv[i], opts, expanded, forwarded, tool);
    else
      take_plain_arg(argv[i], opts, expanded, forwarded, tool);
  }
}

/* Before the user's arguments. No frame pointers: samples are attributed
 * by CFI, and only csw call paths need them (the runtime says so). */
static void add_leading_compile_flags(struct arg_list *cmd,
                                      const struct cli_facts *facts) {
  if (!cli_compiles(facts))
    return;
  if (!facts->debug_info_chosen)
    arg_list_push(cmd, "-gline-tables-only"); /* samples → source lines */
}

/* After the user's arguments: -I is searched in order, so the user's own
 * include directories win over ours. */
static void add_trailing_compile_flags(struct arg_list *cmd,
                                       const struct cli_facts *facts,
                                       const struct toolchain *tc,
                                       const char *tool) {
  if (!cli_compiles(facts))
    return;
  toolchain_require(tc->plugin, "the LLVM plugin", tool);
  arg_list_push_joined(cmd, "-fpass-plugin=", tc->plugin);
  arg_list_push_joined(cmd, "-I", tc->include_dir);
}

/* docs/design.md, contract 7. */
static void add_runtime(struct arg_list *cmd, const struct cli_facts *facts,
                        const struct toolchain *tc, const char *tool) {
  if (!cli_links_executable(facts))
    return;
  const char *archive = facts->static_link ? tc->static_runtime : tc->runtime;
  toolchain_require(archive, "the runtime archive", tool);
  if (facts->language_pinned) { /* else clang reads the archive as source */
    arg_list_push(cmd, "-x");
    arg_list_push(cmd, "none");
  }
  arg_list_push(cmd, "-Wl,--whole-archive");
  arg_list_push(cmd, archive);
  arg_list_push(cmd, "-Wl,--no-whole-archive");
  if (facts->static_link) {
    for (size_t i = 0; i < COUNT(wrap_flags); i++)
      arg_list_push(cmd, wrap_flags[i]);
  } else {
    /* DSOs built with coz-cc reach this runtime through these symbols. */
    arg_list_push_joined(cmd, "-Wl,--export-dynamic-symbol-list=", tc->exports);
  }
  for (size_t i = 0; i < COUNT(runtime_dependencies); i++)
    arg_list_push(cmd, runtime_dependencies[i]);
  arg_list_push(cmd, "-pthread");
}

static void export_pass_args(const struct coz_options *opts) {
  char *value = coz_options_pass_env(opts, getenv("COZ_PASS_ARGS"));
  if (value)
    setenv("COZ_PASS_ARGS", value, 1);
  free(value);
}

static void print_command(const struct arg_list *cmd, const char *tool) {
  fprintf(stderr, "%s: running:", tool);
  for (size_t i = 0; i < cmd->count; i++) {
    const char *arg = cmd->items[i];
    bool quote = arg[0] == '\0' || strpbrk(arg, " \t\n'\"\\$*?") != NULL;
    fprintf(stderr, quote ? " '%s'" : " %s", arg);
  }
  const char *pass_args = getenv("COZ_PASS_ARGS");
  if (pass_args) { /* one option a line; the last line's newline not shown */
    int n = (int)strlen(pass_args);
    n -= n > 0 && pass_args[n - 1] == '\n';
    fprintf(stderr, "\n%s: with COZ_PASS_ARGS='%.*s'", tool, n, pass_args);
  }
  fputc('\n', stderr);
}

int main(int argc, char **argv) {
  if (getenv(COZ_PROBE_VARIABLE))
    return 1; /* COZ_CC names a coz driver: say no version, never recurse */
  const char *tool = base_name(argc > 0 ? argv[0] : "coz-cc");
  bool cxx = named_for_cxx(tool);

  struct coz_options opts = {0};
  struct arg_list expanded = {0}, forwarded = {0};
  split_user_args(argc, argv, &opts, &expanded, &forwarded, tool);
  if (opts.help) {
    coz_options_print_help(stdout, tool);
    return 0;
  }

  struct cli_facts facts;
  cli_scan(&expanded, &facts);
  struct toolchain tc;
  toolchain_locate(&tc, cxx, tool);

  struct arg_list cmd = {0};
  arg_list_push(&cmd, tc.clang);
  add_leading_compile_flags(&cmd, &facts);
  arg_list_extend(&cmd, &forwarded);
  add_trailing_compile_flags(&cmd, &facts, &tc, tool);
  add_runtime(&cmd, &facts, &tc, tool);
  export_pass_args(&opts);
  if (opts.verbose)
    print_command(&cmd, tool);

  execvp(tc.clang, cmd.items);
  fprintf(stderr, "%s: cannot run %s (%s): install clang-%d or set %s\n", tool,
          tc.clang, strerror(errno), COZ_LLVM_MAJOR,
          cxx ? "COZ_CXX" : "COZ_CC");
  return 127;
}
