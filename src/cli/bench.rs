//! `sudobench bench` and `sudobench report`: run backends over data sets with the library
//! runner, print the figures, and (for `report`) rewrite the generated part of RESULTS.md and
//! the SVG chart.

use super::output::{Format, Output};
use anyhow::{bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;
use sudobench::backends;
use sudobench::format::{ParseError, Record};
use sudobench::report::{self, Machine};
use sudobench::runner::shard::Shard;
use sudobench::runner::{
    bench_defaults, Backend, Config, Mismatch, Observer, RunError, Runner, Sample, SetReport,
    ORDER_LOOKS_AT,
};
use sudobench::solver::{Clock, Outcome, UnknownClock};

/// Default time budget per backend per data set, in seconds: with the default backends over
/// the six bundled sets `cargo run --release -- bench` stays within a couple of minutes.
pub const DEFAULT_TIME_BUDGET: f64 = 4.0;

/// How many mismatches / parse errors are printed per data set (all are counted).
const PRINT_LIMIT: u64 = 50;

/// Arguments of `sudobench bench`.
#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// Backends to run, comma-separated, or `all` (default: those marked `*` by
    /// `sudobench backends`).
    #[arg(long, value_delimiter = ',')]
    pub backends: Vec<String>,
    /// A backend taken whole (an `exec:` command may hold commas); repeatable. Added to those
    /// of --backends; without --backends only the --backend ones run (not the defaults).
    /// Counts of `exec:`/`lib:` backends that no built-in backend in the run confirms are
    /// checked by the referee (see --trust-outside).
    #[arg(long, short)]
    pub backend: Vec<String>,
    /// Count solutions up to this many: 2 decides uniqueness (tdoku's mode), 1 stops at the
    /// first solution.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=2))]
    pub limit: u32,
    /// Worker threads, each with its own backend instances (1: comparable single-thread
    /// figures).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Run a deterministic sample of this many puzzles per data set (reservoir sampling; at
    /// least 1: leave it out to run whole sets).
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub sample: Option<usize>,
    /// Seed of the sample.
    #[arg(long, default_value_t = 1)]
    pub sample_seed: u64,
    /// Output format (progress and mismatches always go to stderr).
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Solving time each backend may spend per data set, in seconds (0: no limit). When it is
    /// spent the backend stops on that set and the table shows how many puzzles it covered.
    #[arg(long, default_value_t = DEFAULT_TIME_BUDGET, allow_negative_numbers = true)]
    pub time_budget: f64,
    /// Apply a random validity-preserving symmetry to each puzzle (seeded), as tdoku does.
    #[arg(long, value_name = "SEED")]
    pub transform: Option<u64>,
    /// The clock every backend is timed by: `cpu`, the CPU time of everything that solves
    /// (the calling thread for built-ins, the whole worker process for `lib:`, the program's
    /// processes for `exec:`), or `wall`, wall-clock time. Start-up is timed apart.
    #[arg(long, default_value = "cpu", value_parser = parse_clock)]
    pub clock: Clock,
    #[command(flatten)]
    pub settings: super::args::BackendSettings,
    /// Only part K of N of the records (contiguous ranges over all the sets in order, for job
    /// arrays): `sudobench merge` adds the parts' JSON outputs (`--format json`) up into one
    /// run's. Not with --sample; a time budget applies to each part.
    #[arg(long, value_name = "K/N", conflicts_with = "sample")]
    pub shard: Option<Shard>,
    /// Data sets (plain or gzip); none: every bundled set in `data/`.
    pub files: Vec<String>,
}

fn parse_clock(s: &str) -> Result<Clock, String> {
    s.parse().map_err(|e: UnknownClock| e.to_string())
}

/// Arguments of `sudobench report`.
#[derive(Args, Debug, Clone)]
pub struct ReportArgs {
    #[command(flatten)]
    pub bench: BenchArgs,
    /// The page whose part between `<!-- bench:begin -->` and `<!-- bench:end -->` is
    /// rewritten.
    #[arg(long, default_value = "RESULTS.md")]
    pub results: PathBuf,
    /// Where the SVG chart goes (linked from the page by its file name).
    #[arg(long, default_value = "results.svg")]
    pub chart: PathBuf,
    /// The command to credit in the page.
    #[arg(long, default_value = "scripts/results.sh")]
    pub command: String,
    /// Also run the peer solvers that `scripts/peers.sh` built into DIR (listed in
    /// DIR/peers.txt) through `lib:`, shown as `NAME (lib)` in the same tables.
    #[arg(long, value_name = "DIR")]
    pub peers: Option<PathBuf>,
}

impl BenchArgs {
    fn config(&self) -> Result<Config> {
        if !(self.time_budget >= 0.0 && self.time_budget.is_finite()) {
            bail!(
                "--time-budget {}: must be a number of seconds of at least 0 (0: no limit)",
                self.time_budget
            );
        }
        Ok(Config {
            limit: sudobench::solver::Limit::new(self.limit)
                .unwrap_or(sudobench::solver::Limit::TWO),
            threads: self.threads as usize,
            sample: self.sample.map(|size| Sample {
                size,
                seed: self.sample_seed,
            }),
            time_budget: (self.time_budget > 0.0)
                .then(|| Duration::from_secs_f64(self.time_budget)),
            transform: self.transform,
            clock: self.clock,
            referee_max_nodes: self.settings.referee_budget().0,
            trust_outside: self.settings.trust_outside,
            per_puzzle: (self.settings.max_nodes, self.settings.max_time()),
            // The referee gets `--timeout` per dispute, and no more than the time budget.
            referee_time: self
                .settings
                .referee_budget()
                .1
                .map(|t| match self.time_budget {
                    b if b > 0.0 => t.min(Duration::from_secs_f64(b)),
                    _ => t,
                }),
            ..Config::default()
        })
    }

    /// The backends named by `--backends` (with `all` for every built-in one) and
    /// `--backend`, in that order; the defaults when none are named. An unknown name or one
    /// named twice is a usage error.
    fn selected_backends(&self) -> Result<Vec<Backend>> {
        self.backends_named(false)
    }

    /// Whether no backend was named, so the defaults run.
    fn defaulted(&self) -> bool {
        self.backends.is_empty() && self.backend.is_empty()
    }

    /// [`BenchArgs::selected_backends`]; when none is named, the defaults of a set of 9×9
    /// grids or (`other_orders`) of another order ([`bench_defaults`]).
    fn backends_named(&self, other_orders: bool) -> Result<Vec<Backend>> {
        let mut names: Vec<&str> = Vec::new();
        for name in self.backends.iter().map(|s| s.trim()) {
            match name {
                "all" => names.extend(backends::builtin_names().map(|n| -> &str { n })),
                _ => names.push(name),
            }
        }
        names.extend(self.backend.iter().map(String::as_str));
        if names.is_empty() {
            names = bench_defaults(other_orders);
        }
        let mut seen = std::collections::HashSet::new();
        if let Some(twice) = names.iter().find(|n| !seen.insert(**n)) {
            bail!("backend {twice:?} is named twice (`all` names every built-in one)");
        }
        let options = self.settings.options();
        names
            .iter()
            .map(|n| Backend::builtin(n, &options).map_err(anyhow::Error::from))
            .collect()
    }
}

/// Prints progress bars (on a terminal), mismatches and parse errors to stderr.
struct CliObserver {
    bar: Option<ProgressBar>,
    terminal: bool,
    /// Records per set when sampling.
    sample: Option<usize>,
    mismatches: u64,
    parse_errors: u64,
    start: std::time::Instant,
    /// Whether the bar follows the bytes read (a file) rather than puzzles (a sample).
    by_bytes: bool,
}

impl CliObserver {
    fn new(sample: Option<usize>) -> CliObserver {
        CliObserver {
            bar: None,
            terminal: std::io::stderr().is_terminal(),
            sample,
            mismatches: 0,
            parse_errors: 0,
            start: std::time::Instant::now(),
            by_bytes: false,
        }
    }

    fn say(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| eprint!("{text}")),
            None => eprint!("{text}"),
        }
    }
}

impl Observer for CliObserver {
    fn start(&mut self, source: &str, bytes: Option<u64>) {
        self.mismatches = 0;
        self.parse_errors = 0;
        self.start = std::time::Instant::now();
        self.by_bytes = false;
        if !self.terminal {
            return;
        }
        // The bar's total comes from what the runner tells: the sample's size, or the file's
        // size in bytes (followed as the runner reads it, compressed bytes for a gzip file),
        // so no file is read twice; standard input gets a spinner.
        let total = match (self.sample, bytes) {
            (Some(k), _) => Some(k as u64),
            (None, Some(b)) => {
                self.by_bytes = true;
                Some(b)
            }
            (None, None) => None,
        };
        let name = source.rsplit('/').next().unwrap_or(source).to_string();
        let bar = match total {
            Some(n) => {
                let bar = ProgressBar::new(n.max(1));
                bar.set_style(
                    ProgressStyle::with_template(
                        "{prefix:>32} [{bar:30}] {percent:>3}% {msg} (ETA {eta})",
                    )
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> "),
                );
                bar
            }
            None => ProgressBar::new_spinner(),
        };
        bar.set_prefix(name);
        self.bar = Some(bar);
    }

    fn progress(&mut self, puzzles: u64, bytes: Option<u64>) {
        if let Some(bar) = &self.bar {
            match (self.by_bytes, bytes) {
                (true, Some(b)) => bar.set_position(b),
                _ => bar.set_position(puzzles),
            }
            let secs = self.start.elapsed().as_secs_f64().max(1e-9);
            bar.set_message(format!(
                "{} puzzles, {}/s",
                report::thousands(puzzles),
                report::thousands((puzzles as f64 / secs) as u64)
            ));
        }
    }

    fn parse_error(&mut self, error: &ParseError) {
        self.parse_errors += 1;
        if self.parse_errors <= PRINT_LIMIT {
            self.say(&format!("error: {error}\n"));
        }
    }

    fn puzzle(&mut self, _: &Record, _: &[Option<Outcome>], mismatch: Option<&Mismatch>) {
        if let Some(mismatch) = mismatch {
            self.mismatches += 1;
            if self.mismatches <= PRINT_LIMIT {
                self.say(&mismatch.to_string());
            }
        }
    }

    fn finish(&mut self, report: &SetReport) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        if self.parse_errors > PRINT_LIMIT {
            eprintln!(
                "{}: {} more parse errors not shown",
                report.source,
                self.parse_errors - PRINT_LIMIT
            );
        }
        if self.mismatches > PRINT_LIMIT {
            eprintln!(
                "{}: {} more mismatches not shown",
                report.source,
                self.mismatches - PRINT_LIMIT
            );
        }
    }
}

/// Runs every file, streaming the chosen format to stdout as each set finishes. Returns the
/// reports, the config, and whether everything was clean (no mismatch, parse error or
/// unreadable file).
fn run_sets(args: &BenchArgs, print: bool) -> Result<(Vec<SetReport>, Config, bool)> {
    let config = args.config()?;
    let backends = args.selected_backends()?;
    if backends.is_empty() {
        bail!("no backend selected");
    }
    let files = if args.files.is_empty() {
        sudobench::format::bundled_sets()
            .ok_or_else(|| anyhow::anyhow!("no data sets given and no bundled data/*.gz found (run from the project directory)"))?
    } else {
        args.files.clone()
    };
    let machine = Machine::detect();
    let runner = Runner::new(config.clone(), backends);
    // The defaults are 9x9's; a set of another order gets its own (`bench_defaults`).
    let order_runner = match args.defaulted() {
        true => Some(Runner::new(config.clone(), args.backends_named(true)?)),
        false => None,
    };
    let mut out = Output::stdout();
    if print {
        let head = match args.format {
            Format::Table => report::table_header(&config, &machine),
            Format::Csv => report::csv_header(),
            Format::Json => String::new(),
        };
        out.write(&head);
        out.flush();
    }
    let mut sets = Vec::new();
    let mut clean = true;
    let mut observer = CliObserver::new(args.sample);
    let mut window = super::shard::window(args.shard, &files)?;
    for file in &files {
        let runner = match &order_runner {
            Some(order_runner) if of_other_order(file) => order_runner,
            _ => &runner,
        };
        // An unreadable file still gets its records (with the error), so machine output
        // accounts for every file asked for.
        let set = match runner.run_path_part(file, window.as_mut(), &mut observer) {
            Ok(set) => set,
            // A backend that cannot be built (a library that does not load) is a usage
            // error, whatever the file.
            Err(RunError::Build(e)) => return Err(e.into()),
            Err(e) => {
                eprintln!("error: {e}");
                SetReport::unreadable(file, runner, e.to_string())
            }
        };
        // A backend that failed for good (see `BackendReport::fault`) makes the run unclean
        // too: its figures do not measure it.
        let faults = set.backends.iter().filter(|b| b.fault.is_some()).count();
        clean &= set.mismatch_total == 0
            && set.parse_errors == 0
            && faults == 0
            && set.unsettled == 0
            && set.error.is_none();
        if print {
            let one = std::slice::from_ref(&set);
            let text = match args.format {
                Format::Table => report::table_set(&set),
                Format::Csv => report::csv_rows(one, &config),
                Format::Json => report::json_lines(one, &config),
            };
            out.write(&text);
            out.flush();
        }
        sets.push(set);
    }
    if print && args.format == Format::Table {
        out.write(&report::table_footer(&sets));
    }
    let mismatches: u64 = sets.iter().map(|s| s.mismatch_total).sum();
    if mismatches > 0 {
        let word = if mismatches == 1 {
            "mismatch"
        } else {
            "mismatches"
        };
        eprintln!("sudobench: {mismatches} {word} (see above); exit code 1");
    }
    for set in &sets {
        for b in &set.backends {
            if let Some(fault) = &b.fault {
                eprintln!(
                    "sudobench: {}: backend {} failed: {fault}; exit code 1",
                    set.name(),
                    b.name
                );
            }
        }
    }
    out.finish()?;
    Ok((sets, config, clean))
}

/// Whether the first readable record of `file` (among its first [`ORDER_LOOKS_AT`]) is a grid
/// of another order than 9x9. Standard input is not looked at (it cannot be read twice).
fn of_other_order(file: &str) -> bool {
    if file == "-" {
        return false;
    }
    let Ok(reader) = sudobench::format::Reader::open(file) else {
        return false;
    };
    reader
        .take(ORDER_LOOKS_AT)
        .find_map(Result::ok)
        .is_some_and(|r| matches!(r.puzzle, sudobench::puzzle::Puzzle::Order(_)))
}

/// `sudobench bench`.
pub fn bench(args: &BenchArgs) -> Result<bool> {
    if super::xc::wanted(&args.files) {
        super::xc::refuse_flags(&[
            ("--limit 1", args.limit != 2),
            ("--threads", args.threads > 1),
            ("--sample", args.sample.is_some()),
            ("--transform", args.transform.is_some()),
            ("--shard", args.shard.is_some()),
        ])?;
        super::xc::refuse_flags(&args.settings.sudoku_only())?;
        let mut names = args.backends.clone();
        names.extend(args.backend.iter().cloned());
        // Each backend's time on an instance: the budget, or the time limit if shorter.
        let budget = args.config()?.time_budget;
        return super::xc::bench(
            &names,
            &args.files,
            super::xc::Budget {
                max_nodes: args.settings.max_nodes,
                time: [budget, args.settings.max_time()]
                    .into_iter()
                    .flatten()
                    .min(),
                clock: args.clock,
            },
            args.format,
        );
    }
    let (_, _, clean) = run_sets(args, true)?;
    Ok(clean)
}

/// Output of a command, trimmed, if it ran and succeeded.
fn command_output(program: &str, args: &[&str]) -> Option<String> {
    let out = std::process::Command::new(program)
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
}

/// `sudobench report`: runs the bench, then rewrites the generated part of the results page
/// and the chart.
pub fn report(args: &ReportArgs) -> Result<bool> {
    if args.bench.shard.is_some() {
        bail!("report runs every set whole: use `bench --shard` and `merge` for parts");
    }
    let peers = match &args.peers {
        Some(dir) => report::peers::read_peers(dir)?,
        None => Vec::new(),
    };
    let mut bench = args.bench.clone();
    if !peers.is_empty() && bench.backends.is_empty() && bench.backend.is_empty() {
        // The peers come on top of the default backends, not instead of them.
        bench.backends = backends::default_names().map(str::to_string).collect();
    }
    bench.backend.extend(peers.iter().map(|p| p.backend()));
    let (mut sets, config, clean) = run_sets(&bench, true)?;
    report::peers::relabel(&mut sets, &peers);
    let mut machine = Machine::detect();
    machine.rustc = command_output("rustc", &["--version"]);
    machine.commit = command_output("git", &["rev-parse", "--short", "HEAD"]).map(|c| {
        let dirty =
            command_output("git", &["status", "--porcelain", "--untracked-files=no"]).is_some();
        if dirty {
            format!("{c} (with uncommitted changes)")
        } else {
            c
        }
    });
    let chart_name = args
        .chart
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "results.svg".to_string());
    std::fs::write(&args.chart, report::svg(&sets))
        .with_context(|| format!("writing {}", args.chart.display()))?;
    let generated = report::markdown(&sets, &config, &machine, &args.command, Some(&chart_name));
    let page = match std::fs::read_to_string(&args.results) {
        Ok(p) => p,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => "# Results\n".to_string(),
        Err(e) => return Err(e).with_context(|| format!("reading {}", args.results.display())),
    };
    std::fs::write(&args.results, report::splice(&page, &generated))
        .with_context(|| format!("writing {}", args.results.display()))?;
    eprintln!(
        "sudobench: wrote {} and {}",
        args.results.display(),
        args.chart.display()
    );
    Ok(clean)
}
