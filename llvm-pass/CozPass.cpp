// CozPass.cpp: the order of the rewrites over one module.
#include "CozPass.h"

#include "Candidates.h"
#include "CheckpointRewrite.h"
#include "CountedCalls.h"
#include "FunctionFilter.h"
#include "LinePoints.h"
#include "MarkerLowering.h"
#include "ModuleRecord.h"
#include "Options.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace coz {

namespace {
// Marks a module as done: the pass may be scheduled twice (an explicit
// -passes=coz-instrument on clang output, or -flto pipelines), and a second
// run would count every line point twice.
constexpr const char *DoneMarker = "coz.instrumented";
} // namespace

PreservedAnalyses CozInstrumentPass::run(Module &M, ModuleAnalysisManager &) {
  if (M.getNamedMetadata(DoneMarker))
    return PreservedAnalyses::all();
  const PassOptions &Options = getPassOptions();
  if (!Options.Error.empty()) {
    // An error diagnostic: clang fails the compilation cleanly, one line.
    M.getContext().emitError(Options.Error);
    return PreservedAnalyses::all();
  }
  FunctionFilter Filter(M, Options.Skip);
  ModuleRecord Record(M);
  CheckpointRewriter Checkpoints(M);
  CountedCalls Counted(M);
  LinePoints Lines(M, Record, Options.Points);
  Candidates Candidate(M, Lines);

  std::vector<Function *> Work;
  for (Function &F : M)
    if (Filter.shouldInstrument(F))
      Work.push_back(&F);
  // Before any rewrite: the checkpoint rewrite renames the pthread_create
  // calls that name thread entry functions, and marker lowering removes the
  // markers that tell a module with a point of its own. A build that asks
  // for any line point has chosen its points: no candidates.
  Candidate.select(Work, Options.Points.empty() && !Options.NoCandidates);

  for (Function *F : Work) {
    Record.addFunction(*F);
    Checkpoints.rewrite(*F);
    // Markers first: their increments keep the marker's location, so the
    // line points below see the same lines as the source.
    lowerMarkers(*F, Record);
    Lines.instrument(*F);
    // Same rule as the line points, on the program's own blocks too.
    Candidate.instrument(*F);
    // Last: the line points are placed on the program's own blocks, and
    // the counting calls (on the counted call's line) change no line.
    Counted.instrument(*F);
  }
  Lines.warnUnmatched();
  // After every function's rewrites: its new blocks hold no line of their
  // own, but the line points' rule reads the program's blocks. Before the
  // fallbacks: it adds __coz_try_LOCK to them.
  Checkpoints.tryFirst();
  Checkpoints.emitFallbacks();
  Counted.emitFallbacks();
  Record.finish();
  M.getOrInsertNamedMetadata(DoneMarker);
  return PreservedAnalyses::none();
}

} // namespace coz
