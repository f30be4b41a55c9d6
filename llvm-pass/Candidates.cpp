// Candidates.cpp: see Candidates.h.
//
// What is marked, in this order of preference, at most MaxPerModule per
// module (the first ones win when there are more):
//  1. the iterations of the outermost loops of thread entry functions:
//     functions named in a call of pthread_create, thrd_create or a
//     std::thread / std::jthread constructor in this module;
//  2. the returns of callbacks: functions named in a call of a function
//     this module does not define (an event library's handler), except
//     the library calls whose function argument is a comparator, an exit
//     hook or an initializer (denyCallback);
//  3. the iterations of main's outermost loops;
//  4. the iterations of the outermost loops of the functions that main or
//     a thread entry calls outside its own loops (main -> serve() -> loop);
//  5. the returns of the functions called in the body of those loops of
//     1, 3 and 4, not in their inner loops (a request handler called once
//     per iteration; one called in an inner loop may run per element).
// A counter costs about 1.5 ns a visit (docs/results.md), so it goes only
// where a visit stands for much more work than that. A loop counts only
// when an iteration holds at least MinWork of estimated work: its
// front-end IR instructions; a call adds its callee's estimate when this
// module defines it, CallCost when it does not; an inner loop adds its
// iteration's estimate times its bound when its exit test compares with a
// constant of 1..SmallTrips, else MinWork (a loop of unknown trip count is
// taken as long). A leaf loop that adds numbers or calls rand(), or one that
// calls a function looping 4 times, is hot: its iterations are too short to
// be units of work. The same estimate decides for the returns of 5 (the
// function's whole body); a callback counts when it holds a loop or calls
// out of the module (a library's dispatch around it costs far more than
// the counter). Returns count only when all of a function's returns are on
// one line (one FILE:LINE must name them).
//
// Sites in the system's headers (/usr/include, /usr/lib: a libstdc++
// template's loop) are left out: no one rebuilds with a point there.
//
// An iteration is counted at the line of the loop header's first located
// instruction (the `for (...)` line: its count is iterations + 1 per run of
// the loop; `while (1) {`; a do-while's first statement), a return at the
// line of its `ret` (the closing brace, or the only `return`).
#include "Candidates.h"

#include "Compat.h"
#include "LinePoints.h"
#include "PathMatch.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

#include <map>
#include <memory>
#include <set>
#include <utility>

using namespace llvm;

namespace coz {

namespace {

// Library calls that take a function which is not a unit of work: sorting
// and search comparators, tree walkers, exit and fork hooks, one-time
// initializers, key destructors, signal handlers, exception destructors.
bool denyCallback(StringRef Name) {
  static const std::set<std::string> Deny = {"qsort",
                                             "qsort_r",
                                             "bsearch",
                                             "lfind",
                                             "lsearch",
                                             "tsearch",
                                             "tfind",
                                             "tdelete",
                                             "twalk",
                                             "twalk_r",
                                             "tdestroy",
                                             "ftw",
                                             "nftw",
                                             "scandir",
                                             "scandirat",
                                             "glob",
                                             "atexit",
                                             "at_quick_exit",
                                             "on_exit",
                                             "__cxa_atexit",
                                             "__cxa_thread_atexit",
                                             "__cxa_thread_atexit_impl",
                                             "__cxa_throw",
                                             "signal",
                                             "sigset",
                                             "bsd_signal",
                                             "pthread_once",
                                             "pthread_atfork",
                                             "pthread_key_create",
                                             "call_once",
                                             "tss_create",
                                             "dl_iterate_phdr",
                                             "__libc_start_main"};
  return Deny.count(Name.str()) > 0;
}

bool isThreadSpawn(const Function &Callee) {
  StringRef Name = Callee.getName();
  if (Name == "pthread_create" || Name == "thrd_create")
    return true;
  if (!cozStartsWith(Name, "_ZNSt"))
    return false;
  std::string D = demangle(Name.str());
  return cozStartsWith(D, "std::thread::thread<") ||
         cozStartsWith(D, "std::jthread::jthread<");
}

const Function *calledFunction(const CallBase &CB) {
  return dyn_cast<Function>(CB.getCalledOperand()->stripPointerCasts());
}

// A call that does work of its own: not an intrinsic (debug info, lifetime
// markers, memcpy of a few bytes) and not inline asm.
bool isRealCall(const Instruction &I) {
  auto *CB = dyn_cast<CallBase>(&I);
  if (!CB || isa<IntrinsicInst>(CB) || CB->isInlineAsm())
    return false;
  const Function *F = calledFunction(*CB);
  return !F || !F->isIntrinsic();
}

const DILocation *locationOf(const Instruction &I) {
  if (isa<DbgInfoIntrinsic>(I))
    return nullptr;
  const DebugLoc &DL = I.getDebugLoc();
  if (!DL || DL.getLine() == 0)
    return nullptr;
  return cast<DILocation>(DL.getAsMDNode());
}

// The site of a candidate: a file and a line.
using Site = std::pair<const DIFile *, unsigned>;

// Work estimates, in front-end IR instructions (see the top of the file).
constexpr unsigned MinWork = 100, CallCost = 25, SmallTrips = 64;

// Dominator tree and loops of one function, computed once.
struct FunctionLoops {
  explicit FunctionLoops(Function &F) : DT(F), LI(DT) {}
  DominatorTree DT;
  LoopInfo LI;
};

class Selector {
public:
  Selector(Module &M, const std::vector<Function *> &Work)
      : M(M), Work(Work.begin(), Work.end()) {}

  // Candidates as (function, site), best first, without duplicates.
  std::vector<std::pair<Function *, Site>> run();

private:
  LoopInfo &loops(Function &F);
  bool defined(const Function *F) const {
    return F && Work.count(const_cast<Function *>(F));
  }
  void findEntries();
  void addLoops(Function &F);
  void addReturns(Function &F, bool Callback);
  void addOnceCalled(Function &F);
  unsigned work(const Instruction &I);
  unsigned blocksWork(Function &F, const Loop *L);
  unsigned loopWork(Function &F, const Loop &L);
  unsigned functionWork(Function &F);
  bool loopDoesWork(Function &F, const Loop &L);
  bool handlerDoesWork(Function &F);
  bool callbackDoesWork(Function &F);
  void add(Function &F, const DILocation *Loc);

  Module &M;
  SetVector<Function *> Work;
  std::map<Function *, std::unique_ptr<FunctionLoops>> Loops;
  SetVector<Function *> Threads, Callbacks, Secondary;
  std::vector<std::pair<Function *, const Loop *>> PickedLoops;
  std::map<Function *, unsigned> Estimates; // functionWork, memoized
  std::set<Site> Seen;
  std::vector<std::pair<Function *, Site>> Out;
};

LoopInfo &Selector::loops(Function &F) {
  std::unique_ptr<FunctionLoops> &L = Loops[&F];
  if (!L)
    L = std::make_unique<FunctionLoops>(F);
  return L->LI;
}

void Selector::findEntries() {
  for (Function *F : Work)
    for (Instruction &I : instructions(*F)) {
      auto *CB = dyn_cast<CallBase>(&I);
      const Function *Callee = CB ? calledFunction(*CB) : nullptr;
      if (!Callee)
        continue;
      bool Spawn = isThreadSpawn(*Callee);
      bool Library = Callee->isDeclaration() && !Callee->isIntrinsic() &&
                     !denyCallback(Callee->getName());
      if (!Spawn && !Library)
        continue;
      for (Value *Arg : CB->args()) {
        auto *G = dyn_cast<Function>(Arg->stripPointerCasts());
        if (!defined(G))
          continue;
        if (Spawn)
          Threads.insert(G);
        else
          Callbacks.insert(G);
      }
    }
  for (Function *T : Threads)
    Callbacks.remove(T);
}

// A loop's small constant bound: the constant its header's exit test
// compares with, when it is 1..SmallTrips (`for (i = 0; i < 4; i++)`);
// 0 when there is none (an unknown trip count).
unsigned smallBound(const Loop &L) {
  auto *Br = dyn_cast<BranchInst>(L.getHeader()->getTerminator());
  auto *Cmp = Br && Br->isConditional() ? dyn_cast<ICmpInst>(Br->getCondition())
                                        : nullptr;
  for (unsigned K = 0; Cmp && K < 2; ++K)
    if (auto *C = dyn_cast<ConstantInt>(Cmp->getOperand(K)))
      if (C->getValue().sge(1) && C->getValue().sle(SmallTrips))
        return static_cast<unsigned>(C->getSExtValue());
  return 0;
}

unsigned saturated(unsigned long long W) {
  return W < MinWork ? static_cast<unsigned>(W) : MinWork;
}

// One instruction's estimated work: 1, plus its callee's for a call.
unsigned Selector::work(const Instruction &I) {
  if (isa<DbgInfoIntrinsic>(I))
    return 0;
  if (!isRealCall(I))
    return 1;
  const Function *Callee = calledFunction(*cast<CallBase>(&I));
  if (!defined(Callee))
    return 1 + CallCost;
  return 1 + functionWork(*const_cast<Function *>(Callee));
}

// The work of the blocks of F that belong to loop L itself (nullptr: to no
// loop), each inner loop counted by loopWork. At most MinWork.
unsigned Selector::blocksWork(Function &F, const Loop *L) {
  LoopInfo &LI = loops(F);
  unsigned long long W = 0;
  for (BasicBlock &BB : F)
    if (LI.getLoopFor(&BB) == L)
      for (const Instruction &I : BB)
        W += work(I);
  for (const Loop *Inner : L ? L->getSubLoops() : LI.getTopLevelLoops())
    W += loopWork(F, *Inner);
  return saturated(W);
}

// A loop's work: its iteration's times a small constant bound, or MinWork
// when its trip count is unknown (assumed long).
unsigned Selector::loopWork(Function &F, const Loop &L) {
  unsigned Bound = smallBound(L);
  if (!Bound)
    return MinWork;
  return saturated(static_cast<unsigned long long>(Bound) * blocksWork(F, &L));
}

// A call's work, once per function; a recursive call adds nothing.
unsigned Selector::functionWork(Function &F) {
  auto It = Estimates.find(&F);
  if (It != Estimates.end())
    return It->second;
  Estimates[&F] = 0;
  unsigned W = blocksWork(F, nullptr);
  Estimates[&F] = W;
  return W;
}

bool Selector::loopDoesWork(Function &F, const Loop &L) {
  return blocksWork(F, &L) >= MinWork;
}

bool Selector::handlerDoesWork(Function &F) {
  return functionWork(F) >= MinWork;
}

bool Selector::callbackDoesWork(Function &F) {
  if (!loops(F).empty())
    return true;
  for (Instruction &I : instructions(F))
    if (isRealCall(I) && !defined(calledFunction(*cast<CallBase>(&I))))
      return true;
  return false;
}

bool inSystemHeader(const DIFile *File) {
  std::string Path = absolutePath(File);
  return cozStartsWith(Path, "/usr/include/") ||
         cozStartsWith(Path, "/usr/lib/");
}

void Selector::add(Function &F, const DILocation *Loc) {
  if (!Loc || Out.size() >= Candidates::MaxPerModule ||
      inSystemHeader(Loc->getFile()))
    return;
  Site S{Loc->getFile(), Loc->getLine()};
  if (Seen.insert(S).second)
    Out.push_back({&F, S});
}

// Each outermost loop that does work, counted at its header's first line;
// a loop that lies on one line is skipped (its line would count once per
// run of the loop, not per iteration).
void Selector::addLoops(Function &F) {
  for (const Loop *L : loops(F)) {
    if (!loopDoesWork(F, *L))
      continue;
    const DILocation *Head = nullptr;
    for (const Instruction &I : *L->getHeader())
      if ((Head = locationOf(I)))
        break;
    if (!Head)
      continue;
    bool OtherLine = false;
    for (const BasicBlock *BB : L->blocks())
      for (const Instruction &I : *BB)
        if (const DILocation *Loc = locationOf(I))
          OtherLine |= Loc->getLine() != Head->getLine();
    if (!OtherLine)
      continue;
    PickedLoops.push_back({&F, L});
    add(F, Head);
  }
}

void Selector::addReturns(Function &F, bool Callback) {
  if (!(Callback ? callbackDoesWork(F) : handlerDoesWork(F)))
    return;
  const DILocation *Ret = nullptr;
  for (Instruction &I : instructions(F)) {
    if (!isa<ReturnInst>(I))
      continue;
    const DILocation *Loc = locationOf(I);
    if (!Loc || (Ret && (Loc->getLine() != Ret->getLine() ||
                         Loc->getFile() != Ret->getFile())))
      return;
    Ret = Loc;
  }
  add(F, Ret);
}

// The functions F calls outside its loops: run once per call of F.
void Selector::addOnceCalled(Function &F) {
  LoopInfo &LI = loops(F);
  for (Instruction &I : instructions(F)) {
    auto *CB = dyn_cast<CallBase>(&I);
    const Function *Callee = CB ? calledFunction(*CB) : nullptr;
    if (defined(Callee) && !LI.getLoopFor(I.getParent()))
      Secondary.insert(const_cast<Function *>(Callee));
  }
}

std::vector<std::pair<Function *, Site>> Selector::run() {
  findEntries();
  Function *Main = M.getFunction("main");
  if (!defined(Main))
    Main = nullptr;
  for (Function *T : Threads)
    addLoops(*T);
  for (Function *C : Callbacks)
    addReturns(*C, true);
  if (Main)
    addLoops(*Main);
  if (Main)
    addOnceCalled(*Main);
  for (Function *T : Threads)
    addOnceCalled(*T);
  for (Function *S : Secondary)
    if (S != Main && !Threads.count(S) && !Callbacks.count(S))
      addLoops(*S);
  // The loops picked so far, in order: the functions their bodies call.
  SetVector<Function *> Handlers;
  for (auto &FL : PickedLoops)
    for (const BasicBlock *BB : FL.second->blocks()) {
      if (loops(*FL.first).getLoopFor(BB) != FL.second)
        continue; // an inner loop's block
      for (const Instruction &I : *BB)
        if (auto *CB = dyn_cast<CallBase>(&I)) {
          const Function *Callee = calledFunction(*CB);
          if (defined(Callee) && Callee != Main)
            Handlers.insert(const_cast<Function *>(Callee));
        }
    }
  for (Function *H : Handlers)
    if (!Threads.count(H))
      addReturns(*H, false);
  return Out;
}

bool hasMarker(const Module &M) {
  const Function *Marker = M.getFunction("__coz_marker");
  return Marker && !Marker->use_empty();
}

} // namespace

Candidates::Candidates(Module &M, LinePoints &Lines) : M(M), Lines(Lines) {}

void Candidates::select(const std::vector<Function *> &Work, bool Enabled) {
  if (!Enabled || hasMarker(M))
    return;
  for (auto &FS : Selector(M, Work).run()) {
    std::string File = absolutePath(FS.second.first);
    if (File.empty())
      continue;
    Candidate C{FS.first, LinePointRequest()};
    C.Request.Option = "candidate";
    C.Request.File = File;
    C.Request.Line = FS.second.second;
    C.Request.Name = File + ":" + std::to_string(FS.second.second);
    Picked.push_back(std::move(C));
  }
}

void Candidates::instrument(Function &F) {
  for (const Candidate &C : Picked)
    if (C.F == &F)
      Lines.instrumentCandidate(F, C.Request);
}

} // namespace coz
