//! What operators see of the `strikeline` process: its logs and its clock.

use std::process::{Command, Output};

/// `strikeline migrate` into a fresh directory with `args` before the command, logging at
/// `debug` (sqlx logs its statements there, so there is something to read).
fn migrate(args: &[&str], env: &[(&str, &str)]) -> Output {
    let dir = tempfile::tempdir().expect("dir");
    let mut command = Command::new(env!("CARGO_BIN_EXE_strikeline"));
    command.args(args).arg("migrate").arg("--data-dir").arg(dir.path().join("data"));
    command.env_remove("DATABASE_URL").env_remove("NO_COLOR").env("STRIKELINE_LOG", "debug").env_remove("RUST_LOG");
    for (key, value) in env {
        command.env(key, value);
    }
    let out = command.output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    out
}

#[test]
fn logs_written_to_a_file_carry_no_colour_codes() {
    let out = migrate(&[], &[]);
    let logs = String::from_utf8_lossy(&out.stderr);
    assert!(logs.lines().count() > 0, "debug logs are written");
    assert!(!logs.contains('\u{1b}'), "no ANSI escape when standard error is not a terminal:\n{logs}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "migrations applied");
}

#[test]
fn json_logs_are_one_object_a_line() {
    for out in [migrate(&["--log-format", "json"], &[]), migrate(&[], &[("STRIKELINE_LOG_FORMAT", "json")])] {
        let logs = String::from_utf8_lossy(&out.stderr);
        let lines: Vec<&str> = logs.lines().collect();
        assert!(!lines.is_empty(), "debug logs are written");
        for line in lines {
            let object: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
            assert!(object["timestamp"].is_string() && object["level"].is_string() && object["fields"].is_object(), "{line}");
        }
    }
}

#[test]
fn an_unknown_log_format_is_refused_by_name() {
    let out = Command::new(env!("CARGO_BIN_EXE_strikeline")).args(["--log-format", "xml", "migrate"]).output().expect("runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--log-format"), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_clock_start_that_is_not_an_instant_is_a_configuration_error() {
    let out =
        Command::new(env!("CARGO_BIN_EXE_strikeline")).arg("migrate").env("STRIKELINE_CLOCK_START", "next tuesday").output().expect("runs");
    assert_eq!(out.status.code(), Some(2), "configuration errors exit 2");
    let said = String::from_utf8_lossy(&out.stderr).to_lowercase();
    assert!(said.contains("clock_start"), "the setting is named: {said}");
}
