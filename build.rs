//! Rebuilds when a Fluent file is added to or removed from `locales/` (the embedded UI strings).
fn main() {
    println!("cargo:rerun-if-changed=locales");
    println!("cargo:rerun-if-changed=build.rs");
}
