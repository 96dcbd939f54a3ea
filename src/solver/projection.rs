//! `projection` and `projection-tm`: Sudoku as a non-convex feasibility problem, solved by
//! projection algorithms instead of search.
//!
//! The grid is lifted to the 0/1 cube X ∈ ℝ^{9×9×9}, X\[r\]\[c\]\[d\] = 1 iff cell (r, c) holds
//! digit d + 1, stored flat as `cell * 9 + d` (729 reals). A solution is a point in the
//! intersection of five sets:
//!
//! - C1 every cell's 9-vector (over digits) is a unit vector;
//! - C2 in every row, each digit's 9-vector (over columns) is a unit vector;
//! - C3 likewise per column (over rows);
//! - C4 likewise per box (over the box's cells);
//! - C5 the clues hold: for a clue grid, clue cells are fixed to their digit; for pencilmark
//!   input, eliminated candidates are 0 and single-candidate cells are fixed.
//!
//! The projection onto C1–C4 sets the largest entry of each vector to 1 and the rest to 0
//! (ties go to the lowest index, so the projection is deterministic); onto C5 it overwrites
//! the fixed entries and keeps the rest.
//!
//! Two algorithms are available (see [`Algorithm`]):
//!
//! - **Douglas–Rachford in the product space** (Elser's divide and concur; Aragón Artacho,
//!   Borwein and Tam): five copies x₁…x₅, one per set; each step takes their average
//!   a = P_D(x) (the projection onto the diagonal) and updates every copy by
//!   xᵢ ← xᵢ + λ (P_Cᵢ(2a − xᵢ) − a), which for λ = 1 is x ← ½(x + R_C R_D x).
//! - **Malitsky–Tam resolvent splitting** with minimal lifting: four variables z₁…z₄;
//!   x₁ = P₁(z₁), xᵢ = Pᵢ(zᵢ + xᵢ₋₁ − zᵢ₋₁), x₅ = P₅(x₁ + x₄ − z₄), then
//!   zᵢ ← zᵢ + γ (xᵢ₊₁ − xᵢ).
//!
//! After every step the monitored point (DR: the average a; TM: the mean of the xᵢ) is
//! rounded (largest entry per cell) and the rounding checked as a solution; every solution is
//! confirmed by [`crate::verify`] before it is returned. If the iteration budget runs out the
//! answer is [`Count::Unknown`](super::Count::Unknown): the method is incomplete and never returns a wrong grid.
//! Starts are random from [`Options::seed`] (re-seeded for every puzzle, so a puzzle's answer
//! does not depend on what the instance solved before).
//!
//! All state lives in flat fixed-size arrays allocated once per instance; the kernels are
//! written so that each inner loop runs over 9 or 81 independent lanes with branch-free
//! selects, which the compiler turns into SIMD code.

use super::{BuildError, Limit, Options, Outcome, Solver, Stats};
use crate::grid::{Grid, CELLS, UNITS};
use crate::puzzle::Puzzle;
use crate::util::SplitMix64;
use crate::verify;
use std::ops::{Add, Mul, Sub};

/// Number of reals in one iterate: 81 cells × 9 digits.
pub const N: usize = CELLS * 9;

type Cube<R> = [R; N];

/// Which splitting algorithm to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Algorithm {
    /// Douglas–Rachford in the product space (divide and concur).
    #[default]
    DouglasRachford,
    /// Malitsky–Tam resolvent splitting with minimal lifting.
    MalitskyTam,
}

/// Floating-point precision of the iterates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Precision {
    /// `f32`: twice the SIMD lanes of `f64`.
    #[default]
    F32,
    /// `f64`.
    F64,
}

/// Settings of the projection backends (kept in [`Options`] by type, [`Options::get`]). `None` fields take the
/// algorithm's default, chosen by measurement on the first 100 puzzles of the 17-clue,
/// top1465 and forum-hardest-1106 sets (see the README's projection section):
///
/// | | relaxation | noise | restart every |
/// |---|---|---|---|
/// | Douglas–Rachford | λ = 0.95 | 0 | 7,000 iterations |
/// | Malitsky–Tam | γ = 0.5 | 0.02 | never |
#[derive(Clone, Copy, Debug)]
pub struct ProjectionOptions {
    /// Iteration budget per puzzle (all restarts together); spent → `Count::Unknown`.
    pub iterations: u64,
    /// Which algorithm `Projection::new` builds (the registry sets it from the backend name).
    pub algorithm: Algorithm,
    /// Relaxation: λ ∈ (0, 2) for Douglas–Rachford (1 = plain DR), γ ∈ (0, 1) for
    /// Malitsky–Tam.
    pub relaxation: Option<f64>,
    /// Amplitude of uniform noise in \[−noise, noise\] added to every entry of the iterate
    /// every step (0 = none).
    pub noise: Option<f64>,
    /// Restart from a fresh random point every this many iterations (0 = never).
    pub restart_every: Option<u64>,
    /// Precision of the iterates.
    pub precision: Precision,
}

/// Default iteration budget.
pub const DEFAULT_ITERATIONS: u64 = 10_000;

/// Defaults of one algorithm: (relaxation, noise, restart every).
pub const fn defaults(algorithm: Algorithm) -> (f64, f64, u64) {
    match algorithm {
        // λ = 0.95 beat 1.0 over seeds 1–5 (top1465 98.0 vs 95.8 of 100 solved,
        // forum_hardest_1106 67.8 vs 66.6); 0.8–0.9 and 1.1 were worse, 1.2+ diverges on the
        // hardest set. Noise 0.01–0.05 made no measurable difference. Restarting every 7,000
        // iterations lifts forum_hardest_1106 at a 50,000 cap from ~89–91 to ~91–93 solved,
        // at a small cost at a 10,000 cap.
        Algorithm::DouglasRachford => (0.95, 0.0, 7_000),
        // γ ≥ 0.75 fails, 0.25–0.4 is slower; noise 0.01–0.02 more than doubles the solve
        // rate on forum_hardest_1106 (22 → ~55 of 100 at a 10,000 cap).
        Algorithm::MalitskyTam => (0.5, 0.02, 0),
    }
}

impl Default for ProjectionOptions {
    fn default() -> Self {
        ProjectionOptions {
            iterations: DEFAULT_ITERATIONS,
            algorithm: Algorithm::DouglasRachford,
            relaxation: None,
            noise: None,
            restart_every: None,
            precision: Precision::F32,
        }
    }
}

impl PartialEq for ProjectionOptions {
    fn eq(&self, other: &Self) -> bool {
        self.iterations == other.iterations
            && self.algorithm == other.algorithm
            && self.relaxation.map(f64::to_bits) == other.relaxation.map(f64::to_bits)
            && self.noise.map(f64::to_bits) == other.noise.map(f64::to_bits)
            && self.restart_every == other.restart_every
            && self.precision == other.precision
    }
}

// Bitwise comparison of the floats makes equality reflexive.
impl Eq for ProjectionOptions {}

/// A real type the iterates can be stored in (`f32` or `f64`).
pub trait Real:
    Copy
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Send
    + Sync
    + std::fmt::Debug
    + 'static
{
    /// 0.
    const ZERO: Self;
    /// 1.
    const ONE: Self;
    /// Conversion (rounding to the nearest representable value).
    fn from_f64(v: f64) -> Self;
    /// Integer lane of the same width (argmax indices live next to the values in SIMD).
    type Lane: Copy + std::fmt::Debug;
    /// `k` as a lane.
    fn lane(k: usize) -> Self::Lane;
    /// A lane back to `usize`.
    fn lane_to_usize(l: Self::Lane) -> usize;
}

impl Real for f32 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    fn from_f64(v: f64) -> Self {
        v as f32
    }
    type Lane = u32;
    fn lane(k: usize) -> u32 {
        k as u32
    }
    fn lane_to_usize(l: u32) -> usize {
        l as usize
    }
}

impl Real for f64 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    fn from_f64(v: f64) -> Self {
        v
    }
    type Lane = u64;
    fn lane(k: usize) -> u64 {
        k as u64
    }
    fn lane_to_usize(l: u64) -> usize {
        l as usize
    }
}

/// The five constraint sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Set {
    Cell,
    Row,
    Col,
    Box,
    Clues,
}

const SETS: [Set; 5] = [Set::Cell, Set::Row, Set::Col, Set::Box, Set::Clues];

/// Length of the precomputed noise table: an iterate's noise is a window of `N` values at a
/// random offset, so noise costs one vector add per copy instead of 729 random draws.
const NOISE_LEN: usize = 4 * N;

/// The iteration state for one precision. Allocated once per backend instance.
struct Engine<R: Real> {
    /// DR: the five copies. TM: z₁…z₄ in slots 0..4 (slot 4 unused).
    x: Box<[Cube<R>; 5]>,
    /// TM: the five projections x₁…x₅.
    p: Box<[Cube<R>; 5]>,
    /// The monitored average.
    a: Box<Cube<R>>,
    /// Scratch: the point being projected.
    y: Box<Cube<R>>,
    /// C5: 1 where an entry is free (allowed digit of an unfixed cell), else 0.
    free: Box<Cube<R>>,
    /// C5: 1 at the digit of a fixed cell, else 0.
    fixed: Box<Cube<R>>,
    /// Noise table (values in [−noise, noise]).
    noise: Vec<R>,
    /// Scratch: winners of the last projection.
    win: Winners,
}

impl<R: Real> Engine<R> {
    fn new() -> Self {
        Engine {
            x: Box::new([[R::ZERO; N]; 5]),
            p: Box::new([[R::ZERO; N]; 5]),
            a: Box::new([R::ZERO; N]),
            y: Box::new([R::ZERO; N]),
            free: Box::new([R::ZERO; N]),
            fixed: Box::new([R::ZERO; N]),
            noise: Vec::new(),
            win: [0; 81],
        }
    }

    /// Sets up C5 from candidate masks.
    fn load(&mut self, masks: &[u16; CELLS]) {
        for (cell, &m) in masks.iter().enumerate() {
            let m = m & 0x1ff;
            let single = m.count_ones() == 1;
            for d in 0..9 {
                let allowed = m >> d & 1 == 1;
                self.free[cell * 9 + d] = if allowed && !single { R::ONE } else { R::ZERO };
                self.fixed[cell * 9 + d] = if allowed && single { R::ONE } else { R::ZERO };
            }
        }
    }

    fn randomize(&mut self, rng: &mut SplitMix64, copies: usize) {
        for copy in self.x.iter_mut().take(copies) {
            for v in copy.iter_mut() {
                *v = R::from_f64(rng.unit());
            }
        }
    }

    fn fill_noise(&mut self, rng: &mut SplitMix64, amplitude: f64) {
        self.noise.clear();
        if amplitude > 0.0 {
            self.noise.reserve(NOISE_LEN);
            for _ in 0..NOISE_LEN {
                self.noise
                    .push(R::from_f64((2.0 * rng.unit() - 1.0) * amplitude));
            }
        }
    }

    /// Adds a random window of the noise table to `v` (no-op without noise).
    #[inline(always)]
    fn add_noise(noise: &[R], rng: &mut SplitMix64, v: &mut Cube<R>) {
        if noise.len() < 2 * N {
            return;
        }
        let off = (rng.next_u64() % (noise.len() - N) as u64) as usize;
        if let Some(window) = noise.get(off..off + N) {
            for (x, &e) in v.iter_mut().zip(window) {
                *x = *x + e;
            }
        }
    }
}

/// The 81 positions where the projection onto one of C1–C4 is 1 (it is 0 elsewhere): one
/// winner per group (cell, or unit × digit).
type Winners = [u16; 81];

/// Where the argmax kernels want each 9-value chunk (one cell's digits) of the point being
/// projected: the row and box sets are gathered so that their groups become 81 lanes of 9
/// vectors, like the column set is natively (see [`vertical_argmax`]).
///
/// `DEST[set][cell]` is the chunk's position in the scratch layout.
const DEST: [[u8; CELLS]; 2] = {
    let mut t = [[0u8; CELLS]; 2];
    let mut cell = 0;
    while cell < CELLS {
        let (r, c) = (cell / 9, cell % 9);
        // Rows: vector = column, lane group = row.
        t[0][cell] = (c * 9 + r) as u8;
        // Boxes: vector = position in the box, lane group = box.
        let (b, k) = ((r / 3) * 3 + c / 3, (r % 3) * 3 + c % 3);
        t[1][cell] = (k * 9 + b) as u8;
        cell += 1;
    }
    t
};

/// For the row, column and box sets: `ORIGIN[s][k * 81 + l]` is the flat index in the natural
/// layout of lane `l` of vector `k` in the scratch layout, i.e. where a winner goes.
const ORIGIN: [[u16; N]; 3] = {
    let mut t = [[0u16; N]; 3];
    let mut cell = 0;
    while cell < CELLS {
        let dest = [DEST[0][cell] as usize, cell, DEST[1][cell] as usize];
        let mut s = 0;
        while s < 3 {
            let mut d = 0;
            while d < 9 {
                t[s][dest[s] * 9 + d] = (cell * 9 + d) as u16;
                d += 1;
            }
            s += 1;
        }
        cell += 1;
    }
    t
};

/// Writes `f(i)` for every natural index `i` into `y`, in the scratch layout of `set`.
#[inline(always)]
fn gather<R: Real>(set: Set, y: &mut Cube<R>, mut f: impl FnMut(usize) -> R) {
    let dest = match set {
        Set::Row => &DEST[0],
        Set::Box => &DEST[1],
        Set::Cell | Set::Col | Set::Clues => {
            for (i, v) in y.iter_mut().enumerate() {
                *v = f(i);
            }
            return;
        }
    };
    for (cell, &to) in dest.iter().enumerate() {
        let out: &mut [R; 9] = chunk_mut(y, to as usize * 9);
        for (d, v) in out.iter_mut().enumerate() {
            *v = f(cell * 9 + d);
        }
    }
}

/// Projects the point `f(i)` onto `set` into `p` (natural layout), using `y` as scratch.
#[inline(always)]
fn project<R: Real>(
    set: Set,
    f: impl FnMut(usize) -> R,
    y: &mut Cube<R>,
    p: &mut Cube<R>,
    c5: (&Cube<R>, &Cube<R>),
    win: &mut Winners,
) {
    gather(set, y, f);
    if set == Set::Clues {
        let (free, fixed) = c5;
        for i in 0..N {
            p[i] = y[i] * free[i] + fixed[i];
        }
        return;
    }
    winners(set, y, win);
    p.fill(R::ZERO);
    for &w in win.iter() {
        if let Some(v) = p.get_mut(w as usize) {
            *v = R::ONE;
        }
    }
}

/// The winners of the projection onto `set` (one of C1–C4) of the point gathered in `y`:
/// the largest entry of each group, lowest natural index on ties.
#[inline(always)]
fn winners<R: Real>(set: Set, y: &Cube<R>, win: &mut Winners) {
    let origin = match set {
        Set::Cell | Set::Clues => {
            for (cell, w) in win.iter_mut().enumerate() {
                *w = (cell * 9 + argmax9(chunk(y, cell * 9))) as u16;
            }
            return;
        }
        Set::Row => &ORIGIN[0],
        Set::Col => &ORIGIN[1],
        Set::Box => &ORIGIN[2],
    };
    let idx = vertical_argmax(y);
    for (l, w) in win.iter_mut().enumerate() {
        *w = origin[R::lane_to_usize(idx[l]).min(8) * 81 + l];
    }
}

/// Index of each lane's maximum over the 9 vectors of 81 lanes `y[k * 81 .. k * 81 + 81]`,
/// lowest k on ties. Branch-free selects on equal-width lanes, so it vectorises.
#[inline(always)]
fn vertical_argmax<R: Real>(y: &Cube<R>) -> [R::Lane; 81] {
    let mut best: [R; 81] = *chunk(y, 0);
    let mut idx = [R::lane(0); 81];
    for k in 1..9 {
        let v: &[R; 81] = chunk(y, k * 81);
        let kk = R::lane(k);
        for l in 0..81 {
            let gt = v[l] > best[l];
            best[l] = if gt { v[l] } else { best[l] };
            idx[l] = if gt { kk } else { idx[l] };
        }
    }
    idx
}

/// Index 0..9 of the largest of 9 values, lowest on ties: a max tree, then the first value
/// equal to the max (a NaN-only group gives 8).
#[inline(always)]
fn argmax9<R: Real>(g: &[R; 9]) -> usize {
    let mx = |a: R, b: R| if a > b { a } else { b };
    let m = mx(
        mx(mx(g[0], g[1]), mx(g[2], g[3])),
        mx(mx(mx(g[4], g[5]), mx(g[6], g[7])), g[8]),
    );
    let mut mask = 0u32;
    for (d, &v) in g.iter().enumerate() {
        mask |= ((v >= m) as u32) << d;
    }
    (mask.trailing_zeros() as usize).min(8)
}

/// Below this magnitude an iterate entry is set to 0.
const TINY: f64 = 1e-30;

/// `v`, or 0 if `|v| < 1e-30`. Entries that settle geometrically towards 0 would otherwise
/// become subnormal after a few hundred steps, and subnormal arithmetic is two orders of
/// magnitude slower on x86 (measured: Malitsky–Tam at γ = 0.5 ran 3× slower per iteration
/// than at γ = 0.75 before this flush).
#[inline(always)]
fn flush<R: Real>(v: R) -> R {
    let t = R::from_f64(TINY);
    if (v < t) & (v > R::ZERO - t) {
        R::ZERO
    } else {
        v
    }
}

/// The `W` values from `at` as an array. Every call site passes fixed geometry with
/// `at + W <= N`, so the slice always has the right length.
#[inline(always)]
fn chunk<R: Real, const W: usize>(s: &[R], at: usize) -> &[R; W] {
    s[at..at + W].try_into().expect("fixed geometry")
}

/// Mutable version of [`chunk`].
#[inline(always)]
fn chunk_mut<R: Real, const W: usize>(s: &mut [R], at: usize) -> &mut [R; W] {
    (&mut s[at..at + W]).try_into().expect("fixed geometry")
}

/// Rounds `a` (largest entry per cell, lowest digit on ties) into `digits` (1..=9) and says
/// whether the result is a valid grid that respects the candidate masks.
#[inline(always)]
fn round_and_check<R: Real>(a: &Cube<R>, masks: &[u16; CELLS], digits: &mut [u8; CELLS]) -> bool {
    let mut bad = 0u16;
    for cell in 0..CELLS {
        let d = argmax9(chunk(a, cell * 9));
        digits[cell] = d as u8 + 1;
        bad |= !masks[cell] >> d & 1;
    }
    if bad != 0 {
        return false;
    }
    UNITS.iter().all(|unit| {
        unit.iter()
            .fold(0u16, |m, &cell| m | 1 << (digits[cell as usize] - 1))
            == 0x1ff
    })
}

/// What [`Engine::run`] ended with.
struct RunEnd {
    solution: Option<Grid>,
    iterations: u64,
}

/// Per-run parameters, resolved from [`ProjectionOptions`].
#[derive(Clone, Copy, Debug)]
struct Params {
    algorithm: Algorithm,
    iterations: u64,
    relaxation: f64,
    noise: f64,
    restart_every: u64,
}

impl<R: Real> Engine<R> {
    /// Iterates from random starts until a rounding solves the puzzle or the budget is spent.
    ///
    /// On x86-64 CPUs with AVX2 the same code is compiled a second time with AVX2 enabled
    /// and chosen at run time: the kernels are lane-parallel selects and adds, which AVX2
    /// does 8 `f32` lanes at a time with real blends, against 4 lanes and and/andnot/or
    /// triples with the SSE2 baseline. Every operation is element-wise IEEE arithmetic or a
    /// comparison (no reassociated reductions), so both versions compute identical iterates.
    fn run(&mut self, masks: &[u16; CELLS], params: &Params, rng: &mut SplitMix64) -> RunEnd {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: `run_avx2` only requires AVX2, which the CPU was just found to support.
            return unsafe { self.run_avx2(masks, params, rng) };
        }
        self.run_portable(masks, params, rng)
    }

    /// [`Engine::run`] compiled with AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn run_avx2(
        &mut self,
        masks: &[u16; CELLS],
        params: &Params,
        rng: &mut SplitMix64,
    ) -> RunEnd {
        self.run_portable(masks, params, rng)
    }

    /// The iteration itself (inlined into both [`Engine::run`] versions).
    #[inline(always)]
    fn run_portable(
        &mut self,
        masks: &[u16; CELLS],
        params: &Params,
        rng: &mut SplitMix64,
    ) -> RunEnd {
        self.load(masks);
        self.fill_noise(rng, params.noise);
        let mut digits = [0u8; CELLS];
        let lambda = R::from_f64(params.relaxation);
        let restart = if params.restart_every == 0 {
            u64::MAX
        } else {
            params.restart_every
        };
        let mut it = 0u64;
        'run: while it < params.iterations {
            let copies = match params.algorithm {
                Algorithm::DouglasRachford => 5,
                Algorithm::MalitskyTam => 4,
            };
            self.randomize(rng, copies);
            let mut since = 0u64;
            while it < params.iterations && since < restart {
                // A time budget: the clock is read at iterations 1, 2, 4, … and every `CHECK_EVERY`.
                if crate::deadline::due(it + 1) {
                    break 'run;
                }
                match params.algorithm {
                    Algorithm::DouglasRachford => self.average(),
                    Algorithm::MalitskyTam => self.tm_project(),
                }
                if round_and_check(&self.a, masks, &mut digits) {
                    return RunEnd {
                        solution: Grid::from_cells(digits).ok(),
                        iterations: it,
                    };
                }
                match params.algorithm {
                    Algorithm::DouglasRachford => self.dr_update(lambda, rng),
                    Algorithm::MalitskyTam => self.tm_update(lambda, rng),
                }
                it += 1;
                since += 1;
            }
        }
        RunEnd {
            solution: None,
            iterations: it,
        }
    }

    /// a = mean of the five copies (projection onto the diagonal).
    #[inline(always)]
    fn average(&mut self) {
        let fifth = R::from_f64(0.2);
        let [x0, x1, x2, x3, x4] = &*self.x;
        for i in 0..N {
            self.a[i] = flush((x0[i] + x1[i] + x2[i] + x3[i] + x4[i]) * fifth);
        }
    }

    /// One Douglas–Rachford step from the current average: xᵢ += λ (P_i(2a − xᵢ) − a).
    /// For C1–C4 the projection is one-hot, so the step is xᵢ −= λa everywhere (fused with
    /// gathering 2a − xᵢ for the projection) and +λ at the 81 winners.
    #[inline(always)]
    fn dr_update(&mut self, lambda: R, rng: &mut SplitMix64) {
        let two = R::from_f64(2.0);
        for (k, &set) in SETS.iter().enumerate() {
            let x = &mut self.x[k];
            let y = &mut *self.y;
            let a = &*self.a;
            gather(set, y, |i| {
                let (xi, ai) = (x[i], a[i]);
                x[i] = flush(xi - lambda * ai);
                two * ai - xi
            });
            if set == Set::Clues {
                let (free, fixed) = (&*self.free, &*self.fixed);
                for i in 0..N {
                    x[i] = flush(x[i] + lambda * (y[i] * free[i] + fixed[i]));
                }
            } else {
                winners(set, y, &mut self.win);
                for &w in self.win.iter() {
                    if let Some(v) = x.get_mut(w as usize) {
                        *v = *v + lambda;
                    }
                }
            }
            Self::add_noise(&self.noise, rng, x);
        }
    }

    /// Malitsky–Tam forward sweep: the five projections from z₁…z₄, and their mean into `a`.
    #[inline(always)]
    fn tm_project(&mut self) {
        let z = &*self.x;
        let p = &mut *self.p;
        let y = &mut *self.y;
        let c5 = (&*self.free, &*self.fixed);
        let win = &mut self.win;
        project(SETS[0], |i| z[0][i], y, &mut p[0], c5, win);
        for k in 1..4 {
            let (done, rest) = p.split_at_mut(k);
            let prev = &done[k - 1];
            let f = |i: usize| z[k][i] + prev[i] - z[k - 1][i];
            project(SETS[k], f, y, &mut rest[0], c5, win);
        }
        let (done, rest) = p.split_at_mut(4);
        let f = |i: usize| done[0][i] + done[3][i] - z[3][i];
        project(SETS[4], f, y, &mut rest[0], c5, win);
        let fifth = R::from_f64(0.2);
        let [p0, p1, p2, p3, p4] = &*self.p;
        for i in 0..N {
            self.a[i] = (p0[i] + p1[i] + p2[i] + p3[i] + p4[i]) * fifth;
        }
    }

    /// Malitsky–Tam update: zᵢ += γ (xᵢ₊₁ − xᵢ).
    #[inline(always)]
    fn tm_update(&mut self, gamma: R, rng: &mut SplitMix64) {
        for k in 0..4 {
            let z = &mut self.x[k];
            let (lo, hi) = (&self.p[k], &self.p[k + 1]);
            for i in 0..N {
                z[i] = flush(z[i] + gamma * (hi[i] - lo[i]));
            }
            Self::add_noise(&self.noise, rng, z);
        }
    }
}

enum Engines {
    F32(Engine<f32>),
    F64(Engine<f64>),
}

/// The projection backend (Douglas–Rachford or Malitsky–Tam, see the module docs).
pub struct Projection {
    params: Params,
    seed: u64,
    engine: Engines,
}

impl std::fmt::Debug for Projection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Projection")
            .field("params", &self.params)
            .field("seed", &self.seed)
            .finish()
    }
}

impl Projection {
    /// Builds the backend from its settings in `options` ([`ProjectionOptions`]: algorithm,
    /// budget, relaxation, noise, restarts, precision; the defaults when none were given) and
    /// `options.seed`.
    pub fn new(options: &Options) -> Projection {
        let default = ProjectionOptions::default();
        let o = options.get::<ProjectionOptions>().unwrap_or(&default);
        let (relaxation, noise, restart_every) = defaults(o.algorithm);
        Projection {
            params: Params {
                algorithm: o.algorithm,
                iterations: o.iterations,
                relaxation: o.relaxation.unwrap_or(relaxation),
                noise: o.noise.unwrap_or(noise).abs(),
                restart_every: o.restart_every.unwrap_or(restart_every),
            },
            seed: options.seed,
            engine: match o.precision {
                Precision::F32 => Engines::F32(Engine::new()),
                Precision::F64 => Engines::F64(Engine::new()),
            },
        }
    }

    /// Solves from candidate masks; `check` confirms a rounding against the original puzzle.
    fn solve_masks(
        &mut self,
        masks: &[u16; CELLS],
        limit: Limit,
        check: impl Fn(&Grid) -> bool,
    ) -> Outcome {
        match trivial(masks) {
            Trivial::NoSolution => return Outcome::none(Stats::default()),
            Trivial::Solved(grid) if check(&grid) => {
                // Every cell is fixed: the grid is the only solution.
                return Outcome::one(grid, limit, Stats::default());
            }
            Trivial::Solved(_) => return Outcome::none(Stats::default()),
            Trivial::Open => {}
        }
        let mut rng = SplitMix64::new(self.seed);
        let end = match &mut self.engine {
            Engines::F32(e) => e.run(masks, &self.params, &mut rng),
            Engines::F64(e) => e.run(masks, &self.params, &mut rng),
        };
        let stats = Stats {
            iterations: end.iterations,
            ..Stats::default()
        };
        match end.solution {
            // A found solution proves "at least one"; uniqueness is beyond this method.
            Some(grid) if check(&grid) => match limit {
                Limit::ONE => Outcome::one(grid, limit, stats),
                _ => Outcome::undecided(Some(grid), stats),
            },
            _ => Outcome::unknown(stats),
        }
    }
}

/// Registry constructor: builds the backend with `algorithm`, rejecting unusable settings.
pub fn build(options: &Options, algorithm: Algorithm) -> Result<Box<dyn Solver>, BuildError> {
    let mut o = options
        .get::<ProjectionOptions>()
        .cloned()
        .unwrap_or_default();
    o.algorithm = algorithm;
    let options = options.clone().with(o);
    let name = match algorithm {
        Algorithm::DouglasRachford => "projection",
        Algorithm::MalitskyTam => "projection-tm",
    };
    let invalid = |reason: String| BuildError::Invalid {
        name: name.to_string(),
        reason,
    };
    if let Some(r) = o.relaxation {
        let ok = match algorithm {
            Algorithm::DouglasRachford => r > 0.0 && r < 2.0,
            Algorithm::MalitskyTam => r > 0.0 && r < 1.0,
        };
        if !ok {
            return Err(invalid(format!("relaxation {r} out of range")));
        }
    }
    if let Some(n) = o.noise.filter(|n| !n.is_finite()) {
        return Err(invalid(format!("noise {n} is not finite")));
    }
    Ok(Box::new(Projection::new(&options)))
}

/// What can be decided without iterating.
enum Trivial {
    /// An empty candidate set, or a digit fixed twice in a unit.
    NoSolution,
    /// Every cell is fixed (and no unit repeats a digit).
    Solved(Grid),
    Open,
}

fn trivial(masks: &[u16; CELLS]) -> Trivial {
    if masks.iter().any(|&m| m & 0x1ff == 0) {
        return Trivial::NoSolution;
    }
    for unit in &UNITS {
        let mut seen = 0u16;
        for &cell in unit {
            let m = masks[cell as usize] & 0x1ff;
            if m.count_ones() == 1 {
                if seen & m != 0 {
                    return Trivial::NoSolution;
                }
                seen |= m;
            }
        }
    }
    if masks.iter().all(|&m| (m & 0x1ff).count_ones() == 1) {
        let mut cells = [0u8; CELLS];
        for (c, &m) in cells.iter_mut().zip(masks) {
            *c = (m & 0x1ff).trailing_zeros() as u8 + 1;
        }
        if let Ok(grid) = Grid::from_cells(cells) {
            return Trivial::Solved(grid);
        }
    }
    Trivial::Open
}

impl Solver for Projection {
    fn solve(&mut self, puzzle: &Puzzle, limit: Limit) -> Outcome {
        let Some(candidates) = puzzle.candidates() else {
            return Outcome::unknown(Stats::default());
        };
        let masks = *candidates.masks();
        self.solve_masks(&masks, limit, |g| verify::check_puzzle(puzzle, g).is_ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Count;

    fn options(algorithm: Algorithm) -> Options {
        Options::default().with(ProjectionOptions {
            algorithm,
            ..ProjectionOptions::default()
        })
    }

    #[test]
    fn projections_are_one_hot_per_group() {
        let mut rng = SplitMix64::new(7);
        let mut y = [0f32; N];
        for v in y.iter_mut() {
            v.clone_from(&(rng.unit() as f32));
        }
        let mut p = [0f32; N];
        let cell_groups: Vec<Vec<usize>> = (0..81)
            .map(|c| (0..9).map(|d| c * 9 + d).collect())
            .collect();
        let unit_groups = |u: usize| -> Vec<Vec<usize>> {
            (0..9)
                .flat_map(|b| {
                    (0..9).map(move |d| {
                        UNITS[u * 9 + b]
                            .iter()
                            .map(|&c| c as usize * 9 + d)
                            .collect()
                    })
                })
                .collect()
        };
        let cases = [
            (Set::Cell, cell_groups),
            (Set::Row, unit_groups(0)),
            (Set::Col, unit_groups(1)),
            (Set::Box, unit_groups(2)),
        ];
        for (set, groups) in cases {
            project(
                set,
                |i| y[i],
                &mut [0.0; N],
                &mut p,
                (&[0.0; N], &[0.0; N]),
                &mut [0; 81],
            );
            for g in groups {
                let best = g
                    .iter()
                    .copied()
                    .fold(g[0], |b, i| if y[i] > y[b] { i } else { b });
                for &i in &g {
                    assert_eq!(p[i], if i == best { 1.0 } else { 0.0 }, "{set:?}");
                }
            }
        }
    }

    #[test]
    fn ties_go_to_the_lowest_index() {
        let y = [0.5f64; N];
        let mut p = [0f64; N];
        project(
            Set::Row,
            |i| y[i],
            &mut [0.0; N],
            &mut p,
            (&[0.0; N], &[0.0; N]),
            &mut [0; 81],
        );
        // Row 0: every digit's 1 is in column 0.
        assert!((0..9).all(|d| p[d] == 1.0));
        assert!((9..81).all(|i| p[i] == 0.0));
    }

    #[test]
    fn solves_easy_puzzles_reproducibly() {
        let puzzles = [
            "000000907000420180000705026100904000050000040000507009920108000034059000507000000",
            "003020600900305001001806400008102900700000008006708200002609500800203009005010300",
            "200080300060070084030500209000105408000000000402706000301007040720040060004010003",
        ];
        for algorithm in [Algorithm::DouglasRachford, Algorithm::MalitskyTam] {
            let mut s = Projection::new(&options(algorithm));
            for text in puzzles {
                let p: Grid = text.parse().unwrap();
                let got = s.solve(&p.into(), Limit::ONE);
                let sol = got.solution().expect("solved");
                assert_eq!(verify::check(&p, sol), Ok(()));
                assert_eq!(got.count(), Count::AtLeast(1));
                let again = s.solve(&p.into(), Limit::TWO);
                assert_eq!(again.count(), Count::Unknown);
                assert_eq!(again.stats().iterations, got.stats().iterations);
                assert_eq!(again.solution(), Some(sol));
            }
        }
    }

    #[test]
    fn never_a_wrong_grid() {
        let settings = |algorithm| ProjectionOptions {
            algorithm,
            iterations: 300,
            ..ProjectionOptions::default()
        };
        let o = Options::default();
        let mut dr = Projection::new(&o.clone().with(settings(Algorithm::DouglasRachford)));
        let mut tm = Projection::new(&o.with(settings(Algorithm::MalitskyTam)));
        // No solution: r1 needs a 9 in c9, which r2c9 already holds.
        let mut none: String = "12345678.".into();
        none.push_str("........9");
        none.push_str(&".".repeat(63));
        let none: Grid = none.parse().unwrap();
        // Repeated clue: trivially no solution.
        let mut rep: String = "5...5....".into();
        rep.push_str(&".".repeat(72));
        let rep: Grid = rep.parse().unwrap();
        for s in [&mut dr, &mut tm] {
            let got = s.solve(&none.into(), Limit::TWO);
            assert_eq!(got.count(), Count::Unknown);
            assert_eq!(got.solution(), None);
            assert_eq!(got.stats().iterations, 300);
            assert_eq!(s.solve(&rep.into(), Limit::TWO).count(), Count::Exactly(0));
            // The empty grid has many solutions: any answer must be a valid grid, and the
            // count stays unknown at limit 2.
            let got = s.solve(&Grid::EMPTY.into(), Limit::TWO);
            assert_eq!(got.count(), Count::Unknown);
            if let Some(g) = got.solution() {
                assert_eq!(verify::check(&Grid::EMPTY, g), Ok(()));
            }
        }
    }
}
