// LinePoints.h: counters for --coz-progress/--coz-begin/--coz-end=FILE:LINE,
// placed from debug locations so that they count once per execution of the
// line (the exact rule is in docs/design.md, Contract 3).
#ifndef COZ_PASS_LINE_POINTS_H
#define COZ_PASS_LINE_POINTS_H

#include "Options.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <vector>

namespace llvm {
class BasicBlock;
class DIFile;
class Function;
class Instruction;
class Module;
} // namespace llvm

namespace coz {

class ModuleRecord;

class LinePoints {
public:
  LinePoints(llvm::Module &M, ModuleRecord &Record,
             const std::vector<LinePointRequest> &Requests);

  // Inserts the counters of every request into F.
  void instrument(llvm::Function &F);

  // Inserts the counter of a candidate progress point (Candidates.h) at
  // line Req.Line of Req.File in F only, by the same rule, so that it counts
  // what --coz-progress=FILE:LINE would. Returns whether it inserted one.
  bool instrumentCandidate(llvm::Function &F, const LinePointRequest &Req);

  // One warning per request that matched nothing although this module
  // compiles its FILE (to stderr; never an error, even under -Werror).
  void warnUnmatched() const;

private:
  struct RequestState {
    const LinePointRequest *Request;
    unsigned Flags; // of the point descriptor (ModuleRecord.h)
    llvm::DenseMap<const llvm::DIFile *, bool> FileMatches;
    unsigned Inserted = 0;
    bool LineInCompiledFunction = false;
  };
  bool fileMatches(RequestState &R, const llvm::DIFile *File);
  void instrumentFor(llvm::Function &F, RequestState &R);

  llvm::Module &M;
  ModuleRecord &Record;
  std::vector<RequestState> Requests;
  // Our own increments: invisible to the line classification.
  llvm::SmallPtrSet<const llvm::Instruction *, 32> Inserted;
};

} // namespace coz

#endif
