// CheckpointRewrite.h: direct calls and invokes of the synchronization
// functions of contract/checkpoints.def go to the runtime's __coz_NAME
// (design.md, Contract 1).
#ifndef COZ_PASS_CHECKPOINT_REWRITE_H
#define COZ_PASS_CHECKPOINT_REWRITE_H

#include "llvm/ADT/MapVector.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace coz {

class CheckpointRewriter {
public:
  explicit CheckpointRewriter(llvm::Module &M) : M(M) {}

  // Redirects the direct calls/invokes in F; returns how many.
  unsigned rewrite(llvm::Function &F);

  // Gives every __coz_NAME referenced by this module a fallback definition
  // that calls NAME, for programs that run without the runtime.
  void emitFallbacks();

private:
  llvm::Module &M;
  // __coz_NAME -> NAME, in order of first use.
  llvm::MapVector<llvm::Function *, llvm::Function *> Redirected;
};

} // namespace coz

#endif
