// Candidates.h: candidate progress points. A program without a progress
// point still gets a useful run: lines picked from its own structure (the
// iterations of its main loops, the returns of its handlers) get a counter
// flagged as a candidate; the runtime records them only when the program
// has no real point, and `coz-report suggest` turns the best into a
// --coz-progress=FILE:LINE option (docs/design.md, "Candidate progress
// points").
#ifndef COZ_PASS_CANDIDATES_H
#define COZ_PASS_CANDIDATES_H

#include "Options.h"

#include <vector>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace coz {

class LinePoints;

class Candidates {
public:
  Candidates(llvm::Module &M, LinePoints &Lines);

  // Picks the module's candidates among Work, the functions the pass
  // instruments. None when Enabled is false or when the module has a
  // progress marker of its own (COZ_PROGRESS, COZ_BEGIN, ...).
  void select(const std::vector<llvm::Function *> &Work, bool Enabled);

  // Counts F's candidates by LinePoints' rule for FILE:LINE, so each one
  // counts what its --coz-progress=FILE:LINE option would.
  void instrument(llvm::Function &F);

  // At most this many candidates per module.
  static constexpr unsigned MaxPerModule = 16;

private:
  struct Candidate {
    llvm::Function *F;
    LinePointRequest Request;
  };

  llvm::Module &M;
  LinePoints &Lines;
  std::vector<Candidate> Picked;
};

} // namespace coz

#endif
