// CountedCalls.cpp: see CountedCalls.h. The table and the meaning of its
// columns are in contract/counted_calls.def.
#include "CountedCalls.h"

#include "Compat.h"
#include "NameIndex.h"

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
#include "counted_calls.def"
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

using Site = std::pair<CallBase *, const CountedCall *>;

SmallVector<Site, 8> findSites(Function &F) {
  SmallVector<Site, 8> Sites;
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
    const CountedCall *C = findByName<Table>(Callee->getName());
    if (C && fits(*CB, *C))
      Sites.push_back({CB, C});
  }
  return Sites;
}

// Right after the call; for an invoke, on its normal edge (its result
// exists only there), in a block of its own when the normal destination is
// reached from elsewhere too.
Instruction *afterCall(CallBase &CB) {
  auto *II = dyn_cast<InvokeInst>(&CB);
  if (!II)
    return CB.getNextNode();
  BasicBlock *Normal = II->getNormalDest();
  if (BasicBlock *Edge = SplitCriticalEdge(II, 0))
    Normal = Edge;
  return &*Normal->getFirstInsertionPt();
}

// The counter's two arguments, bytes and str, before the WHEN test.
std::pair<Value *, Value *> amount(IRBuilder<> &B, CallBase &CB,
                                   const CountedCall &C) {
  PointerType *StrTy = cozBytePtrTy(B.getContext());
  auto Wide = [&](Value *V) { return B.CreateZExtOrTrunc(V, B.getInt64Ty()); };
  Value *Arg = C.A < CB.arg_size() ? CB.getArgOperand(C.A) : nullptr;
  Value *NoStr = ConstantPointerNull::get(StrTy);
  switch (C.How) {
  case Amount::Arg:
    return {Wide(Arg), NoStr};
  case Amount::ArgTimesArg:
    return {B.CreateMul(Wide(Arg), Wide(CB.getArgOperand(C.B)), "coz.bytes"),
            NoStr};
  case Amount::Result:
    return {Wide(&CB), NoStr};
  case Amount::ResultTimesArg:
    return {B.CreateMul(Wide(&CB), Wide(Arg), "coz.bytes"), NoStr};
  case Amount::StrlenResultPlus:
    return {B.getInt64(C.B), B.CreatePointerCast(&CB, StrTy)};
  case Amount::StrlenArgPlus:
    return {B.getInt64(C.B), B.CreatePointerCast(Arg, StrTy)};
  case Amount::Constant:
    break;
  }
  return {B.getInt64(C.B), NoStr};
}

// Whether the call moved anything (WHEN), or nullptr when it always does.
Value *moved(IRBuilder<> &B, CallBase &CB, When Cond) {
  Constant *Zero =
      CB.getType()->isVoidTy() ? nullptr : Constant::getNullValue(CB.getType());
  switch (Cond) {
  case When::Always:
    return nullptr;
  case When::ResultNonNull:
    return B.CreateICmpNE(&CB, Zero, "coz.ok");
  case When::ResultZero:
    return B.CreateICmpEQ(&CB, Zero, "coz.ok");
  case When::ResultNonNeg:
    return B.CreateICmpSGE(&CB, Zero, "coz.ok");
  case When::ResultPositive:
    return B.CreateICmpSGT(&CB, Zero, "coz.ok");
  }
  return nullptr;
}

} // namespace

Function *CountedCalls::counter(StringRef Name) {
  FunctionType *Ty = counterType(M.getContext());
  Function *F = M.getFunction(Name);
  if (!F) {
    F = Function::Create(Ty, GlobalValue::ExternalLinkage, Name, M);
    F->setDoesNotThrow();
  } else if (F->getFunctionType() != Ty) {
    return nullptr; // the program declares the name otherwise
  }
  Counters.insert(F);
  return F;
}

unsigned CountedCalls::instrument(Function &F) {
  // A definition of a counted function is the implementation of the calls
  // counted at its callers (a program's own calloc calling its malloc,
  // glibc's inline getchar calling getc): counting inside it too would
  // count those bytes twice.
  if (findByName<Table>(F.getName()))
    return 0;
  unsigned N = 0;
  for (auto &[CB, C] : findSites(F)) {
    Function *Counter = counter(C->Counter);
    if (!Counter)
      continue;
    IRBuilder<> B(afterCall(*CB));
    B.SetCurrentDebugLocation(CB->getDebugLoc());
    auto [Bytes, Str] = amount(B, *CB, *C);
    // A select rather than a branch: the block stays whole (line points
    // and markers were placed by block), and the runtime returns at once
    // for 0 bytes and no string.
    if (Value *Moved = moved(B, *CB, C->Cond)) {
      if (!match(Bytes, m_Zero()))
        Bytes = B.CreateSelect(Moved, Bytes, B.getInt64(0), "coz.bytes");
      if (!isa<ConstantPointerNull>(Str))
        Str = B.CreateSelect(Moved, Str, Constant::getNullValue(Str->getType()),
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
