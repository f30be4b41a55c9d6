// CheckpointRewrite.h: direct calls and invokes of the synchronization
// functions of contract/checkpoints.def go to the runtime's __coz_NAME
// (design.md, Contract 1); the locks of contract/try_first.def are tried
// first, and reach their checkpoint only when busy.
#ifndef COZ_PASS_CHECKPOINT_REWRITE_H
#define COZ_PASS_CHECKPOINT_REWRITE_H

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class CallInst;
class Function;
class Module;
} // namespace llvm

namespace coz {

struct TryFirstRow; // a row of try_first.def (CheckpointRewrite.cpp)

class CheckpointRewriter {
public:
  explicit CheckpointRewriter(llvm::Module &M) : M(M) {}

  // Redirects the direct calls/invokes in F; returns how many.
  unsigned rewrite(llvm::Function &F);

  // Splits each call of a try_first.def lock that rewrite() redirected:
  // __coz_try_LOCK first, __coz_LOCK only when it returns BUSY. Run after
  // every other rewrite of the functions: the split adds blocks, which the
  // line points' placement must not see.
  void tryFirst();

  // Gives every __coz_NAME referenced by this module a fallback definition
  // that calls NAME, for programs that run without the runtime.
  void emitFallbacks();

private:
  llvm::Module &M;
  // __coz_NAME -> NAME, in order of first use.
  llvm::MapVector<llvm::Function *, llvm::Function *> Redirected;
  struct TrySite {
    llvm::CallInst *Call;
    const TryFirstRow *Row;
  };
  llvm::SmallVector<TrySite, 8> TryFirst;
};

} // namespace coz

#endif
