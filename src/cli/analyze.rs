//! `warpdrill analyze`: a kernel's per-line sectors and bank conflicts, without a GPU.

use super::output::finish;
use crate::analyze::timing_text;
use crate::analyze::{self, Launch, examples};
use crate::engine::Arch;
use crate::engine::timing::{self, Gpu};
use crate::i18n::Lang;
use crate::ui::analyze::AnalyzeSetup;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// `warpdrill analyze FILE.cu --grid X[,Y[,Z]] --block X[,Y[,Z]] …`
#[derive(Debug, Clone, Args)]
pub struct AnalyzeArgs {
    /// The CUDA source file (or use --example).
    #[arg(required_unless_present_any = ["example", "list_examples"])]
    pub file: Option<PathBuf>,
    /// A built-in example instead of a file (see --list-examples).
    #[arg(long, conflicts_with = "file")]
    pub example: Option<String>,
    /// List the built-in examples.
    #[arg(long)]
    pub list_examples: bool,
    /// The kernel to analyse, when the file has several.
    #[arg(long)]
    pub kernel: Option<String>,
    /// Blocks per grid: X[,Y[,Z]] (default: the file's `// launch:` line).
    #[arg(long)]
    pub grid: Option<String>,
    /// Threads per block: X[,Y[,Z]] (default: the file's `// launch:` line).
    #[arg(long)]
    pub block: Option<String>,
    /// A constant, NAME=VALUE (repeatable); also gives a scalar parameter its value.
    #[arg(long = "define", short = 'D')]
    pub defines: Vec<String>,
    /// What an array the kernel reads holds, so that indices and branches on its values can be
    /// followed (repeatable): ARRAY=LO..HI (uniform values, integers for an integer array),
    /// ARRAY=VALUE, or ARRAY=@FILE (numbers; element k holds the file's k-th, repeated). The
    /// figures are then those of that data, and marked as assumed.
    #[arg(long, value_name = "ARRAY=VALUES")]
    pub assume: Vec<String>,
    /// Architecture (NVIDIA, Volta and later: 32-byte sectors, 32 banks).
    #[arg(long, default_value = "sm_90")]
    pub arch: String,
    /// The GPU whose time to predict: h200 (calibrated), h100, a100 or l4 (datasheet figures).
    #[arg(long, default_value = "h200")]
    pub gpu: String,
    /// Print one JSON object.
    #[arg(long, conflicts_with = "text")]
    pub json: bool,
    /// Print the text report even in a terminal (where the analyser otherwise opens its screen):
    /// the kernel's lines, with the two lines before it.
    #[arg(long)]
    pub text: bool,
    /// Print the text report with every line of the file (host code and other kernels too).
    #[arg(long, conflicts_with = "json")]
    pub full: bool,
}

impl AnalyzeArgs {
    /// Whether to open the analyser's screen: in an interactive terminal, without --json, --text or
    /// --full.
    pub fn opens_screen(&self) -> bool {
        use std::io::IsTerminal;
        !self.json
            && !self.text
            && !self.full
            && !self.list_examples
            && std::io::stdout().is_terminal()
            && std::io::stdin().is_terminal()
    }
}

/// Runs the command; exit 0 on success, 2 on unusable input or an unsupported construct.
pub fn run(args: &AnalyzeArgs) -> ExitCode {
    run_in(args, Lang::En)
}

/// [`run`] with the text report in `lang` (JSON is the same in every language).
pub fn run_in(args: &AnalyzeArgs, lang: Lang) -> ExitCode {
    if args.list_examples {
        let mut out = String::new();
        for (name, source) in examples::EXAMPLES {
            let about = source
                .lines()
                .find_map(|l| l.trim().strip_prefix("// about:"))
                .unwrap_or("")
                .trim();
            out.push_str(&format!("{name:<22} {about}\n"));
        }
        return finish(&out, "", 0);
    }
    match analyse(args, lang) {
        Ok(out) => finish(&out, "", 0),
        Err(e) => finish("", &format!("warpdrill: {e}\n"), 2),
    }
}

/// What the arguments ask to analyse, checked by analysing it once (so that a bad file or launch is
/// reported on the command line, not inside the screen).
pub fn setup(args: &AnalyzeArgs) -> Result<AnalyzeSetup, String> {
    let (setup, _) = prepared(args)?;
    Ok(setup)
}

/// The GPU `--gpu` names.
pub fn gpu(args: &AnalyzeArgs) -> Result<&'static Gpu, String> {
    Gpu::parse(&args.gpu).ok_or_else(|| {
        let keys: Vec<&str> = timing::GPUS.iter().map(|g| g.key).collect();
        format!("--gpu {}: not one of {}", args.gpu, keys.join(", "))
    })
}

fn prepared(args: &AnalyzeArgs) -> Result<(AnalyzeSetup, analyze::Report), String> {
    let arch = Arch::parse(&args.arch).map_err(|e| e.to_string())?;
    let gpu = gpu(args)?;
    if arch.compute_capability().is_none() {
        return Err(format!(
            "{}: the analyser counts NVIDIA sectors and banks; choose an NVIDIA architecture",
            args.arch
        ));
    }
    let (source, name, headers) = match (&args.example, &args.file) {
        (Some(example), _) => match examples::example(example) {
            Some(s) => (s.to_string(), format!("{example}.cu"), Vec::new()),
            None => {
                let names: Vec<&str> = examples::EXAMPLES.iter().map(|(n, _)| *n).collect();
                return Err(format!(
                    "no example `{example}` (there are: {})",
                    names.join(", ")
                ));
            }
        },
        (None, Some(path)) => {
            let source = crate::store::read_regular_text(path, crate::store::MAX_SMALL_FILE)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let headers = analyze::headers_beside(path, &source);
            (source, path.display().to_string(), headers)
        }
        (None, None) => return Err("give a .cu file or --example NAME".into()),
    };
    let launch = match (&args.grid, &args.block) {
        (Some(g), Some(b)) => Some(Launch {
            grid: analyze::parse_dims(g).map_err(|e| e.to_string())?,
            block: analyze::parse_dims(b).map_err(|e| e.to_string())?,
        }),
        (None, None) => None,
        _ => {
            return Err(
                "give both --grid and --block (or neither, to use the `// launch:` line)".into(),
            );
        }
    };
    let defines = args
        .defines
        .iter()
        .map(|d| analyze::parse_define(d))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let dir = args
        .file
        .as_ref()
        .and_then(|p| p.parent())
        .map(std::path::Path::to_path_buf)
        .unwrap_or_default();
    let here = std::env::current_dir().unwrap_or_default();
    let assume = args
        .assume
        .iter()
        .map(|a| {
            // A file is looked for where the user is, then beside the kernel.
            analyze::assume::Assumption::parse(a, &here)
                .or_else(|e| analyze::assume::Assumption::parse(a, &dir).map_err(|_| e))
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("--assume {e}"))?;
    let setup = AnalyzeSetup {
        file: name,
        source,
        kernel: args.kernel.clone(),
        launch,
        defines,
        headers,
        assume,
        arch,
        gpu: gpu.key,
    };
    let mut setup = setup;
    let mut analysed = analyze::analyze(&setup.source, &setup.file, &setup.options());
    // The kernel is in a header the file includes (cuda-samples' `*_kernel.cuh`): that header is
    // analysed, with the headers beside it.
    if let (Err(analyze::AnalyzeError::InHeader { header, .. }), Some(path)) =
        (&analysed, &args.file)
    {
        let path = path
            .parent()
            .unwrap_or(std::path::Path::new(""))
            .join(header);
        let source = crate::store::read_regular_text(&path, crate::store::MAX_SMALL_FILE)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        setup.headers = analyze::headers_beside(&path, &source);
        setup.source = source;
        setup.file = path.display().to_string();
        analysed = analyze::analyze(&setup.source, &setup.file, &setup.options());
    }
    let mut report = analysed.map_err(|e| e.to_string())?;
    report.time = report.predict(gpu);
    Ok((setup, report))
}

fn analyse(args: &AnalyzeArgs, lang: Lang) -> Result<String, String> {
    let (setup, report) = prepared(args)?;
    let source = setup.source.clone();
    if args.json {
        let mut text = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        text.push('\n');
        Ok(text)
    } else {
        let shown = if args.full {
            analyze::Shown::Whole
        } else {
            analyze::Shown::Kernel
        };
        let mut text = analyze::render_text_with(&source, &report, lang, shown);
        text.push('\n');
        match &report.time {
            Some(p) => text.push_str(&timing_text::render(p, setup.gpu(), lang)),
            None => {
                text.push_str(&crate::t!(lang, "timing-none", gpu = setup.gpu().name));
                text.push('\n');
            }
        }
        Ok(text)
    }
}
