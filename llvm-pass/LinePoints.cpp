// LinePoints.cpp: see LinePoints.h.
//
// The rule (docs/design.md, Contract 3): within one function, an execution
// of line L starts when control reaches an instruction located on L coming
// from an instruction located on another line (or from the function's
// entry). Instructions without a location (or at line 0) do not change the
// state. Inside one basic block, code of L that resumes after code of
// another line is the continuation of the same statement (a call spread
// over several lines), so a block counts at most once, at its first
// instruction on L.
#include "LinePoints.h"

#include "Compat.h"
#include "ModuleRecord.h"
#include "PathMatch.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <functional>

using namespace llvm;

namespace coz {

namespace {

enum class LineClass { None, Hit, Other };

// States a block can be left in: the last located instruction was on L
// (OnLine), elsewhere (OffLine), or either, depending on the path.
constexpr unsigned OnLine = 1, OffLine = 2;

struct BlockInfo {
  LineClass First = LineClass::None; // first located instruction
  LineClass Last = LineClass::None;  // last located instruction
  Instruction *FirstHit = nullptr;
  bool HitAfterOther = false; // FirstHit comes after another line
  unsigned Entry = 0, Exit = 0;
};

} // namespace

LinePoints::LinePoints(Module &M, ModuleRecord &Record,
                       const std::vector<LinePointRequest> &Reqs)
    : M(M), Record(Record) {
  for (const LinePointRequest &R : Reqs) {
    RequestState S;
    S.Request = &R;
    S.Flags = FlagFromCommandLine;
    Requests.push_back(S);
  }
}

bool LinePoints::fileMatches(RequestState &R, const DIFile *File) {
  auto It = R.FileMatches.find(File);
  if (It != R.FileMatches.end())
    return It->second;
  bool Match = pathSuffixMatches(absolutePath(File), R.Request->File);
  R.FileMatches[File] = Match;
  return Match;
}

void LinePoints::instrument(Function &F) {
  if (!F.getSubprogram())
    return;
  for (RequestState &R : Requests)
    instrumentFor(F, R);
}

bool LinePoints::instrumentCandidate(Function &F, const LinePointRequest &Req) {
  if (!F.getSubprogram())
    return false;
  RequestState S;
  S.Request = &Req;
  S.Flags = FlagCandidate;
  instrumentFor(F, S);
  return S.Inserted > 0;
}

void LinePoints::instrumentFor(Function &F, RequestState &R) {
  const unsigned Line = R.Request->Line;
  const DISubprogram *SP = F.getSubprogram();
  // Blocks are numbered up front: step 3 adds blocks while it walks them.
  std::vector<BasicBlock *> Blocks;
  DenseMap<const BasicBlock *, unsigned> Index;
  for (BasicBlock &BB : F) {
    Index[&BB] = Blocks.size();
    Blocks.push_back(&BB);
  }
  std::vector<BlockInfo> Info(Blocks.size());
  auto ExitOf = [&](const BasicBlock *P) {
    auto It = Index.find(P);
    return It == Index.end() ? 0u : Info[It->second].Exit;
  };
  unsigned MaxLine = SP->getLine();

  // 1. Classify each block by the lines of its instructions.
  for (unsigned N = 0; N < Blocks.size(); ++N) {
    BlockInfo &BI = Info[N];
    for (Instruction &I : *Blocks[N]) {
      if (isa<DbgInfoIntrinsic>(I) || Inserted.count(&I))
        continue;
      const DebugLoc &DL = I.getDebugLoc();
      if (!DL || DL.getLine() == 0)
        continue;
      auto *Loc = cast<DILocation>(DL.getAsMDNode());
      if (Loc->getFile() == SP->getFile())
        MaxLine = std::max(MaxLine, Loc->getLine());
      LineClass C = (Loc->getLine() == Line && fileMatches(R, Loc->getFile()))
                        ? LineClass::Hit
                        : LineClass::Other;
      if (BI.First == LineClass::None)
        BI.First = C;
      if (C == LineClass::Hit && !BI.FirstHit) {
        BI.FirstHit = &I;
        BI.HitAfterOther = BI.Last == LineClass::Other;
      }
      BI.Last = C;
    }
  }
  if (fileMatches(R, SP->getFile()) && SP->getLine() <= Line && Line <= MaxLine)
    R.LineInCompiledFunction = true;

  // 2. Forward dataflow: in which states can each block be left? A block
  // without located instructions passes its entry state through.
  BasicBlock &EntryBB = F.getEntryBlock();
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (unsigned N = 0; N < Blocks.size(); ++N) {
      BlockInfo &BI = Info[N];
      unsigned In = Blocks[N] == &EntryBB ? OffLine : 0;
      for (BasicBlock *P : predecessors(Blocks[N]))
        In |= ExitOf(P);
      unsigned Out = BI.Last == LineClass::Hit     ? OnLine
                     : BI.Last == LineClass::Other ? OffLine
                                                   : In;
      if (In != BI.Entry || Out != BI.Exit) {
        BI.Entry = In;
        BI.Exit = Out;
        Changed = true;
      }
    }
  }

  // 3. Decide where the increments go, before changing the CFG: before an
  // instruction, or on a CFG edge (From -> To).
  struct Site {
    Instruction *Before;
    BasicBlock *From, *To;
    DebugLoc Loc;
  };
  SmallVector<Site, 8> Sites;
  SmallPtrSet<BasicBlock *, 8> Visited;
  DenseSet<std::pair<BasicBlock *, BasicBlock *>> EdgesSeen;
  // Counts on the edges into To that leave a state that was off line L.
  // An edge from a block without located instructions that can be left
  // both on and off L (a join block, say) is pushed back to that block's
  // own incoming edges when it has no other successor, which keeps the
  // count exact; otherwise it counts (design.md, Contract 3).
  std::function<void(BasicBlock *, const DebugLoc &)> CountEdgesInto =
      [&](BasicBlock *To, const DebugLoc &Loc) {
        for (BasicBlock *P : predecessors(To)) {
          unsigned Exit = ExitOf(P);
          if (!(Exit & OffLine) || !EdgesSeen.insert({P, To}).second)
            continue;
          auto It = Index.find(P);
          bool Transparent =
              It != Index.end() && Info[It->second].Last == LineClass::None;
          if ((Exit & OnLine) && Transparent && P->getSingleSuccessor() &&
              Visited.insert(P).second) {
            CountEdgesInto(P, Loc);
            continue;
          }
          Sites.push_back({nullptr, P, To, Loc});
        }
      };
  for (unsigned N = 0; N < Blocks.size(); ++N) {
    BasicBlock &BB = *Blocks[N];
    const BlockInfo &BI = Info[N];
    if (!BI.FirstHit || BB.getFirstInsertionPt() == BB.end())
      continue;
    DebugLoc Loc = BI.FirstHit->getDebugLoc();
    if (BI.HitAfterOther) {
      // Line L starts inside the block, after code of another line.
      Sites.push_back({BI.FirstHit, nullptr, nullptr, Loc});
      continue;
    }
    if (!(BI.Entry & OffLine))
      continue; // only ever entered while already on L
    bool AllOff = &BB == &EntryBB || BI.Entry == OffLine;
    if (AllOff) {
      // Every way in comes from elsewhere: count in the block itself.
      Sites.push_back({&*BB.getFirstInsertionPt(), nullptr, nullptr, Loc});
      continue;
    }
    CountEdgesInto(&BB, Loc);
  }
  // The line that opens a function often has no code of its own (the
  // prologue has no location): asking for it means "each call".
  if (Sites.empty() && SP->getLine() == Line && fileMatches(R, SP->getFile())) {
    BasicBlock::iterator It = EntryBB.getFirstInsertionPt();
    while (It != EntryBB.end() && isa<AllocaInst>(*It))
      ++It; // keep the allocas together at the top
    if (It != EntryBB.end())
      Sites.push_back({&*It, nullptr, nullptr,
                       DILocation::get(F.getContext(), Line, 0,
                                       const_cast<DISubprogram *>(SP))});
  }
  if (Sites.empty())
    return;

  // Edges become places: the end of a block with one successor, or a new
  // block on a split critical edge. An edge that cannot be split (into an
  // EH pad, from an indirectbr) counts at its destination.
  for (Site &S : Sites) {
    if (S.Before)
      continue;
    Instruction *T = S.From->getTerminator();
    if (T->getNumSuccessors() == 1) {
      S.Before = T;
      continue;
    }
    unsigned Idx = 0;
    while (T->getSuccessor(Idx) != S.To)
      ++Idx;
    BasicBlock *Edge = SplitCriticalEdge(
        T, Idx, CriticalEdgeSplittingOptions().setMergeIdenticalEdges());
    S.Before = Edge ? Edge->getTerminator() : &*S.To->getFirstInsertionPt();
  }

  // 4. Insert.
  const LinePointRequest &Req = *R.Request;
  GlobalVariable *Counter =
      Record.counter(Req.Kind, Req.Name, R.Flags, Sites[0].Loc);
  SmallVector<Instruction *, 16> Created;
  for (const Site &S : Sites) {
    IRBuilder<> B(S.Before);
    B.SetCurrentDebugLocation(S.Loc);
    Record.emitIncrement(B, Counter, &Created);
    ++R.Inserted;
  }
  Inserted.insert(Created.begin(), Created.end());
}

void LinePoints::warnUnmatched() const {
  for (const RequestState &R : Requests) {
    if (R.Inserted)
      continue;
    const LinePointRequest &Req = *R.Request;
    // Which files does this module compile? Its main files, and the files
    // of the functions it defines around the requested line (a header line
    // is only known to be empty where its enclosing function was compiled).
    bool Compiles = R.LineInCompiledFunction;
    bool HasDebugInfo = false;
    for (const DICompileUnit *CU : M.debug_compile_units()) {
      HasDebugInfo = true;
      if (pathSuffixMatches(absolutePath(CU->getFile()), Req.File))
        Compiles = true;
    }
    if (!HasDebugInfo && pathSuffixMatches(M.getSourceFileName(), Req.File)) {
      errs() << "coz-cc: warning: " << Req.Option
             << ": no line information: compile with -g\n";
      continue;
    }
    if (Compiles)
      errs() << "coz-cc: warning: " << Req.Option << ": no code on that line\n";
  }
}

} // namespace coz
