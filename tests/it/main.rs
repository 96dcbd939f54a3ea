//! The one integration-test binary: every module below is one topic, sharing `common`.

mod cli;
mod cli_input;
mod common;
mod conformance;
mod dlx_crosscheck;
mod exec;
mod fuzz_smoke;
mod generate;
mod logic;
mod orders;
mod plugin;
mod properties;
mod readme;
mod runner;
mod sat;
mod threads;
