// CountedCalls.cpp: see CountedCalls.h. The table and the meaning of its
// columns are in runtime/callpath/counted_calls.def.
#include "CountedCalls.h"

#include "Compat.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;
using llvm::PatternMatch::m_Zero;
using llvm::PatternMatch::match;

namespace coz {

namespace {

// How the bytes of one counted call are computed (counted_calls.def).
enum class Amount {
  Arg,              // argument A
  ArgTimesArg,      // argument A x argument B
  Result,           // the result
  ResultTimesArg,   // the result x argument A
  StrlenResultPlus, // strlen(result) + B
  StrlenArgPlus,    // strlen(argument A) + B
  Constant,         // B
};

// When the call moved bytes at all.
enum class When {
  Always,
  ResultNonNull,
  ResultZero,
  ResultNonNeg,
  ResultPositive
};

struct CountedCall {
  const char *Name;
  const char *Counter; // __coz_count_RESOURCE
  Amount How;
  unsigned A, B;
  When Cond;
};

// The table's vocabulary, defined only around the include.
#define ARG(I) Amount::Arg, I, 0
#define ARG_TIMES_ARG(I, J) Amount::ArgTimesArg, I, J
#define RESULT Amount::Result, 0, 0
#define RESULT_TIMES_ARG(I) Amount::ResultTimesArg, I, 0
#define STRLEN_RESULT_PLUS(K) Amount::StrlenResultPlus, 0, K
#define STRLEN_ARG_PLUS(I, K) Amount::StrlenArgPlus, I, K
#define CONSTANT(K) Amount::Constant, 0, K
#define ALWAYS When::Always
#define RESULT_NONNULL When::ResultNonNull
#define RESULT_ZERO When::ResultZero
#define RESULT_NONNEG When::ResultNonNeg
#define RESULT_POSITIVE When::ResultPositive
#define COZ_COUNTED(NAME, RESOURCE, BYTES, WHEN)                               \
  {#NAME, "__coz_count_" #RESOURCE, BYTES, WHEN},
const CountedCall Table[] = {
#include "callpath/counted_calls.def"
};
#undef COZ_COUNTED
#undef ARG
#undef ARG_TIMES_ARG
#undef RESULT
#undef RESULT_TIMES_ARG
#undef STRLEN_RESULT_PLUS
#undef STRLEN_ARG_PLUS
#undef CONSTANT
#undef ALWAYS
#undef RESULT_NONNULL
#undef RESULT_ZERO
#undef RESULT_NONNEG
#undef RESULT_POSITIVE

const CountedCall *lookup(StringRef Name) {
  static const StringMap<const CountedCall *> ByName = [] {
    StringMap<const CountedCall *> Map;
    for (const CountedCall &C : Table)
      Map[C.Name] = &C;
    return Map;
  }();
  auto It = ByName.find(Name);
  return It == ByName.end() ? nullptr : It->second;
}

bool argIs(const CallBase &CB, unsigned I, bool Pointer) {
  if (I >= CB.arg_size())
    return false;
  Type *T = CB.getArgOperand(I)->getType();
  return Pointer ? T->isPointerTy() : T->isIntegerTy();
}

// Whether the call has the arguments and result the table entry reads: a
// function of the program that merely shares a name with a different
// prototype is left alone.
bool fits(const CallBase &CB, const CountedCall &C) {
  Type *R = CB.getType();
  bool Ok = true;
  switch (C.How) {
  case Amount::Arg:
    Ok = argIs(CB, C.A, false);
    break;
  case Amount::ArgTimesArg:
    Ok = argIs(CB, C.A, false) && argIs(CB, C.B, false);
    break;
  case Amount::Result:
    Ok = R->isIntegerTy();
    break;
  case Amount::ResultTimesArg:
    Ok = R->isIntegerTy() && argIs(CB, C.A, false);
    break;
  case Amount::StrlenResultPlus:
    Ok = R->isPointerTy();
    break;
  case Amount::StrlenArgPlus:
    Ok = argIs(CB, C.A, true);
    break;
  case Amount::Constant:
    break;
  }
  switch (C.Cond) {
  case When::Always:
    break;
  case When::ResultNonNull:
    Ok &= R->isPointerTy();
    break;
  case When::ResultZero:
  case When::ResultNonNeg:
  case When::ResultPositive:
    Ok &= R->isIntegerTy();
    break;
  }
  return Ok;
}

FunctionType *counterType(LLVMContext &Ctx) {
  return FunctionType::get(Type::getVoidTy(Ctx),
                           {Type::getInt64Ty(Ctx), cozBytePtrTy(Ctx)}, false);
}

} // namespace

unsigned CountedCalls::instrument(Function &F) {
  // A definition of a counted function is the implementation of the calls
  // counted at its callers (a program's own calloc calling its malloc,
  // glibc's inline getchar calling getc): counting inside it too would
  // count those bytes twice.
  if (lookup(F.getName()))
    return 0;
  SmallVector<std::pair<CallBase *, const CountedCall *>, 8> Sites;
  for (Instruction &I : instructions(F)) {
    auto *CB = dyn_cast<CallBase>(&I);
    if (!CB || !(isa<CallInst>(CB) || isa<InvokeInst>(CB)))
      continue;
    // Nothing may come between a musttail call and its return.
    if (auto *CI = dyn_cast<CallInst>(CB); CI && CI->isMustTailCall())
      continue;
    // Direct calls only; the strip sees through LLVM 14's bitcast of K&R
    // calls. A program's own global malloc is counted like libc's (it is
    // the allocator everyone calls), a static function of that name is
    // something else.
    auto *Callee =
        dyn_cast<Function>(CB->getCalledOperand()->stripPointerCasts());
    if (!Callee || Callee->hasLocalLinkage())
      continue;
    const CountedCall *C = lookup(Callee->getName());
    if (C && fits(*CB, *C))
      Sites.push_back({CB, C});
  }

  LLVMContext &Ctx = M.getContext();
  FunctionType *CounterTy = counterType(Ctx);
  PointerType *StrTy = cozBytePtrTy(Ctx);
  unsigned N = 0;
  for (auto &Site : Sites) {
    CallBase *CB = Site.first;
    const CountedCall *C = Site.second;
    Function *Counter = M.getFunction(C->Counter);
    if (!Counter) {
      Counter = Function::Create(CounterTy, GlobalValue::ExternalLinkage,
                                 C->Counter, M);
      Counter->setDoesNotThrow();
    } else if (Counter->getFunctionType() != CounterTy) {
      continue; // the program declares the name otherwise: leave it be
    }
    Counters.insert(Counter);

    // Right after the call; for an invoke, on its normal edge (its result
    // exists only there), in a block of its own when the normal
    // destination is reached from elsewhere too.
    Instruction *At = CB->getNextNode();
    if (auto *II = dyn_cast<InvokeInst>(CB)) {
      BasicBlock *Normal = II->getNormalDest();
      if (BasicBlock *Edge = SplitCriticalEdge(II, 0))
        Normal = Edge;
      At = &*Normal->getFirstInsertionPt();
    }
    IRBuilder<> B(At);
    B.SetCurrentDebugLocation(CB->getDebugLoc());
    Type *I64 = B.getInt64Ty();
    auto Wide = [&](Value *V) { return B.CreateZExtOrTrunc(V, I64); };
    auto Arg = [&](unsigned I) { return CB->getArgOperand(I); };

    Value *Bytes = nullptr, *Str = ConstantPointerNull::get(StrTy);
    switch (C->How) {
    case Amount::Arg:
      Bytes = Wide(Arg(C->A));
      break;
    case Amount::ArgTimesArg:
      Bytes = B.CreateMul(Wide(Arg(C->A)), Wide(Arg(C->B)), "coz.bytes");
      break;
    case Amount::Result:
      Bytes = Wide(CB);
      break;
    case Amount::ResultTimesArg:
      Bytes = B.CreateMul(Wide(CB), Wide(Arg(C->A)), "coz.bytes");
      break;
    case Amount::StrlenResultPlus:
      Str = B.CreatePointerCast(CB, StrTy);
      Bytes = B.getInt64(C->B);
      break;
    case Amount::StrlenArgPlus:
      Str = B.CreatePointerCast(Arg(C->A), StrTy);
      Bytes = B.getInt64(C->B);
      break;
    case Amount::Constant:
      Bytes = B.getInt64(C->B);
      break;
    }

    Value *Moved = nullptr;
    auto Zero = [&] { return Constant::getNullValue(CB->getType()); };
    switch (C->Cond) {
    case When::Always:
      break;
    case When::ResultNonNull:
      Moved = B.CreateICmpNE(CB, Zero(), "coz.ok");
      break;
    case When::ResultZero:
      Moved = B.CreateICmpEQ(CB, Zero(), "coz.ok");
      break;
    case When::ResultNonNeg:
      Moved = B.CreateICmpSGE(CB, Zero(), "coz.ok");
      break;
    case When::ResultPositive:
      Moved = B.CreateICmpSGT(CB, Zero(), "coz.ok");
      break;
    }
    // A select rather than a branch: the block stays whole (line points
    // and markers were placed by block), and the runtime returns at once
    // for 0 bytes and no string.
    if (Moved) {
      if (!match(Bytes, m_Zero()))
        Bytes = B.CreateSelect(Moved, Bytes, B.getInt64(0), "coz.bytes");
      if (!isa<ConstantPointerNull>(Str))
        Str = B.CreateSelect(Moved, Str, ConstantPointerNull::get(StrTy),
                             "coz.str");
    }
    CallInst *Count = B.CreateCall(Counter, {Bytes, Str});
    // The runtime takes its stack sample from the caller's frame: a tail
    // call (the counting call is often last before a return) would replace
    // that frame by the caller's caller.
    Count->setTailCallKind(CallInst::TCK_NoTail);
    ++N;
  }
  return N;
}

void CountedCalls::emitFallbacks() {
  for (Function *F : Counters) {
    if (!F->isDeclaration())
      continue; // the runtime itself (LTO)
    // A linkonce no-op rather than an extern_weak reference tested at each
    // site: the site stays one straight-line call (no branch, no new block
    // in the program's code), as with the checkpoints' fallbacks. The
    // runtime's strong, exported definition wins at static and dynamic link
    // time; without the runtime the calls land here. linkonce, not
    // linkonce_odr, and noinline: the runtime's body differs, so the
    // optimizer must not drop the calls as calls to an empty function.
    F->setLinkage(GlobalValue::LinkOnceAnyLinkage);
    F->setVisibility(GlobalValue::DefaultVisibility);
    if (Triple(M.getTargetTriple()).supportsCOMDAT())
      F->setComdat(M.getOrInsertComdat(F->getName()));
    F->addFnAttr(Attribute::NoInline);
    cozAddUWTable(*F);
    IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", F));
    B.CreateRetVoid();
  }
}

} // namespace coz
