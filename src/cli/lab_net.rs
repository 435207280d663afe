//! The served lab over HTTP: `lab serve` (the instructor's machine: a small threaded HTTP server in
//! front of the [`Class`], JSON in and out) and `lab join` (a student's tutor, a client of it).
//!
//! Every request is a `POST /api/<call>` with a JSON [`Request`] (student, join code, step,
//! answer); the answer is a view of the student's lab, or `{"error": "…"}` with 400 (unreadable),
//! 403 (wrong code), 409 (closed) or 503 (not saved). Plain HTTP: see the README on what a
//! classroom network sees.

use super::output;
use super::signals::Signals;
use crate::clock::{Clock, SystemClock};
use crate::i18n::Lang;
use crate::lab::class::{AnswerView, Class, Refusal, Request, StateView, StepView};
use crate::t;
use crate::ui::Theme;
use crate::ui::lab_served::{Call, Reply, Served};
use std::io::Read;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The largest request body read (an answer is 4000 characters at most, a puzzle step's kernel
/// file 64 KiB, escaped in JSON).
const MAX_BODY: u64 = 512 * 1024;

/// Threads answering requests: SQLite commits one at a time, so a few are enough to keep slow
/// connections from holding up the others.
const WORKERS: usize = 8;

fn json_response(status: u16, body: String) -> tiny_http::Response<std::io::Cursor<Vec<u8>>> {
    let header = tiny_http::Header::from_bytes(&b"Content-Type"[..], &b"application/json"[..])
        .expect("a valid header");
    tiny_http::Response::from_string(body)
        .with_status_code(status)
        .with_header(header)
}

fn error_body(message: &str) -> String {
    serde_json::json!({ "error": message }).to_string()
}

/// Answers one request against the class.
pub fn handle(class: &Mutex<Class>, method: &str, url: &str, body: &str) -> (u16, String) {
    if method != "POST" {
        return (405, error_body("use POST"));
    }
    let request: Request = match serde_json::from_str(body) {
        Ok(request) => request,
        Err(e) => return (400, error_body(&format!("not a lab request: {e}"))),
    };
    let call = url.split('?').next().unwrap_or("");
    // A kernel handed in for a puzzle step (or the last one, shown again) is checked before the
    // class is locked: a check takes seconds, and the other students are not kept waiting.
    if matches!(call, "/api/answer" | "/api/step") {
        let Ok(held) = class.lock() else {
            return (503, error_body("the server is stopping"));
        };
        let kernel = held.kernel_to_check(&request, call == "/api/answer");
        drop(held);
        if let Some((puzzle, source)) = kernel {
            let _ = crate::puzzle::check::check_cached(&puzzle, &source);
        }
    }
    let Ok(mut class) = class.lock() else {
        return (503, error_body("the server is stopping"));
    };
    let result = match call {
        "/api/join" => class.join(&request).map(|v| to_json(&v)),
        "/api/state" => class.status(&request).map(|v| to_json(&v)),
        "/api/step" => class.step(&request).map(|v| to_json(&v)),
        "/api/answer" => class.answer(&request).map(|v| to_json(&v)),
        "/api/hint" => class.hint(&request).map(|v| to_json(&v)),
        "/api/submit" => class.submit(&request).map(|v| to_json(&v)),
        _ => return (404, error_body("no such call")),
    };
    match result {
        Ok(body) => (200, body),
        Err(refusal) => {
            let status = match refusal {
                Refusal::Bad(_) => 400,
                Refusal::Denied(_) => 403,
                Refusal::Closed(_) => 409,
                Refusal::Storage(_) => 503,
            };
            (status, error_body(refusal.message()))
        }
    }
}

fn to_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| error_body(&e.to_string()))
}

/// Starts `WORKERS` threads answering `server`'s requests against `class`.
pub fn spawn_workers(server: tiny_http::Server, class: &Arc<Mutex<Class>>) {
    let server = Arc::new(server);
    for _ in 0..WORKERS {
        let server = Arc::clone(&server);
        let class = Arc::clone(class);
        std::thread::spawn(move || {
            while let Ok(mut request) = server.recv() {
                let mut body = String::new();
                let read = request.as_reader().take(MAX_BODY).read_to_string(&mut body);
                let (status, text) = match read {
                    Ok(_) => handle(&class, request.method().as_str(), request.url(), &body),
                    Err(e) => (400, error_body(&format!("cannot read the request: {e}"))),
                };
                let _ = request.respond(json_response(status, text));
            }
        });
    }
}

/// Serves `class` on `server` until the process ends: worker threads answer requests, and once a
/// second every lab whose time is up is handed in (each printed).
pub fn serve(server: tiny_http::Server, class: Class) -> ! {
    let class = Arc::new(Mutex::new(class));
    spawn_workers(server, &class);
    loop {
        std::thread::sleep(Duration::from_secs(1));
        let handed = match class.lock() {
            Ok(mut class) => class.expire(),
            Err(_) => std::process::exit(1),
        };
        match handed {
            Ok(students) => {
                for student in students {
                    let _ = output::stdout(&format!("time up: {student}'s lab was handed in\n"));
                }
            }
            Err(e) => output::stderr(&format!("warpdrill: {e}\n")),
        }
    }
}

/// Serves `class` with the instructor's dashboard in the terminal until the instructor quits.
fn serve_with_dashboard(
    server: tiny_http::Server,
    class: Class,
    place: String,
    lang: Lang,
    theme: Theme,
) -> u8 {
    use crate::ui::lab_dashboard::{Command, Dashboard};
    let class = Arc::new(Mutex::new(class));
    spawn_workers(server, &class);
    let signals = Signals::default();
    let _ = signals.install();
    signals.watch_hangup();
    let mut terminal = match super::tui::start_terminal() {
        Ok(terminal) => terminal,
        Err(e) => {
            super::tui::restore_terminal();
            output::stderr(&format!("warpdrill: cannot set up the terminal: {e}\n"));
            return 1;
        }
    };
    let guard = super::tui::TerminalGuard;
    let mut dashboard = Dashboard {
        place,
        ..Dashboard::default()
    };
    let mut named_at: Option<Instant> = None;
    let status = loop {
        {
            let Ok(mut class) = class.lock() else {
                break 1;
            };
            if let Ok(handed) = class.expire()
                && !handed.is_empty()
            {
                dashboard.message = Some(t!(
                    lang,
                    "dashboard-timed-out",
                    students = handed.join(", ")
                ));
            }
            dashboard.title = class.lab().title.clone();
            dashboard.grades = class.grades();
            let mut steps = class.step_stats();
            // Naming misconceptions draws every student's variants again: every ten seconds.
            if named_at.is_none_or(|at: Instant| at.elapsed() >= Duration::from_secs(10)) {
                class.name_mistakes(&mut steps);
                named_at = Some(Instant::now());
            } else {
                for (step, old) in steps.iter_mut().zip(&dashboard.steps) {
                    step.common_mistakes = old.common_mistakes.clone();
                }
            }
            dashboard.steps = steps;
        }
        dashboard.selected = dashboard
            .selected
            .min(dashboard.grades.len().saturating_sub(1));
        if terminal
            .draw(|frame| {
                let area = frame.area();
                dashboard.render(lang, theme, area, frame.buffer_mut());
            })
            .is_err()
        {
            break 1;
        }
        let event = match signals.next_event_or_tick(Some(Duration::from_secs(1))) {
            Ok(event) => event,
            Err(e) => match super::signals::Interruption::of(&e) {
                Some(super::signals::Interruption::Terminate(signal)) => {
                    break u8::try_from(128 + signal).unwrap_or(1);
                }
                Some(_) => {
                    let _ = terminal.clear();
                    continue;
                }
                None => break 1,
            },
        };
        let ratatui::crossterm::event::Event::Key(key) = event else {
            continue;
        };
        if key.kind == ratatui::crossterm::event::KeyEventKind::Release {
            continue;
        }
        let Some(command) = dashboard.key(key, lang) else {
            continue;
        };
        let Ok(mut class) = class.lock() else {
            break 1;
        };
        let done = match &command {
            Command::Quit => break 0,
            Command::ExtraTime(student, minutes) => class.extra_time(student, *minutes).map(|()| {
                t!(
                    lang,
                    "dashboard-extra-time",
                    student = student.clone(),
                    minutes = *minutes
                )
            }),
            Command::Reroll(student, step) => class.reroll(student, *step).map(|()| {
                t!(
                    lang,
                    "dashboard-rerolled",
                    student = student.clone(),
                    step = *step
                )
            }),
        };
        dashboard.message = Some(done.unwrap_or_else(|refusal| refusal.message().to_string()));
    };
    drop(guard);
    status
}

/// A student's connection to the server.
pub struct Remote {
    agent: ureq::Agent,
    base: String,
    request: Request,
}

impl Remote {
    /// A connection to `base` (`http://HOST:PORT`) as `student` with `code`.
    pub fn new(base: &str, student: &str, code: &str, lang: Lang) -> Remote {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(5)))
            .build()
            .into();
        Remote {
            agent,
            base: base.trim_end_matches('/').to_string(),
            request: Request {
                student: student.to_string(),
                code: code.to_string(),
                lang: lang.code().to_string(),
                step: None,
                answer: None,
            },
        }
    }

    fn post<T: serde::de::DeserializeOwned>(
        &self,
        call: &str,
        step: Option<usize>,
        answer: Option<String>,
    ) -> Result<T, Box<Reply>> {
        let mut request = self.request.clone();
        request.step = step;
        request.answer = answer;
        let url = format!("{}/api/{call}", self.base);
        let mut response = self
            .agent
            .post(&url)
            .send_json(&request)
            .map_err(|e| Box::new(Reply::Offline(e.to_string())))?;
        let status = response.status().as_u16();
        let text = response
            .body_mut()
            .with_config()
            .limit(4 << 20)
            .read_to_string()
            .map_err(|e| Box::new(Reply::Offline(e.to_string())))?;
        if status == 200 {
            return serde_json::from_str(&text)
                .map_err(|e| Box::new(Reply::Offline(format!("not a lab server's answer: {e}"))));
        }
        let message = serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .and_then(|v| v.get("error").and_then(|e| e.as_str()).map(String::from))
            .unwrap_or_else(|| format!("HTTP {status}"));
        Err(Box::new(Reply::Refused(message)))
    }

    /// Makes a call; the reply to show.
    pub fn call(&self, call: &Call) -> Reply {
        let reply = match call {
            Call::State => self
                .post::<StateView>("state", None, None)
                .map(Reply::State),
            Call::Step(n) => self
                .post::<StepView>("step", Some(*n), None)
                .map(Reply::Step),
            Call::Answer(n, text) => self
                .post::<AnswerView>("answer", Some(*n), Some(text.clone()))
                .map(|a| Reply::Answer(Box::new(a))),
            Call::Hint(n) => self
                .post::<StepView>("hint", Some(*n), None)
                .map(Reply::Step),
            Call::Submit => self
                .post::<StateView>("submit", None, None)
                .map(Reply::State),
            Call::Quit => return Reply::Refused(String::new()),
        };
        reply.unwrap_or_else(|reply| *reply)
    }

    /// Joins: the lab as it stands.
    pub fn join(&self) -> Reply {
        self.post::<StateView>("join", None, None)
            .map(Reply::State)
            .unwrap_or_else(|reply| *reply)
    }
}

/// `lab join`: the tutor on a served lab, until the student quits.
pub fn join(remote: &Remote, lang: Lang, theme: Theme) -> u8 {
    // The first join is checked before the terminal is taken, so a wrong code or address is a
    // plain message.
    let first = remote.join();
    let state = match first {
        Reply::State(state) => state,
        Reply::Refused(message) | Reply::Offline(message) => {
            output::stderr(&format!(
                "{}\n",
                t!(
                    lang,
                    "cli-error",
                    message = crate::format::printable(&message).into_owned()
                )
            ));
            return 2;
        }
        _ => return 2,
    };
    if !super::tui::interactive() {
        return 2;
    }
    let mut served = Served {
        // A puzzle step's kernel is edited in a folder of the student's own, here.
        kernel_dir: Some(std::path::PathBuf::from(format!(
            "{}-kernels",
            state.student
        ))),
        ..Served::default()
    };
    served.reply(lang, &Call::State, Reply::State(state));
    let signals = Signals::default();
    let _ = signals.install();
    signals.watch_hangup();
    let mut terminal = match super::tui::start_terminal() {
        Ok(terminal) => terminal,
        Err(e) => {
            super::tui::restore_terminal();
            output::stderr(&format!("warpdrill: cannot set up the terminal: {e}\n"));
            return 1;
        }
    };
    let guard = super::tui::TerminalGuard;
    let mut fetched = Instant::now();
    let mut last_refresh = Instant::now();
    let status = loop {
        served.elapsed = fetched.elapsed().as_secs();
        if terminal
            .draw(|frame| {
                let area = frame.area();
                served.render(lang, theme, area, frame.buffer_mut());
            })
            .is_err()
        {
            break 1;
        }
        let event = match signals.next_event_or_tick(Some(Duration::from_secs(1))) {
            Ok(event) => event,
            Err(e) => match super::signals::Interruption::of(&e) {
                Some(super::signals::Interruption::Terminate(signal)) => {
                    break u8::try_from(128 + signal).unwrap_or(1);
                }
                Some(_) => {
                    let _ = terminal.clear();
                    continue;
                }
                None => break 1,
            },
        };
        let call = match event {
            ratatui::crossterm::event::Event::Key(key)
                if key.kind != ratatui::crossterm::event::KeyEventKind::Release =>
            {
                served.key(lang, key)
            }
            ratatui::crossterm::event::Event::Paste(text) => {
                if served.step.is_some() {
                    served.input.paste(&text);
                }
                None
            }
            _ => {
                // A tick: every 5 s (every second while offline) ask again, and resend what
                // failed once the server answers.
                let every = if served.offline.is_some() { 1 } else { 5 };
                if last_refresh.elapsed().as_secs() >= every {
                    last_refresh = Instant::now();
                    Some(served.pending.clone().unwrap_or(Call::State))
                } else {
                    None
                }
            }
        };
        let Some(call) = call else {
            continue;
        };
        if call == Call::Quit {
            break 0;
        }
        // A kernel is checked on the server, which takes seconds: say so before waiting.
        if matches!(call, Call::Answer(..))
            && served.step.as_ref().is_some_and(|s| s.kernel.is_some())
        {
            served.message = Some(t!(lang, "served-kernel-checking"));
            let _ = terminal.draw(|frame| {
                let area = frame.area();
                served.render(lang, theme, area, frame.buffer_mut());
            });
        }
        let reply = remote.call(&call);
        if matches!(reply, Reply::State(_) | Reply::Answer(_)) {
            fetched = Instant::now();
        }
        // A step refreshed on the tick keeps the step open.
        let reply = match (&call, reply, &served.step) {
            (Call::State, Reply::State(state), Some(step)) => {
                let number = step.step;
                served.reply(lang, &call, Reply::State(state));
                remote.call(&Call::Step(number))
            }
            (_, reply, _) => reply,
        };
        served.reply(lang, &call, reply);
    };
    drop(guard);
    let _ = std::io::Write::flush(&mut std::io::stdout());
    if let Some(receipt) = served.state.as_ref().and_then(|s| s.receipt.clone()) {
        let _ = output::stdout(&format!(
            "{}\n",
            t!(lang, "cli-lab-receipt", receipt = receipt)
        ));
    }
    status
}

/// The server's clock, for the class.
pub fn system_clock() -> Arc<dyn Clock> {
    Arc::new(SystemClock)
}

/// The class of a lab file on its database, by the server's clock.
fn open_class(
    file: super::lab::LabFile,
    content: &crate::content::Content,
    roster: crate::lab::Roster,
    db: crate::lab::db::Db,
) -> Result<Class, String> {
    Class::open(
        file.lab,
        &file.name,
        &file.text,
        content,
        roster,
        db,
        system_clock(),
    )
    .map_err(|e| e.to_string())
}

/// The database of a lab when `--db` is not given: `<lab>-v<version>.db` beside the lab file.
fn default_db(lab_path: &std::path::Path, lab: &crate::lab::Lab) -> std::path::PathBuf {
    lab_path
        .parent()
        .unwrap_or(std::path::Path::new(""))
        .join(format!("{}-v{}.db", lab.id, lab.version))
}

/// `lab serve`.
pub fn serve_command(
    args: &super::lab::ServeArgs,
    content_dir: Option<&std::path::Path>,
    theme: Theme,
    lang: Lang,
) -> std::process::ExitCode {
    let opened = (|| -> Result<(Class, std::path::PathBuf), String> {
        let file = super::lab::read_lab(&args.lab)?;
        let content = super::lab::content(content_dir)?;
        let roster = crate::lab::Roster::load(&args.roster).map_err(|e| e.to_string())?;
        let path = args
            .db
            .clone()
            .unwrap_or_else(|| default_db(&args.lab, &file.lab));
        let db = crate::lab::db::Db::open(&path, &file.lab.id, file.lab.version)
            .map_err(|e| e.to_string())?;
        db.set_roster(&args.roster).map_err(|e| e.to_string())?;
        let class = open_class(file, &content, roster, db)?;
        Ok((class, path))
    })();
    let (class, path) = match opened {
        Ok(opened) => opened,
        Err(message) => return super::lab::fail(&message),
    };
    let address = format!("{}:{}", args.bind, args.port);
    let server = match tiny_http::Server::http(&address) {
        Ok(server) => server,
        Err(e) => return super::lab::fail(&format!("cannot listen on {address}: {e}")),
    };
    let port = server.server_addr().to_ip().map_or(args.port, |a| a.port());
    let students = class.students().len();
    if !args.no_dashboard
        && std::io::IsTerminal::is_terminal(&std::io::stdout())
        && std::io::IsTerminal::is_terminal(&std::io::stdin())
    {
        let place = format!("http://{}:{port} · {}", args.bind, path.display());
        return std::process::ExitCode::from(serve_with_dashboard(
            server, class, place, lang, theme,
        ));
    }
    let _ = output::stdout(&format!(
        "Serving `{}` to {students} students on http://{}:{port} (plain HTTP: see the README).\n\
         Events are stored in {}; stop with Ctrl-C, and start again with the same --db to continue.\n\
         Students join with: warpdrill lab join http://<this machine's address>:{port} --student ID --code CODE\n\
         (`warpdrill lab roster {} --codes {}` prints the codes.)\n",
        class.lab().title,
        args.bind,
        path.display(),
        args.roster.display(),
        args.lab.display(),
    ));
    serve(server, class)
}

/// `lab join`.
pub fn join_command(
    args: &super::lab::JoinArgs,
    theme: Theme,
    lang: Lang,
) -> std::process::ExitCode {
    let url = args.url.trim();
    if !url.starts_with("http://") {
        return super::lab::fail(&format!(
            "`{url}`: give the address as the instructor shows it, e.g. http://10.0.0.5:8177"
        ));
    }
    let remote = Remote::new(url, args.student.trim(), args.code.trim(), lang);
    std::process::ExitCode::from(join(&remote, lang, theme))
}

/// `lab roster ROSTER --codes LAB`: `student,code` for every student.
pub fn codes(lab: &crate::lab::Lab, roster: &crate::lab::Roster) -> String {
    let mut text = crate::text::csv_row(["student", "code"]);
    for entry in &roster.entries {
        text.push_str(&crate::text::csv_row([
            entry.student.clone(),
            crate::lab::seed::join_code(lab, &entry.student),
        ]));
    }
    text
}

/// `Last, First` or `First Last` as (last, first).
fn split_name(name: &str) -> (String, String) {
    if let Some((last, first)) = name.split_once(',') {
        return (last.trim().to_string(), first.trim().to_string());
    }
    match name.trim().rsplit_once(' ') {
        Some((first, last)) => (last.to_string(), first.trim().to_string()),
        None => (name.trim().to_string(), String::new()),
    }
}

/// The roster of a served lab: as given, else the one the lab was served with, else `roster.csv`
/// beside the lab file.
fn served_roster(
    lab: &std::path::Path,
    given: Option<&std::path::Path>,
    db: &crate::lab::db::Db,
) -> Result<crate::lab::Roster, String> {
    let beside = lab
        .parent()
        .unwrap_or(std::path::Path::new(""))
        .join("roster.csv");
    let path = given
        .map(std::path::Path::to_path_buf)
        .or_else(|| db.roster().filter(|p| p.is_file()))
        .unwrap_or(beside);
    crate::lab::Roster::load(&path)
        .map_err(|e| format!("{e} — pass the roster the lab was served with as --roster FILE"))
}

/// `lab regrade`: one change to a step's grading, for the whole class, with whose score changes.
pub fn regrade(
    args: &super::lab::RegradeArgs,
    content_dir: Option<&std::path::Path>,
) -> Result<String, String> {
    use crate::lab::class::Regrade;
    let file = super::lab::read_lab(&args.lab)?;
    let content = super::lab::content(content_dir)?;
    if !args.db.is_file() {
        return Err(format!("{}: no such database", args.db.display()));
    }
    let db = crate::lab::db::Db::open(&args.db, &file.lab.id, file.lab.version)
        .map_err(|e| e.to_string())?;
    let roster = served_roster(&args.lab, args.roster.as_deref(), &db)?;
    let change = match (&args.drop, &args.credit, &args.accept) {
        (Some(step), _, _) => Regrade::Drop { step: *step },
        (_, Some(step), _) => Regrade::Credit { step: *step },
        (_, _, Some(pair)) => {
            let (step, answer) = pair
                .split_once(':')
                .ok_or_else(|| format!("`{pair}`: expected STEP:ANSWER, e.g. 3:8"))?;
            let step = step
                .trim()
                .parse()
                .map_err(|_| format!("`{pair}`: expected STEP:ANSWER, e.g. 3:8"))?;
            Regrade::Accept {
                step,
                answer: answer.to_string(),
            }
        }
        _ => {
            return Err(
                "say what to change: --drop STEP, --credit STEP or --accept STEP:ANSWER".into(),
            );
        }
    };
    let what = change.describe();
    let mut class = open_class(file, &content, roster, db)?;
    let changes = class
        .regrade(change, args.dry_run)
        .map_err(|r| r.message().to_string())?;
    let mut text = format!(
        "{}{what}: {} change{}\n",
        if args.dry_run { "dry run — " } else { "" },
        crate::format::count(changes.len() as u64, "student"),
        if changes.len() == 1 { "s" } else { "" }
    );
    for c in &changes {
        text.push_str(&format!(
            "  {:<16} {:>4}/{:<4} → {:>4}/{}\n",
            c.student, c.before, c.max_before, c.after, c.max_after
        ));
    }
    text.push_str(if args.dry_run {
        "Nothing was stored; run it again without --dry-run to apply it.\n"
    } else {
        "Stored in the database: `lab report --db` applies it now, and a running `lab serve` within a second.\n"
    });
    Ok(crate::format::printable(&text).into_owned())
}

/// `lab report LAB --db FILE`: the grades the server gave, in the shape asked for.
pub fn report(
    args: &super::lab::ReportArgs,
    db_path: &std::path::Path,
    content_dir: Option<&std::path::Path>,
) -> Result<String, String> {
    use super::lab::ReportFormat;
    let file = super::lab::read_lab(&args.lab)?;
    file.lab.secret().map_err(|e| e.to_string())?;
    let content = super::lab::content(content_dir)?;
    let (db, stamp) = crate::lab::db::Db::open_read(db_path).map_err(|e| e.to_string())?;
    let roster = served_roster(&args.lab, args.key.as_deref(), &db)?;
    let expected = format!("{} v{}", file.lab.id, file.lab.version);
    if stamp != expected {
        return Err(format!(
            "{}: this database holds lab {stamp}, not {expected}",
            db_path.display()
        ));
    }
    let title = file.lab.title.clone();
    let lab_id = file.lab.id.clone();
    let class = open_class(file, &content, roster.clone(), db)?;
    let mut grades = class.grades();
    class.flag(&mut grades);
    let format = args.format.unwrap_or(if args.json {
        ReportFormat::Json
    } else if args.csv {
        ReportFormat::Csv
    } else {
        ReportFormat::Text
    });
    if args.stats {
        let mut stats = class.step_stats();
        class.name_mistakes(&mut stats);
        if format == ReportFormat::Json {
            return serde_json::to_string_pretty(&stats)
                .map(|t| t + "\n")
                .map_err(|e| e.to_string());
        }
        let mut text = crate::text::csv_row([
            "step",
            "answered",
            "solved",
            "percent_correct",
            "attempts",
            "common_wrong",
            "common_mistakes",
        ]);
        for s in &stats {
            let wrong: Vec<String> = s
                .common_wrong
                .iter()
                .map(|(answer, n)| format!("{answer} ({n})"))
                .collect();
            text.push_str(&crate::text::csv_row([
                s.step.to_string(),
                s.answered.to_string(),
                s.solved.to_string(),
                s.percent_correct()
                    .map(|p| format!("{p:.1}"))
                    .unwrap_or_default(),
                s.attempts.to_string(),
                wrong.join(" | "),
                s.common_mistakes
                    .iter()
                    .map(|(name, n)| format!("{name} ({n})"))
                    .collect::<Vec<_>>()
                    .join(" | "),
            ]));
        }
        return Ok(crate::format::printable(&text).into_owned());
    }
    let people = |student: &str| roster.of(student);
    let row = crate::text::csv_row::<Vec<String>, String>;
    let mut text = String::new();
    match format {
        ReportFormat::Json => {
            return serde_json::to_string_pretty(&grades)
                .map(|t| t + "\n")
                .map_err(|e| e.to_string());
        }
        ReportFormat::Text => {
            for g in &grades {
                let steps: Vec<String> = g.steps.iter().map(ToString::to_string).collect();
                text.push_str(&format!(
                    "{:<16} {:>4}/{:<4} steps [{}]  {}\n",
                    g.student,
                    g.total,
                    g.max,
                    steps.join(" "),
                    match (g.submitted, g.timed_out, g.started) {
                        (Some(_), true, _) => "handed in at time-up".to_string(),
                        (Some(at), false, _) => format!("handed in {}", crate::text::iso_time(at)),
                        (None, _, Some(_)) => "not handed in".to_string(),
                        (None, _, None) => "never joined".to_string(),
                    }
                ));
                for flag in &g.flags {
                    text.push_str(&format!("    ! {flag}\n"));
                }
            }
            for regrade in class.regrades() {
                text.push_str(&format!("regraded: {}\n", regrade.describe()));
            }
            text.push_str(&format!(
                "{}; every answer was graded by the server when it was given.\n",
                crate::format::count(grades.len() as u64, "student")
            ));
        }
        ReportFormat::Csv => {
            let mut header: Vec<String> = ["student", "name", "email", "section", "total", "max"]
                .iter()
                .map(ToString::to_string)
                .collect();
            let steps = grades.first().map_or(0, |g| g.steps.len());
            for step in 1..=steps {
                header.push(format!("step{step}_points"));
                header.push(format!("step{step}_attempts"));
            }
            header.extend(["started", "submitted", "timed_out", "flags"].map(String::from));
            text.push_str(&row(header));
            for g in &grades {
                let who = people(&g.student);
                let mut fields = vec![
                    g.student.clone(),
                    who.name,
                    who.email,
                    who.section,
                    g.total.to_string(),
                    g.max.to_string(),
                ];
                for (points, attempts) in g.steps.iter().zip(&g.attempts) {
                    fields.push(points.to_string());
                    fields.push(attempts.to_string());
                }
                fields.push(g.started.map(crate::text::iso_time).unwrap_or_default());
                fields.push(g.submitted.map(crate::text::iso_time).unwrap_or_default());
                fields.push(g.timed_out.to_string());
                fields.push(g.flags.join(" | "));
                text.push_str(&row(fields));
            }
        }
        ReportFormat::Canvas => {
            // Canvas's gradebook import: identity columns, then one assignment column whose
            // "Points Possible" row gives its maximum.
            let column = format!("{title} ({lab_id})");
            text.push_str(&row(vec![
                "Student".into(),
                "ID".into(),
                "SIS User ID".into(),
                "SIS Login ID".into(),
                "Section".into(),
                column,
            ]));
            let max = grades.first().map_or(0, |g| g.max);
            text.push_str(&row(vec![
                "    Points Possible".into(),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
                max.to_string(),
            ]));
            for g in &grades {
                let who = people(&g.student);
                let name = if who.name.is_empty() {
                    g.student.clone()
                } else {
                    who.name
                };
                text.push_str(&row(vec![
                    name,
                    String::new(),
                    g.student.clone(),
                    who.email,
                    who.section,
                    g.total.to_string(),
                ]));
            }
        }
        ReportFormat::Moodle => {
            // Moodle's CSV grade import maps an identity column (the ID number or the email) and
            // a grade column; the grade item's maximum is set in Moodle, and named here.
            let max = grades.first().map_or(0, |g| g.max);
            text.push_str(&row(vec![
                "ID number".into(),
                "Email address".into(),
                "Full name".into(),
                format!("{title} (out of {max})"),
            ]));
            for g in &grades {
                let who = people(&g.student);
                text.push_str(&row(vec![
                    g.student.clone(),
                    who.email,
                    who.name,
                    g.total.to_string(),
                ]));
            }
        }
        ReportFormat::Blackboard => {
            // Blackboard's Grade Center upload: Username identifies the student; a new column is
            // named with its points possible.
            let max = grades.first().map_or(0, |g| g.max);
            text.push_str(&row(vec![
                "Last Name".into(),
                "First Name".into(),
                "Username".into(),
                "Student ID".into(),
                format!("{title} [Total Pts: {max} Score]"),
            ]));
            for g in &grades {
                let who = people(&g.student);
                let (last, first) = split_name(&who.name);
                text.push_str(&row(vec![
                    last,
                    first,
                    g.student.clone(),
                    g.student.clone(),
                    g.total.to_string(),
                ]));
            }
        }
    }
    Ok(crate::format::printable(&text).into_owned())
}
