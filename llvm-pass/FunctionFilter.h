// FunctionFilter.h: which functions the pass leaves alone.
#ifndef COZ_PASS_FUNCTION_FILTER_H
#define COZ_PASS_FUNCTION_FILTER_H

#include "llvm/ADT/SmallPtrSet.h"

#include <string>
#include <vector>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace coz {

class FunctionFilter {
public:
  // Skip lists the --coz-skip names (mangled, demangled, or demangled
  // without the parameter list).
  FunctionFilter(llvm::Module &M, const std::vector<std::string> &Skip);

  // False for declarations, for the runtime's own __coz_* functions, for
  // naked functions, for functions annotated coz_skip and for the
  // --coz-skip ones.
  bool shouldInstrument(const llvm::Function &F) const;

private:
  const std::vector<std::string> &Skip;
  llvm::SmallPtrSet<const llvm::Function *, 8> Annotated;
};

} // namespace coz

#endif
