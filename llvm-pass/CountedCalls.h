// CountedCalls.h: after each direct call or invoke of a function of
// contract/counted_calls.def (allocation functions, stdio), a call
// to the runtime's __coz_count_RESOURCE with the bytes the call moved
// (design.md contract 1, "Counted calls"; docs/callpath.md). The counted
// call itself is left exactly as it was.
#ifndef COZ_PASS_COUNTED_CALLS_H
#define COZ_PASS_COUNTED_CALLS_H

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringRef.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace coz {

class CountedCalls {
public:
  explicit CountedCalls(llvm::Module &M) : M(M) {}

  // Adds the counting calls in F; returns how many.
  unsigned instrument(llvm::Function &F);

  // Gives every __coz_count_* this module calls a no-op fallback, for
  // programs that run without the runtime.
  void emitFallbacks();

private:
  // The declaration of __coz_count_RESOURCE, or nullptr when the module
  // declares that name with another type.
  llvm::Function *counter(llvm::StringRef Name);

  llvm::Module &M;
  llvm::SetVector<llvm::Function *> Counters; // in order of first use
};

} // namespace coz

#endif
