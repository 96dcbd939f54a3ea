//! `sudobench generate`: random minimal puzzles with exactly one solution, one per line.

use super::output::Output;
use anyhow::Result;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use sudobench::generate::{ClueSymmetry, Config, GenerateError, Generated, Generator, Hardness};
use sudobench::runner::pipeline::map_ordered;
use sudobench::runner::shard::Shard;

/// The guess goal `--hard` stands for: about the mean of magictour_top1465 (20.2 over 16
/// symmetries), some nine times that of random minimal puzzles (2.3).
pub const HARD_GUESSES: f64 = 20.0;

/// Arguments of `sudobench generate`.
#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// Puzzles to make.
    #[arg(long, short = 'n', default_value_t = 10)]
    count: u64,
    /// Seed: the same seed gives the same puzzles, for any number of threads.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Symmetry of the clue pattern: none, central (also rotational, 180), quarter (90),
    /// diagonal, antidiagonal, bidiagonal, horizontal, vertical, biaxial, dihedral.
    #[arg(long, default_value = "none", value_parser = parse_symmetry)]
    symmetry: ClueSymmetry,
    /// Clue counts to keep, MIN..MAX (or N, MIN.., ..MAX); puzzles outside are redrawn.
    #[arg(long, value_parser = parse_clues)]
    clues: Option<(u32, u32)>,
    /// Worker threads (the output is the same for any number).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// Keep only puzzles on which bitmask makes at least this many guesses on average
    /// (over --symmetries random symmetries), hill-climbing towards them.
    #[arg(long, value_parser = parse_guesses)]
    min_guesses: Option<f64>,
    /// Hard puzzles: the same as --min-guesses 20 (about magictour_top1465's mean).
    #[arg(long, conflicts_with = "min_guesses")]
    hard: bool,
    /// Clue sets without a solution: a random minimal puzzle with one clue changed to a
    /// digit no clue in its row, column or box holds, leaving no solution.
    #[arg(long, conflicts_with_all = ["min_guesses", "hard"])]
    no_solution: bool,
    /// Random symmetries the guesses are averaged over [default: 16].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=10000))]
    symmetries: Option<u32>,
    /// Hill-climbing steps from each starting puzzle before a new one is drawn (0: keep or drop
    /// random puzzles as they come) [default: 10000].
    #[arg(long)]
    climb: Option<u32>,
    /// Random grids tried per puzzle before giving up on it (exit 1) [default: 100000].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    attempts: Option<u64>,
    /// Backend that confirms every puzzle's uniqueness before it is printed [default: logic].
    #[arg(long)]
    confirm: Option<String>,
    /// Stop after this many seconds: the puzzles made by then are printed, the run reports how
    /// many were not made and exits 1 (9×9 puzzles only).
    #[arg(long, value_name = "SECS", value_parser = super::args::parse_seconds)]
    time_limit: Option<f64>,
    /// Only part K of N of the puzzles (contiguous ranges of the puzzle indices, for job
    /// arrays): the parts' outputs concatenated in order are the whole run's.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Order n of the puzzles (2 to 8: 4x4 to 64x64). Any order but 3 uses the order-n
    /// generator (the `wide` search; --count, --seed, --threads, --shard, --no-solution,
    /// --several). Up to 16x16 the puzzles are minimal; from 25x25 on they are unique but
    /// keep every clue a check of 2,000 branchings could not decide, often half of them
    /// redundant (`verify --minimal` names them).
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=8))]
    order: Option<u8>,
    /// With --order: puzzles with two or more solutions (a minimal puzzle less one clue).
    #[arg(long, requires = "order", conflicts_with = "no_solution")]
    several: bool,
}

fn parse_symmetry(s: &str) -> Result<ClueSymmetry, String> {
    ClueSymmetry::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = ClueSymmetry::ALL.iter().map(|s| s.name()).collect();
        format!("unknown symmetry {s:?} (known: {})", names.join(", "))
    })
}

/// The most clues of any known minimal puzzle.
const MOST_MINIMAL_CLUES: u32 = 40;

/// `MIN..MAX`, `N`, `MIN..` or `..MAX` (`MIN..=MAX` too).
fn parse_clues(s: &str) -> Result<(u32, u32), String> {
    let number = |t: &str, default: u32| -> Result<u32, String> {
        let t = t.trim();
        if t.is_empty() {
            return Ok(default);
        }
        t.parse::<u32>()
            .map_err(|_| format!("{t:?} is not a clue count"))
    };
    let (min, max) = match s.split_once("..") {
        Some((a, b)) => (
            number(a, 17)?,
            number(b.strip_prefix('=').unwrap_or(b), 81)?,
        ),
        None => {
            let n = number(s, 0)?;
            (n, n)
        }
    };
    // Checked before any search: no minimal puzzle with more than 40 clues is known, so a
    // range above that would only grind through the attempts.
    if min > max || max < 17 || min > MOST_MINIMAL_CLUES {
        return Err(format!(
            "{s:?}: no minimal puzzle has that many clues (they have 17 to {MOST_MINIMAL_CLUES})"
        ));
    }
    Ok((min, max))
}

fn parse_guesses(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("{s:?} is not a number of guesses ≥ 0")),
    }
}

impl GenerateArgs {
    /// `--symmetries`, or its default.
    fn symmetries(&self) -> u32 {
        self.symmetries.unwrap_or(16)
    }

    fn config(&self) -> Config {
        let (min_clues, max_clues) = self.clues.unwrap_or((17, 81));
        let goal = if self.hard {
            Some(HARD_GUESSES)
        } else {
            self.min_guesses
        };
        Config {
            symmetry: self.symmetry,
            min_clues,
            max_clues,
            hardness: goal.map(|min_guesses| Hardness {
                min_guesses,
                symmetries: self.symmetries(),
                steps: self.climb.unwrap_or(10_000),
            }),
            max_attempts: self.attempts.unwrap_or(100_000),
            confirm: self.confirm.clone().unwrap_or_else(|| "logic".to_string()),
            no_solution: self.no_solution,
        }
    }
}

/// A rate with as many decimals as it needs.
fn rate(r: f64) -> String {
    if r >= 100.0 {
        format!("{r:.0}")
    } else {
        format!("{r:.2}")
    }
}

/// `sudobench generate`.
pub fn generate(args: &GenerateArgs) -> Result<bool> {
    if let Some(order) = args.order.filter(|&n| n != 3 || args.several) {
        anyhow::ensure!(
            args.time_limit.is_none(),
            "--time-limit works on 9x9 puzzles only (not with --order {order})"
        );
        let unsupported = [
            (args.symmetry != ClueSymmetry::None, "--symmetry"),
            (args.clues.is_some(), "--clues"),
            (
                args.min_guesses.is_some() || args.hard,
                "--min-guesses and --hard",
            ),
            (args.symmetries.is_some(), "--symmetries"),
            (args.climb.is_some(), "--climb"),
            (args.attempts.is_some(), "--attempts"),
            (args.confirm.is_some(), "--confirm"),
        ];
        if let Some((_, flag)) = unsupported.iter().find(|(given, _)| *given) {
            anyhow::bail!(
                "{flag}: for 9x9 puzzles only (not with --order {order}: it takes --count, \
                 --seed, --threads, --shard, --no-solution and --several)"
            );
        }
        let plan = super::generate_order::OrderPlan {
            indices: args.shard.unwrap_or(Shard::WHOLE).range(args.count),
            seed: args.seed,
            threads: args.threads as usize,
            no_solution: args.no_solution,
            several: args.several,
        };
        return super::generate_order::generate(&plan, order);
    }
    let config = args.config();
    // Build one generator now: a bad configuration is a usage error before any output.
    Generator::new(config.clone())?;
    let hard = config.hardness.is_some();
    let started = Instant::now();
    let mut out = Output::stdout();
    let (mut made, mut failed) = (0u64, 0u64);
    let mut clues: BTreeMap<usize, u64> = BTreeMap::new();
    let (mut attempts, mut guesses) = (0u64, 0f64);
    let seed = args.seed;
    let range = args.shard.unwrap_or(Shard::WHOLE).range(args.count);
    let wanted = range.end - range.start;
    let deadline = args
        .time_limit
        .map(|secs| started + Duration::from_secs_f64(secs));
    let mut timed_out = false;
    let bar = progress_bar(wanted);
    map_ordered(
        range,
        args.threads as usize,
        if hard { 1 } else { 32 },
        || {
            Generator::new(config.clone())
                .map(|g| g.with_deadline(deadline))
                .map_err(|e| e.to_string())
        },
        |generator, &index| match generator {
            Ok(g) => g.generate(seed, index).map_err(|e| match e {
                GenerateError::TimeUp { .. } => Missed::TimeUp,
                e => Missed::Failed(e.to_string()),
            }),
            Err(e) => Err(Missed::Failed(e.clone())),
        },
        |index, result: Result<Generated, Missed>| match result {
            Err(Missed::TimeUp) => {
                timed_out = true;
                false
            }
            Ok(p) => {
                bar.inc(1);
                made += 1;
                *clues.entry(p.puzzle.clue_count()).or_default() += 1;
                attempts += p.attempts;
                guesses += p.guesses.unwrap_or(0.0);
                out.line(&p.puzzle.to_string());
                out.is_open()
            }
            Err(Missed::Failed(e)) => {
                failed += 1;
                bar.suspend(|| eprintln!("error: puzzle {index}: {e}"));
                true
            }
        },
    );
    bar.finish_and_clear();
    out.finish()?;
    let seconds = started.elapsed().as_secs_f64();
    let total_clues: u64 = clues.iter().map(|(&k, &n)| k as u64 * n).sum();
    let mean_clues = total_clues as f64 / made.max(1) as f64;
    let histogram: Vec<String> = clues.iter().map(|(k, n)| format!("{k}:{n}")).collect();
    eprint!(
        "sudobench generate: {} (symmetry {}) in {seconds:.2} s ({}/s, {}); \
         mean {mean_clues:.2} clues [{}]; {:.2} grids per puzzle",
        super::output::plural(made, "puzzle", "puzzles"),
        args.symmetry,
        rate(made as f64 / seconds.max(1e-9)),
        super::output::plural(u64::from(args.threads), "thread", "threads"),
        histogram.join(" "),
        attempts as f64 / made.max(1) as f64,
    );
    if hard {
        eprint!(
            "; mean {:.2} guesses over {} symmetries",
            guesses / made.max(1) as f64,
            args.symmetries()
        );
    }
    eprint!("; {failed} failed");
    if timed_out {
        eprint!(
            "; stopped at the time limit ({} s): {} of {wanted} not made",
            args.time_limit.unwrap_or_default(),
            wanted - made - failed
        );
    }
    eprintln!();
    Ok(failed == 0 && !timed_out)
}

/// Why a worker made no puzzle.
enum Missed {
    /// The time limit stopped it (this ends the run).
    TimeUp,
    /// It failed, for this reason (the run goes on).
    Failed(String),
}

/// A progress line on a terminal (hidden otherwise), redrawn every second so that a slow
/// hardness goal shows it is alive.
fn progress_bar(total: u64) -> ProgressBar {
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("generate: {pos}/{len} puzzles, {elapsed} elapsed, ETA {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_secs(1));
    bar
}
