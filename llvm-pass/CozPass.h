// CozPass.h: the module pass `coz-instrument`.
#ifndef COZ_PASS_COZ_PASS_H
#define COZ_PASS_COZ_PASS_H

#include "llvm/IR/PassManager.h"

namespace coz {

struct CozInstrumentPass : llvm::PassInfoMixin<CozInstrumentPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  // Runs on optnone functions too (clang -O0 marks every function so).
  static bool isRequired() { return true; }
};

} // namespace coz

#endif
