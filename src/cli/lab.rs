//! `warpdrill lab …`: start a lab in the tutor, keep the roster, print answer keys, report on results
//! files, and check a lab file.

use super::output;
use crate::app::App;
use crate::clock::{Clock, SystemClock};
use crate::content::Content;
use crate::format::printable;
use crate::i18n::Lang;
use crate::lab::check::check;
use crate::lab::key::{KeyItem, key};
use crate::lab::report::{Input, Row, check_receipts, parse_receipts, report};
use crate::lab::roster::{STUDENT_RULE, valid_student};
use crate::lab::ticket::{Ticket, pack_text};
use crate::lab::{Lab, LabError, LabSession, Roster, plan};
use crate::progress::Progress;
use crate::t;
use crate::text::{csv_row, iso_time};
use crate::ui::Theme;
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// `warpdrill lab …`
#[derive(Debug, Subcommand)]
pub enum LabCommand {
    /// Work through a lab in the tutor: only its steps, in its order; every answer is saved as it
    /// is given, and starting again continues where you were.
    Start(StartArgs),
    /// Each student's variants with prompt, answer and worked explanation.
    Key(KeyArgs),
    /// Merge results files into one row per student, grading every answer again.
    Report(ReportArgs),
    /// Check a lab file against the content: unknown ids, draws that cannot be filled, tied answers.
    Check {
        /// The lab file.
        lab: PathBuf,
    },
    /// Create or change a roster: add students, re-roll a student's step, give extra time; print
    /// the join codes of a served lab.
    Roster(RosterArgs),
    /// Serve a graded lab from this machine: students join over the network; the server draws
    /// their numbers, grades every answer, keeps the time and stores every event in SQLite.
    Serve(ServeArgs),
    /// Join a lab served by your instructor (`lab serve`): the tutor shows what the server says.
    Join(JoinArgs),
    /// Make the student pack of an offline lab: the lab file without its secret, and a ticket per
    /// student of the roster (their own steps and the key their results are sealed with).
    Publish(PublishArgs),
    /// Change how a step of a served lab is graded, for the whole class (stored in the database;
    /// `lab report --db` applies it, and a running server within a second).
    Regrade(RegradeArgs),
}

/// `lab publish`
#[derive(Debug, Clone, Args)]
pub struct PublishArgs {
    /// The instructor's lab file (with its secret).
    pub lab: PathBuf,
    /// The class list: a ticket for each student (re-rolls and extra time included).
    #[arg(long, value_name = "CSV")]
    pub roster: PathBuf,
    /// Where the pack goes (default: `<lab>-v<version>-pack/` beside the lab file).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// `lab regrade`
#[derive(Debug, Clone, Args)]
#[command(group(clap::ArgGroup::new("change").required(true).args(["drop", "credit", "accept"])))]
pub struct RegradeArgs {
    /// The lab file the class was served with.
    pub lab: PathBuf,
    /// The served lab's database.
    #[arg(long, value_name = "FILE")]
    pub db: PathBuf,
    /// The roster (default: the one the lab was served with).
    #[arg(long, value_name = "CSV")]
    pub roster: Option<PathBuf>,
    /// Take a step out of the lab: its points leave every total and the points possible.
    #[arg(long, value_name = "STEP")]
    pub drop: Option<usize>,
    /// Give everyone the step's full points.
    #[arg(long, value_name = "STEP")]
    pub credit: Option<usize>,
    /// Accept another answer on a step: every attempt that gave it scores as a right answer.
    #[arg(long, value_name = "STEP:ANSWER")]
    pub accept: Option<String>,
    /// List whose score would change, and store nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// `lab serve`
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// The lab file (with its secret: it stays on this machine).
    pub lab: PathBuf,
    /// The class list: only these students can join.
    #[arg(long, value_name = "CSV")]
    pub roster: PathBuf,
    /// The port to listen on.
    #[arg(long, default_value_t = 8177)]
    pub port: u16,
    /// The address to listen on (`127.0.0.1`: this machine only).
    #[arg(long, default_value = "0.0.0.0")]
    pub bind: String,
    /// The database (default: `<lab>-v<version>.db` beside the lab file); a restart with the same
    /// one continues the class.
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// Print hand-ins as lines instead of showing the dashboard (the default without a terminal).
    #[arg(long)]
    pub no_dashboard: bool,
}

/// `lab join`
#[derive(Debug, Clone, Args)]
pub struct JoinArgs {
    /// The server's address, as the instructor gives it (`http://10.0.0.5:8177`).
    pub url: String,
    /// Your student id.
    #[arg(long)]
    pub student: String,
    /// Your join code (from your instructor).
    #[arg(long)]
    pub code: String,
}

/// `lab start`
#[derive(Debug, Clone, Args)]
pub struct StartArgs {
    /// The lab file.
    pub lab: PathBuf,
    /// Your student id.
    #[arg(long)]
    pub student: String,
    /// Where results go (default: `results/` beside the lab file).
    #[arg(long, value_name = "DIR")]
    pub results: Option<PathBuf>,
    /// The roster (default: `roster.csv` beside the lab file, if there is one).
    #[arg(long, value_name = "CSV")]
    pub roster: Option<PathBuf>,
    /// Your ticket, with a student pack (default: `tickets/<ID>.ticket` beside the pack).
    #[arg(long, value_name = "FILE")]
    pub ticket: Option<PathBuf>,
}

/// `lab key`
#[derive(Debug, Clone, Args)]
pub struct KeyArgs {
    /// The lab file.
    pub lab: PathBuf,
    /// One student.
    #[arg(long, required_unless_present = "roster", conflicts_with = "roster")]
    pub student: Option<String>,
    /// Every student of a roster (re-rolls included).
    #[arg(long, value_name = "CSV")]
    pub roster: Option<PathBuf>,
    /// One JSON array: student, step, exercise, seed, prompt, answer, answer_value, typed, accepted,
    /// explanation.
    #[arg(long, conflicts_with_all = ["csv", "markdown"])]
    pub json: bool,
    /// CSV with a header row.
    #[arg(long, conflicts_with = "markdown")]
    pub csv: bool,
    /// A Markdown table per student.
    #[arg(long)]
    pub markdown: bool,
}

/// `lab report`
#[derive(Debug, Clone, Args)]
pub struct ReportArgs {
    /// The lab file.
    pub lab: PathBuf,
    /// Results files, or folders of them (`*.jsonl`).
    #[arg(required_unless_present = "db", conflicts_with = "db")]
    pub results: Vec<PathBuf>,
    /// The database of a served lab (`lab serve --db`): the grades the server gave.
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// CSV, one row per student.
    #[arg(long, conflicts_with_all = ["json", "format"])]
    pub csv: bool,
    /// One JSON array, one object per student.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// The shape of the report: `text`, `csv`, `json`, or a gradebook import (`canvas`, `moodle`,
    /// `blackboard`: one grade column with the points possible, names from the roster).
    #[arg(long, value_enum)]
    pub format: Option<ReportFormat>,
    /// With `--db`: per-step statistics instead (students who answered, solved, percent correct,
    /// attempts, the most common wrong answers), as CSV, or JSON with `--format json`.
    #[arg(long, requires = "db")]
    pub stats: bool,
    /// The roster the lab was run with (re-rolls, extra time; students without results are listed).
    #[arg(long, visible_alias = "roster", value_name = "CSV")]
    pub key: Option<PathBuf>,
    /// Receipts as students pasted them (`student,receipt` per line, e.g. exported from the course
    /// page): each is compared with the receipt of the student's results.
    #[arg(long, value_name = "CSV")]
    pub receipts: Option<PathBuf>,
}

/// The shapes `lab report --format` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    /// A line per student.
    Text,
    /// CSV with every step.
    Csv,
    /// JSON.
    Json,
    /// Canvas gradebook import.
    Canvas,
    /// Moodle grade import.
    Moodle,
    /// Blackboard grade center import.
    Blackboard,
}

/// `lab roster`
#[derive(Debug, Clone, Args)]
pub struct RosterArgs {
    /// The roster file (created when absent).
    pub roster: PathBuf,
    /// Add a student.
    #[arg(long, value_name = "ID")]
    pub add: Vec<String>,
    /// Give a student's step new numbers (recorded; `lab start`, `key` and `report` use it).
    #[arg(long, value_name = "STUDENT:STEP")]
    pub reroll: Vec<String>,
    /// Extra minutes for a student.
    #[arg(long, value_name = "STUDENT:MINUTES")]
    pub extra_time: Vec<String>,
    /// Print every student's join code for this lab file (`student,code`), for the course page.
    #[arg(long, value_name = "LAB")]
    pub codes: Option<PathBuf>,
}

/// Runs a lab command.
pub fn run(command: LabCommand, content_dir: Option<&Path>, theme: Theme) -> ExitCode {
    run_in(command, content_dir, theme, Lang::En)
}

/// Runs a lab command; `lab start` and `lab key` speak `lang`.
pub fn run_in(
    command: LabCommand,
    content_dir: Option<&Path>,
    theme: Theme,
    lang: Lang,
) -> ExitCode {
    let result = match command {
        LabCommand::Start(args) => return start(&args, content_dir, theme, lang),
        LabCommand::Key(args) => print_key(&args, content_dir, lang),
        LabCommand::Report(args) => print_report(&args, content_dir),
        LabCommand::Check { lab } => return lab_check(&lab, content_dir),
        LabCommand::Roster(args) => roster(&args),
        LabCommand::Serve(args) => {
            return super::lab_net::serve_command(&args, content_dir, theme, lang);
        }
        LabCommand::Join(args) => return super::lab_net::join_command(&args, theme, lang),
        LabCommand::Publish(args) => publish(&args, content_dir),
        LabCommand::Regrade(args) => super::lab_net::regrade(&args, content_dir),
    };
    match result {
        Ok(text) => output::finish(&text, "", 0),
        Err(message) => output::finish(
            "",
            &format!(
                "{}\n",
                t!(
                    lang,
                    "cli-error",
                    message = printable(&message).into_owned()
                )
            ),
            2,
        ),
    }
}

pub(crate) fn fail(message: &str) -> ExitCode {
    output::stderr(&format!("error: {}\n", printable(message)));
    ExitCode::from(2)
}

/// A lab file: the parsed lab with its text and name (for locating mistakes).
pub(crate) struct LabFile {
    pub(crate) lab: Lab,
    pub(crate) name: String,
    pub(crate) text: String,
}

pub(crate) fn read_lab(path: &Path) -> Result<LabFile, String> {
    let name = path.display().to_string();
    if path.is_dir() {
        return Err(format!(
            "{name}: a directory, not a lab file (name the lab's .ron file in it)"
        ));
    }
    if !path.is_file() {
        return Err(format!("{name}: no such lab file"));
    }
    let text = crate::lab::store::read(path).map_err(|e| e.to_string())?;
    let lab = Lab::parse(&name, &text).map_err(|e| e.to_string())?;
    Ok(LabFile { lab, name, text })
}

pub(crate) fn content(dir: Option<&Path>) -> Result<Content, String> {
    crate::ladder::check::with_dir(dir).map_err(|e| e.to_string())
}

/// The roster named, else `roster.csv` beside the lab file, else an empty one.
fn roster_for(lab: &Path, named: Option<&Path>) -> Result<Roster, String> {
    let beside = lab.parent().unwrap_or(Path::new("")).join("roster.csv");
    match named {
        Some(path) => Roster::load(path).map_err(|e| e.to_string()),
        None if beside.is_file() => Roster::load(&beside).map_err(|e| e.to_string()),
        None => Ok(Roster::default()),
    }
}

fn start(args: &StartArgs, content_dir: Option<&Path>, theme: Theme, lang: Lang) -> ExitCode {
    let student = args.student.trim();
    if !valid_student(student) {
        return fail(&format!("`{student}`: {STUDENT_RULE}"));
    }
    // The lab, the content and the student's steps are checked first, so that a mistake is reported
    // even without a terminal; the results file is opened only once the tutor can run.
    let prepared = (|| -> Result<_, String> {
        let file = read_lab(&args.lab)?;
        let content = content(content_dir)?.in_lang(lang);
        if file.lab.is_pack() {
            // A student pack: the steps and the seal come from the student's ticket.
            let path = args.ticket.clone().unwrap_or_else(|| {
                args.lab
                    .parent()
                    .unwrap_or(Path::new(""))
                    .join("tickets")
                    .join(format!("{student}.ticket"))
            });
            let name = path.display().to_string();
            if !path.is_file() {
                return Err(format!(
                    "{name}: no ticket; this lab is a student pack, and each student starts it with their own ticket (`--ticket FILE`, from the instructor)"
                ));
            }
            let text = crate::lab::store::read(&path).map_err(|e| e.to_string())?;
            let ticket = Ticket::parse(&name, &text).map_err(|e| e.to_string())?;
            let items = ticket
                .items(&name, &file.lab, &content, student)
                .map_err(|e| e.to_string())?;
            return Ok((file.lab, content, ticket.entry(), items, ticket.key));
        }
        if args.ticket.is_some() {
            return Err(format!(
                "{}: a full lab file (with its secret) needs no ticket; `--ticket` is for a student pack",
                file.name
            ));
        }
        let roster = roster_for(&args.lab, args.roster.as_deref())?;
        let entry = roster.of(student);
        let items =
            plan(&file.lab, &content, &entry, &file.name, &file.text).map_err(|e| e.to_string())?;
        let key = crate::lab::seed::chain_key(&file.lab, student);
        Ok((file.lab, content, entry, items, key))
    })();
    let (lab, content, entry, items, key) = match prepared {
        Ok(prepared) => prepared,
        Err(message) => return fail(&message),
    };
    if !super::tui::interactive() {
        return ExitCode::from(2);
    }
    let dir = args
        .results
        .clone()
        .unwrap_or_else(|| args.lab.parent().unwrap_or(Path::new("")).join("results"));
    let clock: Arc<dyn Clock> = Arc::new(SystemClock);
    let (session, notices) =
        match LabSession::start_keyed(lab, entry, items, key, &dir, clock.now_secs()) {
            Ok(started) => started,
            Err(e) => return fail(&e.to_string()),
        };
    let results = session.results.clone();
    let mut app = App::new(
        content,
        Progress::default(),
        None,
        theme,
        clock,
        Box::new(|| 0),
    );
    app.lang = lang;
    if !notices.is_empty() {
        app.flash = Some(notices.join(" "));
    }
    app.start_lab(session);
    let code = super::tui::drive(&mut app, true);
    let mut out = String::new();
    if let Some(path) = results {
        let path = path.display().to_string();
        out.push_str(&format!("{}\n", t!(lang, "cli-lab-saved", path = path)));
    }
    if let Some(receipt) = app.lab.as_ref().and_then(|l| l.receipt.clone()) {
        out.push_str(&format!(
            "{}\n",
            t!(lang, "cli-lab-receipt", receipt = receipt)
        ));
    }
    let err: String = notices.iter().map(|n| format!("{n}\n")).collect();
    output::finish(&out, &err, code)
}

fn print_key(args: &KeyArgs, content_dir: Option<&Path>, lang: Lang) -> Result<String, String> {
    let file = read_lab(&args.lab)?;
    let content = content(content_dir)?.in_lang(lang);
    let entries = match (&args.student, &args.roster) {
        (Some(student), _) => {
            if !valid_student(student) {
                return Err(format!("`{student}`: {STUDENT_RULE}"));
            }
            vec![roster_for(&args.lab, None)?.of(student)]
        }
        (None, Some(path)) => Roster::load(path).map_err(|e| e.to_string())?.entries,
        (None, None) => return Err(t!(lang, "cli-lab-need-student")),
    };
    let mut items: Vec<KeyItem> = Vec::new();
    for entry in &entries {
        items.extend(
            key(&file.lab, &content, entry, &file.name, &file.text).map_err(|e| e.to_string())?,
        );
    }
    if args.json {
        return serde_json::to_string_pretty(&items)
            .map(|text| text + "\n")
            .map_err(|e| e.to_string());
    }
    if args.csv {
        let mut text = String::from(
            "student,step,exercise,seed,prompt,answer,answer_value,typed,accepted,explanation\n",
        );
        for item in &items {
            let value = item.answer_value.map(|v| v.to_string()).unwrap_or_default();
            let row = [
                item.student.clone(),
                item.step.to_string(),
                item.exercise.clone(),
                item.seed.to_string(),
                item.prompt.clone(),
                item.answer.clone(),
                value,
                item.typed.clone(),
                item.accepted.join(" | "),
                item.explanation.clone(),
            ];
            text.push_str(&csv_row(&row));
        }
        return Ok(printable(&text).into_owned());
    }
    let mut text = String::new();
    let mut student = "";
    for item in &items {
        if item.student != student {
            student = &item.student;
            if args.markdown {
                text.push_str(&format!(
                    "\n## {} — {}\n\n| {} | {} | {} | {} | {} |\n|---|---|---|---|---|\n",
                    item.student,
                    file.lab.title,
                    t!(lang, "cli-lab-md-step"),
                    t!(lang, "cli-lab-md-exercise"),
                    t!(lang, "cli-lab-md-seed"),
                    t!(lang, "cli-lab-md-prompt"),
                    t!(lang, "cli-lab-md-answer"),
                ));
            } else {
                text.push_str(&format!("== {} — {}\n", item.student, file.lab.title));
            }
        }
        if args.markdown {
            let cell = |s: &str| s.replace('|', "\\|").replace('\n', "<br>");
            text.push_str(&format!(
                "| {} | `{}` | {} | {} | **{}** |\n",
                item.step,
                item.exercise,
                item.seed,
                cell(&item.prompt),
                cell(&item.answer)
            ));
        } else {
            text.push_str(&format!(
                "{}\n  {}\n  {}\n  {}\n",
                t!(
                    lang,
                    "cli-lab-step",
                    step = item.step.to_string(),
                    exercise = item.exercise.clone(),
                    seed = item.seed.to_string()
                ),
                item.prompt.replace('\n', "\n  "),
                t!(
                    lang,
                    "cli-lab-answer",
                    answer = item.answer.replace('\n', "\n    "),
                    accepted = item.accepted.join(" | ")
                ),
                t!(lang, "cli-why", why = item.explanation.clone())
            ));
        }
    }
    Ok(printable(text.trim_start_matches('\n')).into_owned())
}

/// The results files named and in the folders named. A file named on the command line must be
/// readable; an entry of a folder that cannot be read as a results file (a folder named `*.jsonl`,
/// a file over the size limit, a dangling link) is skipped with a notice, and the report goes on.
fn result_inputs(paths: &[PathBuf]) -> Result<(Vec<Input>, Vec<String>), String> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| format!("{}: {e}", path.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
                .collect();
            inside.sort();
            files.extend(inside.into_iter().map(|p| (p, true)));
        } else {
            files.push((path.clone(), false));
        }
    }
    files.dedup();
    let mut inputs = Vec::new();
    let mut skipped = Vec::new();
    for (path, listed) in files {
        let read = if listed && !path.is_file() {
            Err(format!("{}: not a regular file", path.display()))
        } else {
            crate::lab::store::read(&path).map_err(|e: LabError| e.to_string())
        };
        match read {
            Ok(text) if text.is_empty() && !path.exists() => {
                return Err(format!("{}: no such file", path.display()));
            }
            Ok(text) => inputs.push(Input {
                path: path.display().to_string(),
                text,
            }),
            Err(message) if listed => skipped.push(format!("skipped {message}")),
            Err(message) => return Err(message),
        }
    }
    Ok((inputs, skipped))
}

fn print_report(args: &ReportArgs, content_dir: Option<&Path>) -> Result<String, String> {
    if let Some(db) = &args.db {
        return super::lab_net::report(args, db, content_dir);
    }
    let file = read_lab(&args.lab)?;
    file.lab.secret().map_err(|e| e.to_string())?;
    let content = content(content_dir)?;
    let roster = roster_for(&args.lab, args.key.as_deref())?;
    let (inputs, skipped) = result_inputs(&args.results)?;
    for notice in &skipped {
        output::stderr(&format!("warning: {}\n", printable(notice)));
    }
    let mut rows = report(
        &file.lab, &file.name, &file.text, &content, &roster, &inputs,
    )
    .map_err(|e| e.to_string())?;
    if let Some(path) = &args.receipts {
        let text = crate::lab::store::read(path).map_err(|e| e.to_string())?;
        for notice in check_receipts(&mut rows, &parse_receipts(&text)) {
            output::stderr(&format!("warning: {}\n", printable(&notice)));
        }
    }
    if args.json {
        return serde_json::to_string_pretty(&rows)
            .map(|text| text + "\n")
            .map_err(|e| e.to_string());
    }
    let steps = file.lab.item_count();
    if args.csv {
        let mut header: Vec<String> = ["student", "total", "max", "percent"]
            .iter()
            .map(ToString::to_string)
            .collect();
        for step in 1..=steps {
            for field in ["points", "attempts", "hints", "seconds"] {
                header.push(format!("step{step}_{field}"));
            }
        }
        header.extend(
            ["started", "submitted", "late", "receipt", "flags"]
                .iter()
                .map(ToString::to_string),
        );
        let mut text = csv_row(&header);
        for row in &rows {
            text.push_str(&csv_row(csv_fields(row, steps)));
        }
        return Ok(printable(&text).into_owned());
    }
    let mut text = String::new();
    for row in &rows {
        let steps: Vec<String> = row.steps.iter().map(|s| s.points.to_string()).collect();
        text.push_str(&format!(
            "{:<16} {:>4}/{:<4} {:>5.1}%  steps [{}]  {}  {}\n",
            row.student,
            row.total,
            row.max,
            row.percent,
            steps.join(" "),
            row.receipt.as_deref().unwrap_or("(not handed in)"),
            if row.late > 0 {
                format!("late ×{}", row.late)
            } else {
                String::new()
            }
        ));
        for flag in &row.flags {
            text.push_str(&format!("    ! {flag}\n"));
        }
    }
    let flagged = rows.iter().filter(|r| !r.flags.is_empty()).count();
    text.push_str(&format!(
        "{}, {flagged} flagged. Every answer was graded again from the lab file.\n",
        crate::format::count(rows.len() as u64, "student")
    ));
    Ok(printable(&text).into_owned())
}

fn csv_fields(row: &Row, steps: usize) -> Vec<String> {
    let mut fields = vec![
        row.student.clone(),
        row.total.to_string(),
        row.max.to_string(),
        format!("{:.1}", row.percent),
    ];
    for i in 0..steps {
        match row.steps.get(i) {
            Some(s) => fields.extend([
                s.points.to_string(),
                s.attempts.to_string(),
                s.hints.to_string(),
                s.seconds.to_string(),
            ]),
            None => fields.extend(std::iter::repeat_n(String::new(), 4)),
        }
    }
    fields.push(row.started.map(iso_time).unwrap_or_default());
    fields.push(row.submitted.map(iso_time).unwrap_or_default());
    fields.push(row.late.to_string());
    fields.push(row.receipt.clone().unwrap_or_default());
    fields.push(row.flags.join(" | "));
    fields
}

/// `lab publish`: the pack file and a ticket per student.
fn publish(args: &PublishArgs, content_dir: Option<&Path>) -> Result<String, String> {
    let file = read_lab(&args.lab)?;
    file.lab.secret().map_err(|e| e.to_string())?;
    let content = content(content_dir)?;
    let roster = Roster::load(&args.roster).map_err(|e| e.to_string())?;
    if roster.entries.is_empty() {
        return Err(format!(
            "{}: the roster lists no students; add them with `warpdrill lab roster FILE --add ID`",
            args.roster.display()
        ));
    }
    let pack = pack_text(&file.lab, &file.text).map_err(|e| e.to_string())?;
    // The pack must read as the same lab, without its secret.
    let read = Lab::parse(&file.name, &pack).map_err(|e| e.to_string())?;
    if read.secret.is_some()
        || (Lab {
            secret: file.lab.secret.clone(),
            ..read
        }) != file.lab
    {
        return Err(format!(
            "{}: the secret could not be taken out on its own; write it as `secret: \"…\",` on a line of its own",
            file.name
        ));
    }
    let tickets: Vec<Ticket> = roster
        .entries
        .iter()
        .map(|entry| Ticket::issue(&file.lab, &content, entry, &file.name, &file.text))
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    let out = args.out.clone().unwrap_or_else(|| {
        args.lab
            .parent()
            .unwrap_or(Path::new(""))
            .join(format!("{}-v{}-pack", file.lab.id, file.lab.version))
    });
    let lab_name = args.lab.file_name().map_or_else(
        || format!("{}.ron", file.lab.id),
        |n| n.to_string_lossy().into_owned(),
    );
    let pack_path = out.join(&lab_name);
    if std::fs::canonicalize(&pack_path).ok() == std::fs::canonicalize(&args.lab).ok()
        && pack_path.exists()
    {
        return Err(format!(
            "{}: the pack would replace the lab file itself; give another --out",
            pack_path.display()
        ));
    }
    let tickets_dir = out.join("tickets");
    std::fs::create_dir_all(&tickets_dir).map_err(|e| format!("{}: {e}", tickets_dir.display()))?;
    crate::lab::store::replace(&pack_path, &pack).map_err(|e| e.to_string())?;
    for ticket in &tickets {
        let path = tickets_dir.join(format!("{}.ticket", ticket.student));
        crate::lab::store::replace(&path, &ticket.to_text()).map_err(|e| e.to_string())?;
    }
    Ok(format!(
        "Wrote the student pack of `{}` version {} to {}:\n  {}  (the lab without its secret: give it to every student)\n  {}/<student>.ticket  ({}: give each student their own)\n\
         Students start it with: warpdrill lab start {} --student ID --ticket tickets/ID.ticket\n\
         Keep {} to yourself: `lab key`, `lab report` and `lab serve` need its secret.\n\
         After a re-roll or extra time, publish again and give that student their new ticket.\n",
        file.lab.id,
        file.lab.version,
        out.display(),
        pack_path.display(),
        tickets_dir.display(),
        crate::format::count(tickets.len() as u64, "ticket"),
        lab_name,
        args.lab.display()
    ))
}

fn lab_check(path: &Path, content_dir: Option<&Path>) -> ExitCode {
    let file = match read_lab(path) {
        Ok(file) => file,
        Err(message) => return output::finish(&format!("{}\n", printable(&message)), "", 1),
    };
    let content = match content(content_dir) {
        Ok(content) => content,
        Err(message) => return fail(&message),
    };
    let findings = check(&file.lab, &content, &file.name, &file.text);
    let mut out = String::new();
    for finding in &findings {
        let kind = if finding.error { "error" } else { "warning" };
        out.push_str(&format!("{} ({kind})\n", printable(&finding.message)));
    }
    let errors = findings.iter().filter(|f| f.error).count();
    out.push_str(&format!(
        "{}: {}, {}, {}\n",
        file.name,
        crate::format::count(file.lab.item_count() as u64, "step"),
        crate::format::count(errors as u64, "error"),
        crate::format::count((findings.len() - errors) as u64, "warning")
    ));
    output::finish(&out, "", u8::from(errors > 0))
}

fn split_pair<'a>(text: &'a str, what: &str) -> Result<(&'a str, u32), String> {
    let (student, number) = text
        .rsplit_once(':')
        .ok_or_else(|| format!("`{text}`: expected {what}"))?;
    if !valid_student(student) {
        return Err(format!("`{student}`: {STUDENT_RULE}"));
    }
    let number = number
        .parse()
        .map_err(|_| format!("`{text}`: expected {what}"))?;
    Ok((student, number))
}

fn roster(args: &RosterArgs) -> Result<String, String> {
    let mut roster = if args.roster.exists() {
        Roster::load(&args.roster).map_err(|e| e.to_string())?
    } else {
        Roster::default()
    };
    if let Some(lab) = &args.codes
        && args.add.is_empty()
        && args.reroll.is_empty()
        && args.extra_time.is_empty()
    {
        let file = read_lab(lab)?;
        file.lab.secret().map_err(|e| e.to_string())?;
        return Ok(super::lab_net::codes(&file.lab, &roster));
    }
    for student in &args.add {
        if !valid_student(student) {
            return Err(format!("`{student}`: {STUDENT_RULE}"));
        }
        roster.entry(student);
    }
    for pair in &args.reroll {
        let (student, step) = split_pair(pair, "STUDENT:STEP (step 1, 2, …)")?;
        if step == 0 {
            return Err(format!("`{pair}`: steps are numbered from 1"));
        }
        roster.entry(student).rerolls.push(step as usize);
    }
    for pair in &args.extra_time {
        let (student, minutes) = split_pair(pair, "STUDENT:MINUTES")?;
        roster.entry(student).extra_minutes = minutes;
    }
    let text = roster.to_csv();
    crate::lab::store::replace(&args.roster, &text).map_err(|e| e.to_string())?;
    Ok(text)
}
