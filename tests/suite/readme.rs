//! The README a new user reads first: it starts with the two commands of a fresh machine, then a
//! quick start for a student, an instructor and an engineer, then the reference; every `warpdrill`
//! command and flag it shows exists, and its version line has the form the binary prints.

use crate::common::warpdrill;
use std::collections::HashMap;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README.md")
}

#[test]
fn the_readme_starts_with_the_two_commands_then_three_quick_starts_then_the_reference() {
    let text = readme();
    let first_block = text.split("```").nth(1).expect("a code block near the top");
    let commands: Vec<&str> = first_block
        .lines()
        .skip(1)
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(
        commands,
        ["cargo run --release", "cargo test"],
        "{first_block}"
    );
    let at = |heading: &str| {
        text.find(heading)
            .unwrap_or_else(|| panic!("README has no heading {heading:?}"))
    };
    let quick = at("\n## Quick start\n");
    let student = at("\n### A student's first ten minutes\n");
    let instructor = at("\n### An instructor's first lab\n");
    let engineer = at("\n### An engineer's first kernel\n");
    let reference = at("\n# Reference\n");
    assert!(quick < student && student < instructor && instructor < engineer);
    assert!(
        engineer < reference,
        "the quick start comes before the reference"
    );
    // Internals live in docs/, linked from the README, not in it.
    for internal in [
        "## How the code is laid out",
        "### Speed, as measured",
        "## Development",
    ] {
        assert!(!text.contains(internal), "{internal} belongs in docs/");
    }
    for doc in [
        "docs/architecture.md",
        "docs/development.md",
        "docs/performance.md",
    ] {
        assert!(text.contains(doc), "the README links {doc}");
        assert!(
            std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/"))
                .join(doc)
                .exists(),
            "{doc} exists"
        );
    }
    // A student is never sent to files outside the project.
    assert!(
        !text.contains("../shared"),
        "the README points at ../shared"
    );
}

/// Every `warpdrill …` command the README shows, in code blocks (`$ ` prompts included) and in
/// inline code.
fn shown_commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if in_block {
            let line = line.trim_start().trim_start_matches("$ ");
            if line.starts_with("warpdrill ") {
                // A pipe, a redirection or a comment ends the command.
                let end = line.find([' ', '\t']).map_or(0, |_| {
                    ["|", ">", "#", ";", "&&"]
                        .iter()
                        .filter_map(|s| line.find(&format!(" {s}")))
                        .min()
                        .unwrap_or(line.len())
                });
                out.push(line[..end].to_string());
            }
            continue;
        }
        for (k, span) in line.split('`').enumerate() {
            if k % 2 == 1 && span.starts_with("warpdrill ") {
                out.push(span.to_string());
            }
        }
    }
    out
}

struct Help {
    cache: HashMap<Vec<String>, String>,
}

impl Help {
    fn of(&mut self, path: &[String]) -> &str {
        self.cache.entry(path.to_vec()).or_insert_with(|| {
            let out = warpdrill()
                .args(path)
                .arg("--help")
                .output()
                .expect("warpdrill runs");
            assert!(
                out.status.success(),
                "warpdrill {} --help fails",
                path.join(" ")
            );
            String::from_utf8_lossy(&out.stdout).into_owned()
        })
    }

    /// The subcommands `warpdrill PATH --help` lists.
    fn subcommands(&mut self, path: &[String]) -> Vec<String> {
        let help = self.of(path);
        help.split("\nCommands:\n")
            .nth(1)
            .map(|rest| {
                rest.lines()
                    .take_while(|l| l.starts_with("  "))
                    .filter_map(|l| l.split_whitespace().next().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    }
}

#[test]
fn every_command_and_flag_the_readme_shows_exists() {
    let text = readme();
    let commands = shown_commands(&text);
    assert!(
        commands.len() > 40,
        "only {} commands found",
        commands.len()
    );
    let mut help = Help {
        cache: HashMap::new(),
    };
    let mut missing = Vec::new();
    for command in &commands {
        if command
            .split_whitespace()
            .nth(1)
            .is_some_and(|w| w.starts_with(|c: char| c.is_ascii_digit()))
        {
            continue; // `warpdrill 0.1.0 (…)`: the version line, checked below
        }
        // Alternatives (`coalescing|banks`, `--csv\|--json` in a table) are each checked; the
        // first names the subcommand to descend into.
        let words: Vec<Vec<String>> = command
            .split_whitespace()
            .skip(1)
            .map(|w| {
                w.replace("\\|", "|")
                    .split('|')
                    .map(|a| {
                        a.trim_matches(|c| matches!(c, '[' | ']' | '(' | ')' | '"' | '\'' | ','))
                            .to_string()
                    })
                    .filter(|a| !a.is_empty() && a != "…")
                    .collect::<Vec<String>>()
            })
            .filter(|alternatives| !alternatives.is_empty())
            .collect();
        let mut path: Vec<String> = Vec::new();
        let mut descending = true;
        for alternatives in &words {
            for word in alternatives.iter().filter(|w| w.starts_with('-')) {
                let flag = word.split('=').next().unwrap_or(word);
                // `-D N=1024`: a short flag is listed as `-D,`; a long one as `--name`.
                let listed = help
                    .of(&path)
                    .split_whitespace()
                    .any(|w| w.trim_end_matches(',') == flag || w.split('=').next() == Some(flag));
                if !listed {
                    missing.push(format!(
                        "{command}: `{flag}` is not an option of `warpdrill {}`",
                        path.join(" ")
                    ));
                }
            }
            let word = &alternatives[0];
            if word.starts_with('-') {
                continue;
            }
            if descending && help.subcommands(&path).contains(word) {
                path.push(word.clone());
            } else {
                descending = false;
            }
        }
        if path.is_empty() && words.first().is_some_and(|w| !w[0].starts_with('-')) {
            missing.push(format!("{command}: names no subcommand"));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn the_version_line_the_readme_quotes_has_the_binary_s_form() {
    let out = warpdrill()
        .arg("--version")
        .output()
        .expect("warpdrill runs");
    let printed = String::from_utf8_lossy(&out.stdout).trim().to_string();
    // `warpdrill 0.1.0 (content 4aeeee49, 20 files)`: the content hash changes with every edit of
    // the content; the version and the number of files are what a reader compares.
    let masked = |line: &str| -> String {
        let mut words: Vec<String> = line.split(' ').map(str::to_string).collect();
        if let Some(k) = words.iter().position(|w| w == "(content")
            && let Some(hash) = words.get_mut(k + 1)
        {
            *hash = "<hash>,".into();
        }
        words.join(" ")
    };
    let text = readme();
    let quoted = text
        .split('`')
        .find(|s| s.starts_with("warpdrill 0.") || s.starts_with("warpdrill 1."))
        .expect("the README quotes a version line");
    assert_eq!(masked(quoted), masked(&printed));
}
