//! The one integration-test binary: every module below is one topic, sharing `common`.

mod certify;
mod cli;
mod cli_input;
mod clocks;
mod common;
mod conformance;
mod dlx_crosscheck;
mod exec;
mod fuzz_smoke;
mod generate;
mod hostile;
mod logic;
mod orders;
mod orders_logic;
mod peers;
mod plugin;
mod properties;
mod readme;
mod runner;
mod sat;
mod shard;
mod threads;
mod xc;
