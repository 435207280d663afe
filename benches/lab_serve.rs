//! Load on a served lab: 300 simulated students on loopback join `lab serve`'s HTTP server and
//! answer (wrong, then right, step after step, about one answer a second each) for
//! `LAB_SERVE_SECS` seconds (60 by default); prints p50, p90, p99 and the largest answer latency,
//! and the answers per second the server committed. Each answer is committed to SQLite (WAL,
//! synchronous=FULL) before it is answered, as in class.
//!
//! `cargo bench --bench lab_serve` (set `LAB_SERVE_SECS=10` for a quick look).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use warpdrill::clock::SystemClock;
use warpdrill::content::Content;
use warpdrill::lab::class::Class;
use warpdrill::lab::db::Db;
use warpdrill::lab::{Lab, Roster};

const STUDENTS: usize = 300;

const LAB: &str = r#"Lab(
  id: "load", title: "Load", version: 1, secret: "a secret for the load test",
  steps: [Exercise("l2-stride-sectors"), Exercise("l2-bank-stride"), Exercise("l2-tile-smem"),
          Exercise("l2-partial-warp"), Exercise("l2-stride-efficiency")],
  points: [10, 7, 5], max_attempts: 1000000,
)"#;

fn main() {
    let seconds: u64 = std::env::var("LAB_SERVE_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let lab = Lab::parse("load.ron", LAB).expect("the load lab");
    let content = Content::builtin();
    let ids: Vec<String> = (0..STUDENTS).map(|i| format!("s{i:03}")).collect();
    let roster = Roster::parse("roster.csv", &ids.join("\n")).expect("a roster");
    // The answer key, from the instructor's side.
    let keys: Vec<Vec<String>> = roster
        .entries
        .iter()
        .map(|entry| {
            warpdrill::lab::key::key(&lab, &content, entry, "load.ron", LAB)
                .expect("a key")
                .into_iter()
                .map(|k| k.typed)
                .collect()
        })
        .collect();
    let codes: Vec<String> = ids
        .iter()
        .map(|id| warpdrill::lab::seed::join_code(&lab, id))
        .collect();
    let db = Db::open(&dir.path().join("load.db"), &lab.id, lab.version).expect("a database");
    let class = Class::open(
        lab,
        "load.ron",
        LAB,
        &content,
        roster,
        db,
        Arc::new(SystemClock),
    )
    .expect("the class");
    let server = tiny_http::Server::http("127.0.0.1:0").expect("a port");
    let port = server.server_addr().to_ip().expect("an address").port();
    std::thread::spawn(move || warpdrill::cli::lab_net::serve(server, class));
    let url = format!("http://127.0.0.1:{port}");
    let latencies = Arc::new(Mutex::new(Vec::<Duration>::new()));
    let failures = Arc::new(Mutex::new(0usize));
    let end = Instant::now() + Duration::from_secs(seconds);
    let threads: Vec<_> = (0..STUDENTS)
        .map(|i| {
            let (url, id, code, key) = (
                url.clone(),
                ids[i].clone(),
                codes[i].clone(),
                keys[i].clone(),
            );
            let latencies = Arc::clone(&latencies);
            let failures = Arc::clone(&failures);
            std::thread::spawn(move || {
                let agent: ureq::Agent = ureq::Agent::config_builder()
                    .http_status_as_error(false)
                    .timeout_global(Some(Duration::from_secs(30)))
                    .build()
                    .into();
                let body = |step: Option<usize>, answer: Option<&str>| {
                    serde_json::json!({"student": id, "code": code, "lang": "en",
                                       "step": step, "answer": answer})
                };
                // Students start within the first two seconds, not all at once.
                std::thread::sleep(Duration::from_millis((i as u64 * 7) % 2000));
                let _ = agent
                    .post(&format!("{url}/api/join"))
                    .send_json(body(None, None));
                let mut mine = Vec::new();
                let mut n = 0usize;
                while Instant::now() < end {
                    let step = (n / 2) % key.len();
                    // Wrong, then right; once every step is solved, answers are refused (409),
                    // which still costs the server a request.
                    let answer = if n.is_multiple_of(2) {
                        "123456789".to_string()
                    } else {
                        key[step].clone()
                    };
                    let started = Instant::now();
                    let sent = agent
                        .post(&format!("{url}/api/answer"))
                        .send_json(body(Some(step + 1), Some(&answer)));
                    let took = started.elapsed();
                    match sent {
                        Ok(mut response) => {
                            let _ = response.body_mut().read_to_string();
                            mine.push(took);
                        }
                        Err(_) => *failures.lock().expect("a lock") += 1,
                    }
                    n += 1;
                    // About one answer a second, spread out.
                    std::thread::sleep(Duration::from_millis(
                        700 + ((i * 31 + n * 17) % 600) as u64,
                    ));
                }
                latencies.lock().expect("a lock").extend(mine);
            })
        })
        .collect();
    for thread in threads {
        let _ = thread.join();
    }
    let mut all = latencies.lock().expect("a lock").clone();
    all.sort();
    let at = |q: f64| {
        all.get(((all.len() as f64 * q) as usize).min(all.len().saturating_sub(1)))
            .copied()
            .unwrap_or_default()
    };
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "lab_serve: {STUDENTS} students, {seconds} s, {} answers ({:.0}/s), {} failed; \
         latency p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        all.len(),
        all.len() as f64 / seconds as f64,
        failures.lock().expect("a lock"),
        ms(at(0.5)),
        ms(at(0.9)),
        ms(at(0.99)),
        ms(all.last().copied().unwrap_or_default()),
    );
}
