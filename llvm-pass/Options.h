// Options.h: the pass's options (design.md, Contract 3), read from the
// COZ_PASS_ARGS environment variable at compile time and from -mllvm/opt
// flags of the same names.
#ifndef COZ_PASS_OPTIONS_H
#define COZ_PASS_OPTIONS_H

#include <string>
#include <vector>

namespace coz {

// One --coz-progress/--coz-begin/--coz-end request.
struct LinePointRequest {
  std::string Option; // the option as given, for messages
  std::string File;   // matched against debug locations by path suffix
  unsigned Line = 0;
  unsigned Kind = 0; // 0 throughput, 1 begin, 2 end (coz.h COZ_KIND_*)
  std::string Name;
};

struct PassOptions {
  std::vector<LinePointRequest> Points;
  std::vector<std::string> Skip; // --coz-skip=FUNCTION (mangled or demangled)
  bool NoCandidates = false;     // --coz-no-candidates (Candidates.h)
  // The first malformed option, as one line saying what is expected; the
  // pass reports it as a compilation error.
  std::string Error;
};

// Parsed once per process.
const PassOptions &getPassOptions();

// Exposed for tests and for the driver's own checking: parses one option,
// returns false with Error set when it is malformed.
bool parsePassOption(const std::string &Arg, PassOptions &Out,
                     std::string &Error);

} // namespace coz

#endif
