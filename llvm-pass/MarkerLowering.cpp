// MarkerLowering.cpp: see MarkerLowering.h.
#include "MarkerLowering.h"

#include "Compat.h"
#include "ModuleRecord.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace coz {

namespace {

constexpr const char *MarkerName = "__coz_marker";
constexpr unsigned MaxKind = COZ_KIND_END;

bool callsMarker(const CallBase &CB) {
  auto *F = dyn_cast<Function>(CB.getCalledOperand()->stripPointerCasts());
  return F && F->getName() == MarkerName;
}

bool blockCallsMarker(const BasicBlock &BB) {
  for (const Instruction &I : BB)
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (callsMarker(*CB))
        return true;
  return false;
}

// The marker's guard `if (__coz_marker)` becomes `if (true)` once the block
// it protects holds no marker call any more: the block now only bumps a
// counter, which is safe without the runtime. Guards of calls we could not
// lower stay, so those calls still skip a missing runtime.
void foldGuards(BasicBlock &Guarded) {
  if (blockCallsMarker(Guarded))
    return;
  for (BasicBlock *Pred : predecessors(&Guarded)) {
    auto *Br = dyn_cast<BranchInst>(Pred->getTerminator());
    if (!Br || !Br->isConditional())
      continue;
    bool NonNullIsTrue = false;
    Value *Cond = Br->getCondition();
    Value *Tested = cozMatchNullTest(Cond, NonNullIsTrue);
    if (!Tested || Tested->stripPointerCasts()->getName() != MarkerName)
      continue;
    // Only the edge into the guarded block is taken for "non-null".
    BasicBlock *NonNullSucc = Br->getSuccessor(NonNullIsTrue ? 0 : 1);
    if (NonNullSucc != &Guarded)
      continue;
    LLVMContext &C = Br->getContext();
    Br->setCondition(NonNullIsTrue ? ConstantInt::getTrue(C)
                                   : ConstantInt::getFalse(C));
    if (auto *CondI = dyn_cast<Instruction>(Cond))
      if (CondI->use_empty())
        CondI->eraseFromParent();
  }
}

} // namespace

unsigned lowerMarkers(Function &F, ModuleRecord &Record) {
  SmallVector<CallBase *, 8> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (callsMarker(*CB) && CB->arg_size() == 2)
        Calls.push_back(CB);

  SmallVector<BasicBlock *, 8> Guarded;
  unsigned N = 0;
  for (CallBase *CB : Calls) {
    auto *Kind = dyn_cast<ConstantInt>(CB->getArgOperand(0));
    StringRef Name;
    if (!Kind || Kind->getZExtValue() > MaxKind ||
        !getConstantStringInfo(CB->getArgOperand(1), Name))
      continue;
    unsigned K = static_cast<unsigned>(Kind->getZExtValue());
    // C++: a marker call inside a try region is an invoke; the increment
    // cannot throw, so it becomes a call (then nothing) and the branch to
    // the normal destination.
    if (auto *II = dyn_cast<InvokeInst>(CB))
      CB = changeToCall(II);
    GlobalVariable *Counter = Record.counter(K, Name, 0, CB->getDebugLoc());
    IRBuilder<> B(CB);
    B.SetCurrentDebugLocation(CB->getDebugLoc());
    Record.emitIncrement(B, Counter);
    Guarded.push_back(CB->getParent());
    CB->eraseFromParent();
    ++N;
  }
  for (BasicBlock *BB : Guarded)
    foldGuards(*BB);
  return N;
}

} // namespace coz
