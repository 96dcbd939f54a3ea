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
//! answer is [`Count::Unknown`]: the method is incomplete and never returns a wrong grid.
//! Starts are random from [`Options::seed`] (re-seeded for every puzzle, so a puzzle's answer
//! does not depend on what the instance solved before).
//!
//! All state lives in flat fixed-size arrays allocated once per instance; the kernels are
//! written so that each inner loop runs over 9 or 81 independent lanes with branch-free
//! selects, which the compiler turns into SIMD code.

use super::{BuildError, Count, Options, Outcome, Solver, Stats};
use crate::grid::{Candidates, Grid, CELLS, UNITS};
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

/// Settings of the projection backends (a field of [`Options`]).
#[derive(Clone, Copy, Debug)]
pub struct ProjectionOptions {
    /// Iteration budget per puzzle (all restarts together); spent → `Count::Unknown`.
    pub iterations: u64,
    /// Which algorithm `Projection::new` builds (the registry sets it from the backend name).
    pub algorithm: Algorithm,
    /// Relaxation: λ for Douglas–Rachford (1 = plain DR), γ for Malitsky–Tam. `None` takes
    /// the algorithm's measured default ([`DEFAULT_DR_RELAXATION`], [`DEFAULT_TM_GAMMA`]).
    pub relaxation: Option<f64>,
    /// Amplitude of uniform noise in \[−noise, noise\] added to the iterate every step
    /// (0 = none).
    pub noise: f64,
    /// Restart from a fresh random point every this many iterations (0 = never).
    pub restart_every: u64,
    /// Precision of the iterates.
    pub precision: Precision,
}

/// Default iteration budget.
pub const DEFAULT_ITERATIONS: u64 = 10_000;
/// Default relaxation λ of Douglas–Rachford.
pub const DEFAULT_DR_RELAXATION: f64 = 1.0;
/// Default step γ of Malitsky–Tam.
pub const DEFAULT_TM_GAMMA: f64 = 0.5;

impl Default for ProjectionOptions {
    fn default() -> Self {
        ProjectionOptions {
            iterations: DEFAULT_ITERATIONS,
            algorithm: Algorithm::DouglasRachford,
            relaxation: None,
            noise: 0.0,
            restart_every: 0,
            precision: Precision::F32,
        }
    }
}

impl PartialEq for ProjectionOptions {
    fn eq(&self, other: &Self) -> bool {
        self.iterations == other.iterations
            && self.algorithm == other.algorithm
            && self.relaxation.map(f64::to_bits) == other.relaxation.map(f64::to_bits)
            && self.noise.to_bits() == other.noise.to_bits()
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
}

impl Real for f32 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    fn from_f64(v: f64) -> Self {
        v as f32
    }
}

impl Real for f64 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    fn from_f64(v: f64) -> Self {
        v
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

/// splitmix64: small, fast, and good enough for random starts and noise.
#[derive(Clone, Debug)]
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

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
        }
    }

    /// Sets up C5 from candidate masks.
    fn load(&mut self, masks: &[u16; CELLS]) {
        for (cell, &m) in masks.iter().enumerate() {
            let single = m.count_ones() == 1;
            for d in 0..9 {
                let allowed = m >> d & 1 == 1;
                self.free[cell * 9 + d] = if allowed && !single { R::ONE } else { R::ZERO };
                self.fixed[cell * 9 + d] = if allowed && single { R::ONE } else { R::ZERO };
            }
        }
    }

    fn randomize(&mut self, rng: &mut Rng, copies: usize) {
        for copy in self.x.iter_mut().take(copies) {
            for v in copy.iter_mut() {
                *v = R::from_f64(rng.unit());
            }
        }
    }

    fn fill_noise(&mut self, rng: &mut Rng, amplitude: f64) {
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
    fn add_noise(noise: &[R], rng: &mut Rng, v: &mut Cube<R>) {
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

/// Projects `y` onto `set`, writing the result to `p`.
fn project<R: Real>(set: Set, y: &Cube<R>, p: &mut Cube<R>, free: &Cube<R>, fixed: &Cube<R>) {
    match set {
        Set::Cell => project_cells(y, p),
        Set::Row => project_rows(y, p),
        Set::Col => project_cols(y, p),
        Set::Box => project_boxes(y, p),
        Set::Clues => {
            for i in 0..N {
                p[i] = y[i] * free[i] + fixed[i];
            }
        }
    }
}

/// Index (as a real) of each lane's maximum over `K` vectors of `W` lanes, lowest index on
/// ties. `vec(k)` gives the k-th vector. Branch-free so that it vectorises over the lanes.
#[inline(always)]
fn lane_argmax<R: Real, const W: usize>(vecs: [&[R; W]; 9]) -> [R; W] {
    let mut best = *vecs[0];
    let mut idx = [R::ZERO; W];
    let mut k_real = R::ZERO;
    for v in vecs.iter().skip(1) {
        k_real = k_real + R::ONE;
        for l in 0..W {
            let gt = v[l] > best[l];
            best[l] = if gt { v[l] } else { best[l] };
            idx[l] = if gt { k_real } else { idx[l] };
        }
    }
    idx
}

/// Writes the one-hot vectors for lane argmaxes: `out(k)[l] = (idx[l] == k)`.
#[inline(always)]
fn lane_onehot<R: Real, const W: usize>(idx: &[R; W], k: usize, out: &mut [R; W]) {
    let k_real = R::from_f64(k as f64);
    for l in 0..W {
        out[l] = if idx[l] == k_real { R::ONE } else { R::ZERO };
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

/// C1: per cell, the largest of its 9 digit entries becomes 1.
fn project_cells<R: Real>(y: &Cube<R>, p: &mut Cube<R>) {
    for cell in 0..CELLS {
        let g: &[R; 9] = chunk(y, cell * 9);
        let mut best = 0;
        for d in 1..9 {
            if g[d] > g[best] {
                best = d;
            }
        }
        let out: &mut [R; 9] = chunk_mut(p, cell * 9);
        for (d, o) in out.iter_mut().enumerate() {
            *o = if d == best { R::ONE } else { R::ZERO };
        }
    }
}

/// C2: per row and digit, the largest entry over the row's columns becomes 1. Lanes are the
/// 9 digits; the 9 vectors are the row's cells.
fn project_rows<R: Real>(y: &Cube<R>, p: &mut Cube<R>) {
    for r in 0..9 {
        let base = r * 81;
        let vecs: [&[R; 9]; 9] = std::array::from_fn(|c| chunk(y, base + c * 9));
        let idx = lane_argmax(vecs);
        for c in 0..9 {
            lane_onehot(&idx, c, chunk_mut(p, base + c * 9));
        }
    }
}

/// C3: per column and digit, the largest entry over the column's rows becomes 1. Lanes are
/// the 81 (column, digit) pairs; the 9 vectors are the rows.
fn project_cols<R: Real>(y: &Cube<R>, p: &mut Cube<R>) {
    let vecs: [&[R; 81]; 9] = std::array::from_fn(|r| chunk(y, r * 81));
    let idx = lane_argmax(vecs);
    for r in 0..9 {
        lane_onehot(&idx, r, chunk_mut(p, r * 81));
    }
}

/// Flat offset of the k-th cell (row-major inside the box) of box `b`, times 9.
const fn box_offset(b: usize, k: usize) -> usize {
    ((b / 3 * 3 + k / 3) * 9 + b % 3 * 3 + k % 3) * 9
}

/// C4: per box and digit, the largest entry over the box's cells becomes 1. Lanes are the 9
/// digits; the 9 vectors are the box's cells.
fn project_boxes<R: Real>(y: &Cube<R>, p: &mut Cube<R>) {
    for b in 0..9 {
        let vecs: [&[R; 9]; 9] = std::array::from_fn(|k| chunk(y, box_offset(b, k)));
        let idx = lane_argmax(vecs);
        for k in 0..9 {
            lane_onehot(&idx, k, chunk_mut(p, box_offset(b, k)));
        }
    }
}

/// Rounds `a` (largest entry per cell, lowest digit on ties) into `digits` (1..=9) and says
/// whether the result is a valid grid that respects the candidate masks.
fn round_and_check<R: Real>(a: &Cube<R>, masks: &[u16; CELLS], digits: &mut [u8; CELLS]) -> bool {
    let mut ok = true;
    for cell in 0..CELLS {
        let g: &[R; 9] = chunk(a, cell * 9);
        let mut best = 0;
        for d in 1..9 {
            if g[d] > g[best] {
                best = d;
            }
        }
        digits[cell] = best as u8 + 1;
        ok &= masks[cell] >> best & 1 == 1;
    }
    if !ok {
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
    fn run(&mut self, masks: &[u16; CELLS], params: &Params, rng: &mut Rng) -> RunEnd {
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
        while it < params.iterations {
            let copies = match params.algorithm {
                Algorithm::DouglasRachford => 5,
                Algorithm::MalitskyTam => 4,
            };
            self.randomize(rng, copies);
            let mut since = 0u64;
            while it < params.iterations && since < restart {
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
    fn average(&mut self) {
        let fifth = R::from_f64(0.2);
        let [x0, x1, x2, x3, x4] = &*self.x;
        for i in 0..N {
            self.a[i] = (x0[i] + x1[i] + x2[i] + x3[i] + x4[i]) * fifth;
        }
    }

    /// One Douglas–Rachford step from the current average: xᵢ += λ (P_i(2a − xᵢ) − a).
    fn dr_update(&mut self, lambda: R, rng: &mut Rng) {
        let two = R::from_f64(2.0);
        for (k, &set) in SETS.iter().enumerate() {
            let x = &mut self.x[k];
            let y = &mut *self.y;
            let a = &*self.a;
            for i in 0..N {
                y[i] = two * a[i] - x[i];
            }
            let p = &mut self.p[0];
            project(set, y, p, &self.free, &self.fixed);
            for i in 0..N {
                x[i] = x[i] + lambda * (p[i] - a[i]);
            }
            Self::add_noise(&self.noise, rng, x);
        }
    }

    /// Malitsky–Tam forward sweep: the five projections from z₁…z₄, and their mean into `a`.
    fn tm_project(&mut self) {
        let z = &*self.x;
        let p = &mut *self.p;
        let y = &mut *self.y;
        project(SETS[0], &z[0], &mut p[0], &self.free, &self.fixed);
        for k in 1..4 {
            let (done, rest) = p.split_at_mut(k);
            let prev = &done[k - 1];
            for i in 0..N {
                y[i] = z[k][i] + prev[i] - z[k - 1][i];
            }
            project(SETS[k], y, &mut rest[0], &self.free, &self.fixed);
        }
        {
            let (done, rest) = p.split_at_mut(4);
            for i in 0..N {
                y[i] = done[0][i] + done[3][i] - z[3][i];
            }
            project(SETS[4], y, &mut rest[0], &self.free, &self.fixed);
        }
        let fifth = R::from_f64(0.2);
        let [p0, p1, p2, p3, p4] = &*self.p;
        for i in 0..N {
            self.a[i] = (p0[i] + p1[i] + p2[i] + p3[i] + p4[i]) * fifth;
        }
    }

    /// Malitsky–Tam update: zᵢ += γ (xᵢ₊₁ − xᵢ).
    fn tm_update(&mut self, gamma: R, rng: &mut Rng) {
        for k in 0..4 {
            let z = &mut self.x[k];
            let (lo, hi) = (&self.p[k], &self.p[k + 1]);
            for i in 0..N {
                z[i] = z[i] + gamma * (hi[i] - lo[i]);
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
    /// Builds the backend from `options.projection` (algorithm, budget, relaxation, noise,
    /// restarts, precision) and `options.seed`.
    pub fn new(options: &Options) -> Projection {
        let o = &options.projection;
        let relaxation = o.relaxation.unwrap_or(match o.algorithm {
            Algorithm::DouglasRachford => DEFAULT_DR_RELAXATION,
            Algorithm::MalitskyTam => DEFAULT_TM_GAMMA,
        });
        Projection {
            params: Params {
                algorithm: o.algorithm,
                iterations: o.iterations,
                relaxation,
                noise: o.noise.abs(),
                restart_every: o.restart_every,
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
        limit: u32,
        check: impl Fn(&Grid) -> bool,
    ) -> Outcome {
        let limit = limit.max(1);
        match trivial(masks) {
            Trivial::NoSolution => return Outcome::none(Stats::default()),
            Trivial::Solved(grid) if check(&grid) => {
                // Every cell is fixed: the grid is the only solution.
                return Outcome {
                    count: Count::Exactly(1),
                    solution: Some(grid),
                    stats: Stats::default(),
                };
            }
            Trivial::Solved(_) => return Outcome::none(Stats::default()),
            Trivial::Open => {}
        }
        let mut rng = Rng(self.seed);
        let end = match &mut self.engine {
            Engines::F32(e) => e.run(masks, &self.params, &mut rng),
            Engines::F64(e) => e.run(masks, &self.params, &mut rng),
        };
        let stats = Stats {
            iterations: end.iterations,
            ..Stats::default()
        };
        match end.solution {
            Some(grid) if check(&grid) => Outcome {
                // A found solution proves "at least one"; uniqueness is beyond this method.
                count: if limit == 1 {
                    Count::Exactly(1)
                } else {
                    Count::Unknown
                },
                solution: Some(grid),
                stats,
            },
            _ => Outcome::unknown(stats),
        }
    }
}

/// Registry constructor: builds the backend with `algorithm`, rejecting unusable settings.
pub fn build(options: &Options, algorithm: Algorithm) -> Result<Box<dyn Solver>, BuildError> {
    let mut options = options.clone();
    options.projection.algorithm = algorithm;
    let o = &options.projection;
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
    if !o.noise.is_finite() {
        return Err(invalid(format!("noise {} is not finite", o.noise)));
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
    fn name(&self) -> &'static str {
        match self.params.algorithm {
            Algorithm::DouglasRachford => "projection",
            Algorithm::MalitskyTam => "projection-tm",
        }
    }

    fn is_complete(&self) -> bool {
        false
    }

    fn solve(&mut self, puzzle: &Grid, limit: u32) -> Outcome {
        let masks = *Candidates::from_grid(puzzle).masks();
        self.solve_masks(&masks, limit, |g| verify::check(puzzle, g).is_ok())
    }

    fn solve_candidates(&mut self, candidates: &Candidates, limit: u32) -> Outcome {
        self.solve_masks(candidates.masks(), limit, |g| {
            verify::check_candidates(candidates, g).is_ok()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(algorithm: Algorithm) -> Options {
        let mut o = Options::default();
        o.projection.algorithm = algorithm;
        o
    }

    #[test]
    fn projections_are_one_hot_per_group() {
        let mut rng = Rng(7);
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
            project(set, &y, &mut p, &[0.0; N], &[0.0; N]);
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
        project_rows(&y, &mut p);
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
                let got = s.solve(&p, 1);
                let sol = got.solution.expect("solved");
                assert_eq!(verify::check(&p, &sol), Ok(()));
                assert_eq!(got.count, Count::Exactly(1));
                let again = s.solve(&p, 2);
                assert_eq!(again.count, Count::Unknown);
                assert_eq!(again.stats.iterations, got.stats.iterations);
                assert_eq!(again.solution, Some(sol));
            }
        }
    }

    #[test]
    fn never_a_wrong_grid() {
        let mut o = options(Algorithm::DouglasRachford);
        o.projection.iterations = 300;
        let mut dr = Projection::new(&o);
        o.projection.algorithm = Algorithm::MalitskyTam;
        let mut tm = Projection::new(&o);
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
            let got = s.solve(&none, 2);
            assert_eq!(got.count, Count::Unknown);
            assert_eq!(got.solution, None);
            assert_eq!(got.stats.iterations, 300);
            assert_eq!(s.solve(&rep, 2).count, Count::Exactly(0));
            // The empty grid has many solutions: any answer must be a valid grid, and the
            // count stays unknown at limit 2.
            let got = s.solve(&Grid::EMPTY, 2);
            assert_eq!(got.count, Count::Unknown);
            if let Some(g) = got.solution {
                assert_eq!(verify::check(&Grid::EMPTY, &g), Ok(()));
            }
        }
    }
}
