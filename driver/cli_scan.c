/* cli_scan.c: see cli_scan.h. */
#include "cli_scan.h"

#include <string.h>

/* clang options whose value is the next argument (when written apart). */
static const char *const options_with_separate_value[] = {
    "-o",
    "-x",
    "-I",
    "-D",
    "-U",
    "-L",
    "-l",
    "-F",
    "-B",
    "-T",
    "-u",
    "-e",
    "-z",
    "-include",
    "-imacros",
    "-isystem",
    "-idirafter",
    "-iquote",
    "-iprefix",
    "-iwithprefix",
    "-iwithprefixbefore",
    "-isysroot",
    "-imultilib",
    "-ivfsoverlay",
    "-MF",
    "-MT",
    "-MQ",
    "-MJ",
    "-Xclang",
    "-Xlinker",
    "-Xassembler",
    "-Xpreprocessor",
    "-Xanalyzer",
    "-Xopenmp-target",
    "-target",
    "-arch",
    "-mllvm",
    "--param",
    "--sysroot",
    "-resource-dir",
    "-serialize-diagnostics",
    "-dependency-file",
    "-dependency-dot",
    "--output",
    "--language",
    "-working-directory",
    "-install_name",
    "-gcc-toolchain",
    "-aux-info",
    "-dyld-prefix",
};

static const char *const preprocess_only_flags[] = {
    "-E", "-M", "-MM", "--preprocess", "--dependencies", "--user-dependencies",
};

static const char *const compile_only_flags[] = {
    "-c",        "-S",         "-fsyntax-only", "--precompile",
    "--compile", "--assemble", "--analyze",
};

/* -g spellings that choose a debug-info level (unlike -gz or -gno-*). */
static const char *const debug_level_prefixes[] = {
    "-g0",    "-g1",    "-g2",   "-g3",   "-ggdb",      "-gdwarf", "-gline-",
    "-gfull", "-glldb", "-gsce", "-gdbx", "-gcodeview", "-gused",  "-gstabs",
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static bool in_list(const char *arg, const char *const *list, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(arg, list[i]) == 0)
      return true;
  return false;
}

static bool has_prefix(const char *arg, const char *prefix) {
  return strncmp(arg, prefix, strlen(prefix)) == 0;
}

static bool chooses_debug_level(const char *arg) {
  if (strcmp(arg, "-g") == 0)
    return true;
  for (size_t i = 0; i < COUNT(debug_level_prefixes); i++)
    if (has_prefix(arg, debug_level_prefixes[i]))
      return true;
  return false;
}

/* A flag handed to the linker itself (-Wl,... pieces, -Xlinker values). */
static void scan_linker_flag(const char *flag, size_t len,
                             struct cli_facts *facts) {
  static const char *const shared_flags[] = {"-shared", "--shared",
                                             "-Bshareable"};
  static const char *const relocatable_flags[] = {"-r", "--relocatable"};
  for (size_t i = 0; i < COUNT(shared_flags); i++)
    if (strlen(shared_flags[i]) == len && !strncmp(flag, shared_flags[i], len))
      facts->shared = true;
  for (size_t i = 0; i < COUNT(relocatable_flags); i++)
    if (strlen(relocatable_flags[i]) == len &&
        !strncmp(flag, relocatable_flags[i], len))
      facts->relocatable = true;
}

static void scan_wl_list(const char *list, struct cli_facts *facts) {
  while (*list) {
    const char *comma = strchr(list, ',');
    size_t len = comma ? (size_t)(comma - list) : strlen(list);
    scan_linker_flag(list, len, facts);
    list += len + (comma ? 1 : 0);
  }
}

static bool has_suffix(const char *text, const char *suffix) {
  size_t n = strlen(text), k = strlen(suffix);
  return n > k && strcmp(text + n - k, suffix) == 0;
}

static bool is_header_path(const char *path) {
  static const char *const suffixes[] = {".h", ".hh", ".hpp", ".hxx", ".h++"};
  for (size_t i = 0; i < COUNT(suffixes); i++)
    if (has_suffix(path, suffixes[i]))
      return true;
  return false;
}

/* Language set by -x for the inputs that follow; "none" = by extension. */
struct language_state {
  const char *name;
};

static void count_input(const char *path, const struct language_state *lang,
                        struct cli_facts *facts) {
  facts->inputs++;
  bool assembly = lang->name ? strcmp(lang->name, "assembler") == 0
                             : has_suffix(path, ".s");
  bool header =
      lang->name ? has_suffix(lang->name, "-header") : is_header_path(path);
  if (assembly)
    facts->assembly_inputs++;
  if (header)
    facts->header_inputs++;
}

static void set_language(const char *name, struct language_state *lang) {
  lang->name = strcmp(name, "none") == 0 ? NULL : name;
}

/* Handles an option with its value; returns true if it consumed that value
 * as the next argument. */
static bool scan_option(const char *arg, const char *next,
                        struct language_state *lang, struct cli_facts *facts) {
  if (in_list(arg, preprocess_only_flags, COUNT(preprocess_only_flags)))
    facts->preprocess_only = true;
  else if (in_list(arg, compile_only_flags, COUNT(compile_only_flags)))
    facts->compile_only = true;
  else if (!strcmp(arg, "-shared") || !strcmp(arg, "--shared"))
    facts->shared = true;
  else if (!strcmp(arg, "-r") || !strcmp(arg, "--relocatable"))
    facts->relocatable = true;
  else if (!strcmp(arg, "-static") || !strcmp(arg, "--static") ||
           !strcmp(arg, "-static-pie"))
    facts->static_link = true;
  else if (!strcmp(arg, "-nostdlib") || !strcmp(arg, "-nodefaultlibs"))
    facts->no_default_libs = true;
  else if (chooses_debug_level(arg))
    facts->debug_info_chosen = true;
  else if (has_prefix(arg, "-Wl,"))
    scan_wl_list(arg + 4, facts);
  else if (has_prefix(arg, "-x") && arg[2] != '\0')
    set_language(arg + 2, lang);

  if (!in_list(arg, options_with_separate_value,
               COUNT(options_with_separate_value)) ||
      !next)
    return false;
  if (!strcmp(arg, "-x"))
    set_language(next, lang);
  else if (!strcmp(arg, "-Xlinker"))
    scan_linker_flag(next, strlen(next), facts);
  return true;
}

void cli_scan(const struct arg_list *args, struct cli_facts *facts) {
  memset(facts, 0, sizeof *facts);
  struct language_state lang = {NULL};
  for (size_t i = 0; i < args->count; i++) {
    const char *arg = args->items[i];
    if (arg[0] != '-' || arg[1] == '\0') {
      count_input(arg, &lang, facts);
      continue;
    }
    if (scan_option(arg, args->items[i + 1], &lang, facts))
      i++;
  }
  facts->language_pinned = lang.name != NULL;
}

bool cli_compiles(const struct cli_facts *facts) {
  return facts->inputs > facts->assembly_inputs;
}

bool cli_links_executable(const struct cli_facts *facts) {
  return facts->inputs > facts->header_inputs && !facts->preprocess_only &&
         !facts->compile_only && !facts->shared && !facts->relocatable &&
         !facts->no_default_libs;
}
