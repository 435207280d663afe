//! Shared-memory banks (engine notes §2 and §2b): which bank each lane hits and how many wavefronts a
//! load or a store takes.

use super::access::{LaneAddresses, LaneArray, LinearLanes, Op, WarpAccess};
use super::arch::{Arch, Vendor};
use super::error::{EngineError, Result};
use serde::Serialize;

/// Number of shared-memory banks.
pub const BANKS: u32 = 32;
/// Width of one bank, bytes.
pub const BANK_BYTES: i64 = 4;

/// Bank of a byte address: `(a / 4) mod 32`.
pub fn bank_of(address: i64) -> u32 {
    address.div_euclid(BANK_BYTES).rem_euclid(i64::from(BANKS)) as u32
}

/// One 4-byte word a bank delivers, and the lanes that share it (more than one lane = broadcast).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BankWord {
    /// Word index (`address / 4`).
    pub word: i64,
    /// Lanes reading (part of) the word, ascending.
    pub lanes: Vec<u32>,
}

/// One phase: a group of lanes served together.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Phase {
    /// First lane of the phase.
    pub first_lane: u32,
    /// Lanes in the phase.
    pub lanes: u32,
    /// Wavefronts this phase takes: the most distinct words any one bank delivers.
    pub wavefronts: u32,
    /// For each of the 32 banks, the distinct words it delivers in this phase, in address order.
    pub banks: Vec<Vec<BankWord>>,
}

/// The cost of one warp's shared-memory load or store.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BankAnalysis {
    /// A load or a store: 8- and 16-byte stores never pair-merge (one 8-byte address stored by 32
    /// lanes: 2 wavefronts, loaded: 1).
    pub op: Op,
    /// Bank of each lane's first word (`None` if inactive).
    pub bank_of_lane: Vec<Option<u32>>,
    /// Lanes per phase: the whole warp for ≤ 4 bytes, half-warps for 8, quarter-warps for 16
    /// (doubled when the pair merge applies; never for a store).
    pub phase_lanes: u32,
    /// Whether neighbouring phases merged in pairs (8/16-byte loads where lane pairs share
    /// addresses; a store never merges).
    pub merged: bool,
    /// Phases that have an active lane.
    pub phases: Vec<Phase>,
    /// Total wavefronts: the sum over phases.
    pub wavefronts: u32,
    /// Wavefronts the same load would take with no conflict: the number of phases with an active lane.
    pub ideal_wavefronts: u32,
    /// Nsight's counter: `wavefronts − ideal`.
    pub bank_conflicts: u32,
    /// `wavefronts / ideal` (1 = conflict-free, 32 = fully serialized).
    pub conflict_degree: f64,
    /// Whether some word is read by more than one lane (served once: broadcast/multicast).
    pub broadcast: bool,
    /// Whose GPU: its words for a pass of the shared memory (NVIDIA: wavefront; AMD: LDS pass).
    #[serde(skip)]
    pub vendor: Vendor,
}

impl BankAnalysis {
    /// The worst bank of the worst phase: `(bank, distinct words)`.
    pub fn worst_bank(&self) -> Option<(u32, usize)> {
        self.phases
            .iter()
            .flat_map(|phase| phase.banks.iter().enumerate())
            .map(|(bank, words)| (bank as u32, words.len()))
            .max_by_key(|&(bank, words)| (words, std::cmp::Reverse(bank)))
    }
}

/// Analyses a shared-memory load or store (`access.op`) on the given architecture.
///
/// Accesses of 4 bytes or less: wavefronts = the most distinct 4-byte words any bank delivers over the
/// whole warp (lanes reading one word share it), for loads and stores alike. 8 and 16 bytes: half- and
/// quarter-warp phases; a load's phases merge in pairs when every active lane reads the same address
/// as lane `t^1` (or every one as lane `t^2`), a store's never do; wavefronts = the sum over phases.
/// Worked numbers: `tile[32][32]` column → 32 wavefronts; `tile[32][33]` → 1; stride 2 words →
/// 2-way; one 8-byte address for all lanes → 1 wavefront loaded, 2 stored.
///
/// ```
/// use warpdrill_core::engine::{bank_conflicts, Arch, Op, WarpAccess};
/// let padded = bank_conflicts(&WarpAccess::affine(4, 33, 0), Arch::default_arch()).unwrap();
/// assert_eq!(padded.wavefronts, 1);
/// let stored = WarpAccess::affine(8, 0, 0).with_op(Op::Store);
/// assert_eq!(bank_conflicts(&stored, Arch::default_arch()).unwrap().wavefronts, 2);
/// ```
pub fn bank_conflicts(access: &WarpAccess, arch: &Arch) -> Result<BankAnalysis> {
    analyse_lanes(&access.resolve()?, arch.vendor)
}

/// [`bank_conflicts`] on already-resolved lane addresses, a load or a store as `lanes.op` says
/// (8- and 16-byte stores never pair-merge: one 8-byte address in all 32 lanes is 1 wavefront
/// loaded, 2 stored — one per half-warp phase).
pub fn analyse_lanes(lanes: &LaneAddresses, vendor: Vendor) -> Result<BankAnalysis> {
    let elem = i64::from(lanes.elem_bytes);
    let warp = lanes.addresses.len() as u32;
    if lanes.active_lanes() == 0 {
        return Err(EngineError::range(
            "active lanes",
            "none",
            "at least one lane",
        ));
    }
    let base_phase = (BANKS * BANK_BYTES as u32) / (lanes.elem_bytes.max(4));
    let merged = elem >= 8
        && vendor == Vendor::Nvidia
        && lanes.op.pair_merges()
        && (pairs_share(lanes, 1) || pairs_share(lanes, 2));
    let phase_lanes = if merged { base_phase * 2 } else { base_phase }.min(warp);

    let mut phases = Vec::new();
    let mut broadcast = false;
    let mut bank_of_lane = vec![None; lanes.addresses.len()];
    let mut touches: Vec<(u32, i64, u32)> = Vec::with_capacity(phase_lanes as usize * 4);
    for first_lane in (0..warp).step_by(phase_lanes as usize) {
        touches.clear();
        for lane in first_lane..first_lane + phase_lanes {
            let Some(address) = lanes.addresses[lane as usize] else {
                continue;
            };
            bank_of_lane[lane as usize] = Some(bank_of(address));
            let first_word = address.div_euclid(BANK_BYTES);
            let last_word = (address + (elem - 1)).div_euclid(BANK_BYTES);
            for word in first_word..=last_word {
                touches.push((word.rem_euclid(i64::from(BANKS)) as u32, word, lane));
            }
        }
        if touches.is_empty() {
            continue;
        }
        touches.sort_unstable();
        let mut banks: Vec<Vec<BankWord>> = vec![Vec::new(); BANKS as usize];
        for &(bank, word, lane) in &touches {
            let words = &mut banks[bank as usize];
            match words.last_mut() {
                Some(last) if last.word == word => {
                    if last.lanes.last() != Some(&lane) {
                        last.lanes.push(lane);
                        broadcast = true;
                    }
                }
                _ => words.push(BankWord {
                    word,
                    lanes: vec![lane],
                }),
            }
        }
        let wavefronts = banks.iter().map(Vec::len).max().unwrap_or(0) as u32;
        phases.push(Phase {
            first_lane,
            lanes: phase_lanes,
            wavefronts,
            banks,
        });
    }
    let wavefronts: u32 = phases.iter().map(|p| p.wavefronts).sum();
    let ideal_wavefronts = phases.len() as u32;
    Ok(BankAnalysis {
        op: lanes.op,
        bank_of_lane,
        phase_lanes,
        merged,
        wavefronts,
        ideal_wavefronts,
        bank_conflicts: wavefronts - ideal_wavefronts,
        conflict_degree: f64::from(wavefronts) / f64::from(ideal_wavefronts),
        broadcast,
        phases,
        vendor,
    })
}

/// Whether every active lane reads the same address as lane `t ^ xor`, or that lane is inactive.
fn pairs_share(lanes: &LaneAddresses, xor: usize) -> bool {
    lanes.active().all(|(lane, address)| {
        lanes
            .addresses
            .get(lane ^ xor)
            .copied()
            .flatten()
            .is_none_or(|other| other == address)
    })
}

/// The counts of one warp's shared-memory load or store without the per-bank lists: equal, field
/// for field, to the same fields of [`BankAnalysis`] (a full warp storing one `double`: 2
/// wavefronts, 1 conflict-free each phase, so 0 conflicts).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BankCounts {
    /// A load or a store (see [`BankAnalysis::op`]).
    pub op: Op,
    /// Lanes per phase (see [`BankAnalysis::phase_lanes`]).
    pub phase_lanes: u32,
    /// Whether neighbouring phases merged in pairs.
    pub merged: bool,
    /// Total wavefronts: the sum over phases of the most distinct words one bank delivers.
    pub wavefronts: u32,
    /// Phases that have an active lane.
    pub ideal_wavefronts: u32,
    /// `wavefronts − ideal`.
    pub bank_conflicts: u32,
    /// `wavefronts / ideal`.
    pub conflict_degree: f64,
    /// Whether some word is read by more than one lane of a phase.
    pub broadcast: bool,
}

impl BankAnalysis {
    /// The counts of this analysis (what [`bank_counts`] computes without building the bank lists).
    pub fn counts(&self) -> BankCounts {
        BankCounts {
            op: self.op,
            phase_lanes: self.phase_lanes,
            merged: self.merged,
            wavefronts: self.wavefronts,
            ideal_wavefronts: self.ideal_wavefronts,
            bank_conflicts: self.bank_conflicts,
            conflict_degree: self.conflict_degree,
            broadcast: self.broadcast,
        }
    }
}

/// Counts wavefronts and bank conflicts of a shared-memory load or store (`access.op`) without
/// building the per-bank word lists: no allocation, the same numbers as [`bank_conflicts`].
///
/// Per phase, the words `⌊a / 4⌋ … ⌊(a + E − 1) / 4⌋` of its active lanes are put in order (one pass
/// when the lanes' words already rise or fall, as any stride does; sorted in place on the stack
/// otherwise); each distinct word adds one to its bank `word mod 32`, and the phase costs the largest
/// bank count. 8- and 16-byte loads may merge phases in pairs; stores never do. Worked number:
/// 4-byte elements at stride 32 words → all 32 words in bank 0 → 32 wavefronts, 31 conflicts; at
/// stride 33 → one word per bank → 1 wavefront; one 16-byte address stored by every lane → 4
/// quarter-warp phases → 4 wavefronts (the load: 2).
///
/// ```
/// use warpdrill_core::engine::{bank_counts, Arch, Op, WarpAccess};
/// let k = bank_counts(&WarpAccess::affine(4, 32, 0), Arch::default_arch()).unwrap();
/// assert_eq!((k.wavefronts, k.bank_conflicts), (32, 31));
/// let store = WarpAccess::affine(16, 0, 0).with_op(Op::Store);
/// assert_eq!(bank_counts(&store, Arch::default_arch()).unwrap().wavefronts, 4);
/// ```
pub fn bank_counts(access: &WarpAccess, arch: &Arch) -> Result<BankCounts> {
    if let Some(lanes) = access.linear()? {
        // Lanes at a step are in order: the ordered pass, unless the step's period answers.
        return Ok(linear_counts(&lanes)
            .unwrap_or_else(|| count_phases(&lanes.to_array(), arch.vendor, true)));
    }
    // Borrowed where it was built: the array is not copied.
    match access.resolve_array() {
        Ok(ref lanes) => count_lanes(lanes, arch.vendor),
        Err(e) => Err(e),
    }
}

/// Wavefronts of a linear warp whose elements (at most 4 bytes) each sit in one word, whose step
/// is a whole number `d` of words and whose active lanes run unbroken within each phase — every
/// `float`, `int` or smaller load at a stride — without visiting a lane. The words then step by
/// `d`, all distinct unless `d = 0` (one word for all: 1 wavefront, a broadcast); bank
/// `(w₀ + d·k) mod 32` comes back every `p = 32 / gcd(d, 32)` lanes, so a run of `n` lanes puts at
/// most `⌈n / p⌉` words on one bank. Stride 2 → `p = 16` → 2 wavefronts; stride 32 → `p = 1` → 32.
/// `None` for any other warp (the general pass counts it).
fn linear_counts(lanes: &LinearLanes) -> Option<BankCounts> {
    let elem = i64::from(lanes.elem_bytes);
    if elem > BANK_BYTES || lanes.step & 3 != 0 || (lanes.first & 3) + elem > BANK_BYTES {
        return None;
    }
    let word_step = lanes.step >> 2;
    // gcd(d, 32) is the power of two d ends with, at most 32.
    let period = 32u32 >> word_step.trailing_zeros().min(5);
    // Elements of at most 4 bytes: 32 lanes a phase, no pairs merged.
    let phase_lanes = BANKS.min(lanes.warp_size);
    let mut wavefronts = 0u32;
    let mut ideal = 0u32;
    let mut broadcast = false;
    let mut first_lane = 0u32;
    while first_lane < lanes.warp_size {
        let phase = (lanes.active >> first_lane) & super::access::full_mask(phase_lanes);
        first_lane += phase_lanes;
        if phase == 0 {
            continue;
        }
        let run = phase >> phase.trailing_zeros();
        if run & (run + 1) != 0 {
            return None;
        }
        let n = run.count_ones();
        if word_step == 0 {
            wavefronts += 1;
            broadcast |= n > 1;
        } else {
            wavefronts += n.div_ceil(period);
        }
        ideal += 1;
    }
    Some(BankCounts {
        op: lanes.op,
        phase_lanes,
        merged: false,
        wavefronts,
        ideal_wavefronts: ideal,
        bank_conflicts: wavefronts - ideal,
        conflict_degree: f64::from(wavefronts) / f64::from(ideal),
        broadcast,
    })
}

/// [`bank_counts`] on lanes already resolved, a load or a store as `lanes.op` says: the counting
/// the kernel analyser uses for every shared access it executes. One 8-byte address in all 32
/// lanes → 1 wavefront as a load, 2 as a store.
///
/// ```
/// use warpdrill_core::engine::{Op, Vendor, banks::count_lanes, LaneArray};
/// let store = LaneArray::from_warp32(&[0; 32], u32::MAX, 8, Op::Store);
/// assert_eq!(count_lanes(&store, Vendor::Nvidia).unwrap().wavefronts, 2);
/// ```
pub fn count_lanes(lanes: &LaneArray, vendor: Vendor) -> Result<BankCounts> {
    // A hand-made array may hold anything: the passes below assume what `resolve_array` checks.
    if !super::access::ELEM_SIZES.contains(&lanes.elem_bytes) || lanes.warp_size > 64 {
        return Err(EngineError::range(
            "element size",
            format!("{} bytes", lanes.elem_bytes),
            "one of 1, 2, 4, 8, 16 bytes",
        ));
    }
    if lanes.active == 0 {
        return Err(EngineError::range(
            "active lanes",
            "none",
            "at least one lane",
        ));
    }
    Ok(count_phases(lanes, vendor, false))
}

/// The phases of checked lanes; `ordered` when they are known to come in order (the ordered pass
/// first, not the bitmap). A store's phases never merge (§2b).
fn count_phases(lanes: &LaneArray, vendor: Vendor, ordered: bool) -> BankCounts {
    let elem = i64::from(lanes.elem_bytes);
    let warp = lanes.warp_size;
    let base_phase = (BANKS * BANK_BYTES as u32) / lanes.elem_bytes.max(4);
    let merged = elem >= 8
        && vendor == Vendor::Nvidia
        && lanes.op.pair_merges()
        && (array_pairs_share(lanes, 1) || array_pairs_share(lanes, 2));
    let phase_lanes = if merged { base_phase * 2 } else { base_phase }.min(warp);
    let phase_mask = super::access::full_mask(phase_lanes);
    let mut wavefronts = 0u32;
    let mut ideal = 0u32;
    let mut broadcast = false;
    let mut first_lane = 0u32;
    while first_lane < warp {
        let phase = (lanes.active >> first_lane) & phase_mask;
        if phase != 0 {
            let counted = if ordered {
                ordered_phase(lanes, first_lane, phase, elem)
                    .or_else(|| bitmap_phase(lanes, first_lane, phase, elem))
            } else {
                bitmap_phase(lanes, first_lane, phase, elem)
                    .or_else(|| ordered_phase(lanes, first_lane, phase, elem))
            };
            let (most, shared) =
                counted.unwrap_or_else(|| sorted_phase(lanes, first_lane, phase, elem));
            wavefronts += most;
            ideal += 1;
            broadcast |= shared;
        }
        first_lane += phase_lanes;
    }
    BankCounts {
        op: lanes.op,
        phase_lanes,
        merged,
        wavefronts,
        ideal_wavefronts: ideal,
        bank_conflicts: wavefronts - ideal,
        conflict_degree: f64::from(wavefronts) / f64::from(ideal),
        broadcast,
    }
}

/// Words within this many of the lowest one (rounded down to bank 0) are counted in a bitmap:
/// 8 rows of the 32 banks, 1 KB of shared memory.
const BITMAP_WORDS: i64 = 256;

/// One phase's wavefronts and broadcast for lanes in any order whose words lie within
/// [`BITMAP_WORDS`] of a row start (bank 0): one bit per word; fewer bits set
/// than words read is a word that two lanes read (a broadcast). Row `r` of 32 bits holds the
/// distinct words of each bank in that row, so a bank's count is its bit summed down the rows —
/// added as binary counters, one 32-bit slice per binary digit, all banks at once — and the
/// phase costs the largest. `None` for lanes spread wider.
fn bitmap_phase(lanes: &LaneArray, first_lane: u32, phase: u64, elem: i64) -> Option<(u32, bool)> {
    // First a guess in one pass: rows from 4 below the lowest lane's row. Most scattered phases
    // stay that close.
    let lowest = lanes.addresses[first_lane as usize + phase.trailing_zeros() as usize] >> 2;
    if let Some(counts) = bitmap_from(lanes, first_lane, phase, elem, (lowest & !31) - 128) {
        return Some(counts);
    }
    // Then the exact reach.
    let (mut low, mut high) = (i64::MAX, i64::MIN);
    let mut remaining = phase;
    while remaining != 0 {
        let address = lanes.addresses[first_lane as usize + remaining.trailing_zeros() as usize];
        remaining &= remaining - 1;
        low = low.min(address >> 2);
        high = high.max(address.saturating_add(elem - 1) >> 2);
    }
    let base = low & !31;
    if high.checked_sub(base)? >= BITMAP_WORDS {
        return None;
    }
    bitmap_from(lanes, first_lane, phase, elem, base)
}

/// [`bitmap_phase`] with the bitmap starting at word `base` (bank 0); `None` when a lane's word
/// falls outside it.
fn bitmap_from(
    lanes: &LaneArray,
    first_lane: u32,
    phase: u64,
    elem: i64,
    base: i64,
) -> Option<(u32, bool)> {
    const WORDS: usize = BITMAP_WORDS as usize;
    let mut bits = [0u64; WORDS / 64];
    // A word outside sets a bit of `outside` at or above `WORDS`.
    let mut outside = 0u64;
    let mut reads = 0u32;
    let mut remaining = phase;
    while remaining != 0 {
        let address = lanes.addresses[first_lane as usize + remaining.trailing_zeros() as usize];
        remaining &= remaining - 1;
        let first = address >> 2;
        let last = address.saturating_add(elem - 1) >> 2;
        let bit = first.wrapping_sub(base) as u64;
        outside |= bit | last.wrapping_sub(base) as u64;
        // The lane's words, first to last (one for an aligned `int`, at most 5).
        let words = (last - first) as u64;
        for i in 0..=words {
            let bit = (bit.wrapping_add(i) as usize) % WORDS;
            bits[bit / 64] |= 1u64 << (bit % 64);
        }
        reads += words as u32 + 1;
    }
    if outside >= WORDS as u64 {
        return None;
    }
    // A lane reads each of its words once: fewer distinct words than reads is a word that two
    // lanes read.
    let broadcast = bits.iter().map(|w| w.count_ones()).sum::<u32>() < reads;
    // Binary counters per bank: `digits[i]` holds digit i of every bank's count (at most 8).
    let mut digits = [0u32; 4];
    for row in 0..WORDS / 32 {
        let mut carry = (bits[row / 2] >> (32 * (row % 2))) as u32;
        for digit in &mut digits {
            let next = *digit & carry;
            *digit ^= carry;
            carry = next;
        }
    }
    // The largest count: digit by digit from the top, keeping the banks that have it.
    let mut banks = u32::MAX;
    let mut most = 0u32;
    for (i, digit) in digits.iter().enumerate().rev() {
        if banks & digit != 0 {
            most |= 1 << i;
            banks &= digit;
        }
    }
    Some((most, broadcast))
}

/// One phase's wavefronts (the most distinct words one bank delivers) and whether two lanes share a
/// word, in one pass when the lanes' words come in order (rising or falling): distinct words are
/// the changes between neighbours, and a repeat is another lane reading the same word (one lane
/// covers each of its words once). `None` as soon as the order turns.
fn ordered_phase(lanes: &LaneArray, first_lane: u32, phase: u64, elem: i64) -> Option<(u32, bool)> {
    if elem <= 4
        && let Some(counts) = single_word_phase(lanes, first_lane, phase, elem)
    {
        return Some(counts);
    }
    let mut per_bank = [0u8; BANKS as usize];
    let mut most = 0u8;
    let mut broadcast = false;
    let mut previous = i64::MIN;
    let mut seen = false;
    let mut direction = 0i64;
    let mut remaining = phase;
    while remaining != 0 {
        let lane = first_lane as usize + remaining.trailing_zeros() as usize;
        remaining &= remaining - 1;
        let address = lanes.addresses[lane];
        // `>> 2` is ⌊a / 4⌋ (the word), `& 31` its bank, for negative addresses too.
        let first_word = address >> 2;
        let last_word = address.saturating_add(elem - 1) >> 2;
        let mut word = first_word;
        loop {
            if seen && word == previous {
                broadcast = true;
            } else {
                if seen {
                    let step = if word > previous { 1 } else { -1 };
                    if direction == 0 {
                        direction = step;
                    } else if direction != step {
                        return None;
                    }
                }
                seen = true;
                previous = word;
                let count = &mut per_bank[(word & 31) as usize];
                *count += 1;
                most = most.max(*count);
            }
            if word == last_word {
                break;
            }
            word += 1;
        }
    }
    Some((u32::from(most), broadcast))
}

/// [`ordered_phase`] for lanes that each read within one word (elements of at most 4 bytes that do
/// not straddle a word boundary, as aligned ones never do) — every load of `float`, `int` or
/// smaller: no branch per lane, the order checked along the way. `None` when a lane straddles or
/// the order turns (the general passes decide then).
fn single_word_phase(
    lanes: &LaneArray,
    first_lane: u32,
    phase: u64,
    elem: i64,
) -> Option<(u32, bool)> {
    let mut per_bank = [0u8; BANKS as usize];
    let mut remaining = phase;
    let lane = first_lane as usize + remaining.trailing_zeros() as usize;
    remaining &= remaining - 1;
    let address = lanes.addresses[lane];
    let mut previous = address >> 2;
    let mut straddles = address.saturating_add(elem - 1) >> 2 != previous;
    per_bank[(previous & 31) as usize] = 1;
    let (mut rising, mut falling, mut broadcast) = (true, true, false);
    while remaining != 0 {
        let lane = first_lane as usize + remaining.trailing_zeros() as usize;
        remaining &= remaining - 1;
        let address = lanes.addresses[lane];
        // `>> 2` is ⌊a / 4⌋ (the word), `& 31` its bank, for negative addresses too.
        let word = address >> 2;
        straddles |= address.saturating_add(elem - 1) >> 2 != word;
        let same = word == previous;
        broadcast |= same;
        rising &= word >= previous;
        falling &= word <= previous;
        // In order, a word read again is the one just before: it adds no wavefront.
        per_bank[(word & 31) as usize] += u8::from(!same);
        previous = word;
    }
    if straddles || !(rising || falling) {
        return None;
    }
    let most = per_bank.iter().copied().max().unwrap_or(0);
    Some((u32::from(most), broadcast))
}

/// [`ordered_phase`] for scattered lanes: the phase's words listed on the stack and sorted.
fn sorted_phase(lanes: &LaneArray, first_lane: u32, phase: u64, elem: i64) -> (u32, bool) {
    // A lane's element covers at most 5 words (16 bytes from an unaligned address); a phase has
    // at most 64 lanes.
    let mut words = [0i64; 320];
    let mut n = 0;
    let mut remaining = phase;
    while remaining != 0 {
        let lane = first_lane as usize + remaining.trailing_zeros() as usize;
        remaining &= remaining - 1;
        let address = lanes.addresses[lane];
        for word in (address >> 2)..=(address.saturating_add(elem - 1) >> 2) {
            words[n] = word;
            n += 1;
        }
    }
    let words = &mut words[..n];
    words.sort_unstable();
    let mut per_bank = [0u8; BANKS as usize];
    let mut most = 0u8;
    let mut broadcast = false;
    let mut previous = None;
    for &word in words.iter() {
        if previous == Some(word) {
            broadcast = true;
            continue;
        }
        previous = Some(word);
        let count = &mut per_bank[(word & 31) as usize];
        *count += 1;
        most = most.max(*count);
    }
    (u32::from(most), broadcast)
}

/// [`pairs_share`] on an array of lanes.
fn array_pairs_share(lanes: &LaneArray, xor: usize) -> bool {
    let mut remaining = lanes.active;
    while remaining != 0 {
        let lane = remaining.trailing_zeros() as usize;
        remaining &= remaining - 1;
        if let Some(other) = lanes.get(lane ^ xor)
            && other != lanes.addresses[lane]
        {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analyse(access: WarpAccess) -> BankAnalysis {
        bank_conflicts(&access, Arch::default_arch()).unwrap()
    }

    #[test]
    fn scattered_words_at_the_edges_of_the_bitmap_count_as_the_full_analysis() {
        let rows = BITMAP_WORDS / 32;
        // Bank 0 in every row (the deepest count the bitmap holds), in a scattered order, from
        // bases at, inside and past the bitmap's reach, with a word read twice.
        for base in [
            0i64,
            4,
            31 * 4,
            -4096,
            i64::MIN,
            i64::MAX - 4 * BITMAP_WORDS * 4,
        ] {
            for (elem, reach) in [(4u32, 0i64), (4, 31), (4, 32), (8, 31), (16, 30), (16, 31)] {
                let mut offsets: Vec<i64> = (0..rows)
                    .rev()
                    .map(|row| base.saturating_add(row * 32 * 4))
                    .collect();
                offsets.push(base.saturating_add(((rows - 1) * 32 + reach) * 4));
                offsets.push(offsets[2]);
                offsets.push(base.saturating_add(4 * 7));
                let access = WarpAccess::explicit(elem, offsets);
                // The first guess covers 8 rows from 4 below lane 0's row: words at its first
                // and one past its last must not share a bit.
                let guess = WarpAccess::explicit(
                    elem,
                    vec![base, base.saturating_sub(512), base.saturating_add(512)],
                );
                for arch in [Arch::default_arch(), Arch::parse("gfx942").unwrap()] {
                    assert_eq!(
                        bank_counts(&guess, arch),
                        bank_conflicts(&guess, arch).map(|b| b.counts()),
                        "{guess:?}"
                    );
                    let access = access.clone().with_warp_size(arch.warp_size);
                    assert_eq!(
                        bank_counts(&access, arch),
                        bank_conflicts(&access, arch).map(|b| b.counts()),
                        "{access:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn worked_facts_of_the_notes() {
        // float tile[32][32] column read, then padded to [32][33].
        assert_eq!(analyse(WarpAccess::affine(4, 32, 0)).wavefronts, 32);
        assert_eq!(analyse(WarpAccess::affine(4, 33, 0)).wavefronts, 1);
        // double tile[32][32] column → 32; padded [32][33] → 2.
        assert_eq!(analyse(WarpAccess::affine(8, 32, 0)).wavefronts, 32);
        assert_eq!(analyse(WarpAccess::affine(8, 33, 0)).wavefronts, 2);
        let stride2 = analyse(WarpAccess::affine(4, 2, 0));
        assert_eq!((stride2.wavefronts, stride2.bank_conflicts), (2, 1));
        assert_eq!(stride2.conflict_degree, 2.0);
        assert_eq!(analyse(WarpAccess::affine(4, 0, 7)).wavefronts, 1);
    }

    #[test]
    fn conflict_degree_of_a_word_stride_is_its_gcd_with_32() {
        fn gcd(a: i64, b: i64) -> i64 {
            if b == 0 { a } else { gcd(b, a % b) }
        }
        for stride in 1..=64 {
            let analysis = analyse(WarpAccess::affine(4, stride, 0));
            assert_eq!(
                i64::from(analysis.wavefronts),
                gcd(stride, 32),
                "stride {stride}"
            );
        }
    }

    #[test]
    fn wide_loads_use_phases_and_the_pair_merge() {
        let one_8 = analyse(WarpAccess::explicit(8, vec![0; 32]));
        assert_eq!((one_8.wavefronts, one_8.merged), (1, true));
        let one_16 = analyse(WarpAccess::explicit(16, vec![0; 32]));
        assert_eq!(one_16.wavefronts, 2);
        assert_eq!(one_16.bank_conflicts, 0);
        let pairs = analyse(WarpAccess::explicit(
            8,
            (0..32).map(|t| t / 2 * 8).collect(),
        ));
        assert_eq!(pairs.wavefronts, 1);
        let mod2 = analyse(WarpAccess::explicit(
            8,
            (0..32).map(|t| t % 2 * 8).collect(),
        ));
        assert_eq!(mod2.wavefronts, 1);
        let mod4 = analyse(WarpAccess::explicit(
            8,
            (0..32).map(|t| t % 4 * 8).collect(),
        ));
        assert_eq!(mod4.wavefronts, 2);
        let contiguous16 = analyse(WarpAccess::affine(16, 1, 0));
        assert_eq!(
            (contiguous16.wavefronts, contiguous16.ideal_wavefronts),
            (4, 4)
        );
    }

    #[test]
    fn wide_stores_never_pair_merge() {
        let arch = Arch::default_arch();
        for (elem, load, store) in [(8u32, 1u32, 2u32), (16, 2, 4)] {
            let one = WarpAccess::explicit(elem, vec![0; 32]);
            let loaded = analyse(one.clone());
            let stored = analyse(one.clone().with_op(Op::Store));
            assert_eq!((loaded.wavefronts, loaded.merged), (load, true), "{elem} B");
            assert_eq!(
                (stored.wavefronts, stored.merged, stored.bank_conflicts),
                (store, false, 0),
                "{elem} B"
            );
            assert_eq!(stored.op, Op::Store);
            assert_eq!(stored.phase_lanes, 128 / elem);
            // The counting paths agree: general, linear (stride 0) and the analyser's array.
            let counts = bank_counts(&one.clone().with_op(Op::Store), arch).unwrap();
            assert_eq!(counts, stored.counts());
            let linear = WarpAccess::affine(elem, 0, 0).with_op(Op::Store);
            assert_eq!(bank_counts(&linear, arch).unwrap().wavefronts, store);
            let array = LaneArray::from_warp32(&[0; 32], u32::MAX, elem, Op::Store);
            assert_eq!(count_lanes(&array, arch.vendor).unwrap().wavefronts, store);
            let array = LaneArray::from_warp32(&[0; 32], u32::MAX, elem, Op::Load);
            assert_eq!(count_lanes(&array, arch.vendor).unwrap().wavefronts, load);
        }
        // 1-, 2- and 4-byte stores follow the load rule.
        for elem in [1u32, 2, 4] {
            for stride in [0i64, 1, 2, 32, 33] {
                let load = WarpAccess::affine(elem, stride, 0);
                assert_eq!(
                    analyse(load.clone().with_op(Op::Store)).wavefronts,
                    analyse(load).wavefronts
                );
            }
        }
    }

    #[test]
    fn lanes_that_serialize_are_listed_per_bank() {
        let analysis = analyse(WarpAccess::affine(4, 2, 0));
        let bank0 = &analysis.phases[0].banks[0];
        assert_eq!(bank0.len(), 2);
        assert_eq!(bank0[0].lanes, vec![0]);
        assert_eq!(bank0[1].lanes, vec![16]);
        assert_eq!(analysis.bank_of_lane[1], Some(2));
        assert_eq!(analysis.worst_bank(), Some((0, 2)));
        assert!(analyse(WarpAccess::affine(4, 0, 0)).broadcast);
    }
}
