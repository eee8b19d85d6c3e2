// ConversionPlan: how to move a tile held in one distributed layout into another, spelled out so
// that a code generator can emit it without re-deriving anything, and so that the CPU simulator
// (Simulator.h) can execute it and check it.
//
// Conventions used by every step below:
//  - A *thread* is (lane, warp, block). Per-thread quantities are affine over F2: a constant of
//    the instruction (or round) XOR a linear function of the thread, given once per step as a
//    LinearLayout from the in dims (lane, warp, block) to the quantity. A code generator
//    computes the linear part once per thread and XORs the constants in.
//  - Registers are the element registers of the layouts (register index of `src` / `dst`);
//    shared-memory offsets count elements.
//  - Element bits are 8, 16, 32 or 64. Shuffles move 32-bit words: 16- and 8-bit elements are
//    packed 2 or 4 to a word; 64-bit elements move as two words (every round runs once per half).
#pragma once

#include "linlayout/layout/GpuTarget.h"
#include "linlayout/layout/LinearLayout.h"
#include "linlayout/layout/PaddedShared.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace linlayout {

/// The kind of data movement a conversion needs, cheapest first.
enum class ConversionPath : unsigned char {
  NoOp,            ///< the layouts agree: nothing to do
  RegisterPermute, ///< each thread already holds its data: register moves (and selects)
  WarpShuffle,     ///< data moves between lanes of a warp: shfl.sync rounds
  SharedMemory,    ///< data moves between warps of a CTA (or is cheaper so): a shared scratch
  DistributedSharedMemory, ///< data moves between CTAs of a cluster: the cluster-scoped scratch
};
/// Every path, in the enum's order.
inline constexpr std::array<ConversionPath, 5> kConversionPaths = {
    ConversionPath::NoOp, ConversionPath::RegisterPermute, ConversionPath::WarpShuffle,
    ConversionPath::SharedMemory, ConversionPath::DistributedSharedMemory};
std::string_view conversionPathName(ConversionPath p);
/// The name as an identifier ("warp_shuffle"): lower/'s reports and `compile --conversion-path`.
std::string conversionPathIdentifier(ConversionPath p);
/// The path named `name`, as conversionPathName or conversionPathIdentifier spell it; nullopt
/// for any other text.
std::optional<ConversionPath> parseConversionPath(std::string_view name);

/// Step of RegisterPermute: dst register i of thread t takes src register
/// `srcRegister(i, t)`; when the thread part is non-zero each dst register needs a select tree
/// over the 2^rank candidates (rank of the thread part).
struct RegisterPermuteStep {
  LinearLayout srcRegister; ///< (register, lane, warp, block) of dst -> (register) of src
};

/// How one warp-shuffle round moves a word (see ShuffleStep).
enum class ShuffleMode : unsigned char {
  Move, ///< every lane reads its own word: a register move, no shfl
  Bfly, ///< shfl.sync.bfly with lane mask `laneConst`
  Idx,  ///< shfl.sync.idx with source lane laneConst ^ srcLaneOfThread(t)
};

struct ShuffleRound {
  ShuffleMode mode = ShuffleMode::Idx;
  uint32_t laneConst = 0;     ///< source lane = laneConst ^ srcLaneOfThread(thread)
  uint32_t sendWordConst = 0; ///< word sent = sendWordConst ^ sendWordOfThread(thread)
  uint32_t recvWordConst = 0; ///< word filled = recvWordConst ^ recvWordOfThread(thread)
};

/// Step of WarpShuffle. Thread t first packs its src registers into words:
///   word w holds, in slot s (element s of the 32-bit word, low bits first), src register
///   `pack(s, w)`.
/// Each round every lane sends one of its words and receives one word from `srcLane`:
///   received[recvWord] = shfl(packed[sendWord], srcLane).
/// Finally dst register i of thread t is slot/word `unpack(i, t)` of the received words.
/// A 64-bit element is its own word: it is selected whole and each round shuffles its two 32-bit
/// halves. The thread-dependent word indices are picked by XOR-ing the indices of the packed
/// words (before the rounds) and of the received ones (after) by the thread's part, one layer of
/// selects per basis vector of that part, building only the words the rounds send and the
/// registers unpack.
struct ShuffleStep {
  int slotsPerWord = 1;          ///< elements per word (1 for 32/64-bit elements)
  int halves = 1;                ///< 32-bit pieces per element (2 for 64-bit)
  LinearLayout pack;             ///< (slot, word) -> (register) of src
  LinearLayout unpack;           ///< (register, lane, warp, block) of dst -> (slot, word)
  LinearLayout srcLaneOfThread;  ///< (lane, warp, block) -> (lane)
  LinearLayout sendWordOfThread; ///< (lane, warp, block) -> (word)
  LinearLayout recvWordOfThread; ///< (lane, warp, block) -> (word)
  std::vector<ShuffleRound> rounds;
};

/// Shared-memory instruction kinds.
enum class SharedOp : unsigned char {
  Store,         ///< st.shared.v{1,2,4}: each lane writes `registers` at its own address
  Load,          ///< ld.shared.v{1,2,4}
  StMatrix,      ///< stmatrix.sync.aligned.x{1,2,4}.m8n8.b16
  StMatrixTrans, ///< stmatrix ... .trans
  LdMatrix,      ///< ldmatrix.sync.aligned.x{1,2,4}.m8n8.b16
  LdMatrixTrans, ///< ldmatrix ... .trans
};
std::string_view sharedOpName(SharedOp op);
bool isMatrixOp(SharedOp op);
bool isStoreOp(SharedOp op);

/// One shared-memory instruction of every thread.
///  - Store/Load: the lane accesses registers.size() consecutive elements at element offset
///    offsetConst ^ address(thread); element k is registers[k].
///  - LdMatrix/StMatrix (.x1/.x2/.x4 by registers.size() * elementBits / 32): lane l supplies
///    the address of row (l % 8) of matrix (l / 8) as offsetConst ^ address(thread); each
///    matrix is 8 rows of 16 bytes. registers holds, per 32-bit matrix register in order, the
///    32 / elementBits element registers it packs, low bits first. Without .trans lane l holds
///    the word (4 bytes) at byte 4 * (l % 4) of row l / 4 of each matrix; with .trans (16-bit
///    elements) it holds elements (row 2 * (l % 4) + h, column l / 4), h = 0, 1.
struct SharedAccess {
  SharedOp op = SharedOp::Store;
  int round = 0;
  std::vector<int> registers;
  uint64_t offsetConst = 0;
  uint32_t blockConst = 0; ///< distributed shared memory: the CTA read, XOR blockOfThread(t)
};

/// Step of SharedMemory / DistributedSharedMemory. Per round r: barrier (when r > 0, or when
/// the scratch may still be read by an earlier user), every thread issues the stores of round r,
/// barrier, then the loads of round r. Then dst registers listed in `copies` are copied.
struct SharedStep {
  /// (offset, round[, block]) -> tensor: what each scratch element of each round holds; with
  /// block, the scratch of CTA `block` (distributed shared memory).
  LinearLayout scratch;
  int rounds = 1;
  int64_t scratchBytes = 0; ///< per CTA, one round
  SharedOp storeOp = SharedOp::Store;
  SharedOp loadOp = SharedOp::Load;
  int storeVectorElements = 1; ///< elements per lane per store instruction
  int loadVectorElements = 1;
  LinearLayout storeAddress; ///< (lane, warp, block) -> (offset)
  LinearLayout loadAddress;  ///< (lane, warp, block) -> (offset)
  LinearLayout loadBlock;    ///< (lane, warp, block) -> (block): CTA whose scratch is read
  /// (lane, warp, block) -> (bits): a thread stores only when this is zero (it skips copies of
  /// data another thread already stores).
  LinearLayout storePredicate;
  std::vector<SharedAccess> stores;
  std::vector<SharedAccess> loads;
  std::vector<std::array<int, 2>> copies; ///< {dst register, dst register it copies}
  int storeWavefronts = 0;                ///< per store instruction of one warp (all phases)
  int loadWavefronts = 0;                 ///< per load instruction of one warp
  int storeMinWavefronts = 0;             ///< without bank conflicts
  int loadMinWavefronts = 0;
  /// A padded scratch (PlanOptions::padding): element offset o of the scratch is stored at
  /// element address paddedOffset(o, padding) (PaddedShared.h), and scratchBytes includes the
  /// padding. Empty: addresses are the offsets (a swizzled scratch).
  std::vector<PadInterval> padding;
  /// Every scratch byte is stored and loaded by threads of one warp (exchangeStaysInWarps): no
  /// warp reads what another stored or stores over what another reads, so the syncs between the
  /// phases need only order each warp's own accesses: bar.warp.sync, not bar.sync.
  bool withinWarps = false;

  /// Warps per CTA that store: where the source layout gives several warps the same elements,
  /// one of them stores (storePredicate) and the others skip their stores; every warp loads.
  int storingWarps() const;
};

/// Instruction counts (per warp unless said otherwise) and the estimated cost.
struct ConversionCost {
  int shuffles = 0; ///< shfl.sync
  int selects = 0;  ///< selp (register selection by thread)
  int prmts = 0;    ///< prmt / byte extraction for 8-bit packing
  int indexOps = 0; ///< integer ops computing per-round lanes/addresses
  /// Integer ops computing shared-memory addresses beyond each thread's own offset: an XOR per
  /// swizzled constant that meets the thread's bits, a padded scratch's padding arithmetic
  /// (docs/conversions.md, "Padding instead").
  int addressOps = 0;
  std::array<int, 5> stores{}; ///< st.shared by width: 8, 16, 32, 64, 128 bits
  std::array<int, 5> loads{};  ///< ld.shared by width
  int stmatrix = 0;
  int ldmatrix = 0;
  int barriers = 0;            ///< bar.sync (or cluster barriers) per CTA
  int warpSyncs = 0;           ///< bar.warp.sync per warp, in place of barriers (withinWarps)
  int64_t storeWavefronts = 0; ///< per warp, all store instructions
  int64_t loadWavefronts = 0;
  int64_t conflictWavefronts = 0; ///< the part of both caused by bank conflicts
  int64_t scratchBytes = 0;       ///< per CTA
  int warps = 1;                  ///< warps per CTA (the CTA totals below multiply by it)
  double cycles = 0;              ///< estimated SM cycles per CTA (see CostModel in the docs)

  int sharedInstructions() const;
  /// Instructions each warp issues: shared-memory ones, shuffles, selects, prmts, index and
  /// address ops and warp syncs.
  int issuedInstructions() const;
};

/// A plan: the path, its step, and what it costs; `alternatives` lists the cost of every other
/// path that was feasible, so the choice can be explained.
struct ConversionPlan {
  ConversionPath path = ConversionPath::NoOp;
  GpuTarget target = GpuTarget::Sm90;
  int elementBits = 32;
  LinearLayout src; ///< (register, lane, warp, block) -> tensor, as given (dims normalised)
  LinearLayout dst;
  /// (register, lane, warp, block) of dst -> (register, lane, warp, block) of src: the copy of
  /// each dst element the plan reads (same thread preferred, then warp, then CTA).
  LinearLayout sourceOf;
  RegisterPermuteStep permute; ///< path RegisterPermute
  ShuffleStep shuffle;         ///< path WarpShuffle
  SharedStep shared;           ///< paths SharedMemory, DistributedSharedMemory
  ConversionCost cost;
  struct Alternative {
    ConversionPath path;
    ConversionCost cost;
    std::string note;
  };
  std::vector<Alternative> alternatives;
};

/// Whether every scratch byte of `plan`'s shared-memory exchange is stored and loaded by threads
/// of one warp only, in every round (a matrix instruction's rows count as touched by the lanes
/// that supply their addresses, all of one warp). False for other paths and across CTAs.
bool exchangeStaysInWarps(const ConversionPlan &plan);

} // namespace linlayout
