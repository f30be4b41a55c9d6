// Options.cpp: parsing of --coz-progress/--coz-begin/--coz-end/--coz-skip
// and --coz-no-candidates.
//
// COZ_PASS_ARGS holds options separated by newlines (what coz-cc writes, so
// paths may contain spaces); when it holds no newline, by blanks (handy by
// hand: COZ_PASS_ARGS='--coz-progress=a.c:12 --coz-skip=f').
#include "Options.h"

#include "llvm/Support/CommandLine.h"

#include <cstdlib>

using namespace llvm;

namespace coz {
namespace {

cl::list<std::string> ProgressOpt("coz-progress",
                                  cl::desc("FILE:LINE[=NAME] progress point"),
                                  cl::ZeroOrMore);
cl::list<std::string> BeginOpt("coz-begin",
                               cl::desc("FILE:LINE=NAME transaction begin"),
                               cl::ZeroOrMore);
cl::list<std::string> EndOpt("coz-end",
                             cl::desc("FILE:LINE=NAME transaction end"),
                             cl::ZeroOrMore);
cl::list<std::string> SkipOpt("coz-skip",
                              cl::desc("FUNCTION left uninstrumented"),
                              cl::ZeroOrMore);
cl::opt<bool> NoCandidatesOpt("coz-no-candidates",
                              cl::desc("mark no candidate progress points"));

const char *const Expected =
    "expected --coz-progress=FILE:LINE[=NAME], --coz-begin=FILE:LINE=NAME, "
    "--coz-end=FILE:LINE=NAME, --coz-skip=FUNCTION or --coz-no-candidates";

bool parseLinePoint(const std::string &Arg, const std::string &Value,
                    unsigned Kind, LinePointRequest &R, std::string &Error) {
  // FILE:LINE[=NAME]: the name may contain ':' and '=', the file may
  // contain ':' too, so split at the first '=' and then at the last ':'.
  std::string Spec = Value, Name;
  size_t Eq = Value.find('=');
  if (Eq != std::string::npos) {
    Spec = Value.substr(0, Eq);
    Name = Value.substr(Eq + 1);
  }
  size_t Colon = Spec.rfind(':');
  if (Colon == std::string::npos || Colon == 0 || Colon + 1 == Spec.size()) {
    Error = "'" + Arg + "': expected FILE:LINE";
    return false;
  }
  std::string LineText = Spec.substr(Colon + 1);
  if (LineText.find_first_not_of("0123456789") != std::string::npos ||
      LineText.size() > 9 || std::stoul(LineText) == 0) {
    Error = "'" + Arg + "': LINE must be a positive number";
    return false;
  }
  if (Eq != std::string::npos && Name.empty()) {
    Error = "'" + Arg + "': empty NAME after '='";
    return false;
  }
  if (Kind != 0 && Name.empty()) {
    Error = "'" + Arg + "': needs a name: FILE:LINE=NAME";
    return false;
  }
  R.Option = Arg;
  R.File = Spec.substr(0, Colon);
  R.Line = static_cast<unsigned>(std::stoul(LineText));
  R.Kind = Kind;
  // Default name of a throughput point: FILE:LINE exactly as given.
  R.Name = Name.empty() ? Spec : Name;
  return true;
}

} // namespace

bool parsePassOption(const std::string &Arg, PassOptions &Out,
                     std::string &Error) {
  if (Arg == "--coz-no-candidates") {
    Out.NoCandidates = true;
    return true;
  }
  static const struct {
    const char *Prefix;
    int Kind; // -1: --coz-skip
  } Forms[] = {{"--coz-progress=", 0},
               {"--coz-begin=", 1},
               {"--coz-end=", 2},
               {"--coz-skip=", -1}};
  for (const auto &F : Forms) {
    std::string P = F.Prefix;
    if (Arg.compare(0, P.size(), P) != 0)
      continue;
    std::string Value = Arg.substr(P.size());
    if (F.Kind < 0) {
      if (Value.empty()) {
        Error = "'" + Arg + "': needs a function name";
        return false;
      }
      Out.Skip.push_back(Value);
      return true;
    }
    LinePointRequest R;
    if (!parseLinePoint(Arg, Value, static_cast<unsigned>(F.Kind), R, Error))
      return false;
    Out.Points.push_back(R);
    return true;
  }
  Error = "'" + Arg + "': " + Expected;
  return false;
}

namespace {

std::vector<std::string> splitEnv(const char *Text) {
  std::vector<std::string> Args;
  std::string S = Text;
  bool ByLine = S.find('\n') != std::string::npos;
  std::string Cur;
  for (char C : S) {
    bool Sep = ByLine ? (C == '\n' || C == '\r') : (C == ' ' || C == '\t');
    if (Sep) {
      if (!Cur.empty())
        Args.push_back(Cur);
      Cur.clear();
    } else {
      Cur += C;
    }
  }
  if (!Cur.empty())
    Args.push_back(Cur);
  return Args;
}

PassOptions loadOptions() {
  PassOptions O;
  auto Add = [&](const std::string &Arg, const char *Origin) {
    std::string Error;
    if (!parsePassOption(Arg, O, Error) && O.Error.empty())
      O.Error = std::string("coz-cc: ") + Origin + ": bad option " + Error;
  };
  if (const char *Env = std::getenv("COZ_PASS_ARGS"))
    for (const std::string &A : splitEnv(Env))
      Add(A, "COZ_PASS_ARGS");
  for (const std::string &V : ProgressOpt)
    Add("--coz-progress=" + V, "command line");
  for (const std::string &V : BeginOpt)
    Add("--coz-begin=" + V, "command line");
  for (const std::string &V : EndOpt)
    Add("--coz-end=" + V, "command line");
  for (const std::string &V : SkipOpt)
    Add("--coz-skip=" + V, "command line");
  if (NoCandidatesOpt)
    Add("--coz-no-candidates", "command line");
  return O;
}

} // namespace

const PassOptions &getPassOptions() {
  static const PassOptions Options = loadOptions();
  return Options;
}

} // namespace coz
