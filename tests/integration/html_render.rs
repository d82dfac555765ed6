//! The HTML report renders in a real browser: headless Chromium loads it offline, its DOM has
//! the report's sections with their inline SVG pictures, and a screenshot is not blank.
//! Skipped (saying so on stderr) where /usr/bin/chromium is absent; OPTIK_CHROMIUM names
//! another browser binary (or a missing one, to see the skip).

use crate::common::optik;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The browser binary.
fn browser() -> String {
    std::env::var("OPTIK_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into())
}

/// Runs headless Chromium with a fresh profile and no network side traffic; kills it after
/// two minutes.
fn chromium(args: &[String]) -> Output {
    let profile = tempfile::tempdir().unwrap();
    let mut child = Command::new(browser())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chromium starts");
    let deadline = Instant::now() + Duration::from_secs(120);
    // Drain stdout on a thread so a large DOM cannot block the browser.
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut s).ok();
        s
    });
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let out = reader.join().unwrap();
            let mut err = Vec::new();
            if let Some(mut e) = child.stderr.take() {
                std::io::Read::read_to_end(&mut e, &mut err).ok();
            }
            return Output {
                status,
                stdout: out,
                stderr: err,
            };
        }
        if Instant::now() > deadline {
            child.kill().ok();
            panic!("chromium did not finish within two minutes");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn html_report_renders_in_headless_chromium() {
    if !Path::new(&browser()).exists() {
        // Written past the test harness's capture so that the skip is visible.
        writeln!(
            std::io::stderr(),
            "SKIPPED html_report_renders_in_headless_chromium: {} is absent (apt-get install chromium)",
            browser()
        )
        .ok();
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("report.html");
    optik("anonymise")
        .clinical_trial()
        .args(["--method", "optimal", "--time-limit", "20s", "--quiet"])
        .output("--html", &html)
        .output("--out", dir.path().join("release.csv"))
        .ok();
    let url = format!("file://{}", html.display());

    let dom = chromium(&["--dump-dom".into(), url.clone()]);
    assert!(
        dom.status.success(),
        "{}",
        String::from_utf8_lossy(&dom.stderr)
    );
    let dom = String::from_utf8_lossy(&dom.stdout).to_string();
    for id in ["summary", "partition", "metrics", "timeline", "release"] {
        assert!(dom.contains(&format!("id=\"{id}\"")), "no #{id} in the DOM");
    }
    // The browser parsed two inline SVG pictures (partition and time line).
    assert_eq!(dom.matches("<svg").count(), 2, "inline SVGs");
    assert!(dom.contains("Release preview") && dom.contains("verified k_i-anonymous"));

    let png = dir.path().join("report.png");
    let shot = chromium(&[
        "--window-size=1200,2600".into(),
        "--hide-scrollbars".into(),
        format!("--screenshot={}", png.display()),
        url,
    ]);
    assert!(
        shot.status.success(),
        "{}",
        String::from_utf8_lossy(&shot.stderr)
    );
    let bytes = std::fs::read(&png).expect("a screenshot");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    // A blank 1200 × 2600 page compresses to a few kilobytes; pictures and tables do not.
    assert!(bytes.len() > 60_000, "screenshot of {} bytes", bytes.len());
    if let Ok(keep) = std::env::var("OPTIK_PLOT_DIR") {
        std::fs::copy(&png, Path::new(&keep).join("report.png")).unwrap();
    }
}
