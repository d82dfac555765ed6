//! The `optik` binary.

fn main() {
    std::process::exit(optik::cli::main());
}
