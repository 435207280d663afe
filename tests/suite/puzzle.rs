//! Kernel puzzles from the outside: `puzzle list`, `start` and `check` on transposes written the
//! ways learners write them, and the puzzle screen re-checking the file when it is saved.

use crate::common;
use crate::common::tmux::{self, Tmux, cannot_run};
use std::path::Path;

const NAIVE: &str = "// launch: --grid 64,256 --block 32,8 -D n=2048
__global__ void transpose(const float* in, float* out, int n) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < n && y < n) {
        out[x * n + y] = in[y * n + x];
    }
}
";

/// The tiled, padded transpose; `sync` is its barrier, `read` how it reads the tile back, `pad`
/// the tile's row length.
fn tiled(sync: &str, read: &str, pad: &str) -> String {
    format!(
        "// launch: --grid 64,64 --block 32,8 -D n=2048
#define TILE 32
__global__ void transpose(const float* in, float* out, int n) {{
    __shared__ float tile[TILE][{pad}];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += 8) {{
        if (x < n && y + j < n) {{
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
        }}
    }}
    {sync}
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += 8) {{
        if (x < n && y + j < n) {{
            out[(y + j) * n + x] = {read};
        }}
    }}
}}
"
    )
}

fn padded() -> String {
    tiled(
        "__syncthreads();",
        "tile[threadIdx.x][threadIdx.y + j]",
        "TILE + 1",
    )
}

fn check(dir: &Path, source: &str, json: bool) -> (i32, String, String) {
    let file = dir.join("transpose.cu");
    std::fs::write(&file, source).expect("write");
    let mut cmd = common::warpdrill();
    cmd.arg("--data-dir")
        .arg(dir.join("data"))
        .args(["puzzle", "check", "transpose"])
        .arg(&file);
    if json {
        cmd.arg("--json");
    }
    let out = cmd.output().expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(dir: &Path, source: &str) -> (i32, serde_json::Value) {
    let (code, out, err) = check(dir, source, true);
    let value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out} {err}"));
    (code, value)
}

fn target<'a>(v: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    v["targets"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["name"] == name))
        .unwrap_or_else(|| panic!("no target {name}: {v}"))
}

#[test]
fn the_list_has_at_least_sixteen_puzzles_with_transpose() {
    let (_guard, dir) = common::temp_dir("puzzle-list");
    let out = common::warpdrill()
        .arg("--data-dir")
        .arg(&dir)
        .args(["puzzle", "list", "--json"])
        .output()
        .expect("runs");
    assert!(out.status.success());
    let list: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let list = list.as_array().expect("an array");
    assert!(list.len() >= 16, "{list:?}");
    assert!(list.iter().any(|p| p["id"] == "transpose"));
    assert!(list.iter().all(|p| p["solved"] == false));
}

#[test]
fn start_writes_the_starter_and_keeps_an_existing_file() {
    let (_guard, dir) = common::temp_dir("puzzle-start");
    let start = |force: bool| {
        let mut cmd = common::warpdrill();
        cmd.arg("--data-dir")
            .arg(dir.join("data"))
            .args(["puzzle", "start", "transpose"])
            .arg(&dir);
        if force {
            cmd.arg("--force");
        }
        cmd.output().expect("runs")
    };
    assert!(start(false).status.success());
    let file = dir.join("transpose.cu");
    let text = std::fs::read_to_string(&file).expect("written");
    assert!(text.starts_with("// launch:"), "{text}");
    assert!(text.contains("__global__ void transpose(const float* in, float* out, int n)"));
    std::fs::write(&file, "mine").expect("write");
    let again = start(false);
    assert_eq!(again.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&file).expect("kept"), "mine");
    assert!(start(true).status.success());
    assert!(
        std::fs::read_to_string(&file)
            .expect("read")
            .starts_with("// launch:")
    );
}

#[test]
fn a_naive_transpose_is_correct_but_its_store_is_hot() {
    let (_guard, dir) = common::temp_dir("puzzle-naive");
    let (code, v) = json(&dir, NAIVE);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["correct"], true, "{v}");
    assert_eq!(v["solved"], false);
    let coalescing = target(&v, "sectors_per_request");
    assert_eq!(coalescing["met"], false, "{v}");
    assert_eq!(coalescing["figure"], 32.0);
    assert_eq!(coalescing["line"], 6, "the store's line");
    // The store line is hot in the text report too.
    let (_, text, _) = check(&dir, NAIVE, false);
    assert!(
        text.lines()
            .any(|l| l.starts_with('▲') && l.contains("out[x * n + y]") && l.contains("32.0")),
        "{text}"
    );
    assert!(text.contains("[missed]"), "{text}");
}

#[test]
fn the_tiled_padded_transpose_meets_every_target() {
    let (_guard, dir) = common::temp_dir("puzzle-tiled");
    let (code, v) = json(&dir, &padded());
    assert_eq!(code, 0, "{v}");
    for key in [
        "puzzle",
        "correct",
        "first_wrong",
        "error",
        "targets",
        "predicted_ms",
        "solved",
    ] {
        assert!(v.get(key).is_some(), "no `{key}` in {v}");
    }
    assert_eq!(v["puzzle"], "transpose");
    assert_eq!(v["correct"], true);
    assert!(v["first_wrong"].is_null() && v["error"].is_null());
    assert_eq!(v["solved"], true);
    for t in v["targets"].as_array().expect("targets") {
        for key in ["name", "figure", "target", "met"] {
            assert!(t.get(key).is_some(), "no `{key}` in {t}");
        }
        assert_eq!(t["met"], true, "{t}");
    }
    assert!(v["predicted_ms"].as_f64().is_some_and(|ms| ms > 0.0));
    // Progress is saved: the list marks it solved.
    let out = common::warpdrill()
        .arg("--data-dir")
        .arg(dir.join("data"))
        .args(["puzzle", "list", "--json"])
        .output()
        .expect("runs");
    let list: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let transpose = list
        .as_array()
        .and_then(|l| l.iter().find(|p| p["id"] == "transpose"))
        .expect("listed");
    assert_eq!(transpose["solved"], true, "{list}");
}

#[test]
fn an_unpadded_tile_misses_the_bank_conflict_target() {
    let (_guard, dir) = common::temp_dir("puzzle-unpadded");
    let (code, v) = json(
        &dir,
        &tiled(
            "__syncthreads();",
            "tile[threadIdx.x][threadIdx.y + j]",
            "TILE",
        ),
    );
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["correct"], true);
    assert_eq!(target(&v, "bank_conflicts")["met"], false, "{v}");
    assert_eq!(target(&v, "sectors_per_request")["met"], true, "{v}");
}

#[test]
fn a_swapped_index_gives_the_first_wrong_element() {
    let (_guard, dir) = common::temp_dir("puzzle-swapped");
    let (code, v) = json(
        &dir,
        &tiled(
            "__syncthreads();",
            "tile[threadIdx.y + j][threadIdx.x]",
            "TILE + 1",
        ),
    );
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["correct"], false);
    let wrong = &v["first_wrong"];
    assert_eq!(wrong["array"], "out", "{v}");
    // Element 0 is on the diagonal (right either way); the first off it is wrong.
    assert_eq!(wrong["index"], 1, "{v}");
    assert_ne!(wrong["expected"], wrong["got"]);
    let (_, text, _) = check(
        &dir,
        &tiled(
            "__syncthreads();",
            "tile[threadIdx.y + j][threadIdx.x]",
            "TILE + 1",
        ),
        false,
    );
    assert!(text.contains("out[1] is"), "{text}");
}

#[test]
fn a_tile_without_its_barrier_is_a_race_naming_both_lines() {
    let (_guard, dir) = common::temp_dir("puzzle-race");
    let (code, v) = json(
        &dir,
        &tiled("", "tile[threadIdx.x][threadIdx.y + j]", "TILE + 1"),
    );
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["correct"], false);
    let e = &v["error"];
    assert_eq!(e["kind"], "race", "{v}");
    assert_eq!(e["array"], "tile");
    let lines = [e["line"].as_u64(), e["other_line"].as_u64()];
    assert!(lines.contains(&Some(9)) && lines.contains(&Some(17)), "{v}");
    assert!(
        e["message"]
            .as_str()
            .is_some_and(|m| m.contains("__syncthreads"))
    );
}

#[test]
fn a_race_and_an_out_of_bounds_access_are_told_in_the_learner_s_language() {
    let (_guard, dir) = common::temp_dir("puzzle-race-ko");
    let said = |source: &str| {
        let file = dir.join("transpose.cu");
        std::fs::write(&file, source).expect("write");
        let out = common::warpdrill()
            .arg("--data-dir")
            .arg(dir.join("data"))
            .args(["--lang", "ko", "puzzle", "check", "transpose"])
            .arg(&file)
            .output()
            .expect("runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let race = said(&tiled("", "tile[threadIdx.x][threadIdx.y + j]", "TILE + 1"));
    assert!(race.contains("사이에 __syncthreads() 없음"), "{race}");
    assert!(race.contains("`tile`"), "{race}");
    assert!(!race.contains("with no __syncthreads() between"), "{race}");
    let oob = said(
        "// launch: --grid 64,256 --block 32,8 -D n=2048
__global__ void transpose(const float* in, float* out, int n) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[x * n + y] = in[y * n + x];
}
",
    );
    assert!(oob.contains("배열 밖"), "{oob}");
    assert!(!oob.contains("out of bounds:"), "{oob}");
}

#[test]
fn a_missing_guard_is_an_out_of_bounds_access() {
    let (_guard, dir) = common::temp_dir("puzzle-oob");
    let unguarded = "// launch: --grid 64,256 --block 32,8 -D n=2048
__global__ void transpose(const float* in, float* out, int n) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[x * n + y] = in[y * n + x];
}
";
    let (code, v) = json(&dir, unguarded);
    assert_eq!(code, 1, "{v}");
    let e = &v["error"];
    assert_eq!(e["kind"], "out_of_bounds", "{v}");
    assert_eq!(e["line"], 5);
    assert_eq!(e["array"], "in");
    assert!(
        e["message"]
            .as_str()
            .is_some_and(|m| m.contains("by thread"))
    );
}

#[test]
fn bad_input_exits_two_with_the_analysers_message() {
    let (_guard, dir) = common::temp_dir("puzzle-bad");
    let (code, _, err) = check(
        &dir,
        "// launch: --grid 1 --block 32\n__global__ void transpose(const float* in, float* out, int n) { out[0] = in[0] +; }\n",
        false,
    );
    assert_eq!(code, 2);
    assert!(err.contains("syntax error"), "{err}");
    // The message names the file handed in, whatever it is called.
    let mine = dir.join("my attempt.cu");
    std::fs::write(&mine, "garbage {{{\n").expect("write");
    let out = common::warpdrill()
        .arg("--data-dir")
        .arg(dir.join("data"))
        .args(["puzzle", "check", "transpose"])
        .arg(&mine)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("my attempt.cu:"), "{err}");
    assert!(!err.contains("transpose.cu"), "{err}");
    let out = common::warpdrill()
        .args(["puzzle", "check", "no-such-puzzle", "x.cu"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let out = common::warpdrill()
        .args(["puzzle", "check", "transpose"])
        .arg(dir.join("missing.cu"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_puzzle_screen_checks_the_file_again_when_it_is_saved() {
    const TEST: &str = "the_puzzle_screen_checks_the_file_again_when_it_is_saved";
    if !tmux::available() {
        cannot_run(TEST, "tmux is not installed");
        return;
    }
    let (_guard, dir) = common::temp_dir("puzzle-tmux");
    let command = format!(
        "{} --data-dir {} puzzle; sleep 30",
        env!("CARGO_BIN_EXE_warpdrill"),
        dir.display()
    );
    let Some(session) = Tmux::start(&command, 80, 24) else {
        cannot_run(TEST, "tmux is installed but cannot start a session here");
        return;
    };
    session.wait_for("Kernel puzzles");
    // transpose is the 11th puzzle.
    for _ in 0..10 {
        session.keys(&["Down"]);
    }
    session.keys(&["Enter"]);
    session.wait_for("press s to write the starter");
    session.keys(&["s"]);
    session.wait_for("Watching the file");
    let file = dir.join("puzzles").join("transpose.cu");
    assert!(file.exists());
    std::fs::write(&file, NAIVE).expect("save");
    // The starter is checked first (wrong: it writes nothing); the saved naive kernel is correct.
    let screen = session.wait_for("Correct on 4 sizes");
    assert!(screen.contains("[missed] sectors per request"), "{screen}");
    assert!(screen.contains("▲"), "the store line is hot:\n{screen}");
    std::fs::write(
        &file,
        tiled("", "tile[threadIdx.x][threadIdx.y + j]", "TILE + 1"),
    )
    .expect("save");
    let screen = session.wait_for("Race at");
    assert!(screen.contains("tile"), "{screen}");
    std::fs::write(&file, padded()).expect("save");
    let screen = session.wait_for("Solved.");
    assert!(!screen.contains("[missed]"), "{screen}");
    // A solved puzzle shows the reference solution, with the learner's figures beside it.
    session.keys(&["PageDown", "PageDown"]);
    let screen = session.wait_for("Reference solution");
    assert!(screen.contains("Your best"), "{screen}");
    // The figures carry the names a reader knows, not the keys they are kept under.
    assert!(
        screen.contains("Your best: sectors per request 4.0, bank conflicts 0"),
        "{screen}"
    );
    for key in ["sectors_per_request", "bank_conflicts", "time_ms"] {
        assert!(!screen.contains(key), "{key} reached the screen:\n{screen}");
    }
}

#[test]
fn the_puzzle_list_and_screen_at_80x24_and_the_smallest_size() {
    use warpdrill::ui::Action;
    let mut app = common::app();
    app.update(Action::OpenPuzzles);
    insta::assert_snapshot!("puzzles_80x24", common::screen(&app, 80, 24));
    insta::assert_snapshot!("puzzles_60x20", common::screen(&app, 60, 20));
    app.update(Action::OpenPuzzle("transpose".into()));
    insta::assert_snapshot!("puzzle_transpose_80x24", common::screen(&app, 80, 24));
    insta::assert_snapshot!("puzzle_transpose_60x20", common::screen(&app, 60, 20));
}

#[test]
fn the_puzzle_screen_shows_the_check_of_the_file_it_watches() {
    use warpdrill::ui::Action;
    let (_guard, dir) = common::temp_dir("puzzle-screen");
    let file = dir.join("puzzles").join("transpose.cu");
    std::fs::create_dir_all(file.parent().expect("a folder")).expect("folder");
    std::fs::write(&file, NAIVE).expect("write");
    let mut app = common::app();
    app.data_dir = Some(dir.clone());
    app.update(Action::OpenPuzzle("transpose".into()));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let mut screen = common::screen(&app, 80, 24);
    while !screen.contains("[missed]") {
        assert!(std::time::Instant::now() < deadline, "{screen}");
        std::thread::sleep(std::time::Duration::from_millis(50));
        app.poll_work();
        screen = common::screen(&app, 80, 24);
    }
    let rows: Vec<&str> = screen.lines().collect();
    assert!(
        rows.iter()
            .any(|r| r.starts_with("│▲    6  32.0 sectors/request") && r.contains("out[x * n + y]")),
        "{screen}"
    );
    assert!(
        rows.iter().any(|r| r.starts_with("│Not solved yet.")),
        "{screen}"
    );
    // The check is recorded, though not solved.
    assert_eq!(app.puzzles.puzzles["transpose"].checks, 1);
    assert!(!app.puzzles.solved("transpose"));
    assert!(dir.join("puzzles.json").exists());
}

#[test]
fn the_puzzle_screen_watches_the_file_written_by_puzzle_start_in_a_folder_of_ones_own() {
    use warpdrill::ui::Action;
    let (_guard, dir) = common::temp_dir("puzzle-own-folder");
    let data = dir.join("data");
    let work = dir.join("work");
    let out = common::warpdrill()
        .arg("--data-dir")
        .arg(&data)
        .args(["puzzle", "start", "transpose"])
        .arg(&work)
        .output()
        .expect("runs");
    assert!(out.status.success());
    let file = work.join("transpose.cu");
    std::fs::write(&file, NAIVE).expect("save");
    let mut app = common::app();
    app.data_dir = Some(data.clone());
    app.puzzles = warpdrill::puzzle::record::load(&data, 0).record;
    app.update(Action::OpenPuzzle("transpose".into()));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let mut screen = common::screen(&app, 80, 24);
    while !screen.contains("[missed]") {
        assert!(std::time::Instant::now() < deadline, "{screen}");
        std::thread::sleep(std::time::Duration::from_millis(50));
        app.poll_work();
        screen = common::screen(&app, 80, 24);
    }
    assert!(screen.contains("Correct on"), "{screen}");
    assert!(!screen.contains("No file yet"), "{screen}");
    // A file checked from elsewhere becomes the one watched.
    let other = dir.join("elsewhere.cu");
    std::fs::write(&other, NAIVE).expect("write");
    let out = common::warpdrill()
        .arg("--data-dir")
        .arg(&data)
        .args(["puzzle", "check", "transpose"])
        .arg(&other)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let record = warpdrill::puzzle::record::load(&data, 0).record;
    assert_eq!(
        record.file_of("transpose", Some(&data)),
        Some(std::path::absolute(&other).expect("absolute"))
    );
    // Once that file is gone, the screen falls back on the data directory's.
    std::fs::remove_file(&other).expect("remove");
    assert_eq!(
        record.file_of("transpose", Some(&data)),
        Some(data.join("puzzles").join("transpose.cu"))
    );
}

/// A content folder with one puzzle of its own (the built-in zip under another id, translated
/// into Korean) and one file that does not read.
fn folder_of_puzzles() -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("puzzles");
    std::fs::create_dir_all(dir.join("i18n")).unwrap();
    let zip = warpdrill::puzzle::FILES
        .iter()
        .find(|(path, _)| path.ends_with("/zip.ron"))
        .unwrap()
        .1
        .replace("id: \"zip\"", "id: \"zip-again\"")
        .replace("title: \"Zip\"", "title: \"Zip again\"");
    std::fs::write(dir.join("zip-again.ron"), &zip).unwrap();
    let hints = warpdrill::puzzle::parse("zip.ron", &zip)
        .unwrap()
        .hints
        .len();
    let ko_hints = vec!["\"힌트\""; hints].join(", ");
    std::fs::write(
        dir.join("i18n").join("ko.ron"),
        format!(
            "{{\"zip-again\": (title: \"다시 더하기\", statement: \"out[i] = a[i] + b[i]\", hints: [{ko_hints}], solution: \"풀이\")}}"
        ),
    )
    .unwrap();
    root
}

#[test]
fn puzzles_from_a_content_folder_are_listed_checked_and_used_by_labs() {
    let root = folder_of_puzzles();
    let out = common::warpdrill()
        .arg("--content")
        .arg(root.path())
        .args(["puzzle", "list", "--json"])
        .output()
        .unwrap();
    let list: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["id"].as_str())
        .collect();
    assert!(
        ids.contains(&"zip-again") && ids.contains(&"transpose"),
        "{ids:?}"
    );
    // In Korean, with the folder's translation.
    let out = common::warpdrill()
        .arg("--content")
        .arg(root.path())
        .args(["--lang", "ko", "puzzle", "list"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("다시 더하기"));
    // Checked like a built-in one.
    let file = root.path().join("mine.cu");
    std::fs::write(
        &file,
        "// launch: --grid 4096 --block 256 -D n=1048576\n__global__ void zip(const float* a, const float* b, float* out, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) {\n        out[i] = a[i] + b[i];\n    }\n}\n",
    )
    .unwrap();
    let out = common::warpdrill()
        .arg("--content")
        .arg(root.path())
        .args(["puzzle", "check", "zip-again"])
        .arg(&file)
        .arg("--json")
        .output()
        .unwrap();
    let outcome: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(outcome["solved"], true, "{outcome}");
    assert_eq!(out.status.code(), Some(0));
    // A lab step may name it.
    let lab = root.path().join("lab.ron");
    std::fs::write(
        &lab,
        r#"Lab(id: "own", title: "Own", version: 1, secret: "a secret for the tests",
           steps: [Puzzle("zip-again")], points: [10])"#,
    )
    .unwrap();
    let out = common::warpdrill()
        .arg("--content")
        .arg(root.path())
        .args(["lab", "check"])
        .arg(&lab)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    // `content check` checks the folder's puzzles and names a file that does not read.
    let ok = common::warpdrill()
        .args(["content", "check"])
        .arg(root.path())
        .output()
        .unwrap();
    assert!(ok.status.success(), "{ok:?}");
    assert!(String::from_utf8_lossy(&ok.stdout).contains("Kernel puzzles: 1 checked"));
    std::fs::write(
        root.path().join("puzzles").join("broken.ron"),
        "(id: \"b\",",
    )
    .unwrap();
    let bad = common::warpdrill()
        .args(["content", "check"])
        .arg(root.path())
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&bad.stdout).into_owned() + &String::from_utf8_lossy(&bad.stderr);
    assert!(!bad.status.success(), "{text}");
    assert!(text.contains("broken.ron:1:"), "{text}");
}
