//! The served lab: `lab serve` on loopback, students talking to it over HTTP as `lab join` does,
//! join codes, grading on the server, the server killed with SIGKILL and started again, the
//! gradebook exports, and `lab join` in tmux.

use crate::common::tmux::{self, Tmux, cannot_run};
use crate::common::warpdrill;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::Duration;

/// Three numeric steps, locked order, free hints, no time limit.
const LAB: &str = r#"Lab(
  id: "served",
  title: "Served lab",
  version: 1,
  secret: "a secret the students never see",
  steps: [Exercise("l2-stride-sectors"), Exercise("l2-bank-stride"), Exercise("l2-tile-smem")],
  points: [10, 7, 5],
)"#;

const ROSTER: &str = "student,extra_minutes,rerolls,name,email,section\n\
amy,0,,\"Lee, Amy\",amy@uni.edu,A\n\
bo,0,,Bo Chen,bo@uni.edu,B\n\
cy,0,,Cy Diaz,cy@uni.edu,A\n";

struct Class {
    _root: tempfile::TempDir,
    dir: PathBuf,
}

impl Class {
    fn new() -> Class {
        Class::with(LAB)
    }

    /// A class of `lab`.
    fn with(lab: &str) -> Class {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().to_path_buf();
        std::fs::write(dir.join("lab.ron"), lab).unwrap();
        std::fs::write(dir.join("roster.csv"), ROSTER).unwrap();
        Class { _root: root, dir }
    }

    fn path(&self, name: &str) -> String {
        self.dir.join(name).display().to_string()
    }

    /// Starts `lab serve` on a free loopback port; returns it with its address.
    fn serve(&self) -> Server {
        let mut child = warpdrill()
            .args(["lab", "serve", &self.path("lab.ron"), "--roster"])
            .arg(self.path("roster.csv"))
            .args(["--bind", "127.0.0.1", "--port", "0", "--db"])
            .arg(self.path("class.db"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("lab serve starts");
        let stdout = child.stdout.take().unwrap();
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).unwrap();
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://127.0.0.1:"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server { child, url }
    }

    fn code(&self, student: &str) -> String {
        let out = warpdrill()
            .args(["lab", "roster", &self.path("roster.csv"), "--codes"])
            .arg(self.path("lab.ron"))
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{student},")).map(String::from))
            .unwrap()
    }

    /// The answer key (instructor's command, run on the instructor's machine).
    fn key(&self, student: &str) -> serde_json::Value {
        let out = warpdrill()
            .args([
                "lab",
                "key",
                &self.path("lab.ron"),
                "--student",
                student,
                "--json",
            ])
            .output()
            .unwrap();
        serde_json::from_slice(&out.stdout).unwrap()
    }

    fn report(&self, format: &str) -> String {
        let out = warpdrill()
            .args(["lab", "report", &self.path("lab.ron"), "--db"])
            .arg(self.path("class.db"))
            .args(["--roster", &self.path("roster.csv"), "--format", format])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
}

struct Server {
    child: Child,
    url: String,
}

impl Server {
    /// Ends the server as a crash would: SIGKILL, no chance to write anything more.
    fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn post(url: &str, call: &str, body: serde_json::Value) -> (u16, serde_json::Value) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(10)))
        .build()
        .into();
    let mut response = agent
        .post(&format!("{url}/api/{call}"))
        .send_json(&body)
        .expect("the server answers");
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().unwrap();
    (status, serde_json::from_str(&text).unwrap())
}

fn ask(
    url: &str,
    call: &str,
    student: &str,
    code: &str,
    step: Option<usize>,
    answer: Option<&str>,
) -> (u16, serde_json::Value) {
    post(
        url,
        call,
        serde_json::json!({"student": student, "code": code, "lang": "en",
                           "step": step, "answer": answer}),
    )
}

fn wrong(key: &serde_json::Value, i: usize) -> String {
    format!("{}", key[i]["answer_value"].as_f64().unwrap() + 1.0)
}

fn right(key: &serde_json::Value, i: usize) -> String {
    key[i]["typed"].as_str().unwrap().to_string()
}

#[test]
fn a_join_needs_the_students_own_code() {
    let class = Class::new();
    let server = class.serve();
    let (amy, bo) = (class.code("amy"), class.code("bo"));
    assert_ne!(amy, bo);
    let (status, body) = ask(&server.url, "join", "amy", &bo, None, None);
    assert_eq!(status, 403, "{body}");
    let (status, _) = ask(&server.url, "join", "zed", &amy, None, None);
    assert_eq!(status, 403, "a student not on the roster");
    let (status, body) = ask(&server.url, "join", "amy", &amy, None, None);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["steps"].as_array().unwrap().len(), 3);
}

#[test]
fn the_server_grades_and_nothing_a_student_sees_holds_the_key() {
    let class = Class::new();
    let server = class.serve();
    let code = class.code("amy");
    let key = class.key("amy");
    ask(&server.url, "join", "amy", &code, None, None);
    let (status, step) = ask(&server.url, "step", "amy", &code, Some(1), None);
    assert_eq!(status, 200);
    let seen = step.to_string();
    for secret in [
        "a secret the students never see",
        "seed",
        "typed",
        "explanation",
    ] {
        assert!(
            !seen.contains(secret),
            "`{secret}` reached the student: {seen}"
        );
    }
    let (_, got) = ask(
        &server.url,
        "answer",
        "amy",
        &code,
        Some(1),
        Some(&wrong(&key, 0)),
    );
    assert_eq!(got["outcome"], "wrong");
    let said = got["message"].as_str().unwrap();
    assert!(
        !said.contains(key[0]["answer"].as_str().unwrap()),
        "the answer is not told while attempts are left: {said}"
    );
    // Step 2 is locked until step 1 is done.
    let (status, _) = ask(&server.url, "answer", "amy", &code, Some(2), Some("1"));
    assert_eq!(status, 409);
    let (_, got) = ask(
        &server.url,
        "answer",
        "amy",
        &code,
        Some(1),
        Some(&right(&key, 0)),
    );
    assert_eq!(got["outcome"], "correct");
    assert_eq!(got["state"]["points"], 7, "right at the second attempt");
    // A solved step takes no more answers.
    let (status, _) = ask(
        &server.url,
        "answer",
        "amy",
        &code,
        Some(1),
        Some(&right(&key, 0)),
    );
    assert_eq!(status, 409);
}

#[test]
fn a_killed_server_restarts_with_every_acknowledged_answer() {
    let class = Class::new();
    let server = class.serve();
    let students = ["amy", "bo", "cy"];
    let codes: Vec<String> = students.iter().map(|s| class.code(s)).collect();
    let keys: Vec<serde_json::Value> = students.iter().map(|s| class.key(s)).collect();
    for (i, student) in students.iter().enumerate() {
        ask(&server.url, "join", student, &codes[i], None, None);
        // amy: right; bo: wrong then right; cy: wrong.
        if i > 0 {
            let (status, _) = ask(
                &server.url,
                "answer",
                student,
                &codes[i],
                Some(1),
                Some(&wrong(&keys[i], 0)),
            );
            assert_eq!(status, 200);
        }
        if i < 2 {
            let (status, _) = ask(
                &server.url,
                "answer",
                student,
                &codes[i],
                Some(1),
                Some(&right(&keys[i], 0)),
            );
            assert_eq!(status, 200);
        }
    }
    server.kill();
    let server = class.serve();
    let points: Vec<serde_json::Value> = students
        .iter()
        .enumerate()
        .map(|(i, s)| ask(&server.url, "state", s, &codes[i], None, None).1)
        .collect();
    assert_eq!(points[0]["points"], 10);
    assert_eq!(points[1]["points"], 7);
    assert_eq!(points[2]["points"], 0);
    assert_eq!(
        points[2]["steps"][0]["attempts"], 1,
        "cy's wrong answer is kept"
    );
    assert_eq!(points[0]["current"], 2, "amy goes on at step 2");
    // cy continues: the second attempt is counted as the second.
    let (_, got) = ask(
        &server.url,
        "answer",
        "cy",
        &codes[2],
        Some(1),
        Some(&right(&keys[2], 0)),
    );
    assert_eq!(got["state"]["points"], 7);
    let (_, handed) = ask(&server.url, "submit", "amy", &codes[0], None, None);
    assert!(handed["receipt"].is_string());
    drop(server);
    let canvas = class.report("canvas");
    let lines: Vec<&str> = canvas.lines().collect();
    assert_eq!(
        lines[0],
        "Student,ID,SIS User ID,SIS Login ID,Section,Served lab (served)"
    );
    assert_eq!(lines[1], "    Points Possible,,,,,30");
    assert_eq!(lines[2], "\"Lee, Amy\",,amy,amy@uni.edu,A,10");
    assert_eq!(lines[3], "Bo Chen,,bo,bo@uni.edu,B,7");
    assert_eq!(lines[4], "Cy Diaz,,cy,cy@uni.edu,A,7");
    assert_eq!(lines.len(), 5, "one row per student: {canvas}");
    let blackboard = class.report("blackboard");
    assert!(blackboard.starts_with("Last Name,First Name,Username,Student ID,Served lab [Total Pts: 30 Score]\nLee,Amy,amy,amy,10\n"), "{blackboard}");
    let out = warpdrill()
        .args(["lab", "report", &class.path("lab.ron"), "--db"])
        .arg(class.path("class.db"))
        .args(["--roster", &class.path("roster.csv"), "--stats"])
        .output()
        .unwrap();
    let stats = String::from_utf8_lossy(&out.stdout);
    let step1 = stats.lines().nth(1).unwrap_or_default();
    assert!(
        step1.starts_with("1,3,3,100.0,5,"),
        "3 answered, 3 solved, 5 attempts: {stats}"
    );
    let moodle = class.report("moodle");
    assert!(moodle.contains("\nbo,bo@uni.edu,Bo Chen,7\n"), "{moodle}");
}

#[test]
fn a_student_joins_in_the_tutor_and_answers() {
    const TEST: &str = "lab_served::a_student_joins_in_the_tutor_and_answers";
    if !tmux::available() {
        cannot_run(TEST, "tmux is not installed");
        return;
    }
    let class = Class::new();
    let server = class.serve();
    let code = class.code("bo");
    let key = class.key("bo");
    let join = format!(
        "{} lab join {} --student bo --code {code}",
        env!("CARGO_BIN_EXE_warpdrill"),
        server.url
    );
    let command = format!("sh -c '{join}; echo JOIN rc=$?; sleep 60'");
    let Some(tmux) = Tmux::start(&command, 90, 26) else {
        cannot_run(TEST, "tmux is installed but cannot start a session here");
        return;
    };
    tmux.wait_for("Served lab · bo · step 1/3 · 0/30 pts");
    tmux.keys(&["Enter"]);
    tmux.wait_for("Step 1:");
    // Letters a tutor uses as keys elsewhere are typed into the answer.
    tmux.literal(&wrong(&key, 0));
    tmux.keys(&["Enter"]);
    tmux.wait_for("You answered:");
    tmux.literal(&right(&key, 0));
    tmux.keys(&["Enter"]);
    tmux.wait_for("Correct");
    tmux.keys(&["Escape"]);
    tmux.wait_for("solved · 7 pts");
    tmux.keys(&["s", "s"]);
    tmux.wait_for("Handed in. Receipt:");
    tmux.keys(&["q"]);
    let end = tmux.wait_for("JOIN rc=0");
    assert!(end.contains("Receipt"), "{end}");
    assert!(Path::new(&class.path("class.db")).exists());
}

#[test]
fn the_dashboard_shows_the_class_and_gives_extra_time_live() {
    const TEST: &str = "lab_served::the_dashboard_shows_the_class_and_gives_extra_time_live";
    if !tmux::available() {
        cannot_run(TEST, "tmux is not installed");
        return;
    }
    let class = Class::new();
    std::fs::write(
        class.dir.join("lab.ron"),
        LAB.replace("points: [10, 7, 5],", "points: [10, 7, 5], time_limit: 30,"),
    )
    .unwrap();
    // A fixed port for the tmux-run server: the test's own, from its process id.
    let port = 20_000 + std::process::id() % 20_000;
    let url = format!("http://127.0.0.1:{port}");
    let serve = format!(
        "{} lab serve {} --roster {} --bind 127.0.0.1 --port {port} --db {}",
        env!("CARGO_BIN_EXE_warpdrill"),
        class.path("lab.ron"),
        class.path("roster.csv"),
        class.path("class.db"),
    );
    let Some(tmux) = Tmux::start(&serve, 100, 24) else {
        cannot_run(TEST, "tmux is installed but cannot start a session here");
        return;
    };
    tmux.wait_for("Served lab · 3 students");
    tmux.wait_for("not joined yet");
    let (code, key) = (class.code("amy"), class.key("amy"));
    ask(&url, "join", "amy", &code, None, None);
    ask(&url, "answer", "amy", &code, Some(1), Some(&wrong(&key, 0)));
    ask(&url, "answer", "amy", &code, Some(1), Some(&right(&key, 0)));
    let screen = tmux.wait_for("7/30 pts");
    let row = screen.lines().find(|l| l.contains("7/30 pts")).unwrap();
    assert!(
        row.contains("amy") && row.contains("step 2/3") && row.contains(" left"),
        "{row}"
    );
    tmux.wait_for("100% correct of 1 who answered");
    tmux.wait_for(&format!("common wrong answers: {}", wrong(&key, 0)));
    // Five more minutes for amy, live: the server's count for her grows.
    tmux.keys(&["+"]);
    tmux.wait_for("amy has 5 more minutes.");
    let (_, state) = ask(&url, "state", "amy", &code, None, None);
    assert!(state["time_left"].as_u64().unwrap() > 30 * 60, "{state}");
    tmux.keys(&["q"]);
    tmux.wait_for("Stop serving?");
    tmux.keys(&["q"]);
}

/// The README's instructor path: the roster beside the instructor, not beside the lab file; the
/// report from the database finds the roster the lab was served with.
#[test]
fn the_report_finds_the_roster_the_lab_was_served_with() {
    let root = tempfile::tempdir().unwrap();
    let labs = root.path().join("labs");
    std::fs::create_dir(&labs).unwrap();
    std::fs::write(labs.join("lab.ron"), LAB).unwrap();
    let roster = root.path().join("class-roster.csv");
    std::fs::write(&roster, ROSTER).unwrap();
    let db = root.path().join("class.db");
    let mut child = warpdrill()
        .args(["lab", "serve"])
        .arg(labs.join("lab.ron"))
        .arg("--roster")
        .arg(&roster)
        .args(["--bind", "127.0.0.1", "--port", "0", "--db"])
        .arg(&db)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("lab serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.contains("http://127.0.0.1:"), "{line}");
    let _ = child.kill();
    let _ = child.wait();
    let out = warpdrill()
        .args(["lab", "report"])
        .arg(labs.join("lab.ron"))
        .arg("--db")
        .arg(&db)
        .args(["--format", "canvas"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = String::from_utf8_lossy(&out.stdout);
    for name in ["Amy", "Cy Diaz"] {
        assert!(report.contains(name), "{name} missing:\n{report}");
    }
}

fn regrade(class: &Class, args: &[&str]) -> String {
    let out = warpdrill()
        .args(["lab", "regrade", &class.path("lab.ron"), "--db"])
        .arg(class.path("class.db"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Canvas rows as (SIS User ID, grade), and the points possible.
fn canvas(report: &str) -> (Vec<(String, String)>, String) {
    let mut lines = report.lines().skip(1);
    let possible = lines
        .next()
        .unwrap()
        .rsplit(',')
        .next()
        .unwrap()
        .to_string();
    let rows = lines
        .map(|l| {
            let fields: Vec<&str> = l.rsplit(',').collect();
            // Student names hold commas in quotes; the id is the fourth field from the end.
            (fields[3].to_string(), fields[0].to_string())
        })
        .collect();
    (rows, possible)
}

#[test]
fn a_regrade_after_class_lists_whose_score_changes_then_changes_the_gradebook() {
    let class = Class::new();
    let server = class.serve();
    let (amy, bo) = (class.code("amy"), class.code("bo"));
    ask(&server.url, "join", "amy", &amy, None, None);
    ask(&server.url, "join", "bo", &bo, None, None);
    let key = class.key("amy");
    ask(&server.url, "answer", "amy", &amy, Some(1), Some("31337"));
    ask(
        &server.url,
        "answer",
        "amy",
        &amy,
        Some(1),
        Some(&right(&key, 0)),
    );
    for _ in 0..3 {
        ask(&server.url, "answer", "bo", &bo, Some(1), Some("31337"));
    }
    server.kill();
    let before = class.report("canvas");
    let (rows, possible) = canvas(&before);
    assert_eq!(possible, "30");
    assert_eq!(rows[0], ("amy".to_string(), "7".to_string()));
    assert_eq!(rows[1], ("bo".to_string(), "0".to_string()));
    // A dry run lists both students and stores nothing.
    let dry = regrade(&class, &["--accept", "1:31337", "--dry-run"]);
    assert!(
        dry.starts_with("dry run — step 1: `31337` accepted: 2 students change"),
        "{dry}"
    );
    assert!(
        dry.contains("amy") && dry.contains("7/30") && dry.contains("10/30"),
        "{dry}"
    );
    assert_eq!(class.report("canvas"), before, "a dry run changes nothing");
    let done = regrade(&class, &["--accept", "1:31337"]);
    assert!(done.contains("Stored"), "{done}");
    let (rows, _) = canvas(&class.report("canvas"));
    assert_eq!(rows[0].1, "10", "amy's first attempt now scores");
    assert_eq!(rows[1].1, "10");
    // Dropping a step takes it out of the points possible; the text report says what was done.
    regrade(&class, &["--drop", "3"]);
    let (_, possible) = canvas(&class.report("canvas"));
    assert_eq!(possible, "20");
    let text = class.report("text");
    assert!(text.contains("regraded: step 3 dropped"), "{text}");
    // And the server, started again, grades the same way.
    let server = class.serve();
    let (_, state) = ask(&server.url, "state", "bo", &bo, None, None);
    assert_eq!(state["points"], 10, "{state}");
    assert_eq!(state["max"], 20, "{state}");
}

#[test]
fn a_student_pack_holds_no_secret_and_nothing_that_needs_one_runs_on_it() {
    let class = Class::new();
    let out = warpdrill()
        .args(["lab", "publish", &class.path("lab.ron"), "--roster"])
        .arg(class.path("roster.csv"))
        .args(["--out", &class.path("pack")])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let pack = class.path("pack/lab.ron");
    let text = std::fs::read_to_string(&pack).unwrap();
    assert!(!text.contains("a secret the students never see"), "{text}");
    for student in ["amy", "bo", "cy"] {
        let ticket =
            std::fs::read_to_string(class.path(&format!("pack/tickets/{student}.ticket"))).unwrap();
        assert!(!ticket.contains("a secret the students never see"));
        assert!(
            ticket.contains(&format!("\"student\": \"{student}\"")),
            "{ticket}"
        );
    }
    let roster = class.path("roster.csv");
    let dir = class.dir.display().to_string();
    for args in [
        ["lab", "key", &pack, "--student", "amy"],
        ["lab", "roster", &roster, "--codes", &pack],
        ["lab", "report", &pack, &dir, "--csv"],
    ] {
        let out = warpdrill().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("student pack"), "{args:?}: {err}");
    }
    let out = warpdrill()
        .args(["lab", "serve", &pack, "--roster"])
        .arg(class.path("roster.csv"))
        .args(["--bind", "127.0.0.1", "--port", "0", "--db"])
        .arg(class.path("pack.db"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("student pack"));
}

/// The naive transpose: correct, its stores 32 sectors per request.
pub const NAIVE_TRANSPOSE: &str = "// launch: --grid 64,64 --block 32,32 -D n=2048
__global__ void transpose(const float* in, float* out, int n) {
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    if (x < n && y < n) {
        out[x * n + y] = in[y * n + x];
    }
}
";

#[test]
fn a_served_puzzle_step_takes_the_kernel_file_and_checks_it_on_the_server() {
    let class = Class::with(
        r#"Lab(id: "kernels", title: "Kernels", version: 1, secret: "a secret the students never see",
           steps: [Puzzle("transpose", points: 20)], points: [10, 7, 5], hints: Cost(2))"#,
    );
    let server = class.serve();
    let code = class.code("amy");
    let (status, step) = ask(&server.url, "step", "amy", &code, Some(1), None);
    assert_eq!(status, 200, "{step}");
    assert_eq!(step["answer_kind"], "kernel");
    assert_eq!(step["kernel"]["puzzle"], "transpose");
    assert!(
        step["kernel"]["starter"]
            .as_str()
            .unwrap()
            .contains("__global__ void transpose"),
        "{step}"
    );
    // A kernel longer than a typed answer may be (4000 characters) is taken: a long comment.
    let long = format!("{NAIVE_TRANSPOSE}// {}\n", "x".repeat(5000));
    let (status, naive) = ask(&server.url, "answer", "amy", &code, Some(1), Some(&long));
    assert_eq!(status, 200, "{naive}");
    assert_eq!(naive["outcome"], "wrong", "{naive}");
    let verdict = naive["step"]["verdict"].as_str().unwrap();
    assert!(verdict.contains("32.0 sectors/request"), "{verdict}");
    assert!(
        verdict.contains("[missed] sectors per request"),
        "{verdict}"
    );
    assert!(
        naive["step"]["answers"].as_array().unwrap().is_empty(),
        "a kernel is not echoed back: {naive}"
    );
    // Not a kernel the analyser reads: not counted.
    let (status, junk) = ask(&server.url, "answer", "amy", &code, Some(1), Some("hello"));
    assert_eq!(status, 200, "{junk}");
    assert_eq!(junk["outcome"], "unusable", "{junk}");
    assert_eq!(junk["state"]["steps"][0]["attempts"], 1, "{junk}");
    // The reference kernel from the instructor's key solves it, at the second attempt.
    let reference = class.key("amy")[0]["answer"].as_str().unwrap().to_string();
    let (_, right) = ask(
        &server.url,
        "answer",
        "amy",
        &code,
        Some(1),
        Some(&reference),
    );
    assert_eq!(right["outcome"], "correct", "{right}");
    assert_eq!(
        right["state"]["points"], 14,
        "7 of 10 on a 20-point step: {right}"
    );
    assert!(
        right["step"]["why"]
            .as_str()
            .unwrap()
            .contains("__shared__ float tile"),
        "the reference is shown once solved: {right}"
    );
    assert_eq!(right["state"]["steps"][0]["level"], "L5");
    // The class's statistics count what the wrong kernel came to, not its text.
    let out = warpdrill()
        .args(["lab", "report", &class.path("lab.ron"), "--db"])
        .arg(class.path("class.db"))
        .args(["--roster", &class.path("roster.csv"), "--stats"])
        .output()
        .unwrap();
    let stats = String::from_utf8_lossy(&out.stdout);
    assert!(
        stats.contains("missed sectors_per_request time_ms (1)"),
        "{stats}"
    );
    assert!(!stats.contains("__global__"), "{stats}");
}
