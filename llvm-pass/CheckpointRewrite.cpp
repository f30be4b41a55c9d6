// CheckpointRewrite.cpp: see CheckpointRewrite.h.
#include "CheckpointRewrite.h"

#include "Compat.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace coz {

namespace {

const StringSet<> &checkpointNames() {
  static const StringSet<> Names = {
#define COZ_CHECKPOINT(ROLE, RET, NAME, ...) #NAME,
#include "checkpoints.def"
#undef COZ_CHECKPOINT
  };
  return Names;
}

} // namespace

unsigned CheckpointRewriter::rewrite(Function &F) {
  unsigned N = 0;
  for (Instruction &I : instructions(F)) {
    auto *CB = dyn_cast<CallBase>(&I);
    if (!CB)
      continue;
    // Direct calls only: a call through a pointer is left to the runtime's
    // interposition. The strip sees through the bitcast that LLVM 14 puts on
    // calls whose prototype differs from the declaration (K&R calls).
    auto *Callee =
        dyn_cast<Function>(CB->getCalledOperand()->stripPointerCasts());
    // A function defined in this module is not libc's, even if it has a
    // checkpoint's name (say, a static mtx_lock).
    if (!Callee || !Callee->isDeclaration() ||
        !checkpointNames().count(Callee->getName()))
      continue;
    FunctionCallee Coz = M.getOrInsertFunction(
        ("__coz_" + Callee->getName()).str(), Callee->getFunctionType(),
        Callee->getAttributes());
    auto *CozF = cast<Function>(Coz.getCallee()->stripPointerCasts());
    if (CozF->isDeclaration())
      CozF->setCallingConv(Callee->getCallingConv());
    Redirected.insert({CozF, Callee});
    // Only the callee changes: the call's own function type, attributes,
    // calling convention and (for an invoke) both edges stay as they were.
    CB->setCalledOperand(ConstantExpr::getPointerCast(
        cast<Constant>(Coz.getCallee()), CB->getCalledOperand()->getType()));
    ++N;
  }
  return N;
}

void CheckpointRewriter::emitFallbacks() {
  for (auto &E : Redirected) {
    Function *Coz = E.first, *Real = E.second;
    // Defined here already (the runtime itself, or LTO), or declared by the
    // program with another prototype: leave it to the link.
    if (!Coz->isDeclaration() ||
        Coz->getFunctionType() != Real->getFunctionType())
      continue;
    // linkonce, not linkonce_odr: the runtime's strong definition does more
    // than this one, so the optimizer must neither inline this body nor
    // derive facts from it. noinline for the same reason at -O2.
    Coz->setLinkage(GlobalValue::LinkOnceAnyLinkage);
    Coz->setVisibility(GlobalValue::DefaultVisibility);
    if (Triple(M.getTargetTriple()).supportsCOMDAT())
      Coz->setComdat(M.getOrInsertComdat(Coz->getName()));
    Coz->addFnAttr(Attribute::NoInline);
    cozAddUWTable(*Coz);

    BasicBlock *BB = BasicBlock::Create(M.getContext(), "entry", Coz);
    IRBuilder<> B(BB);
    SmallVector<Value *, 8> Args;
    for (Argument &A : Coz->args())
      Args.push_back(&A);
    CallInst *Call = B.CreateCall(Real->getFunctionType(), Real, Args);
    Call->setCallingConv(Real->getCallingConv());
    Call->setAttributes(Real->getAttributes());
    if (Real->doesNotReturn())
      B.CreateUnreachable();
    else if (Call->getType()->isVoidTy())
      B.CreateRetVoid();
    else
      B.CreateRet(Call);
  }
}

} // namespace coz
