//! `nestris serve`: the analysis over HTTP/JSON (`nestris_http`).

use std::io::Write;
use std::net::TcpListener;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context};

/// Options of `nestris serve`.
#[derive(Debug, Clone, clap::Args)]
pub struct ServeArgs {
    /// Port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on (127.0.0.1: this machine only; 0.0.0.0: every interface).
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: String,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Longest an analysis may take, in milliseconds (then the request gets 503).
    #[arg(long, default_value_t = 2000, value_name = "MS")]
    pub time_limit: u64,
}

/// Runs the command.
pub fn run(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    let mut config = nestris_http::Config::default();
    if let Some(t) = args.threads {
        if !(1..=256).contains(&t) {
            bail!("--threads {t} is out of range (1..=256)");
        }
        config.threads = t;
        config.max_in_flight = t * 2;
    }
    if !(1..=600_000).contains(&args.time_limit) {
        bail!(
            "--time-limit {} is out of range (1..=600000 ms)",
            args.time_limit
        );
    }
    config.time_limit = Duration::from_millis(args.time_limit);
    let addr = format!("{}:{}", args.bind, args.port);
    let listener = TcpListener::bind(&addr).with_context(|| format!("cannot listen on {addr}"))?;
    let server = nestris_http::Server::start(listener, config.clone())
        .with_context(|| format!("cannot serve on {addr}"))?;
    println!(
        "nestris serve: listening on http://{} ({} worker threads, time limit {} ms); routes /v1/best /v1/rate /v1/health /v1/version /ping",
        server.addr(),
        config.threads,
        args.time_limit
    );
    std::io::stdout().flush().ok();
    server.wait();
    Ok(ExitCode::SUCCESS)
}
