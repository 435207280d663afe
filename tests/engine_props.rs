//! Invariants of the engine over random inputs.

use proptest::prelude::*;
use warpdrill::engine::{
    ARCHS, Arch, Carveout, Granularity, KernelConfig, Pattern, WarpAccess, bank_conflicts,
    coalesce, occupancy,
};

fn elem() -> impl Strategy<Value = u32> {
    prop_oneof![Just(1u32), Just(2), Just(4), Just(8), Just(16)]
}

fn nvidia_arch() -> impl Strategy<Value = &'static Arch> {
    let archs: Vec<&'static Arch> = ARCHS.iter().filter(|a| a.nvidia.is_some()).collect();
    proptest::sample::select(archs)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn coalescing_bounds(elem in elem(), stride in -2048i64..2048, offset in -4096i64..4096, mask in 1u64..=0xffff_ffff) {
        let access = WarpAccess::affine(elem, stride, offset).with_mask(mask);
        let c = coalesce(&access, Granularity::Sector).unwrap();
        prop_assert!(c.efficiency > 0.0 && c.efficiency <= 1.0);
        let active = u64::from(mask.count_ones());
        let spanned_per_lane = u64::from(elem).div_ceil(32);
        prop_assert!(u64::from(c.sectors) <= active * spanned_per_lane);
        if stride != 0 {
            // Distinct lanes read distinct bytes: the bytes alone need this many sectors.
            prop_assert!(u64::from(c.sectors) >= (active * u64::from(elem)).div_ceil(32));
        } else {
            prop_assert_eq!(c.sectors, 1);
        }
        prop_assert!(c.lines <= c.sectors && c.lines >= c.sectors.div_ceil(4));
        prop_assert_eq!(c.segments.iter().map(|s| s.lanes.len()).sum::<usize>() as u64 >= active, true);
    }

    #[test]
    fn wavefronts_at_least_ideal(elem in elem(), offsets in proptest::collection::vec(0i64..16384, 32), mask in 1u64..=0xffff_ffff) {
        let aligned: Vec<i64> = offsets.iter().map(|o| o / i64::from(elem) * i64::from(elem)).collect();
        let access = WarpAccess::explicit(elem, aligned).with_mask(mask);
        let b = bank_conflicts(&access, Arch::default_arch()).unwrap();
        prop_assert!(b.wavefronts >= b.ideal_wavefronts);
        prop_assert!(b.ideal_wavefronts >= 1);
        prop_assert!(b.wavefronts <= 32 * b.ideal_wavefronts * elem.div_ceil(4).max(1));
        prop_assert_eq!(b.bank_conflicts, b.wavefronts - b.ideal_wavefronts);
    }

    #[test]
    fn more_registers_or_shared_memory_never_raise_occupancy(
        arch in nvidia_arch(),
        block in 1u32..=1024,
        regs in 0u32..255,
        smem in 0u32..300_000,
        extra_smem in 0u32..50_000,
        carveout in -1i64..=100,
    ) {
        let config = KernelConfig {
            block_size: block,
            regs_per_thread: regs,
            static_smem: 0,
            dynamic_smem: smem,
            carveout: Carveout::from_pct(carveout).unwrap(),
        };
        let base = occupancy(arch, &config).unwrap();
        prop_assert!(base.occupancy >= 0.0 && base.occupancy <= 1.0);
        let more_regs = occupancy(arch, &KernelConfig { regs_per_thread: regs.max(1) + 1, ..config }).unwrap();
        prop_assert!(more_regs.occupancy <= base.occupancy || regs == 0);
        let more_smem = occupancy(arch, &KernelConfig { dynamic_smem: smem + extra_smem, ..config }).unwrap();
        prop_assert!(more_smem.occupancy <= base.occupancy);
    }

    #[test]
    fn no_input_panics(
        elem in any::<u32>(),
        stride in any::<i64>(),
        offset in any::<i64>(),
        base in any::<i64>(),
        mask in any::<u64>(),
        wide in any::<bool>(),
        struct_bytes in any::<i64>(),
        block in any::<u32>(),
        regs in any::<u32>(),
        smem in any::<u32>(),
        carveout in any::<i64>(),
    ) {
        let warp_size = if wide { 64 } else { 32 };
        for pattern in [
            Pattern::Affine { stride_elems: stride, offset_elems: offset, base_bytes: base },
            Pattern::StructField { struct_bytes, field_offset: offset, first: stride, base_bytes: base },
            Pattern::TwoD { pitch_bytes: stride, column: wide, row: offset, col: base, base_bytes: struct_bytes },
        ] {
            let access = WarpAccess { elem_bytes: elem, pattern, active_mask: mask, warp_size };
            let _ = coalesce(&access, Granularity::Sector);
            let _ = coalesce(&access, Granularity::Line);
            let _ = bank_conflicts(&access, Arch::default_arch());
        }
        if let Ok(carveout) = Carveout::from_pct(carveout) {
            let config = KernelConfig { block_size: block, regs_per_thread: regs, static_smem: smem, dynamic_smem: smem, carveout };
            for arch in ARCHS {
                let _ = occupancy(arch, &config);
            }
        }
    }
}
