// Plugin.cpp: registration with the new pass manager.
//
// At the pipeline start the IR is the front end's: debug locations are
// intact and nothing is inlined yet, at -O0 and at -O2 alike. The pass is
// required, so -O0's optnone functions are instrumented too.
#include "Compat.h"
#include "CozPass.h"
#include "CozPassVersion.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

using namespace llvm;

// The one exported symbol (the rest of the plugin is built hidden).
extern "C" LLVM_ATTRIBUTE_WEAK
    __attribute__((visibility("default"))) ::llvm::PassPluginLibraryInfo
    llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "CozPass", COZ_PASS_VERSION,
          [](PassBuilder &PB) {
            PB.registerPipelineStartEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel) {
                  MPM.addPass(coz::CozInstrumentPass());
                });
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (Name != "coz-instrument")
                    return false;
                  MPM.addPass(coz::CozInstrumentPass());
                  return true;
                });
          }};
}
