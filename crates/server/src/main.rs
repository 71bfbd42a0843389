//! `strikeline`: the server and its tools.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use strikeline_server::cli::{backup, import, quant, seed, verify};
use strikeline_server::foundation::config::Config;
use strikeline_server::{Server, handlers::backtest, open_database, openapi, shutdown_signal};
use tracing_subscriber::EnvFilter;

/// mimalloc rather than the system allocator: answers allocate and free many small buffers
/// (rows, JSON, compression), and glibc's malloc spent a quarter of a loaded core merging free
/// chunks (docs/performance.md, "Read path").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "strikeline", version, about = "Options signals, portfolios and backtests for US equities")]
struct Cli {
    /// Configuration file (TOML). Default: ./strikeline.toml when present.
    #[arg(long, global = true, env = "STRIKELINE_CONFIG")]
    config: Option<PathBuf>,
    /// How log lines are written to standard error: `text` for people (coloured only on a
    /// terminal, and never when NO_COLOR is set) or `json`, one object a line, for log shippers.
    #[arg(long, global = true, value_enum, default_value_t = LogFormat::Text, env = "STRIKELINE_LOG_FORMAT")]
    log_format: LogFormat,
    #[command(subcommand)]
    command: Command,
}

/// Logs to standard error, filtered by `RUST_LOG` or else the configured filter.
fn init_logs(format: LogFormat, filter: &str) {
    use std::io::IsTerminal;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(filter));
    let logs = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    match format {
        LogFormat::Json => logs.json().with_current_span(false).init(),
        LogFormat::Text => {
            let colour = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
            logs.with_ansi(colour).init();
        }
    }
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

/// How `strikeline price` and `strikeline iv` treat exercise.
#[derive(Clone, Copy, clap::ValueEnum)]
enum Style {
    European,
    American,
}

#[derive(Subcommand)]
enum Command {
    /// Migrate the database and serve the API and the web app.
    Serve {
        /// Port to listen on (0 picks a free one).
        #[arg(long, env = "STRIKELINE_PORT")]
        port: Option<u16>,
        /// Directory for the embedded database and local state.
        #[arg(long, env = "STRIKELINE_DATA_DIR")]
        data_dir: Option<PathBuf>,
        /// Directory of the built web app.
        #[arg(long, env = "STRIKELINE_WEB_DIR")]
        web_dir: Option<PathBuf>,
    },
    /// Apply database migrations and exit.
    Migrate {
        #[arg(long, env = "STRIKELINE_DATA_DIR")]
        data_dir: Option<PathBuf>,
    },
    /// Back the database up to FILE (a new file): SQLite's `VACUUM INTO` while the server
    /// runs, checked before it is called done; with PostgreSQL (`DATABASE_URL`), `pg_dump`
    /// in its custom format, checked by `pg_restore --list`. Prints every table's rows.
    Backup {
        file: PathBuf,
        #[arg(long, env = "STRIKELINE_DATA_DIR")]
        data_dir: Option<PathBuf>,
    },
    /// Restore a backup made by `strikeline backup` (stop the server first). A database that
    /// exists (SQLite) or holds accounts (PostgreSQL) is replaced only with `--force`; an
    /// SQLite one is kept beside the restored one. Prints every table's rows.
    Restore {
        file: PathBuf,
        #[arg(long)]
        force: bool,
        #[arg(long, env = "STRIKELINE_DATA_DIR")]
        data_dir: Option<PathBuf>,
    },
    /// Print the OpenAPI document.
    Openapi,
    /// Price options: JSON lines {"type","spot","strike","years","rate","dividend","vol"} on stdin,
    /// {"price","delta","gamma","vega","theta","rho"} on stdout (American: with
    /// "earlyExercisePremium" and "criticalPrice").
    Price {
        /// European (Black–Scholes–Merton) or American (exercise-boundary engine).
        #[arg(long, value_enum, default_value = "european")]
        style: Style,
    },
    /// Implied volatility: JSON lines {"type","spot","strike","years","rate","dividend","price"}
    /// on stdin, {"iv"} on stdout.
    Iv {
        /// European or American prices.
        #[arg(long, value_enum, default_value = "european")]
        style: Style,
    },
    /// Indicators of a bars CSV (`date,open,high,low,close,volume`) as CSV on stdout.
    Indicators {
        #[arg(long)]
        input: PathBuf,
    },
    /// Statistics of a CSV of daily returns (column `return`) or of trade P&Ls (column `pnl`),
    /// written as one JSON object.
    Stats {
        #[arg(long, conflicts_with = "trades", required_unless_present = "trades")]
        returns: Option<PathBuf>,
        #[arg(long)]
        trades: Option<PathBuf>,
    },
    /// Backtest the live strategies over the stored history and print the result as JSON
    /// (no plan limits apply on the command line).
    Backtest {
        /// First day, YYYY-MM-DD (default: ten years before the end).
        #[arg(long)]
        start: Option<String>,
        /// Last day, YYYY-MM-DD (default: the last completed session).
        #[arg(long)]
        end: Option<String>,
        /// Comma-separated symbols (default: the whole watchlist).
        #[arg(long, value_delimiter = ',')]
        symbols: Option<Vec<String>>,
        /// Comma-separated strategies (default: all four).
        #[arg(long, value_delimiter = ',')]
        strategies: Option<Vec<String>>,
        /// One result per strategy instead of the overall result.
        #[arg(long)]
        by_strategy: bool,
        /// Trade CALL and PUT proposals as vertical debit spreads this fraction of the strike
        /// wide (0.01–0.5).
        #[arg(long)]
        spread_width: Option<f64>,
        /// A custom strategy document (JSON, docs/strategies.md §11) to trade, alone or beside
        /// the strategies named.
        #[arg(long)]
        custom: Option<PathBuf>,
        #[arg(long, env = "STRIKELINE_DATA_DIR")]
        data_dir: Option<PathBuf>,
    },
    /// Check an exported track record (GET /api/public/track-record/export) offline: the
    /// signed heads, the log against them, and the stored signals against the log.
    Verify {
        /// The export (JSON).
        file: PathBuf,
        /// The instance's public key (hex), from GET /api/public/track-record/key.
        #[arg(long)]
        key: Option<String>,
        /// Heads saved earlier (GET /api/public/track-record/heads), which must match too.
        #[arg(long)]
        heads: Option<PathBuf>,
    },
    /// A tracked symbol's 30-day at-the-money implied volatility over the last year, its IV rank
    /// and IV percentile (or why they are hidden) and the sessions without a reading, as JSON.
    IvRank {
        /// The ticker.
        symbol: String,
        /// First record the sessions due (and back-fill, where the market allows) for every
        /// tracked symbol, as the end-of-day job does.
        #[arg(long)]
        record: bool,
        #[arg(long, env = "STRIKELINE_DATA_DIR")]
        data_dir: Option<PathBuf>,
    },
    /// The predictive model of a signal's chance to win.
    Model {
        #[command(subcommand)]
        what: ModelCommand,
    },
    /// Load data into the database.
    Import {
        #[command(subcommand)]
        what: ImportCommand,
    },
    /// Operator tasks on accounts.
    Users {
        #[command(subcommand)]
        what: UsersCommand,
    },
    /// Fill the database with generated data for load benchmarks: users on the Free, Pro and
    /// Premium plans, automated signals over the last year and how each ended, on-demand
    /// signals, automated and manual positions, daily portfolio values, and the benchmark
    /// account bench@strikeline.test (password bench-password-1, plan Pro).
    #[command(long_about = "Fill the database with generated data for load benchmarks (issue 12).\n\n\
        `--scale year`: 10,000 users (about 60% Free, 30% Pro, 10% Premium), about 4,000 automated signals \
        over the last 250 sessions (the newest still active, older ones closed at their target or stop or \
        expired, with P&L), 50,000 signals generated on demand, about 60,000 automated and 40,000 manual \
        positions, and daily portfolio values. `--scale small`: the same shapes for tests.\n\n\
        The watchlist, its history and quotes are loaded first, as `serve` loads them on a first start, \
        from the simulated market of `market.seed`; the database is migrated first. Generation is \
        deterministic (a fixed seed) for a given last completed session.\n\n\
        Password hashing is deliberately slow (argon2id), so ONE password is hashed once and that same \
        hash is stored for every account: the benchmark account bench@strikeline.test and every generated \
        account (user00001@seed.strikeline.test, …) sign in with bench-password-1.\n\n\
        Refuses (exit status 1) a database where bench@strikeline.test already exists or that already \
        holds signals: seed a fresh database, then start `strikeline serve`.")]
    Seed {
        /// How much to generate.
        #[arg(long, value_enum, default_value = "year")]
        scale: seed::Scale,
        #[arg(long, env = "STRIKELINE_DATA_DIR")]
        data_dir: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum ModelCommand {
    /// Train a model on the stored history (the live strategies backtested over up to ten
    /// years; a fresh data directory first loads the watchlist and its history), score the last three years walk-forward against the heuristic strength, store
    /// it as a new version (it scores new signals only if it beat the strength) and print the
    /// held-out figures as JSON.
    Train {
        #[arg(long, env = "STRIKELINE_DATA_DIR")]
        data_dir: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum UsersCommand {
    /// Put an account on a plan now (`free`, `pro` or `premium`), active and without an end
    /// date: for support and for test environments (billing sets plans in production).
    SetPlan {
        email: String,
        plan: strikeline_server::foundation::entitlements::Plan,
        #[arg(long, env = "STRIKELINE_DATA_DIR")]
        data_dir: Option<PathBuf>,
    },
    /// Mark an account's email address confirmed, as an operator vouching for it (the first
    /// administrator of an instance whose mail stays in the built-in outbox; test
    /// environments). Starts no trial: that comes only from the emailed link.
    Confirm {
        email: String,
        #[arg(long, env = "STRIKELINE_DATA_DIR")]
        data_dir: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum ImportCommand {
    /// Daily history from a CSV with the header `symbol,date,open,high,low,close,volume`.
    /// Any bad row rejects the whole file (each problem is printed with its line number).
    Prices {
        file: PathBuf,
        #[arg(long, env = "STRIKELINE_DATA_DIR")]
        data_dir: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let line_tool = match cli.command {
        Command::Openapi => {
            print!("{}", openapi::document_json());
            return ExitCode::SUCCESS;
        }
        Command::Price { style: Style::European } => Some(quant::price_line as quant::Tool),
        Command::Price { style: Style::American } => Some(quant::american_price_line as quant::Tool),
        Command::Iv { style: Style::European } => Some(quant::iv_line as quant::Tool),
        Command::Iv { style: Style::American } => Some(quant::american_iv_line as quant::Tool),
        _ => None,
    };
    if let Command::Indicators { input } = &cli.command {
        let result = std::fs::read_to_string(input).map_err(|e| e.to_string()).and_then(|text| quant::indicators_csv(&text));
        return match result {
            Ok(csv) => {
                print!("{csv}");
                ExitCode::SUCCESS
            }
            Err(err) => {
                eprintln!("strikeline: {}: {err}", input.display());
                ExitCode::FAILURE
            }
        };
    }
    if let Command::Verify { file, key, heads } = &cli.command {
        return match verify::verify_file(file, key.as_deref(), heads.as_deref()) {
            Ok(report) => {
                println!("{report}");
                ExitCode::SUCCESS
            }
            Err(err) => {
                eprintln!("strikeline verify: FAILED: {err}");
                ExitCode::FAILURE
            }
        };
    }
    if let Command::Stats { returns, trades } = &cli.command {
        let (path, compute): (&PathBuf, quant::Tool) = match (returns, trades) {
            (Some(path), _) => (path, quant::return_stats),
            (None, Some(path)) => (path, quant::trade_stats),
            (None, None) => return ExitCode::from(2),
        };
        let result = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: {e}", path.display()))
            .and_then(|text| compute(&text).map_err(|e| format!("{}: {e}", path.display())));
        return match result {
            Ok(value) => {
                println!("{value}");
                ExitCode::SUCCESS
            }
            Err(err) => {
                eprintln!("strikeline: {err}");
                ExitCode::FAILURE
            }
        };
    }
    if let Some(each) = line_tool {
        return match quant::run_lines(std::io::stdin().lock(), std::io::stdout().lock(), each) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::FAILURE,
            Err(err) => {
                eprintln!("strikeline: {err}");
                ExitCode::FAILURE
            }
        };
    }
    let mut config = match Config::load(cli.config.as_deref()) {
        Ok(config) => config,
        Err(err) => {
            eprintln!("strikeline: configuration error: {err:#}");
            return ExitCode::from(2);
        }
    };
    init_logs(cli.log_format, &config.log);
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("strikeline: cannot start the runtime: {err}");
            return ExitCode::FAILURE;
        }
    };
    // The one clock of the command-line tools (the server builds its own in its state).
    let clock = strikeline_server::foundation::clock::Clock::from_start(config.clock_start);
    let result = runtime.block_on(async move {
        match cli.command {
            Command::Serve { port, data_dir, web_dir } => {
                config.port = port.unwrap_or(config.port);
                config.data_dir = data_dir.unwrap_or(config.data_dir);
                config.web_dir = web_dir.unwrap_or(config.web_dir);
                let server = Server::bind(config).await?;
                // Tests and scripts read this line to find the port.
                println!("listening on http://{}", server.addr);
                server.run(shutdown_signal()).await
            }
            Command::Backup { file, data_dir } => {
                config.data_dir = data_dir.unwrap_or(config.data_dir);
                let summary = backup::backup(&config.database_url(), &file).await?;
                println!("backed up to {}:\n{summary}", file.display());
                Ok(())
            }
            Command::Restore { file, force, data_dir } => {
                config.data_dir = data_dir.unwrap_or(config.data_dir);
                let summary = backup::restore(&config.database_url(), &file, force, clock.now()).await?;
                println!("restored from {}:\n{summary}", file.display());
                Ok(())
            }
            Command::Migrate { data_dir } => {
                config.data_dir = data_dir.unwrap_or(config.data_dir);
                open_database(&config).await?;
                println!("migrations applied");
                Ok(())
            }
            Command::Import { what: ImportCommand::Prices { file, data_dir } } => {
                if let Some(dir) = data_dir {
                    config.data_dir = dir;
                }
                let text = std::fs::read_to_string(&file).map_err(|e| anyhow::anyhow!("reading {}: {e}", file.display()))?;
                let db = open_database(&config).await?;
                match import::import_prices(&db, &text, config.market.seed, clock.now()).await {
                    Ok(s) => {
                        println!(
                            "imported {} bars for {} symbols ({} new to the watchlist), {} to {}",
                            s.bars, s.symbols, s.new_symbols, s.first, s.last
                        );
                        Ok(())
                    }
                    Err(import::ImportError::Csv(errors)) => {
                        for error in &errors {
                            eprintln!("{}: {error}", file.display());
                        }
                        Err(anyhow::anyhow!("{} problem(s) in {}; nothing was imported", errors.len(), file.display()))
                    }
                    Err(err) => Err(err.into()),
                }
            }
            Command::Backtest { start, end, symbols, strategies, by_strategy, spread_width, custom, data_dir } => {
                if let Some(dir) = data_dir {
                    config.data_dir = dir;
                }
                let custom_strategy = match custom {
                    Some(file) => {
                        let text = std::fs::read_to_string(&file).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
                        Some(serde_json::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?)
                    }
                    None => None,
                };
                let state = strikeline_server::offline_state(config).await?;
                let request = backtest::BacktestRequest {
                    start_date: start,
                    end_date: end,
                    symbols,
                    strategies,
                    params: None,
                    spread_width,
                    custom_strategy,
                };
                let plan = strikeline_server::foundation::entitlements::Plan::Premium;
                let json = if by_strategy {
                    serde_json::to_string_pretty(
                        &backtest::strategy_results(&state, plan, &request, &backtest::LockedSignals::none(), &Default::default())
                            .await
                            .map_err(describe)?,
                    )?
                } else {
                    serde_json::to_string_pretty(
                        &backtest::overall_result(&state, plan, &request, &backtest::LockedSignals::none(), &Default::default())
                            .await
                            .map_err(describe)?,
                    )?
                };
                println!("{json}");
                Ok(())
            }
            Command::Users { what: UsersCommand::Confirm { email, data_dir } } => {
                if let Some(dir) = data_dir {
                    config.data_dir = dir;
                }
                let state = strikeline_server::offline_state(config).await?;
                let email = email.trim().to_lowercase();
                let user = strikeline_store::users::find_by_email(&state.db, &email)
                    .await?
                    .ok_or_else(|| anyhow::anyhow!("no account with email {email}"))?;
                let confirmed =
                    strikeline_server::services::accounts::confirm_by_operator(&state, &user, clock.now()).await.map_err(describe)?;
                tracing::info!(user_id = %user.id, trial_started = confirmed.trial_started, "address confirmed by an operator");
                if confirmed.trial_started {
                    println!("{email} is confirmed; its 14-day Pro trial has started");
                } else {
                    println!("{email} is confirmed");
                }
                Ok(())
            }
            Command::Users { what: UsersCommand::SetPlan { email, plan, data_dir } } => {
                if let Some(dir) = data_dir {
                    config.data_dir = dir;
                }
                let db = open_database(&config).await?;
                let email = email.trim().to_lowercase();
                let user = strikeline_store::users::find_by_email(&db, &email)
                    .await?
                    .ok_or_else(|| anyhow::anyhow!("no account with email {email}"))?;
                let now = clock.now();
                strikeline_store::users::set_subscription(
                    &db,
                    &user.id,
                    plan.id(),
                    strikeline_server::foundation::vocab::SubscriptionStatus::Active.as_str(),
                    None,
                    now,
                )
                .await?;
                let event = strikeline_store::audit::AuditEvent {
                    id: uuid::Uuid::new_v4().to_string(),
                    user_id: Some(user.id.clone()),
                    actor_id: Some("operator".into()),
                    action: strikeline_server::foundation::vocab::AuditAction::PlanChanged.as_str().into(),
                    detail: Some(format!("{} → {} by an operator (command line)", user.subscription_plan, plan.id())),
                    ip: None,
                    user_agent: None,
                    at: now,
                };
                strikeline_store::audit::record(&db, &event).await?;
                tracing::info!(user_id = %user.id, plan = plan.id(), "plan set by an operator");
                println!("{email} is now on the {} plan", plan.id());
                Ok(())
            }
            Command::Model { what: ModelCommand::Train { data_dir } } => {
                if let Some(dir) = data_dir {
                    config.data_dir = dir;
                }
                let state = strikeline_server::offline_state(config).await?;
                let trained =
                    strikeline_server::services::predicting::train_from_scratch(&state, state.clock.now()).await.map_err(describe)?;
                println!("{}", serde_json::to_string_pretty(&trained)?);
                Ok(())
            }
            Command::IvRank { symbol, record, data_dir } => {
                if let Some(dir) = data_dir {
                    config.data_dir = dir;
                }
                let state = strikeline_server::offline_state(config).await?;
                let now = state.clock.now();
                let view = strikeline_server::handlers::options::iv_rank_of(&state, &symbol, record, now).await.map_err(describe)?;
                println!("{}", serde_json::to_string_pretty(&view)?);
                Ok(())
            }
            Command::Seed { scale, data_dir } => {
                if let Some(dir) = data_dir {
                    config.data_dir = dir;
                }
                let db = open_database(&config).await?;
                let summary = seed::seed(&db, &config, scale, clock.now()).await;
                db.close().await;
                print!("{}", summary?);
                Ok(())
            }
            Command::Openapi
            | Command::Price { .. }
            | Command::Iv { .. }
            | Command::Stats { .. }
            | Command::Indicators { .. }
            | Command::Verify { .. } => Ok(()),
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("strikeline: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// An API error as a command-line error: the detail and each field's reason.
fn describe(err: strikeline_server::foundation::error::AppError) -> anyhow::Error {
    match err {
        strikeline_server::foundation::error::AppError::Validation(fields) => {
            anyhow::anyhow!(fields.iter().map(|f| format!("{}: {}", f.field, f.message)).collect::<Vec<_>>().join("; "))
        }
        other => anyhow::anyhow!("{other}"),
    }
}
