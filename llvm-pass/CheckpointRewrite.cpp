// CheckpointRewrite.cpp: see CheckpointRewrite.h.
#include "CheckpointRewrite.h"

#include "Compat.h"
#include "NameIndex.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <cerrno>
#include <threads.h>

using namespace llvm;

namespace coz {

struct TryFirstRow {
  StringRef Lock, Try;
  int Busy;
};

namespace {

// The functions of checkpoints.def.
struct Row {
  const char *Name;
};
const Row Rows[] = {
#define COZ_CHECKPOINT(ROLE, RET, NAME, ...) {#NAME},
#include "checkpoints.def"
#undef COZ_CHECKPOINT
};

// The try_first.def row of LOCK, or null.
const TryFirstRow *tryFirstRow(StringRef Lock) {
  static const TryFirstRow TryRows[] = {
#define COZ_TRY_FIRST(LOCK, PARAMS, ARGS, TRY, BUSY) {#LOCK, #TRY, BUSY},
#include "try_first.def"
#undef COZ_TRY_FIRST
  };
  for (const TryFirstRow &R : TryRows)
    if (Lock == R.Lock)
      return &R;
  return nullptr;
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
        !findByName<Rows>(Callee->getName()))
      continue;
    FunctionCallee Coz = M.getOrInsertFunction(
        ("__coz_" + Callee->getName()).str(), Callee->getFunctionType(),
        Callee->getAttributes());
    auto *CozF = cast<Function>(Coz.getCallee()->stripPointerCasts());
    if (CozF->isDeclaration())
      CozF->setCallingConv(Callee->getCallingConv());
    Redirected.insert({CozF, Callee});
    // Invokes keep the one call: a lock is nounwind, so they are rare.
    auto *CI = dyn_cast<CallInst>(CB);
    if (const TryFirstRow *Row = tryFirstRow(Callee->getName()))
      if (CI && !CI->isMustTailCall() && CI->getType()->isIntegerTy(32))
        TryFirst.push_back({CI, Row});
    // Only the callee changes: the call's own function type, attributes,
    // calling convention and (for an invoke) both edges stay as they were.
    CB->setCalledOperand(ConstantExpr::getPointerCast(
        cast<Constant>(Coz.getCallee()), CB->getCalledOperand()->getType()));
    ++N;
  }
  return N;
}

void CheckpointRewriter::tryFirst() {
  LLVMContext &Ctx = M.getContext();
  for (const TrySite &S : TryFirst) {
    CallInst *Full = S.Call; // calls __coz_LOCK
    FunctionType *FT = Full->getFunctionType();
    // The fallback below calls TRY with the call's prototype: a module that
    // defines TRY, or declares it otherwise, keeps the one call.
    Function *Try = M.getFunction(S.Row->Try);
    if (Try && (!Try->isDeclaration() || Try->getFunctionType() != FT))
      continue;
    if (!Try)
      Try = Function::Create(FT, GlobalValue::ExternalLinkage, S.Row->Try, M);
    auto *Lock = cast<Function>(Full->getCalledOperand()->stripPointerCasts());
    FunctionCallee CozTry = M.getOrInsertFunction(
        ("__coz_try_" + S.Row->Lock).str(), FT, Lock->getAttributes());
    auto *CozTryF = dyn_cast<Function>(CozTry.getCallee());
    if (!CozTryF || CozTryF->getFunctionType() != FT)
      continue; // the program has a function of that name: leave it be
    Redirected.insert({CozTryF, Try});

    // %t = __coz_try_LOCK(args); if (%t == BUSY) %f = __coz_LOCK(args);
    // the result is a phi of the two. Every new instruction has the call's
    // location, so a sample inside either call is the call's line.
    IRBuilder<> B(Full);
    SmallVector<Value *, 2> Args(Full->args());
    CallInst *TryCall = B.CreateCall(CozTry, Args);
    TryCall->setAttributes(Full->getAttributes());
    TryCall->setCallingConv(Full->getCallingConv());
    Value *Busy = B.CreateICmpEQ(
        TryCall, ConstantInt::get(TryCall->getType(), S.Row->Busy));
    Instruction *Then = SplitBlockAndInsertIfThen(
        Busy, Full, /*Unreachable=*/false,
        MDBuilder(Ctx).createBranchWeights(1, 2000));
    BasicBlock *Tried = TryCall->getParent();
    BasicBlock *Joined = Full->getParent();
    Full->moveBefore(Then);
    PHINode *Result = PHINode::Create(FT->getReturnType(), 2, "",
                                      &*Joined->getFirstInsertionPt());
    Result->setDebugLoc(Full->getDebugLoc());
    Full->replaceAllUsesWith(Result);
    Result->addIncoming(TryCall, Tried);
    Result->addIncoming(Full, Full->getParent());
  }
  TryFirst.clear();
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
